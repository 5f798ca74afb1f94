package db

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// What other packs reuse from this one.

// PkJudgeSQL is pkJudgeSQL for the packs that reuse it.
func PkJudgeSQL(c *shell.Cmd, sql string) (rules.Finding, bool) { return pkJudgeSQL(c, sql) }

// PkSQLClient is pkSQLClient for the packs that reuse it.
func PkSQLClient(c *shell.Cmd, x *rules.Ctx, sqls []string, file bool) (rules.Finding, bool) {
	return pkSQLClient(c, x, sqls, file)
}
