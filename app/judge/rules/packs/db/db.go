package db

// Databases: SQL given to psql/mysql/sqlite3/... on the command line, in a
// here-doc or through an echo pipe, Mongo shell code, redis commands, and
// framework commands that drop or reset databases.

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"path"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

func init() {
	pack.On(rulePsql, "psql")
	pack.On(ruleMysql, "mysql", "mariadb")
	pack.On(ruleSqlite, "sqlite3", "sqlite", "duckdb")
	pack.On(ruleSqlcmd, "sqlcmd", "osql", "isql", "cqlsh", "clickhouse-client", "clickhouse", "snowsql", "bq", "cockroach", "usql", "pgcli", "mycli", "litecli", "invoke-sqlcmd")
	pack.On(ruleMongo, "mongo", "mongosh")
	pack.On(ruleRedis, "redis-cli", "valkey-cli", "keydb-cli")
	pack.On(ruleDbTools, "dropdb", "dropuser", "mysqladmin", "pg_ctl", "pg_dropcluster", "pg_restore", "mongorestore", "createdb", "createuser", "pg_dump", "pg_dumpall", "mysqldump", "mongodump", "redis-server", "pg_ctlcluster")
	pack.On(ruleInflux, "influx")
	pack.On(ruleEtcdctl, "etcdctl")
	pack.On(ruleFrameworkDb, "rails", "rake", "bin/rails", "artisan", "prisma", "knex", "sequelize", "typeorm", "drizzle-kit", "alembic", "flask", "dbmate", "migrate", "goose", "flyway", "liquibase", "diesel", "sqlx", "atlas")
}

// pkSQLStrip lower-cases SQL and blanks string literals and comments so
// keywords inside data do not count.
func pkSQLStrip(sql string) string {
	var b strings.Builder
	s := strings.ToLower(sql)
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '\'':
			j := i + 1
			for j < len(s) {
				if s[j] == '\'' {
					if j+1 < len(s) && s[j+1] == '\'' {
						j += 2
						continue
					}
					break
				}
				if s[j] == '\\' {
					j++
				}
				j++
			}
			b.WriteString("''")
			i = j
		case ch == '-' && i+1 < len(s) && s[i+1] == '-':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			b.WriteByte(' ')
		case ch == '/' && i+1 < len(s) && s[i+1] == '*':
			j := strings.Index(s[i+2:], "*/")
			if j < 0 {
				i = len(s)
			} else {
				i += j + 3
			}
			b.WriteByte(' ')
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

// pkJudgeSQL judges a SQL text; ok=false when it holds nothing notable.
func pkJudgeSQL(c *shell.Cmd, sql string) (rules.Finding, bool) {
	if strings.TrimSpace(sql) == "" {
		return rules.Finding{}, false
	}
	var fs []rules.Finding
	for _, st := range strings.Split(pkSQLStrip(sql), ";") {
		w := strings.Fields(st)
		if len(w) == 0 {
			continue
		}
		st = strings.Join(w, " ")
		at := func(i int) string {
			if i < len(w) {
				return strings.Trim(w[i], "`\"[]()")
			}
			return ""
		}
		hasWord := func(k string) bool {
			for _, x := range w {
				if x == k {
					return true
				}
			}
			return false
		}
		switch at(0) {
		case "drop":
			obj := at(1)
			if obj == "temporary" || obj == "temp" {
				obj = at(2)
			}
			switch obj {
			case "database", "schema", "keyspace":
				fs = append(fs, rules.PkF(c, 3, 0.8, "db.drop-database", "drops a whole database: its data cannot be recovered"))
			case "table", "collection", "materialized":
				fs = append(fs, rules.PkF(c, 3, 0.7, "db.drop-table", "drops a table and all its rows"))
			case "user", "role", "login":
				fs = append(fs, rules.PkF(c, 2.2, 0.4, "db.drop-user", "drops a database account"))
			case "owned":
				fs = append(fs, rules.PkF(c, 3, 0.7, "db.drop-owned", "drops everything a role owns"))
			default:
				fs = append(fs, rules.PkF(c, 2, 0.2, "db.drop", "drops a database object"))
			}
		case "truncate":
			fs = append(fs, rules.PkF(c, 2.9, 0.7, "db.truncate", "empties a table: its rows cannot be recovered"))
		case "delete":
			if !hasWord("where") || pkSQLTrivialWhere(st) {
				fs = append(fs, rules.PkF(c, 2.9, 0.7, "db.delete-all", "DELETE without a WHERE clause empties the table"))
			} else {
				fs = append(fs, rules.PkF(c, 2, 0.2, "db.delete", "deletes rows"))
			}
		case "update":
			if !hasWord("where") || pkSQLTrivialWhere(st) {
				fs = append(fs, rules.PkF(c, 2.7, 0.6, "db.update-all", "UPDATE without a WHERE clause rewrites every row"))
			} else {
				fs = append(fs, rules.PkF(c, 1.5, 0.1, "db.update", "modifies rows"))
			}
		case "alter":
			if hasWord("drop") {
				fs = append(fs, rules.PkF(c, 2.4, 0.4, "db.alter-drop", "drops a column or constraint (its data is lost)"))
			} else if hasWord("password") || hasWord("superuser") {
				fs = append(fs, rules.PkF(c, 2.2, 0.5, "db.alter-user", "changes database credentials or privileges"))
			} else {
				fs = append(fs, rules.PkF(c, 1.2, 0, "db.alter", "changes the schema"))
			}
		case "grant", "revoke":
			fs = append(fs, rules.PkF(c, 1.8, 0.3, "db.grant", "changes database privileges"))
		case "copy":
			if hasWord("program") {
				fs = append(fs, rules.PkF(c, 2.3, 0.5, "db.copy-program", "COPY ... PROGRAM runs a shell command on the server"))
			} else {
				fs = append(fs, rules.PkF(c, 1, 0, "db.copy", "imports or exports rows"))
			}
		case "insert", "create", "replace", "merge", "upsert", "vacuum", "analyze", "reindex", "cluster", "refresh", "begin", "commit", "start", "set", "use", "\\c", "\\connect", "call", "load", "lock":
			fs = append(fs, rules.PkF(c, 1, 0, "db.write", "writes data or schema"))
		case "rollback", "savepoint", "release", "prepare", "execute", "deallocate", "listen", "notify", "discard", "reset", "checkpoint":
			fs = append(fs, rules.PkF(c, 1, 0, "db.session", "session statement"))
		case "flushall", "flushdb", "dropdatabase":
			fs = append(fs, rules.PkF(c, 3, 0.8, "db.flush", "erases the whole database"))
		case "shutdown":
			fs = append(fs, rules.PkF(c, 2.2, 0.3, "db.shutdown", "shuts the database server down"))
		default:
			if strings.Contains(st, "pg_terminate_backend") || strings.Contains(st, "pg_cancel_backend") {
				fs = append(fs, rules.PkF(c, 2, 0.2, "db.terminate", "kills database sessions"))
			} else if strings.Contains(st, "into outfile") || strings.Contains(st, "into dumpfile") || strings.Contains(st, "lo_export") || strings.Contains(st, "pg_read_file") || strings.Contains(st, "load_file(") {
				fs = append(fs, rules.PkF(c, 2, 0.4, "db.file-io", "reads or writes server files from SQL"))
			} else {
				fs = append(fs, rules.PkF(c, 0, 0, "db.read", "reads data"))
			}
		}
	}
	if len(fs) == 0 {
		return rules.Finding{}, false
	}
	return rules.Worst(fs...), true
}

// pkSQLTrivialWhere: WHERE 1=1, WHERE true, WHERE 1.
func pkSQLTrivialWhere(st string) bool {
	i := strings.Index(st, " where ")
	if i < 0 {
		return false
	}
	cond := strings.TrimSpace(st[i+7:])
	cond = strings.ReplaceAll(cond, " ", "")
	return cond == "1=1" || cond == "true" || cond == "1" || cond == "''=''" || strings.HasPrefix(cond, "1=1or") || cond == "1<>0" || cond == "idisnotnull" || cond == "0=0"
}

// pkFedText returns what reaches c's stdin as text when it is visible: a
// here-doc or here-string body, or the words of an echo/printf/cat<<
// earlier in the same pipeline.
func pkFedText(c *shell.Cmd, x *rules.Ctx) string {
	var parts []string
	for _, r := range c.Redirs {
		if r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<" {
			parts = append(parts, r.Target)
		}
	}
	if len(c.PipedFrom) > 0 {
		for i := range rules.PkAll(x) {
			o := &x.All.Cmds[i]
			if o == c || !rules.PkContains(o.PipedTo, c.Name) {
				continue
			}
			switch o.Name {
			case "echo", "printf", "write-output", "write-host":
				args := o.Args
				for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) <= 3 {
					args = args[1:]
				}
				parts = append(parts, strings.Join(args, " "))
			case "cat":
				for _, r := range o.Redirs {
					if r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<" {
						parts = append(parts, r.Target)
					}
				}
			}
		}
	}
	return strings.Join(parts, "\n")
}

// pkSQLClient judges the SQL a client runs; fallback when nothing is visible.
func pkSQLClient(c *shell.Cmd, x *rules.Ctx, sqls []string, file bool) (rules.Finding, bool) {
	sqls = append(sqls, pkFedText(c, x))
	// A script written earlier in the same line: psql -f x.sql, mysql < x.sql.
	for _, r := range c.Redirs {
		if r.Op == "<" {
			if t, ok := pkFileText(x, r.Target); ok {
				sqls = append(sqls, t)
			}
		}
	}
	if f, ok := rules.PkVal(c, "-f", "--file", "-i", "-InputFile"); ok {
		if t, ok := pkFileText(x, f); ok {
			sqls = append(sqls, t)
		}
	}
	var fs []rules.Finding
	for _, s := range sqls {
		if rules.PkDyn(s) {
			fs = append(fs, rules.PkF(c, 1.5, 0.1, "db.dynamic", "runs SQL that is only known at run time"))
			s = strings.ReplaceAll(s, shell.Dyn, " ")
		}
		if f, ok := pkJudgeSQL(c, s); ok {
			fs = append(fs, f)
		}
	}
	if len(fs) > 0 {
		return rules.Worst(fs...), true
	}
	script := file
	for _, r := range c.Redirs {
		if r.Op == "<" {
			script = true
		}
	}
	if (script || len(c.PipedFrom) > 0) && pkDBRemote(c) != "" {
		return rules.PkRet(c, 1.6, 0.3, "db.script-remote", "runs SQL that is not visible against the database server "+pkDBRemote(c)+" (another machine's data)")
	}
	if script {
		return rules.PkUnsure(c, 1.2, "db.script", "runs a SQL script whose contents are not visible")
	}
	if len(c.PipedFrom) > 0 {
		return rules.PkUnsure(c, 1.2, "db.piped", "runs SQL produced by another command")
	}
	return rules.PkAllow(c, 0, "db.connect", "opens a database session")
}

func rulePsql(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	var sqls []string
	for i, a := range c.Args {
		switch {
		case a == "-c" || a == "--command":
			if i+1 < len(c.Args) {
				sqls = append(sqls, c.Args[i+1])
			}
		case strings.HasPrefix(a, "--command="):
			sqls = append(sqls, a[len("--command="):])
		case strings.HasPrefix(a, "-c") && len(a) > 2:
			sqls = append(sqls, a[2:])
		}
	}
	_, file := rules.PkVal(c, "-f", "--file")
	return pkSQLClient(c, x, sqls, file)
}

func ruleMysql(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	var sqls []string
	for i, a := range c.Args {
		switch {
		case a == "-e" || a == "--execute":
			if i+1 < len(c.Args) {
				sqls = append(sqls, c.Args[i+1])
			}
		case strings.HasPrefix(a, "--execute="):
			sqls = append(sqls, a[len("--execute="):])
		case strings.HasPrefix(a, "-e") && len(a) > 2 && a[1] == 'e':
			sqls = append(sqls, a[2:])
		}
	}
	return pkSQLClient(c, x, sqls, false)
}

func ruleSqlite(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	pos := rules.PkPos(c.Args, pkVFDb1)
	var sqls []string
	if len(pos) > 1 {
		sqls = append(sqls, strings.Join(pos[1:], " "))
	}
	if v, ok := rules.PkVal(c, "-cmd", "-c"); ok {
		sqls = append(sqls, v)
	}
	for _, s := range sqls {
		if strings.HasPrefix(strings.TrimSpace(s), ".read") {
			return rules.PkUnsure(c, 1.2, "db.script", "runs a SQL script whose contents are not visible")
		}
	}
	return pkSQLClient(c, x, sqls, false)
}

func ruleSqlcmd(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	var sqls []string
	for _, n := range []string{"-Q", "-q", "-e", "--execute", "--query", "-query", "--sql", "-Query"} {
		if v, ok := rules.PkVal(c, n); ok {
			sqls = append(sqls, v)
		}
	}
	if c.Name == "bq" {
		if pos := rules.PkPos(c.Args, nil); len(pos) > 1 && strings.EqualFold(pos[0], "query") {
			sqls = append(sqls, strings.Join(pos[1:], " "))
		}
		if pos := rules.PkPos(c.Args, nil); len(pos) > 0 && (strings.EqualFold(pos[0], "rm")) {
			if c.Flag('r', "--recursive") {
				return rules.PkRet(c, 3, 0.7, "db.bq-rm-dataset", "deletes a BigQuery dataset and its tables")
			}
			return rules.PkRet(c, 2.8, 0.6, "db.bq-rm", "deletes a BigQuery table or dataset")
		}
	}
	_, file := rules.PkVal(c, "-i", "-f", "--file", "-InputFile")
	return pkSQLClient(c, x, sqls, file)
}

func ruleMongo(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	code, _ := rules.PkVal(c, "--eval")
	code += "\n" + pkFedText(c, x)
	if f, ok := pkJudgeMongo(c, code); ok {
		return f, true
	}
	for _, o := range c.Operands() {
		if strings.HasSuffix(strings.ToLower(o), ".js") {
			if h := pkDBRemote(c); h != "" {
				return rules.PkRet(c, 1.6, 0.3, "db.script-remote", "runs a Mongo script that is not visible against the database server "+h+" (another machine's data)")
			}
			return rules.PkUnsure(c, 1.2, "db.script", "runs a Mongo script whose contents are not visible")
		}
	}
	return rules.PkAllow(c, 0, "db.connect", "opens a database session")
}

func pkJudgeMongo(c *shell.Cmd, code string) (rules.Finding, bool) {
	s := strings.ToLower(strings.ReplaceAll(code, " ", ""))
	if strings.TrimSpace(s) == "" {
		return rules.Finding{}, false
	}
	switch {
	case strings.Contains(s, "dropdatabase("):
		return rules.PkRet(c, 3, 0.8, "db.mongo-drop-database", "drops a whole database")
	case strings.Contains(s, ".drop()"), strings.Contains(s, "deletemany({})"), strings.Contains(s, "remove({})"), strings.Contains(s, "deletemany()"):
		return rules.PkRet(c, 2.9, 0.7, "db.mongo-drop", "drops or empties a collection")
	case strings.Contains(s, "updatemany({},"):
		return rules.PkRet(c, 2.6, 0.5, "db.mongo-update-all", "rewrites every document in a collection")
	case strings.Contains(s, "deletemany("), strings.Contains(s, "deleteone("), strings.Contains(s, ".remove("), strings.Contains(s, "findoneanddelete("), strings.Contains(s, "dropindex"), strings.Contains(s, "dropuser("), strings.Contains(s, "dropallusers("):
		return rules.PkRet(c, 2, 0.2, "db.mongo-delete", "deletes documents or objects")
	case strings.Contains(s, "shutdownserver("):
		return rules.PkRet(c, 2.2, 0.3, "db.shutdown", "shuts the database server down")
	case strings.Contains(s, "updatemany("), strings.Contains(s, "updateone("), strings.Contains(s, "replaceone("), strings.Contains(s, "insert"):
		return rules.PkRet(c, 1.2, 0, "db.mongo-write", "writes documents")
	}
	return rules.PkAllow(c, 0, "db.mongo-read", "reads data")
}

var pkRedisVal = rules.PkSet("-h", "-p", "-a", "-n", "-u", "--user", "--pass", "--askpass", "-s", "--tls", "--cacert", "--cert", "--key", "-r", "-i", "--pattern", "--count", "-d", "--cluster", "--scan")

func ruleRedis(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	pos := rules.PkPos(c.Args, pkRedisVal)
	var lines [][]string
	if len(pos) > 0 {
		lines = append(lines, pos)
	}
	for _, l := range strings.Split(pkFedText(c, x), "\n") {
		if w := strings.Fields(l); len(w) > 0 {
			lines = append(lines, w)
		}
	}
	if len(lines) == 0 {
		if len(c.PipedFrom) > 0 {
			return rules.PkUnsure(c, 1.2, "db.piped", "runs redis commands produced by another command")
		}
		return rules.PkAllow(c, 0, "db.connect", "opens a redis session")
	}
	var fs []rules.Finding
	for _, w := range lines {
		if rules.PkDyn(w[0]) {
			// redis-cli -h host $CMD: the command is only known at run time.
			fs = append(fs, rules.PkF(c, 1.5, 0.3, "db.redis-dynamic", "runs a redis command only known at run time"))
			continue
		}
		cmd := strings.ToUpper(w[0])
		sub := ""
		if len(w) > 1 {
			sub = strings.ToUpper(w[1])
		}
		switch cmd {
		case "FLUSHALL", "FLUSHDB":
			fs = append(fs, rules.PkF(c, 3, 0.8, "db.redis-flush", "erases every key in the database"))
		case "DEL", "UNLINK", "GETDEL":
			dyn := false
			for _, a := range w[1:] {
				if rules.PkDyn(a) || strings.ContainsAny(a, "*?") {
					dyn = true
				}
			}
			if dyn || len(w) == 1 && len(c.PipedFrom) > 0 || len(c.Wrappers) > 0 && rules.PkContains(c.Wrappers, "xargs") {
				fs = append(fs, rules.PkF(c, 2.2, 0.3, "db.redis-del-many", "deletes keys chosen at run time"))
			} else {
				fs = append(fs, rules.PkF(c, 1.5, 0.1, "db.redis-del", "deletes keys"))
			}
		case "CONFIG":
			if sub == "SET" || sub == "REWRITE" || sub == "RESETSTAT" {
				fs = append(fs, rules.PkF(c, 2.2, 0.5, "db.redis-config", "changes the server configuration (a classic way to write files on the host)"))
			} else {
				fs = append(fs, rules.PkF(c, 0, 0, "db.redis-read", "reads configuration"))
			}
		case "SHUTDOWN", "DEBUG", "SLAVEOF", "REPLICAOF", "FAILOVER", "MODULE":
			fs = append(fs, rules.PkF(c, 2.2, 0.3, "db.redis-admin", "shuts down, crashes or re-points the server"))
		case "SCRIPT", "FUNCTION":
			if sub == "FLUSH" {
				fs = append(fs, rules.PkF(c, 1.5, 0.1, "db.redis-script-flush", "drops loaded scripts"))
			}
		case "EVAL", "EVALSHA", "FCALL":
			fs = append(fs, rules.PkF(c, 1.5, 0.1, "db.redis-eval", "runs server-side Lua code"))
		case "CLIENT":
			if sub == "KILL" {
				fs = append(fs, rules.PkF(c, 1.8, 0.1, "db.redis-client-kill", "disconnects clients"))
			}
		case "ACL":
			if sub == "SETUSER" || sub == "DELUSER" {
				fs = append(fs, rules.PkF(c, 2.2, 0.5, "db.redis-acl", "changes redis accounts"))
			}
		case "SET", "HSET", "LPUSH", "RPUSH", "SADD", "ZADD", "INCR", "DECR", "EXPIRE", "MSET", "HDEL", "LPOP", "RPOP", "SREM", "ZREM", "PUBLISH", "XADD", "APPEND", "SETEX", "PERSIST", "RENAME", "MOVE", "COPY":
			fs = append(fs, rules.PkF(c, 1, 0, "db.redis-write", "writes keys"))
		default:
			fs = append(fs, rules.PkF(c, 0, 0, "db.redis-read", "reads keys or server state"))
		}
	}
	return rules.Worst(fs...), true
}

func ruleDbTools(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	switch c.Name {
	case "dropdb", "pg_dropcluster":
		return rules.PkRet(c, 3, 0.8, "db.dropdb", "drops a whole database: its data cannot be recovered")
	case "dropuser":
		return rules.PkRet(c, 2.2, 0.4, "db.drop-user", "drops a database account")
	case "mysqladmin":
		for _, o := range c.Operands() {
			switch strings.ToLower(o) {
			case "drop":
				return rules.PkRet(c, 3, 0.8, "db.drop-database", "drops a whole database")
			case "shutdown", "kill":
				return rules.PkRet(c, 2.2, 0.3, "db.shutdown", "shuts down the server or kills sessions")
			case "password", "flush-privileges", "reload", "refresh":
				return rules.PkRet(c, 1.8, 0.3, "db.admin", "changes server credentials or state")
			}
		}
		return rules.PkAllow(c, 0, "db.admin-read", "reads server status")
	case "pg_ctl", "pg_ctlcluster":
		for _, o := range c.Operands() {
			switch o {
			case "stop", "restart", "kill", "promote":
				return rules.PkRet(c, 2, 0.2, "db.pg_ctl", "stops or restarts the database server")
			}
		}
		return rules.PkAllow(c, 1, "db.pg_ctl", "controls a local database server")
	case "pg_restore":
		if c.Flag('c', "--clean") {
			return rules.PkRet(c, 2.2, 0.3, "db.restore-clean", "drops existing objects before restoring over them")
		}
		return rules.PkAllow(c, 1, "db.restore", "restores a dump")
	case "mongorestore":
		if c.Flag(0, "--drop") {
			return rules.PkRet(c, 2.2, 0.3, "db.restore-drop", "drops collections before restoring over them")
		}
		return rules.PkAllow(c, 1, "db.restore", "restores a dump")
	case "redis-server":
		return rules.PkAllow(c, 1, "db.server", "starts a redis server")
	}
	return rules.PkAllow(c, 0, "db.dump", "dumps or creates databases")
}

func ruleFrameworkDb(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	if len(ops) == 0 {
		return rules.Finding{}, false
	}
	v := ops[0]
	sub := ""
	if len(ops) > 1 {
		sub = ops[1]
	}
	if c.Name == "goose" {
		// goose [-dir DIR] DRIVER DBSTRING COMMAND: the command comes after
		// the driver and the connection string.
		for _, o := range ops {
			switch o {
			case "up", "up-by-one", "up-to", "down", "down-to", "redo", "reset", "status", "version", "create", "fix", "validate":
				v, sub = o, ""
			}
		}
	}
	force := c.Flag('f', "--force")
	switch c.Name {
	case "prisma":
		switch {
		case v == "migrate" && sub == "reset":
			return rules.PkRet(c, 2.4, 0.4, "db.prisma-reset", "drops the database and reapplies migrations")
		case v == "db" && sub == "push" && (c.Flag(0, "--force-reset") || c.Flag(0, "--accept-data-loss")):
			return rules.PkRet(c, 2.5, 0.5, "db.prisma-push-reset", "pushes the schema accepting data loss")
		case v == "migrate" && sub == "deploy", v == "db" && sub == "push", v == "db" && sub == "execute":
			return rules.PkRet(c, 1.5, 0.1, "db.prisma-"+sub, "changes the database schema")
		}
		return rules.PkAllow(c, 1, "db.prisma", "generates the client or runs development migrations")
	case "artisan":
		switch v {
		case "migrate:fresh", "db:wipe", "migrate:reset", "migrate:refresh":
			return rules.PkRet(c, 2.4, 0.4, "db.artisan-"+v, "drops all tables (and reapplies migrations)")
		case "migrate:rollback":
			return rules.PkRet(c, 1.8, 0.2, "db.artisan-rollback", "rolls back migrations (may drop tables)")
		}
		return rules.PkAllow(c, 1, "db.artisan", "Laravel command")
	case "typeorm", "sequelize", "knex":
		switch {
		case strings.Contains(v, "schema:drop"), strings.Contains(v, "db:drop"):
			return rules.PkRet(c, 2.9, 0.7, "db.drop-database", "drops the database schema")
		case strings.Contains(v, "undo:all"), strings.Contains(v, "rollback") && c.Flag(0, "--all"):
			return rules.PkRet(c, 2.4, 0.4, "db.rollback-all", "rolls back every migration")
		case strings.Contains(v, "revert"), strings.Contains(v, "undo"), strings.Contains(v, "rollback"):
			return rules.PkRet(c, 1.8, 0.2, "db.rollback", "rolls back a migration (may drop tables)")
		}
		return rules.PkAllow(c, 1, "db.migrate", "runs migrations")
	case "alembic", "dbmate", "migrate", "goose", "flyway", "liquibase", "diesel", "sqlx", "atlas", "drizzle-kit":
		switch {
		case v == "clean", v == "drop", v == "dropall", v == "drop-all", sub == "drop", sub == "reset" && (v == "database" || v == "db"), v == "down" && (rules.PkHas(c, "-all") || rules.PkHas(c, "--all") || sub == "base"), v == "downgrade" && sub == "base", v == "reset" && c.Name == "goose":
			return rules.PkRet(c, 2.8, 0.6, "db.schema-drop", "drops the schema or every migration")
		case v == "down", v == "downgrade", v == "rollback", v == "redo", v == "revert", v == "undo":
			return rules.PkRet(c, 1.8, 0.2, "db.rollback", "rolls back migrations (may drop tables)")
		case v == "push" && (force || c.Flag(0, "--force")):
			return rules.PkRet(c, 2.4, 0.4, "db.push-force", "pushes a schema accepting data loss")
		}
		return rules.PkAllow(c, 1, "db.migrate", "runs migrations")
	case "flask":
		if v == "db" && (sub == "downgrade" || sub == "drop") {
			return rules.PkRet(c, 1.8, 0.2, "db.rollback", "rolls back migrations")
		}
		return rules.Finding{}, false
	}
	// rails, rake, bin/rails
	for _, t := range ops {
		switch {
		case strings.HasPrefix(t, "db:drop"), t == "db:purge", strings.HasPrefix(t, "db:purge"):
			return rules.PkRet(c, 2.9, 0.7, "db.rails-drop", "drops the database")
		case t == "db:reset", t == "db:schema:load", t == "db:setup" && false, t == "db:migrate:reset", strings.HasPrefix(t, "db:truncate"):
			return rules.PkRet(c, 2.4, 0.4, "db.rails-reset", "drops and recreates the database schema (data lost)")
		case t == "db:rollback", t == "db:migrate:down", t == "db:migrate:redo":
			return rules.PkRet(c, 1.8, 0.2, "db.rails-rollback", "rolls back migrations (may drop tables)")
		}
	}
	if c.Name == "rake" || c.Name == "rails" || c.Name == "bin/rails" {
		return rules.PkAllow(c, 1, "dev.rails", "runs a Rails/Rake task")
	}
	return rules.Finding{}, false
}

// Flag sets hoisted out of the rules (built once, not per command).
var (
	pkVFDb1 = rules.PkSet("-cmd", "-separator", "-newline", "-nullvalue", "-c", "-s")
)

// pkFileText returns what an earlier command of the line wrote into the
// file name (echo/printf words or a cat here-doc redirected to it).
func pkFileText(x *rules.Ctx, name string) (string, bool) {
	if name == "" || rules.PkDyn(name) {
		return "", false
	}
	want := path.Clean(name)
	var parts []string
	for i := range rules.PkAll(x) {
		o := &x.All.Cmds[i]
		hit := false
		for _, r := range o.Redirs {
			if (r.Op == ">" || r.Op == ">>") && path.Clean(r.Target) == want {
				hit = true
			}
		}
		if !hit {
			continue
		}
		switch o.Name {
		case "echo", "printf":
			parts = append(parts, strings.Join(o.Args, " "))
		case "cat":
			for _, r := range o.Redirs {
				if r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<" {
					parts = append(parts, r.Target)
				}
			}
		}
	}
	return strings.Join(parts, "\n"), len(parts) > 0
}

// ruleInflux: influx 1.x -execute 'InfluxQL' is judged like SQL (DROP
// DATABASE, DELETE FROM without WHERE); influx 2.x delete verbs.
func ruleInflux(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if q, ok := rules.PkVal(c, "-execute", "--execute", "-e"); ok {
		if f, ok := pkJudgeSQL(c, q); ok {
			return f, true
		}
		return rules.PkAllow(c, 0.5, "db.influx-query", "runs an InfluxQL query")
	}
	ops := rules.PkLowOps(c)
	if len(ops) >= 2 && ops[1] == "delete" && (ops[0] == "bucket" || ops[0] == "org" || ops[0] == "v1") {
		return rules.PkRet(c, 2.7, 0.6, "db.influx-drop", "influx "+ops[0]+" delete removes a whole "+ops[0]+" and its data")
	}
	if len(ops) >= 1 && ops[0] == "delete" {
		return rules.PkRet(c, 2.2, 0.4, "db.influx-delete", "influx delete removes stored points")
	}
	return rules.Finding{}, false
}

// ruleEtcdctl: del --prefix "" (or "/") wipes the key space (a cluster's
// whole state); other deletes and writes confirm; reads are allowed.
func ruleEtcdctl(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	pos := c.Operands()
	if len(pos) == 0 {
		return rules.Finding{}, false
	}
	switch strings.ToLower(pos[0]) {
	case "get", "watch", "endpoint", "version", "check", "alarm", "lease", "user", "role", "auth", "elect", "lock", "make-mirror":
		if len(pos) > 1 && (pos[1] == "remove" || pos[1] == "delete" || pos[1] == "revoke" || pos[1] == "disarm") {
			return rules.PkRet(c, 1.5, 0.2, "db.etcd-change", "changes etcd access or leases")
		}
		return rules.PkAllow(c, 0.5, "db.etcd-read", "reads etcd")
	case "member":
		if len(pos) > 1 && (pos[1] == "remove" || pos[1] == "update") {
			return rules.PkRet(c, 2.2, 0.4, "db.etcd-member", "changes the etcd cluster's members")
		}
		return rules.PkAllow(c, 0.5, "db.etcd-read", "reads etcd")
	case "del", "delete":
		key := ""
		if len(pos) > 1 {
			key = pos[1]
		}
		if c.Flag(0, "--prefix", "--from-key") && (key == "" || key == "/" || key == "\x00" || rules.PkDyn(key)) {
			return rules.PkRet(c, 3, 0.8, "db.etcd-wipe", "deletes every key in etcd (the cluster's whole state)")
		}
		return rules.PkRet(c, 2, 0.3, "db.etcd-del", "deletes etcd keys")
	case "put", "txn", "compaction", "defrag", "move-leader", "downgrade":
		return rules.PkRet(c, 1.5, 0.1, "db.etcd-write", "changes etcd data or maintenance state")
	case "snapshot":
		if len(pos) > 1 && pos[1] == "restore" {
			return rules.PkRet(c, 2, 0.3, "db.etcd-restore", "restores an etcd snapshot over the data directory")
		}
		return rules.PkAllow(c, 0.5, "db.etcd-snapshot", "saves or reads an etcd snapshot")
	}
	return rules.Finding{}, false
}

// pkDBRemote is the database host a client connects to when it is not
// this machine ("" for local, a socket or unknown): -h/--host, a
// connection URL (postgres://, mysql://, mongodb+srv://), a conninfo
// string's host=, or PGHOST/MYSQL_HOST in the command's environment.
func pkDBRemote(c *shell.Cmd) string {
	var hosts []string
	for i, a := range c.Args {
		switch {
		case (a == "-h" || a == "--host" || a == "-H" || a == "--hostname") && i+1 < len(c.Args):
			hosts = append(hosts, c.Args[i+1])
		case strings.HasPrefix(a, "--host="):
			hosts = append(hosts, a[len("--host="):])
		case strings.HasPrefix(a, "-h") && len(a) > 2 && c.Name != "mongosh" && c.Name != "mongo":
			hosts = append(hosts, a[2:])
		case strings.Contains(a, "://"):
			hosts = append(hosts, a)
		case strings.Contains(a, "host="):
			for _, f := range strings.Fields(a) {
				if v, ok := strings.CutPrefix(f, "host="); ok {
					hosts = append(hosts, v)
				}
			}
		}
	}
	for _, e := range c.Env {
		if v, ok := strings.CutPrefix(e, "PGHOST="); ok {
			hosts = append(hosts, v)
		} else if v, ok := strings.CutPrefix(e, "MYSQL_HOST="); ok {
			hosts = append(hosts, v)
		}
	}
	for _, h := range hosts {
		if h == "" || rules.PkDyn(h) || strings.HasPrefix(h, "/") || rules.PkLocalHost(h) {
			continue
		}
		if strings.Contains(h, "://") && !strings.HasPrefix(strings.ToLower(h), "postgres") && !strings.HasPrefix(strings.ToLower(h), "mysql") &&
			!strings.HasPrefix(strings.ToLower(h), "mongodb") && !strings.HasPrefix(strings.ToLower(h), "mariadb") {
			continue
		}
		return h
	}
	return ""
}
