package judge

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// bashRule is the shell rule pack over an analysis of script (so one
// analysis serves the rules and the fast path); a variable so pipeline
// tests can pin the pipeline's behaviour independently of the packs.
var bashRule = func(a *shell.Analysis, script, cwd, home string) rules.Finding {
	return rules.BashAnalysis(a, script, cwd, home)
}

// analyze parses a Bash call's command once per judgment; other tools
// have none (nil).
func analyze(s State) *shell.Analysis {
	if s.Tool != "Bash" {
		return nil
	}
	// In the call's folder: runners read argument files relative to it.
	return shell.AnalyzeDirPtr(s.Command, s.Cwd)
}
