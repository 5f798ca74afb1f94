package codeopts

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// What other packs reuse from this one.

// GitProgramValue is gitProgramValue for the packs that reuse it.
func GitProgramValue(c *shell.Cmd, what string, v string, x *rules.Ctx) (rules.Finding, bool) {
	return gitProgramValue(c, what, v, x)
}

// LineEnv is lineEnv for the packs that reuse it.
func LineEnv(c *shell.Cmd, x *rules.Ctx) []string { return lineEnv(c, x) }
