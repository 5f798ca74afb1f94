package self

import "github.com/agent-guard/agent-guard/app/judge/rules"

// The guard's own CLI and commands that name its processes (the rules are
// the core's: rules/selfkill.go).
func init() {
	pack.On(rules.RuleGuardCLI, "agent-guard", "agent-guard-hook", "agent-guard-judge", "agentguard")
	pack.OnAny(rules.RuleGuardPid)
}
