package self

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Application control policies (AppLocker, WDAC/App Control, Software
// Restriction Policies set by cmdlet) decide which programs may start:
// one rule there keeps the guard's hook, judge or tray from running, and
// the host then runs without an answer from it. A policy change confirms
// (sys.app-control); one whose line names the guard blocks.

func init() {
	pack.On(ruleSelfAppControl, "set-applockerpolicy", "citool", "set-cipolicyidinfo", "merge-cipolicy", "convertfrom-cipolicy")
}

func ruleSelfAppControl(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	switch c.Name {
	case "citool":
		if !rules.PkHas(c, "-up", "--update-policy", "-rp", "--remove-policy", "-r", "--refresh") {
			return rules.Finding{}, false
		}
	case "merge-cipolicy", "convertfrom-cipolicy", "set-cipolicyidinfo":
		// they build policy files; only a deployed one acts
		if !rules.GuardWord(c.Raw) {
			return rules.Finding{}, false
		}
	}
	if rules.GuardWord(c.Raw) {
		return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.stop-guard", Marked: c.Raw,
			Reason: c.Name + " changes which programs may start and names agent-guard: a rule there keeps the guard from running; an agent must not switch off its own guard; ask the user to do it"}, true
	}
	return rules.Finding{Risk: 2, Violation: 0.5, Rule: "sys.app-control", Marked: c.Raw,
		Reason: c.Name + " changes the machine's application control policy (AppLocker, App Control): a rule there can keep any program, the guard's included, from starting"}, true
}
