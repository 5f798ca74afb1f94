package self

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// The guard's process or window acted on by name through programs and
// APIs the kill, debugger and window rules do not list: Windows
// debuggers attaching by name (cdb/ntsd -pn agent-guard.exe), window
// tools (nircmd win close title agent-guard, AutoHotkey/AutoIt scripts
// given its title), and code that names the guard next to a process or
// UI-automation call (ptrace, /proc/PID/mem, oom_score_adj,
// PriorityClass/ProcessorAffinity, UIAutomation patterns, SendKeys,
// System Events clicks and keystrokes, wmic ... call setpriority).
// Freezing, starving, patching or clicking the guard is switching it
// off: self.kill-guard for the process, self.guard-window for its
// dialog. The guard's name without such a call (reading its log,
// listing its processes) is no act.

func init() { pack.OnAny(ruleSelfActors) }

// attachByName are debuggers and dumpers that take a process by name.
var attachByName = map[string]bool{"cdb": true, "ntsd": true, "windbg": true, "windbgx": true, "kd": true,
	"x64dbg": true, "x32dbg": true, "procdump": true, "procdump64": true, "lldb": true, "pssuspend": true,
	"pssuspend64": true, "pskill": true, "pskill64": true, "procexp": true, "procexp64": true}

// windowScripters run window scripts (AutoHotkey, AutoIt) or commands
// (nircmd) aimed at a window by its title.
var windowScripters = map[string]bool{"nircmd": true, "nircmdc": true, "autohotkey": true, "autohotkey64": true,
	"autohotkeyu64": true, "autohotkey32": true, "ahk": true, "autoit3": true, "autoit3_x64": true, "cmdow": true}

// dbusTools call D-Bus methods; dbusStops are the systemd manager's
// methods (lower case) that stop, kill, freeze or disable a unit.
var (
	dbusTools = map[string]bool{"busctl": true, "gdbus": true, "dbus-send": true, "qdbus": true, "qdbus6": true,
		"qdbus-qt5": true, "dbus": true, "mdbus2": true}
	dbusStops = []string{"stopunit", "killunit", "freezeunit", "disableunitfiles", "maskunitfiles", "setunitproperties",
		"unlinkunitfiles", "cleanunit", "abandonscope", "stop", "kill"}
	lockMarks = []string{"flock", "lockf", "lockfileex", "fileshare]::none", "'none')", "\"none\")", "portalocker",
		"msvcrt.locking", "fcntl.f_setlk"}
)

// guardLock: a lock held on a guard file makes the guard wait (its audit
// appends and config swaps take the lock on some systems) past the host's
// hook timeout, and a timed-out hook lets the call run.
func guardLock(c *shell.Cmd, what string) rules.Finding {
	return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.guard-lock", Marked: c.Raw,
		Reason: c.Name + " holds a lock (" + what + ") on the agent's own guard files: the guard would wait for it past the hook's timeout, and a hook that times out lets the call run; ask the user"}
}

// procMarks in code next to the guard's name act on its process;
// windowMarks on its windows.
var (
	procMarks = []string{"ptrace", "/mem", "process_vm_writev", "oom_score_adj", "oom_adj", "priorityclass",
		"processoraffinity", "maxworkingset", "minworkingset", "debugactiveprocess", "ntsuspendprocess",
		"writeprocessmemory", "suspendthread", "setpriority", "sigstop", "cgroup.freeze", "cgroup.procs", "prlimit",
		"setrlimit", "rlimit_", ".nice(", ".suspend(", ".ionice(", "cpu_affinity(", "sched_setaffinity"}
	windowMarks = []string{"automationelement", "uiautomation", "windowpattern", "invokepattern", "sendkeys",
		"sendmessage", "postmessage", "sendinput", "keybd_event", "mouse_event", "click button", "click at",
		"keystroke", "key code", "perform action", "closemainwindow", "showwindow", "setwindowpos", "movewindow",
		"wm_close", "pyautogui", "pywinauto", "xlib", "atspi", "pyatspi", "win32gui", "win32con"}
)

func ruleSelfActors(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if c.Name == "" {
		return rules.Finding{}, false
	}
	name := strings.TrimSuffix(strings.ToLower(c.Name), ".exe")
	flockWrapped := len(c.Wrappers) > 0 && rules.Contains(c.Wrappers, "flock")
	if !attachByName[name] && !windowScripters[name] && !dbusTools[name] && !flockWrapped &&
		name != "flock" && name != "lckdo" && name != "with-lock-ex" && !codeCarrier(name, c) || !rules.GuardWord(c.Raw) {
		return rules.Finding{}, false
	}
	named := false
	for _, a := range c.Args {
		if rules.GuardWord(a) {
			named = true
			break
		}
	}
	switch {
	case attachByName[name] && named:
		return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.kill-guard", Marked: c.Raw,
			Reason: c.Name + " attaches to, suspends or dumps agent-guard by name: a debugger can freeze or rewrite the guard; the agent may not switch its guard off"}, true
	case windowScripters[name] && named:
		return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.guard-window", Marked: c.Raw,
			Reason: c.Name + " acts on a window or process named agent-guard (its approval dialog answers only a human): an agent must not answer, hide or close its own guard; ask the user"}, true
	}
	low := strings.ToLower(c.Raw)
	if dbusTools[name] {
		for _, m := range dbusStops {
			if strings.Contains(low, m) {
				return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.stop-guard", Marked: c.Raw,
					Reason: c.Name + " asks the service manager over D-Bus to " + m + " a unit named agent-guard: an agent must not switch off its own guard; ask the user to do it"}, true
			}
		}
		return rules.Finding{}, false
	}
	lockArgs := c.Args
	if flockWrapped {
		// flock FILE CMD...: the parser peeled flock; its FILE is read
		// back from the raw text
		name, lockArgs = "flock", nil
		words := strings.Fields(c.Raw)
		for i, w := range words {
			if strings.Trim(rules.LastSeg(w), `'"`) == "flock" {
				for _, a := range words[i+1:] {
					lockArgs = append(lockArgs, strings.Trim(a, `'"`))
				}
				break
			}
		}
	}
	if name == "flock" || name == "lckdo" || name == "with-lock-ex" {
		for i := 0; i < len(lockArgs); i++ {
			a := lockArgs[i]
			if strings.HasPrefix(a, "-") {
				if a == "-w" || a == "-E" || a == "--timeout" || a == "--wait" || a == "--conflict-exit-code" {
					i++ // the option's value
				}
				continue
			}
			if _, ok := rules.ProtectedTree(a, x.Cwd, x.Home); ok {
				return guardLock(c, a), true
			}
			break
		}
		return rules.Finding{}, false
	}
	if !codeCarrier(name, c) {
		return rules.Finding{}, false
	}
	for _, m := range lockMarks {
		if strings.Contains(low, m) {
			return guardLock(c, m), true
		}
	}
	for _, m := range procMarks {
		if strings.Contains(low, m) {
			return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.kill-guard", Marked: c.Raw,
				Reason: c.Name + " names agent-guard next to " + m + ": code that traces, patches, freezes or starves the guard's process switches it off; the agent may not switch its guard off"}, true
		}
	}
	for _, m := range windowMarks {
		if strings.Contains(low, m) {
			return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.guard-window", Marked: c.Raw,
				Reason: c.Name + " names agent-guard next to " + m + ": UI automation of the guard's window answers, hides or closes its approval dialog; an agent must not answer its own guard; ask the user"}, true
		}
	}
	return rules.Finding{}, false
}

// codeCarrier: c runs code or a management query given in its
// arguments (an interpreter's -c/-e, osascript -e, PowerShell, wmic).
func codeCarrier(name string, c *shell.Cmd) bool {
	switch name {
	case "osascript", "powershell", "pwsh", "wmic", "cscript", "wscript", "mshta", "rundll32":
		return true
	}
	if c.FedCode || c.HiddenCode {
		return true
	}
	for _, p := range codeCarrierPrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

var codeCarrierPrefixes = []string{"python", "node", "perl", "ruby", "php", "lua", "deno", "bun", "tclsh", "julia", "rscript"}
