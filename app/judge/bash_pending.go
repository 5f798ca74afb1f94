package judge

import "github.com/agent-guard/agent-guard/app/judge/rules"

// bashRule is rules.Bash; TEMPORARY indirection until the bash rule pack
// lands (H1a) so this package compiles meanwhile. Until then every Bash
// call is confirm.
var bashRule = func(script, cwd, home string) rules.Finding {
	return rules.Finding{Risk: 2, Rule: "bash.pending", Reason: "the shell rules are not built yet: " + script, Uncertain: true}
}
