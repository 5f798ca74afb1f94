// Package rulestest holds what the tests of the rule packs share.
package rulestest

import "github.com/agent-guard/agent-guard/app/judge/rules"

// Level is the verdict level a finding gives on its own: "allow",
// "confirm" or "block" (the corpus tests' levelOf).
func Level(f rules.Finding) string {
	switch {
	case f.Risk >= 2.5 || f.Violation >= rules.RedLineAt:
		return "block"
	case f.Risk >= 1.5 || f.Violation >= 0.5:
		return "confirm"
	}
	return "allow"
}
