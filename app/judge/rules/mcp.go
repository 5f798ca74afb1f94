package rules

import (
	"encoding/json"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
)

// MCP tool names are judged by their verbs. Any mutating word wins over
// read words ("get_or_create" mutates); unknown names are consequential.
var (
	readVerbs = words(`get list read search find fetch query view show describe status count lookup
		browse inspect check stat info head tail cat ls diff log logs explain analyze analyse preview
		validate peek resolve ping whoami echo navigate snapshot screenshot docs doc download
		retrieve lint summarize summarise think thinking sequentialthinking print dump export? tree
		glob grep which help version health metadata schema schemas tables columns history blame
		compare find_references hover definition completion suggest recommend estimate plan calculate
		render format_check test_connection capture console network take wait evaluate_readonly`)
	mutVerbs = words(`create add update write edit modify patch put set insert upsert send post push merge
		deploy execute exec run publish transfer pay move rename copy upload commit apply install
		uninstall start stop restart reboot shutdown approve reject comment reply invite assign close
		open lock unlock fork release trigger dispatch schedule cancel submit save replace import sync
		grant enable disable scale rollback restore migrate click type fill press hover_click drag
		select_option upload_file evaluate eval invoke call mutate mark archive unarchive transition
		resolve_thread rebase checkout reset tag label subscribe unsubscribe follow star like mention
		order buy sell book email message sms notify charge refund withdraw deposit mint sign`)
	delVerbs  = words(`delete remove rm del unlink kill terminate revoke erase clear prune uninstall_all`)
	destVerbs = words(`drop destroy purge truncate wipe nuke shred obliterate flushall flushdb dropdatabase`)
	// words that mean "this tool runs a shell command" (judged by its command)
	execVerbs = words(`run execute exec shell terminal command bash powershell cmd sh spawn process`)
	// nouns that make a delete irreversible at scale
	bigNouns = words(`database databases db dbs repo repos repository repositories bucket buckets project projects
		cluster clusters table tables schema schemas namespace namespaces account accounts organization
		organizations org orgs instance instances volume volumes backup backups snapshot snapshots
		environment environments env stack stacks index indexes collection collections keyspace
		tenant tenants workspace workspaces zone zones domain domains user users all everything`)
)

// words makes a Set of the words of s (white space between them, a
// trailing ? dropped), split on first use.
func words(s string) *Set { return &Set{text: s} }

// classRisk maps an override class to a finding.
func classFinding(class, server, tool, glob string) (Finding, bool) {
	who := "mcp__" + server + "__" + tool
	switch class {
	case "readonly":
		return Finding{Risk: 0, Rule: "mcp.override-readonly", Reason: "read-only by your mcp_overrides (" + server + " / " + glob + "): " + who}, true
	case "consequential":
		return Finding{Risk: 2, Violation: 0.2, Rule: "mcp.override-consequential", Reason: "consequential by your mcp_overrides (" + server + " / " + glob + "): " + who}, true
	case "destructive":
		return Finding{Risk: 3, Violation: 0.5, Rule: "mcp.override-destructive", Reason: "destructive by your mcp_overrides (" + server + " / " + glob + "): " + who}, true
	}
	return Finding{}, false
}

// Override finds the user's class for server/tool: the server's own
// entries before "*", and within them an exact tool name before the
// longest glob (by literal characters) before "*". path.Match globs.
func Override(server, tool string, overrides map[string]map[string]string) (class, glob string, ok bool) {
	for _, srv := range []string{server, "*"} {
		tools, found := overrides[srv]
		if !found {
			continue
		}
		if c, found := tools[tool]; found {
			return c, tool, true
		}
		best, bestLen := "", -1
		for g := range tools {
			if m, err := path.Match(g, tool); err != nil || !m {
				continue
			}
			l := len(strings.ReplaceAll(g, "*", ""))
			if l > bestLen || l == bestLen && g < best { // ties: stable by name
				best, bestLen = g, l
			}
		}
		if bestLen >= 0 {
			return tools[best], best, true
		}
	}
	return "", "", false
}

// MCP judges a call of MCP tool `tool` on `server` with JSON `args`.
func MCP(server, tool, args string, overrides map[string]map[string]string) Finding {
	return MCPAt(server, tool, args, "", "", overrides)
}

// MCPAt is MCP with the call's cwd and the user's home, used to judge
// paths and shell commands carried in the arguments.
func MCPAt(server, tool, args, cwd, home string, overrides map[string]map[string]string) Finding {
	if f, ok := mcpSecretOut(server, tool, args); ok {
		return f // a token leaving through a send/post/create tool (creds_dest.go)
	}
	verb := mcpVerb(server, tool)
	if verb.Rule == "mcp.read" && strings.Contains(verb.Reason, "read verb first") && mcpContentArgs(args) {
		// view_commit {"path":..., "content":...}: content to write is no
		// read, whatever the name says.
		verb = mcpVerbRF(server, tool, false)
	}
	if f, ok := mcpSelf(server, tool, args, cwd, home, verb.Risk > 0); ok {
		return f // the guard's files or process, under any argument name (selfmcp.go)
	}
	if _, _, ok := Override(server, tool, overrides); !ok {
		if f, ok := mcpFileWrite(tool, args, cwd, home); ok {
			return f // a file-system write is a Write (fswrite_mcp.go)
		}
		if f, ok := mcpFileOp(tool, args, cwd, home); ok {
			return f // a file-system delete or move is rm or mv (mcpfileops.go)
		}
		if f, ok := mcpGit(tool, args, cwd, home); ok {
			return f // a git server's git_push is git push (mcpgit.go)
		}
		if f, ok := mcpKube(tool, args, cwd, home); ok {
			return f // a Kubernetes server's kubectl_delete is kubectl delete (mcpkube.go)
		}
		if f, ok := mcpDocker(server, tool, args, cwd, home); ok {
			return f // a Docker server's run_container is docker run (mcpdocker.go)
		}
		if f, ok := mcpForge(server, tool, args, cwd, home); ok {
			return f // a GitHub server's create_pull_request is gh pr create (mcpforge.go)
		}
	}
	if _, _, ok := Override(server, tool, overrides); !ok && mcpMemoryTools[tool] && mcpMemoryServer(server) {
		// The memory server's knowledge graph is the agent's own notes in
		// a local file: writing or pruning them changes nothing else.
		if f, _, _ := mcpArgs(server, tool, args, cwd, home, false); f.Rule == "" {
			return Finding{Risk: 0, Rule: "mcp.memory", Reason: "the agent's own memory notes (mcp__" + server + "__" + tool + ")"}
		}
	}
	overridden := false
	if class, glob, ok := Override(server, tool, overrides); ok {
		if f, ok := classFinding(class, server, tool, glob); ok {
			verb, overridden = f, true
		}
	}
	content, sawCmd, sawCli := mcpArgs(server, tool, args, cwd, home, verb.Risk > 0)
	if !overridden && verb.Rule == "mcp.mutating" && isExecTool(tool) && !sawCmd && mcpOnlyReadSQL(args) {
		// execute_sql / run_query with SELECT, SHOW, EXPLAIN only: the
		// tool is as risky as its SQL, like a terminal tool and its command.
		return Finding{Risk: 0, Rule: "mcp.sql-read", Reason: "runs read-only SQL through an MCP tool: mcp__" + server + "__" + tool}
	}
	if !overridden && verb.Rule == "mcp.read" && !sawCmd && (content.Rule == "" || content.Rule == "mcp.read") && mcpStatementSQL(server, tool, args) {
		// A tool named query given CREATE EXTENSION, SET ROLE or ALTER
		// SYSTEM: its SQL, not its name, says what it does.
		return Finding{Risk: 2, Violation: 0.1, Rule: "mcp.sql-write", Reason: "runs SQL that is not a plain read through an MCP tool named for reading: mcp__" + server + "__" + tool}
	}
	if f, ok := mcpDeleteAll(server, tool, args); ok && !overridden {
		return f
	}
	if sawCmd && !overridden && (isExecTool(tool) || sawCli) && !(content.Uncertain && content.score() < 1.5 && strings.HasSuffix(content.Rule, "shell.unknown")) {
		// A terminal-like tool is as risky as the command it runs: judge
		// it like the Bash tool instead of by its verb. A program nobody
		// knows ({"cmd":"deploy"}) keeps the tool's own weight instead.
		return content
	}
	w := Worst(verb, content)
	if content.Rule != "" && w.Rule == content.Rule && verb.Reason != "" && !content.RedLine {
		w.Reason = content.Reason + " (" + verb.Reason + ")"
	}
	return w
}

// mcpMemoryTools are the reference memory server's tools that change
// its graph (its reads are read-only by their verbs).
var mcpMemoryTools = map[string]bool{"create_entities": true, "create_relations": true, "add_observations": true,
	"delete_entities": true, "delete_observations": true, "delete_relations": true}

func mcpMemoryServer(server string) bool {
	s := strings.ToLower(server)
	return s == "memory" || strings.HasPrefix(s, "memory-") || strings.HasSuffix(s, "-memory") || s == "knowledge-graph" || s == "server-memory"
}

func isExecTool(tool string) bool {
	for _, w := range splitName(tool) {
		if execVerbs.Has(w) {
			return true
		}
	}
	return false
}

func mcpVerb(server, tool string) Finding { return mcpVerbRF(server, tool, true) }

// mcpVerbRF: mcpVerb; readFirst lets a read verb first make the tool a
// read (mcpReadFirst).
func mcpVerbRF(server, tool string, readFirst bool) Finding {
	who := "mcp__" + server + "__" + tool
	ws := splitName(tool)
	var read, mut, del, dest, big, force, push bool
	var verb string
	for i, w := range ws {
		if w == "resolve" && i+1 < len(ws) && resolvedThings.Has(ws[i+1]) {
			// resolve_issue closes something; resolve_library_id only looks up
			mut, verb = true, "resolve "+ws[i+1]
			continue
		}
		if w == "format" && i+1 < len(ws) && (ws[i+1] == "disk" || ws[i+1] == "drive" || ws[i+1] == "volume" || ws[i+1] == "partition") {
			dest, verb = true, "format "+ws[i+1]
		}
		switch {
		case destVerbs.Has(w):
			dest, verb = true, w
		case delVerbs.Has(w):
			if !dest {
				verb = w
			}
			del = true
		case mutVerbs.Has(w):
			if !dest && !del {
				verb = w
			}
			mut = true
		case readVerbs.Has(w):
			read = true
		}
		big = big || bigNouns.Has(w)
		force = force || w == "force"
		push = push || w == "push"
	}
	if !del && !dest && mcpBrowserHousekeeping(ws) {
		return Finding{Risk: 0, Rule: "mcp.read", Reason: "manages the automation browser itself (close, resize, tabs, wait): " + who}
	}
	if readFirst && mut && !del && !dest && mcpReadFirst(ws) {
		// get_commit, get_release, list_merge_requests, get_workflow_run,
		// get_issue_comments: the name starts with a read verb and the
		// later words name what is read (a commit, a run, a merge request),
		// not a second action.
		return Finding{Risk: 0, Rule: "mcp.read", Reason: "read-only MCP tool (its read verb first names what it reads): " + who}
	}
	switch {
	case force && push:
		return Finding{Risk: 3, Violation: 0.9, RedLine: true, Rule: "mcp.force-push", Reason: "force-pushes through an MCP tool (" + who + "): this overwrites a remote's history", Marked: tool}
	case dest:
		return Finding{Risk: 3, Violation: 0.5, Rule: "mcp.destructive", Reason: "destructive MCP tool (" + verb + "): " + who, Marked: tool}
	case del && big:
		return Finding{Risk: 3, Violation: 0.5, Rule: "mcp.delete-big", Reason: "deletes a whole " + strings.Join(ws[1:], " ") + " through an MCP tool: " + who, Marked: tool}
	case del:
		return Finding{Risk: 2, Violation: 0.2, Rule: "mcp.delete", Reason: "deletes through an MCP tool (" + verb + "): " + who, Marked: tool}
	case mut:
		return Finding{Risk: 2, Violation: 0.1, Rule: "mcp.mutating", Reason: "consequential MCP tool (" + verb + "): " + who, Marked: tool}
	case read:
		return Finding{Risk: 0, Rule: "mcp.read", Reason: "read-only MCP tool: " + who}
	}
	return Finding{Risk: 2, Violation: 0.1, Rule: "mcp.unknown", Reason: "MCP tool whose effect is unknown (treated as consequential): " + who, Marked: tool, Uncertain: true}
}

// resolvedThings: nouns after "resolve" that make it a state change.
var resolvedThings = words(`issue issues incident incidents alert alerts thread threads ticket tickets bug bugs
	conflict conflicts comment comments review conversation conversations problem problems error errors`)

// Argument keys that carry a shell command or a file path.
var (
	cmdKeys = words(`command cmd script shell shell_command shellcommand commandline command_line bash powershell cli_command clicommand`)
	// cliKeys: a tool that takes one of these runs that command line,
	// whatever its name says (awslabs' call_aws {"cli_command": "aws s3 ls"}).
	cliKeys       = words(`cli_command clicommand command_line commandline shell_command shellcommand`)
	mcpShellNames = words(`bash sh zsh powershell pwsh cmd cmd.exe powershell.exe pwsh.exe gitbash git-bash wsl`)
	pathKeys      = words(`path file_path filepath filename file destination dest target target_path output output_path
		source src from to new_path newpath old_path oldpath directory dir folder relative_path relativepath
		absolute_path absolutepath abs_path paths files notebook_path`)
	sqlKeys = words(`sql query statement statements`)
)

var (
	sqlDrop     = lazyre.New(`(?is)\b(drop\s+(table|database|schema|index|view|user|role)|truncate\s+(table\s+)?\w)`)
	sqlDeleteNW = lazyre.New(`(?is)\bdelete\s+from\s+[\w."\x60\[\]]+\s*(;|$)`)
	sqlUpdateNW = lazyre.New(`(?is)\bupdate\s+[\w."\x60\[\]]+\s+set\s+[^;]*$`)
	sqlWrite    = lazyre.New(`(?is)\b(insert\s+into|update\s+\S+\s+set|delete\s+from|alter\s+table|create\s+(table|index|database)|grant|revoke)\b`)
)

// mcpArgs judges what the arguments carry: shell commands (rules.Bash),
// file paths (self-protection; write rules when the tool mutates; secret
// files when it reads) and SQL.
func mcpArgs(server, tool, args, cwd, home string, mutating bool) (worst Finding, sawCmd, sawCli bool) {
	if strings.TrimSpace(args) == "" {
		return Finding{}, false, false
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(args), &m); err != nil {
		// Truncated at 2 KB (a long file content) or not an object: read
		// the key/value pairs that came before the cut, so a path named
		// before a big content is still judged.
		m = partialObject(args)
	}
	// {"cmd": ["rm", "-rf", "/"]}: an argv list is one command line.
	for k, v := range m {
		if list, ok := v.([]any); ok && cmdKeys.Has(strings.ToLower(k)) {
			m[k] = strings.TrimSpace(appendArgv("", list))
		}
	}
	// gcloud's run_gcloud_command {"args": ["projects", "delete", "x"]}: a
	// tool named for a CLI, given only its arguments, runs that CLI.
	if list, ok := m["args"].([]any); ok && m["command"] == nil && m["cmd"] == nil {
		if cli := mcpCLIName(server, tool); cli != "" {
			m["cli_command"] = appendArgv(cli, list)
			delete(m, "args")
		}
	}
	// {"shell": "powershell", "command": "..."}: the shell's name says which
	// shell runs the command; it is no command of its own.
	if sh, ok := m["shell"].(string); ok && m["command"] != nil && mcpShellNames.Has(strings.ToLower(strings.TrimSpace(sh))) {
		delete(m, "shell")
	}
	// {"command": "rm", "args": ["-rf", "/"]}: judge the command line whole.
	if c, ok := m["command"].(string); ok {
		if list, ok := m["args"].([]any); ok {
			m["command"] = appendArgv(c, list)
			delete(m, "args")
		} else if a, ok := m["args"].(string); ok && a != "" {
			m["command"] = c + " " + a // {"command": "pkill", "args": "agent-guard"}
			delete(m, "args")
		}
	}
	take := func(f Finding) {
		if f.Rule != "" && (worst.Rule == "" || f.Worse(worst)) {
			worst = f
		}
	}
	walkStrings(m, "", 0, func(key, v string) {
		k, _, _ := strings.Cut(strings.ToLower(key), "\x00")
		switch {
		case cmdKeys.Has(k):
			sawCmd = true
			sawCli = sawCli || cliKeys.Has(k)
			f := Bash(v, cwd, home)
			f.Reason = "the MCP tool runs a shell command: " + f.Reason
			take(f)
		case sqlKeys.Has(k):
			take(sqlFindingOn(v, k != "query" || mcpDatabaseName(server) || mcpDatabaseName(tool)))
		case urlKeys.Has(k):
			if f, ok := mcpFileURL(v, cwd, home); ok {
				take(f)
			}
			if metadataURL(v) {
				take(metadataFinding(v, v)) // a fetch tool asking for the machine's cloud key (metadata.go)
			}
		case pathKeys.Has(k):
			// A tool that may change files is judged like Write on every
			// path it names (source of a move included); a read-only one
			// only when it reads secrets.
			if mutating {
				f := WritePath(v, cwd, home) // includes Protected
				f.Uncertain = false
				take(f)
			} else if k, what := pkSecretPath(v, &Ctx{Cwd: cwd, Home: home}); k == pkStrong {
				// The one secret-file classifier Bash uses (creds_paths.go).
				take(Finding{Risk: 2, Violation: 0.6, Rule: "mcp.read-secret", Reason: "an MCP tool reads " + what + " (" + v + "); its content would reach the model", Marked: v})
			} else if k == pkWeak {
				take(Finding{Risk: 1.5, Violation: 0.3, Rule: "mcp.read-secret", Reason: "an MCP tool reads " + what + " (" + v + ")", Marked: v})
			}
		}
	})
	return worst, sawCmd, sawCli
}

// sqlLiteral matches quoted SQL string literals (doubled quotes included) and
// comments: keywords inside them (LIKE '%delete from%') are data.
var sqlLiteral = lazyre.New(`'(?:[^']|'')*'|--[^\n]*|/\*(?s:.*?)\*/`)

// sqlReadFirst are statement keywords that only read.
var sqlReadFirst = words(`select show explain describe desc with values pragma table`)

// mcpOnlyReadSQL: the arguments carry SQL, every statement starts with a
// read keyword and no write or drop pattern matches; nothing else in the
// arguments is a command. Fails closed on anything it cannot parse.
func mcpOnlyReadSQL(args string) bool {
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return false
	}
	saw := false
	ok := true
	walkStrings(m, "", 0, func(key, v string) {
		k := strings.ToLower(key)
		if !sqlKeys.Has(k) {
			return
		}
		saw = true
		if sqlFinding(v).Rule != "" {
			ok = false
			return
		}
		q := sqlLiteral.Re().ReplaceAllStringFunc(v, func(m string) string {
			if m[0] == '\'' {
				return "''"
			}
			return " "
		})
		for _, st := range strings.Split(q, ";") {
			w := strings.Fields(strings.ToLower(st))
			if len(w) == 0 {
				continue
			}
			if !sqlReadFirst.Has(strings.TrimLeft(w[0], "(")) || pkContains(w, "into") {
				ok = false
			}
		}
	})
	return saw && ok
}

func sqlFinding(q string) Finding { return sqlFindingOn(q, true) }

// sqlFindingOn judges SQL; db=false (a "query" of a tool that is no
// database's: a search) keeps to the drop, no-WHERE and write patterns,
// whose words a search seldom starts with.
func sqlFindingOn(q string, db bool) Finding {
	if strings.ContainsAny(q, "'-/") {
		q = sqlLiteral.Re().ReplaceAllStringFunc(q, func(m string) string {
			if m[0] == '\'' {
				return "''"
			}
			return " " // a comment
		})
	}
	switch {
	case sqlDrop.MatchString(q):
		return Finding{Risk: 3, Violation: 0.7, Rule: "mcp.sql-drop", Reason: "drops or truncates a table or database through an MCP tool", Marked: sqlDrop.FindString(q)}
	case sqlDeleteNW.MatchString(q) || sqlUpdateNW.MatchString(q) && !strings.Contains(strings.ToLower(q), "where"):
		return Finding{Risk: 3, Violation: 0.5, Rule: "mcp.sql-no-where", Reason: "deletes or updates every row (no WHERE) through an MCP tool"}
	}
	if !db {
		if sqlWrite.MatchString(q) {
			return Finding{Risk: 2, Violation: 0.1, Rule: "mcp.sql-write", Reason: "changes data or schema through an MCP tool", Marked: sqlWrite.FindString(q)}
		}
		return Finding{}
	}
	low := strings.ToLower(q)
	if w := sqlServerSide(low); w != "" {
		return Finding{Risk: 2.3, Violation: 0.5, Rule: "mcp.sql-server-exec", Reason: "runs a program or reads or writes the server's files from SQL (" + w + ") through an MCP tool"}
	}
	if strings.Contains(low, "pg_terminate_backend") || strings.Contains(low, "pg_reload_conf") || strings.Contains(low, "alter system") || strings.Contains(low, "set_config(") {
		return Finding{Risk: 2, Violation: 0.3, Rule: "mcp.sql-write", Reason: "kills database sessions or changes the server's settings through an MCP tool"}
	}
	if sqlCredsChange(low) {
		return Finding{Risk: 2.2, Violation: 0.5, Rule: "mcp.sql-write", Reason: "changes database credentials or privileges through an MCP tool"}
	}
	if sqlWrite.MatchString(q) {
		return Finding{Risk: 2, Violation: 0.1, Rule: "mcp.sql-write", Reason: "changes data or schema through an MCP tool", Marked: sqlWrite.FindString(q)}
	}
	for _, t := range []string{"pg_shadow", "pg_authid", "mysql.user", "authentication_string", "sys.sql_logins"} {
		if strings.Contains(low, t) {
			return Finding{Risk: 2, Violation: 0.6, Rule: "mcp.read-secret", Reason: "an MCP tool reads the database's password hashes (" + t + "); they would reach the model"}
		}
	}
	return Finding{}
}

// sqlServerSide names what in a statement (lower case, literals blanked)
// runs a program on the database server or reads or writes its files:
// COPY ... PROGRAM, xp_cmdshell, INTO OUTFILE, pg_read_file, lo_export.
func sqlServerSide(low string) string {
	if strings.Contains(low, "copy") && strings.Contains(low, "program") {
		return "COPY ... PROGRAM"
	}
	for _, t := range []string{"xp_cmdshell", "into outfile", "into dumpfile", "lo_export", "lo_import", "pg_read_file", "pg_read_binary_file", "pg_ls_dir", "load_file(", "sys_exec", "sys_eval", "language plpython", "language plperlu", "language c"} {
		if strings.Contains(low, t) {
			return t
		}
	}
	return ""
}

// sqlCredsChange: a statement that creates an account or changes a
// password or a superuser right (ALTER USER ... PASSWORD, CREATE ROLE,
// SET PASSWORD).
func sqlCredsChange(low string) bool {
	if strings.Contains(low, "set password") || strings.Contains(low, "create user") || strings.Contains(low, "create role") {
		return true
	}
	return (strings.Contains(low, "alter user") || strings.Contains(low, "alter role") || strings.Contains(low, "alter login")) &&
		(strings.Contains(low, "password") || strings.Contains(low, "superuser") || strings.Contains(low, "identified"))
}

// walkStrings calls fn for every string value, with its key (array items
// inherit the array's key). Depth-limited: arguments are attacker-shaped.
func walkStrings(v any, key string, depth int, fn func(key, v string)) {
	if depth > 8 {
		return
	}
	switch t := v.(type) {
	case string:
		fn(key, t)
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys) // deterministic: ties keep the first finding
		for _, k := range keys {
			walkStrings(t[k], k, depth+1, fn)
		}
	case []any:
		for _, x := range t {
			walkStrings(x, key, depth+1, fn)
		}
	}
}

// partialObject reads string values (with their keys, at any depth) from
// JSON that may be cut off, until the first error. Arrays of strings keep
// their key.
func partialObject(args string) map[string]any {
	m := map[string]any{}
	dec := json.NewDecoder(strings.NewReader(args))
	type frame struct {
		obj    bool
		key    string
		expect bool // in an object, the next string is a key
	}
	var stack []frame
	for n := 0; n < 4096; n++ {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		top := len(stack) - 1
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				key := ""
				if top >= 0 {
					key = stack[top].key
					if stack[top].obj {
						stack[top].expect = true
					}
				}
				stack = append(stack, frame{obj: t == '{', key: key, expect: t == '{'})
			default:
				if top >= 0 {
					stack = stack[:top]
				}
			}
		case string:
			if top >= 0 && stack[top].obj && stack[top].expect {
				stack[top].key, stack[top].expect = t, false
				continue
			}
			if top >= 0 {
				k := stack[top].key
				if _, dup := m[k]; dup {
					k = k + "\x00" + strconv.Itoa(n) // keep every value; walkStrings sees the key prefix
				}
				m[k] = t
				if stack[top].obj {
					stack[top].expect = true
				}
			}
		default:
			if top >= 0 && stack[top].obj {
				stack[top].expect = true
			}
		}
	}
	return m
}

// mcpCLINames are the CLIs whose name an MCP tool or server may carry
// when it runs that CLI with the arguments it is given.
var mcpCLINames = words(`gcloud az aws gh glab kubectl helm terraform tofu docker gsutil doctl flyctl vercel wrangler heroku oc`)

// mcpCLIName: the CLI a tool named run_gcloud_command runs ("" when its
// name names none; a server's name alone does not say its tool runs it).
func mcpCLIName(server, tool string) string {
	for _, w := range splitName(tool) {
		if mcpCLINames.Has(w) {
			return w
		}
	}
	return ""
}

// sqlChangeFirst are the first words of SQL statements that are not a
// read (a search tool's {"query": "roadmap"} starts with none of them).
var sqlChangeFirst = words(`create alter set drop insert update delete grant revoke copy call do vacuum truncate begin lock comment reset load install attach detach replace merge exec execute declare refresh reindex cluster security import`)

// mcpStatementSQL: a SQL key (sql, query, statement) holds a statement
// that begins as a change does (CREATE EXTENSION, SET ROLE, ALTER SYSTEM).
// A "query" key counts only on a database's tool (a search tool's query
// is words: "create react app").
func mcpStatementSQL(server, tool, args string) bool {
	if !strings.Contains(args, `"sql"`) && !strings.Contains(args, `"statement`) && !strings.Contains(args, `"query"`) {
		return false
	}
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return false
	}
	db := mcpDatabaseName(server) || mcpDatabaseName(tool)
	saw := false
	walkStrings(m, "", 0, func(key, v string) {
		k := strings.ToLower(key)
		if !sqlKeys.Has(k) || k == "query" && !db {
			return
		}
		for _, st := range strings.Split(v, ";") {
			if w := strings.Fields(strings.ToLower(st)); len(w) > 1 && sqlChangeFirst.Has(w[0]) {
				saw = true
			}
		}
	})
	return saw
}

// mcpDeleteAll: a document store's delete-many (MongoDB's delete-many,
// deleteMany) with an empty or missing filter deletes every document of
// the collection, as DELETE without WHERE does.
func mcpDeleteAll(server, tool, args string) (Finding, bool) {
	if len(tool) < 10 || len(tool) > 16 {
		return Finding{}, false // delete-many, deleteMany, remove_many, delete_documents only
	}
	lt := strings.ToLower(strings.ReplaceAll(strings.ReplaceAll(tool, "-", ""), "_", ""))
	if lt != "deletemany" && lt != "removemany" && lt != "deletedocuments" {
		return Finding{}, false
	}
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		return Finding{}, false
	}
	f, ok := m["filter"]
	if !ok {
		f, ok = m["query"]
	}
	if fm, isMap := f.(map[string]any); !ok || isMap && len(fm) == 0 {
		return Finding{Risk: 3, Violation: 0.5, Rule: "mcp.sql-no-where", Reason: "deletes every document of the collection (an empty filter) through an MCP tool: mcp__" + server + "__" + tool}, true
	}
	return Finding{}, false
}

// mcpDatabaseName: a server or tool name that names a database.
func mcpDatabaseName(name string) bool {
	for _, w := range splitName(name) {
		switch w {
		case "sql", "postgres", "postgresql", "pg", "mysql", "mariadb", "sqlite", "sqlite3", "db", "database", "supabase", "neon", "snowflake",
			"bigquery", "clickhouse", "duckdb", "mssql", "sqlserver", "oracle", "redshift", "cockroach", "cockroachdb", "turso", "d1", "planetscale", "timescale":
			return true
		}
	}
	lw := strings.ToLower(name)
	return strings.Contains(lw, "sql") || strings.Contains(lw, "postgres")
}

// mcpReadFirstVerbs: read verbs that, as the first word of a tool name, make
// the rest of the name the object read (get_commit, list_merge_requests).
var mcpReadFirstVerbs = words(`get list read search find fetch query view show describe count lookup browse
	inspect stat diff explain preview peek retrieve download`)

// mcpReadFirst: the tool name starts with a read verb and holds no second
// action: no conjunction (get_or_create, find_and_delete), no replace
// (search_replace edits), no force.
func mcpReadFirst(ws []string) bool {
	if len(ws) < 2 || !mcpReadFirstVerbs.Has(ws[0]) {
		return false
	}
	for _, w := range ws[1:] {
		if mutVerbs.Has(w) && !mcpNounVerbs.Has(w) {
			return false // read_move, search_replace, get_and_set: a second action
		}
		switch w {
		case "and", "or", "then", "plus", "force":
			return false
		}
	}
	return true
}

// mcpNounVerbs: action words that, after a read verb, name the thing read
// (get_commit, get_release, get_workflow_run, list_merge_requests).
var mcpNounVerbs = words(`commit commits release releases run runs merge comment comments tag tags schedule
	deploy fork forks reply replies invite invites lock locks upload uploads import imports sync patch patches
	post posts trigger triggers dispatch install installs submit push`)

// mcpContentArgs: the arguments carry content to write (a file body, an
// edit), which no read takes.
func mcpContentArgs(args string) bool {
	for _, k := range []string{`"content"`, `"new_string"`, `"newText"`, `"new_text"`, `"edits"`, `"file_text"`, `"contents"`} {
		if strings.Contains(args, k) {
			return true
		}
	}
	return false
}

// mcpBrowserWords: the words of browser-automation tools that only manage
// the browser the tool drives (browser_close, browser_resize,
// browser_wait_for, browser_tabs, browser_install): no page is acted on.
var mcpBrowserWords = words(`browser puppeteer page pages close resize wait for tab tabs list select new install`)

func mcpBrowserHousekeeping(ws []string) bool {
	if len(ws) < 2 || ws[0] != "browser" && ws[0] != "puppeteer" {
		return false
	}
	for _, w := range ws {
		if !mcpBrowserWords.Has(w) {
			return false
		}
	}
	return true
}

// appendArgv appends an MCP argument list's strings to line, each quoted
// for the shell and after a space (an argv given as JSON is one command
// line).
func appendArgv(line string, list []any) string {
	for _, a := range list {
		if s, ok := a.(string); ok {
			line += " " + shellQuote(s)
		}
	}
	return line
}
