package self

import "github.com/agent-guard/agent-guard/app/judge/rules"

// A command line that writes a host config and carries a hooks-off
// switch (the rule is the core's: rules/selfhosts.go).
func init() { pack.OnAny(rules.RuleHooksOff) }
