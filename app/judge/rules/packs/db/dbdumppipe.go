package db

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// mysqldump A | mysql B: a dump piped straight into another database's
// client replaces B's tables, since mysqldump writes DROP TABLE before
// each CREATE unless told not to (--skip-add-drop-table, --no-create-info);
// pg_dump does the same with --clean. Judged like pg_restore --clean.

func init() { pack.On(ruleDumpPipe, "mysql", "mariadb", "psql") }

func ruleDumpPipe(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	src := rules.PipedSource(c, x)
	if src == nil {
		return rules.Finding{}, false
	}
	drops := false
	switch src.Name {
	case "mysqldump", "mariadb-dump":
		drops = !rules.PkHas(src, "--skip-add-drop-table", "--no-create-info", "-t", "--skip-opt") && !strings.Contains(strings.ToLower(src.Raw), "--add-drop-table=false")
	case "pg_dump", "pg_dumpall":
		drops = src.Flag('c', "--clean")
	}
	if !drops {
		return rules.Finding{}, false
	}
	return rules.PkRet(c, 2.2, 0.3, "db.restore-clean", src.Name+" piped into "+c.Name+" drops the target's tables before recreating them from the dump")
}
