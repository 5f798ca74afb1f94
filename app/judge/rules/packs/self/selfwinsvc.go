package self

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Windows services and scheduled tasks of the guard, by name or by a
// pattern piped from a lookup: Unregister-ScheduledTask -TaskName
// agent-guard, Get-ScheduledTask *guard* | Disable-ScheduledTask,
// Get-Service *guard* | Stop-Service.

func init() {
	pack.On(ruleWinTaskStop, "unregister-scheduledtask", "disable-scheduledtask", "stop-scheduledtask",
		"set-scheduledtask", "stop-service", "spsv", "suspend-service", "set-service", "remove-service")
}

func ruleWinTaskStop(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	for _, a := range c.Args {
		if rules.GuardWord(a) || !strings.HasPrefix(a, "-") && patternHitsGuard(a, x, false, true, true, true) && strings.ContainsAny(a, "*?") {
			return rules.PkGuardStop(c, c.Name)
		}
	}
	if x.All == nil || len(c.PipedFrom) == 0 {
		return rules.Finding{}, false
	}
	for i := range x.All.Cmds {
		o := &x.All.Cmds[i]
		if o == c || !rules.Contains(c.PipedFrom, o.Name) {
			continue
		}
		switch o.Name {
		case "get-scheduledtask", "get-service", "gsv":
		default:
			continue
		}
		for _, a := range o.Args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			if rules.GuardWord(a) || patternHitsGuard(a, x, false, true, true, true) {
				return rules.PkGuardStop(c, o.Name+" "+a+" | "+c.Name)
			}
		}
	}
	return rules.Finding{}, false
}
