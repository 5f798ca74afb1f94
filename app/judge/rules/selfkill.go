package rules

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Self-protection for processes: an agent must not be able to stop or
// uninstall its own guard. The kill/service packs call KillsGuard; this
// file also judges the guard's own CLI and pgrep/pidof of the guard
// feeding a kill.

// guardWord reports an argument naming the guard's program or service.
func guardWord(a string) bool {
	l := strings.ToLower(a)
	if strings.Contains(l, `\x2d`) {
		l = strings.ReplaceAll(l, `\x2d`, "-") // systemd's escaped unit name: app-agent\x2dguard@...
	}
	return strings.Contains(l, "agent-guard") || strings.Contains(l, "agent_guard") ||
		strings.Contains(l, "agentguard") || strings.Contains(l, "agent guard")
}

// killers are programs that stop processes; services those that stop or
// disable services (their read-only verbs excepted).
var (
	guardKillers = map[string]bool{"kill": true, "pkill": true, "killall": true, "skill": true, "slay": true,
		"taskkill": true, "tskill": true, "stop-process": true, "spps": true, "kill-process": true, "xkill": true,
		"suspend-process": true, "pssuspend": true, "pssuspend64": true, "debug-process": true}
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

// guardNames are the guard's program names as the shell normalizes them.
var guardNames = map[string]bool{"agent-guard": true, "agent-guard-hook": true, "agent-guard-judge": true, "agentguard": true}

// guardReadOnly are the verbs that only read or print: the agent may run
// them (agent-guard check --cmd '...' is how it asks what would happen).
var guardReadOnly = map[string]bool{"check": true, "status": true, "doctor": true, "report": true, "rules": true,
	"version": true, "help": true, "--help": true, "-h": true, "-help": true, "--version": true, "-version": true}

func ruleGuardCLI(c *shell.Cmd, x *Ctx) (Finding, bool) {
	return guardVerb(c, c.Name != "agent-guard-hook"), true
}

// guardVerb judges starting one of the guard's binaries with c's
// arguments. Anything but a read-only verb is self-protection: the tray
// or `serve` started by the agent is an impostor server, `config accept`
// or `install` change the guard, hook-fallback and ui-* children speak
// for it. tray says whether the binary is the tray/CLI (else the hook,
// whose only read-only forms are --version and --help).
func guardVerb(c *shell.Cmd, tray bool) Finding {
	sub := ""
	for _, a := range c.Args {
		if !strings.HasPrefix(a, "-") || guardReadOnly[a] {
			sub = strings.ToLower(a)
			break
		}
	}
	if sub == "doctor" && c.Flag(0, "--fix") {
		sub = "doctor --fix"
	}
	if guardReadOnly[sub] && (tray || strings.HasPrefix(sub, "-") || sub == "version" || sub == "help") {
		// Not "self.": every self.* rule is a red line in the judge.
		return Finding{Rule: "guard.cli-read", Reason: "agent-guard " + sub + " only reads", Marked: c.Raw}
	}
	what := "agent-guard " + sub
	switch {
	case sub == "" && tray:
		what = "the agent-guard tray (a second guard, started by the agent, would answer for the real one)"
	case sub == "" || !tray:
		what = "agent-guard's hook"
	}
	return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.guard-exec", Marked: c.Raw,
		Reason: "starts " + what + ": only the user may run the guard's own commands that serve, change or speak for it (read-only ones such as check, status and report are fine)"}
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
		if guardKillers[o.Name] && !signalZero(o) || c.Name == "fuser" && c.Flag('k', "--kill") || c.Name == "pkill" {
			return GuardKillFinding(c), true
		}
	}
	return Finding{}, false
}

// pkGuardStop is the self-protection finding for stopping the guard.
func pkGuardStop(c *shell.Cmd, how string) (Finding, bool) {
	return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.stop-guard", Marked: c.Raw,
		Reason: how + " stops or removes the agent's own guard: an agent must not switch off its own guard; ask the user to do it"}, true
}

// signalZero: kill -0 (or -s 0) sends no signal; it only asks whether
// the process exists.
func signalZero(c *shell.Cmd) bool {
	if c.Name != "kill" {
		return false
	}
	for i, a := range c.Args {
		if a == "-0" || a == "--signal=0" || (a == "-s" || a == "--signal" || a == "-n") && i+1 < len(c.Args) && c.Args[i+1] == "0" {
			return true
		}
	}
	return false
}
