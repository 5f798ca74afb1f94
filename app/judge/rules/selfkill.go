package rules

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Self-protection for processes: an agent must not be able to stop or
// uninstall its own guard. The kill/service packs call KillsGuard; this
// file also judges the guard's own CLI and pgrep/pidof of the guard
// feeding a kill.

func init() {
	on(ruleGuardCLI, "agent-guard", "agent-guard-hook", "agentguard")
	onAny(ruleGuardPid)
}

// guardWord reports an argument naming the guard's program or service.
func guardWord(a string) bool {
	l := strings.ToLower(a)
	return strings.Contains(l, "agent-guard") || strings.Contains(l, "agent_guard") ||
		strings.Contains(l, "agentguard") || strings.Contains(l, "agent guard")
}

// killers are programs that stop processes; services those that stop or
// disable services (their read-only verbs excepted).
var (
	guardKillers = map[string]bool{"kill": true, "pkill": true, "killall": true, "skill": true, "slay": true,
		"taskkill": true, "tskill": true, "stop-process": true, "spps": true, "kill-process": true, "xkill": true}
	guardServices = map[string]bool{"systemctl": true, "service": true, "rc-service": true, "invoke-rc.d": true,
		"launchctl": true, "sc": true, "net": true, "net1": true, "stop-service": true, "set-service": true,
		"remove-service": true, "restart-service": true, "suspend-service": true, "schtasks": true,
		"update-rc.d": true, "chkconfig": true, "rc-update": true, "sv": true, "supervisorctl": true, "pm2": true}
	guardReadVerbs = map[string]bool{"status": true, "show": true, "is-active": true, "is-enabled": true,
		"is-failed": true, "list": true, "list-units": true, "query": true, "qc": true, "print": true,
		"cat": true, "start": true, "enable": true, "help": true, "/query": true, "get-service": true, "logs": true}
)

// KillsGuard reports whether c stops, kills, disables or removes the
// agent-guard process or service (kill, pkill, killall, taskkill,
// Stop-Process, systemctl stop/disable, launchctl unload, sc stop...).
// Packs for those programs call it and block when it is true.
func KillsGuard(c *shell.Cmd) bool {
	named := false
	for _, a := range c.Args {
		if guardWord(a) {
			named = true
			break
		}
	}
	if !named {
		return false
	}
	if guardKillers[c.Name] {
		return true
	}
	if guardServices[c.Name] {
		for _, a := range c.Args {
			if guardReadVerbs[strings.ToLower(a)] {
				return false
			}
		}
		return true
	}
	return false
}

// GuardKillFinding is the block finding for KillsGuard.
func GuardKillFinding(c *shell.Cmd) Finding {
	return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.kill-guard", Marked: c.Raw,
		Reason: "stops or disables agent-guard itself: an agent must not switch off its own guard; ask the user to do it"}
}

func ruleGuardCLI(c *shell.Cmd, x *Ctx) (Finding, bool) {
	sub := ""
	for _, a := range c.Args {
		if !strings.HasPrefix(a, "-") {
			sub = strings.ToLower(a)
			break
		}
	}
	if sub == "doctor" && c.Flag(0, "--fix") {
		sub = "doctor --fix"
	}
	// Not "self.": every self.* rule is a red line in the judge.
	switch sub {
	case "", "check", "doctor", "report", "help", "version", "status":
		return Finding{Rule: "guard.cli-read", Reason: "agent-guard " + sub + " only reads", Marked: c.Raw}, true
	case "uninstall", "disable", "stop", "quit", "off", "kill", "pause", "config", "set", "allow", "approve", "install":
		return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.cli-change", Marked: c.Raw,
			Reason: "agent-guard " + sub + " changes or switches off the guard: only the user may do that"}, true
	}
	return Finding{Risk: 2, Violation: 0.5, Rule: "self.cli", Marked: c.Raw,
		Reason: "runs agent-guard " + sub + ": the guard's own commands are for the user"}, true
}

// ruleGuardPid: `kill $(pgrep agent-guard)` — the pid comes from a lookup
// of the guard while the same line kills something.
func ruleGuardPid(c *shell.Cmd, x *Ctx) (Finding, bool) {
	if (guardKillers[c.Name] || guardServices[c.Name]) && KillsGuard(c) {
		return GuardKillFinding(c), true
	}
	switch c.Name {
	case "pgrep", "pidof", "ps", "get-process", "gps", "tasklist", "lsof", "fuser", "grep", "awk",
		"cat", "head", "tail", "get-content", "gc", "type", "systemctl", "launchctl":
	default:
		if guardKillers[c.Name] || guardServices[c.Name] {
			if KillsGuard(c) {
				return GuardKillFinding(c), true
			}
		}
		return Finding{}, false
	}
	named := false
	for _, a := range c.Args {
		if guardWord(a) {
			named = true
		}
	}
	if !named || x.All == nil {
		return Finding{}, false
	}
	for i := range x.All.Cmds {
		o := &x.All.Cmds[i]
		if guardKillers[o.Name] || c.Name == "fuser" && c.Flag('k', "--kill") || c.Name == "pkill" {
			return GuardKillFinding(c), true
		}
	}
	return Finding{}, false
}
