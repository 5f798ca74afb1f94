package self

import "github.com/agent-guard/agent-guard/app/judge/rules"

// Interpreter code that builds a guard path from pieces (the rules are
// the core's: rules/selfinterp.go).
func init() {
	pack.OnAny(rules.RuleSelfInterpParts)
	pack.OnAny(rules.RuleSelfInterpLiterals)
	pack.OnAny(rules.RuleSelfPipeServer)
}
