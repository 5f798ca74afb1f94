package self

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"os"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// The guard's processes, reached by what they are called rather than by
// pid: a pkill/killall/pgrep/grep pattern, a taskkill or Stop-Process
// wildcard, is matched against the names and command lines the guard
// really runs under (agent-guard serve, agent-guard-hook, their paths);
// a pattern that matches is a kill of the guard (self.kill-guard), what
// ever else it also matches. Signals to every process of the user (kill
// -1, pkill -u USER) reach the guard too. Debuggers and resource tools
// attached to a guard pid (gdb -p, strace -p, prlimit --pid, writes to
// /proc/PID/mem) can stop or rewrite it (self.debug-guard).

func init() { pack.OnAny(ruleSelfProcs) }

// guardProcTexts are what a pattern is matched against: process names
// (as ps and pkill see them: comm is cut at 15 bytes), Windows image
// names, and full command lines (pkill -f, ps aux | grep).
func guardProcTexts(x *rules.Ctx, full bool) []string {
	names := []string{"agent-guard", "agent-guard-hook", "agent-guard-hoo", "agent-guard.exe", "agent-guard-hook.exe"}
	if !full {
		return names
	}
	// The long-running processes only (the tray and serve), at the paths
	// the guard is really installed at: a pattern that matches a path the
	// guard is not at (pkill -f dev under /home/dev) stops nothing of it.
	out := append([]string{}, names...)
	for _, b := range rules.SetFor(x.Cwd, x.Home).Binaries() {
		if protectOwnTray(b) {
			out = append(out, b+" serve --headless", b)
		}
	}
	return append(out, "agent-guard serve --headless")
}

// patternHitsGuard: the pattern (a regular expression as pkill, pgrep,
// killall -r and grep read it; glob for Windows) matches one of the
// guard's process texts.
func patternHitsGuard(pat string, x *rules.Ctx, full, exact, icase, glob bool) bool {
	if pat == "" || strings.Contains(pat, shell.Dyn) {
		return false
	}
	var re *regexp.Regexp
	var err error
	src := pat
	if glob {
		src = globToRe(pat)
		exact, icase = true, true
	}
	if exact {
		src = "^(?:" + src + ")$"
	}
	if icase {
		src = "(?i)" + src
	}
	re, err = regexp.Compile(src)
	for _, t := range guardProcTexts(x, full) {
		if err != nil {
			// a pattern Go cannot read: its literal text decides
			if strings.Contains(strings.ToLower(t), strings.ToLower(pat)) {
				return true
			}
			continue
		}
		if re.MatchString(t) || glob && re.MatchString(path.Base(t)) {
			return true
		}
	}
	return false
}

func globToRe(g string) string {
	var b strings.Builder
	for _, r := range g {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '%': // WMI's LIKE wildcard
			b.WriteString(".*")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	return b.String()
}

func killPatternFinding(c *shell.Cmd, pat string) rules.Finding {
	return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.kill-guard", Marked: c.Raw,
		Reason: "the pattern " + strconv.Quote(pat) + " matches agent-guard's own processes, so this stops the guard: an agent must not switch off its own guard; ask the user to do it"}
}

func ruleSelfProcs(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if c.DynName {
		return rules.Finding{}, false
	}
	switch c.Name {
	case "pkill", "pgrep", "skill", "snice":
		pat, full, exact, icase, all := pkillArgs(c)
		if c.Name == "pgrep" && !lineKills(x, c) {
			return rules.Finding{}, false
		}
		if all && userIsOwn(c, x) {
			return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.kill-guard", Marked: c.Raw,
				Reason: "signals every process of the user, agent-guard's too: an agent must not switch off its own guard; ask the user to do it"}, true
		}
		if patternHitsGuard(pat, x, full, exact, icase, false) {
			return killPatternFinding(c, pat), true
		}
	case "killall":
		names, regex, icase, user := killallArgs(c)
		if len(names) == 0 && user != "" && userIsOwn(c, x) {
			return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.kill-guard", Marked: c.Raw,
				Reason: "signals every process of the user, agent-guard's too: an agent must not switch off its own guard; ask the user to do it"}, true
		}
		for _, n := range names {
			if patternHitsGuard(n, x, false, !regex, icase, false) {
				return killPatternFinding(c, n), true
			}
		}
	case "kill":
		for i, a := range c.Args {
			// kill -9 -1, kill -- -1, kill -s KILL -1: pid -1 is every process
			// (a first -1 is the signal SIGHUP)
			if a == "-1" && i > 0 && (c.Args[i-1] == "--" || strings.HasPrefix(c.Args[i-1], "-") || i > 1 && (c.Args[i-2] == "-s" || c.Args[i-2] == "-n")) {
				return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.kill-guard", Marked: c.Raw,
					Reason: "kill -1 signals every process of the user, agent-guard's too: an agent must not switch off its own guard; ask the user to do it"}, true
			}
		}
	case "killall5":
		return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.kill-guard", Marked: c.Raw,
			Reason: "killall5 signals every process, agent-guard's too: an agent must not switch off its own guard; ask the user to do it"}, true
	case "taskkill", "tskill":
		for i, a := range c.Args {
			if strings.EqualFold(a, "/im") && i+1 < len(c.Args) && patternHitsGuard(c.Args[i+1], x, false, true, true, true) {
				return killPatternFinding(c, c.Args[i+1]), true
			}
			if c.Name == "tskill" && !strings.HasPrefix(a, "/") && patternHitsGuard(a, x, false, true, true, true) {
				return killPatternFinding(c, a), true
			}
			if strings.EqualFold(a, "/fi") && i+1 < len(c.Args) {
				// /fi "imagename eq agent*", /fi "windowtitle eq agent-guard*"
				f := strings.Fields(c.Args[i+1])
				if len(f) == 3 && (strings.EqualFold(f[1], "eq") || strings.EqualFold(f[1], "like")) && (strings.EqualFold(f[0], "imagename") || strings.EqualFold(f[0], "windowtitle")) &&
					patternHitsGuard(f[2], x, false, true, true, true) {
					return killPatternFinding(c, f[2]), true
				}
			}
		}
	case "stop-process", "spps", "kill-process", "suspend-process", "pssuspend", "pssuspend64":
		for _, p := range psNames(c) {
			if patternHitsGuard(p, x, false, true, true, true) {
				return killPatternFinding(c, p), true
			}
		}
	case "get-process", "gps", "ps", "grep", "egrep", "rg", "awk", "tasklist", "wmic", "get-ciminstance", "get-wmiobject", "gwmi", "where-object", "?", "findstr", "select-string":
		if !lineKills(x, c) {
			return rules.Finding{}, false
		}
		for _, p := range lookupPatterns(c) {
			if patternHitsGuard(p.pat, x, true, false, p.icase, p.glob) {
				return killPatternFinding(c, p.pat), true
			}
		}
	}
	if f, ok := selfDebug(c, x); ok {
		return f, true
	}
	return rules.Finding{}, false
}

// pkillArgs reads pkill/pgrep: the pattern, -f, -x, -i, and whether a
// user/group/session selection without a pattern picks every process.
func pkillArgs(c *shell.Cmd) (pat string, full, exact, icase, all bool) {
	sel := false
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		switch {
		case a == "--signal" || a == "-u" || a == "-U" || a == "-g" || a == "-G" || a == "-P" || a == "-s" || a == "-t" ||
			a == "-F" || a == "--ns" || a == "--nslist" || a == "--euid" || a == "--uid" || a == "--pgroup" ||
			a == "--group" || a == "--parent" || a == "--session" || a == "--terminal" || a == "--pidfile" || a == "-d" || a == "--delimiter":
			if a != "--signal" && a != "-F" && a != "--pidfile" && a != "-d" && a != "--delimiter" {
				sel = true
			}
			i++
		case a == "--full":
			full = true
		case a == "--exact":
			exact = true
		case a == "--ignore-case":
			icase = true
		case strings.HasPrefix(a, "--"):
			if k, _, _ := strings.Cut(a, "="); k == "--euid" || k == "--uid" || k == "--session" || k == "--group" {
				sel = true
			}
		case len(a) > 1 && a[0] == '-':
			cl := a[1:]
			if _, err := strconv.Atoi(cl); err == nil || strings.ToUpper(cl) == cl && len(cl) > 1 {
				continue // -9, -KILL, -SIGTERM
			}
			for k := 0; k < len(cl); k++ {
				switch cl[k] {
				case 'f':
					full = true
				case 'x':
					exact = true
				case 'i':
					icase = true
				case 'u', 'U', 'g', 'G', 's', 't', 'P':
					sel = true
					if k == len(cl)-1 {
						i++
					}
					k = len(cl)
				}
			}
		default:
			if pat == "" {
				pat = a
			}
		}
	}
	return pat, full, exact, icase, pat == "" && sel
}

func killallArgs(c *shell.Cmd) (names []string, regex, icase bool, user string) {
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		switch {
		case a == "-r" || a == "--regexp":
			regex = true
		case a == "-I" || a == "--ignore-case":
			icase = true
		case a == "-u" || a == "--user":
			if i+1 < len(c.Args) {
				user = c.Args[i+1]
				i++
			}
		case a == "-s" || a == "--signal" || a == "-o" || a == "-y" || a == "--older-than" || a == "--younger-than" || a == "-n" || a == "--ns":
			i++
		case len(a) > 1 && a[0] == '-':
			if strings.Contains(a[1:], "r") && a[1] != '-' && strings.ToUpper(a[1:]) != a[1:] {
				regex = true
			}
			if strings.Contains(a[1:], "I") && a[1] != '-' && len(a) <= 4 {
				icase = true
			}
		default:
			names = append(names, a)
		}
	}
	return names, regex, icase, user
}

// userIsOwn: the user selected (pkill -u NAME) is the agent's own, or
// cannot be known (so may be).
func userIsOwn(c *shell.Cmd, x *rules.Ctx) bool {
	own := strings.ToLower(path.Base(rules.Slashify(x.Home)))
	for i, a := range c.Args {
		v := ""
		switch {
		case (a == "-u" || a == "-U" || a == "--euid" || a == "--uid" || a == "--user") && i+1 < len(c.Args):
			v = c.Args[i+1]
		case strings.HasPrefix(a, "--euid=") || strings.HasPrefix(a, "--uid="):
			_, v, _ = strings.Cut(a, "=")
		default:
			continue
		}
		for _, u := range strings.Split(v, ",") {
			u = strings.ToLower(u)
			if u == own || strings.Contains(u, shell.Dyn) || u == "$user" || u == "$logname" || u == "$uid" || u == strconv.Itoa(os.Getuid()) && u != "0" {
				return true
			}
		}
	}
	return false
}

// psNames: Stop-Process -Name X, Stop-Process X (a name, not an id).
func psNames(c *shell.Cmd) []string {
	var out []string
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		la := strings.ToLower(a)
		switch {
		case (la == "-name" || la == "-processname" || la == "-n") && i+1 < len(c.Args):
			out = append(out, strings.Split(c.Args[i+1], ",")...)
			i++
		case la == "-id" || la == "-inputobject":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			if _, err := strconv.Atoi(a); err != nil {
				out = append(out, strings.Split(a, ",")...)
			}
		}
	}
	return out
}

type lookPat struct {
	pat         string
	icase, glob bool
}

var awkRe = lazyre.New(`/((?:[^/\\]|\\.)+)/`)
var likeRe = lazyre.New(`(?i)like\s+['"]([^'"]+)['"]|name\s*=\s*\\?['"]([^'"\\]+)\\?['"]`)

// lookupPatterns are the patterns a process lookup filters by.
func lookupPatterns(c *shell.Cmd) []lookPat {
	var out []lookPat
	switch c.Name {
	case "grep", "egrep", "rg", "findstr", "select-string":
		icase, inverted, pat := false, false, ""
		for i := 0; i < len(c.Args); i++ {
			a := c.Args[i]
			switch {
			case a == "-e" || a == "--regexp" || strings.EqualFold(a, "-pattern"):
				if i+1 < len(c.Args) {
					out = append(out, lookPat{pat: c.Args[i+1]})
					i++
				}
			case a == "-i" || a == "--ignore-case" || strings.EqualFold(a, "/i"):
				icase = true
			case a == "-v" || a == "--invert-match" || strings.EqualFold(a, "/v"):
				inverted = true
			case strings.HasPrefix(a, "-") && len(a) > 1:
				if a[1] != '-' && strings.Contains(a, "i") {
					icase = true
				}
				if a[1] != '-' && strings.Contains(a, "v") {
					inverted = true
				}
			default:
				if pat == "" {
					pat = a
				}
			}
		}
		if inverted {
			return nil
		}
		if pat != "" {
			out = append(out, lookPat{pat: pat})
		}
		for i := range out {
			out[i].icase = icase || c.Name == "findstr" || c.Name == "select-string"
		}
	case "awk":
		for _, a := range c.Args {
			for _, m := range awkRe.FindAllStringSubmatch(a, -1) {
				out = append(out, lookPat{pat: m[1]})
			}
		}
	case "get-process", "gps", "tasklist":
		for _, n := range psNames(c) {
			out = append(out, lookPat{pat: n, glob: true})
		}
		for i, a := range c.Args {
			if strings.EqualFold(a, "/fi") && i+1 < len(c.Args) {
				if _, v, ok := strings.Cut(c.Args[i+1], " eq "); ok {
					out = append(out, lookPat{pat: strings.TrimSpace(v), glob: true})
				}
			}
		}
	default: // wmic, Get-CimInstance, Where-Object: name like '%guard%', -like '*guard*'
		for _, m := range likeRe.FindAllStringSubmatch(c.Raw, -1) {
			out = append(out, lookPat{pat: m[1] + m[2], glob: true})
		}
		if (c.Name == "?" || c.Name == "where-object") && !strings.Contains(c.Raw, " ") {
			// the splitter hands the filter block's values as arguments
			// (? { $_.Path -like '*agent-guard*' } -> ? agent-guard)
			for _, a := range c.Args {
				if !strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "$") {
					out = append(out, lookPat{pat: a, glob: true, icase: true})
				}
			}
		}
		for i, a := range c.Args {
			if (strings.EqualFold(a, "-like") || strings.EqualFold(a, "-match")) && i+1 < len(c.Args) {
				out = append(out, lookPat{pat: c.Args[i+1], glob: strings.EqualFold(a, "-like"), icase: true})
			}
		}
	}
	return out
}

// lineKills: the line also stops processes (kill $(pgrep X), pgrep X |
// xargs kill, Get-Process X | Stop-Process, wmic ... delete), so a lookup
// in it chooses what is stopped.
func lineKills(x *rules.Ctx, c *shell.Cmd) bool {
	if strings.Contains(strings.ToLower(c.Raw), " delete") || strings.Contains(strings.ToLower(c.Raw), "terminate") {
		return true
	}
	if x.All == nil {
		return false
	}
	if strings.Contains(strings.ToLower(x.Script), ".kill(") {
		return true // $p = Get-Process X; $p.Kill(): the method call is no command of its own
	}
	for i := range x.All.Cmds {
		o := &x.All.Cmds[i]
		if o == c {
			continue
		}
		if rules.GuardKillers[o.Name] || debuggers[o.Name] || o.Name == "invoke-cimmethod" || o.Name == "kill" ||
			o.Name == "remove-wmiobject" || o.Name == "remove-ciminstance" || o.Name == "rcim" || o.Name == "rwmi" ||
			strings.Contains(strings.ToLower(o.Raw), ".kill(") ||
			// Get-Process | ? {...} | % { $_.Kill() }: the block's code is not
			// seen, and a process list piped into it is there to be acted on
			(o.Name == "%" || o.Name == "foreach-object") && lineRuns(x, "get-process", "gps") {
			return true
		}
	}
	return false
}

// debuggers are programs that attach to a running process by pid.
var debuggers = map[string]bool{"gdb": true, "lldb": true, "strace": true, "ltrace": true, "prlimit": true,
	"gcore": true, "perf": true, "cpulimit": true, "criu": true, "reptyr": true, "bpftrace": true, "dtrace": true,
	"dtruss": true, "frida": true, "rr": true, "procdump": true, "ptrace": true,
	// and the ones that starve it: a guard at nice 19, idle I/O class or
	// one slow core answers after the host's hook timeout
	"renice": true, "ionice": true, "taskset": true, "chrt": true, "schedtool": true, "cgclassify": true}

// pidReaders only look at a process given by pid: a guard pid looked up
// for them is no attack (ps -o rss= -p $(pidof agent-guard)).
var pidReaders = map[string]bool{"ps": true, "top": true, "htop": true, "atop": true, "btop": true, "pstree": true,
	"pmap": true, "pwdx": true, "prtstat": true, "procs": true, "cat": true, "echo": true, "printf": true, "ls": true,
	"stat": true, "readlink": true, "realpath": true, "test": true, "[": true, "[[": true, "lsof": true, "grep": true,
	"egrep": true, "rg": true, "pgrep": true, "pidof": true, "journalctl": true, "tail": true, "head": true,
	"wait": true, "sleep": true, "true": true, "expr": true, "seq": true, "wc": true, "get-process": true, "gps": true,
	"tasklist": true, "wait-process": true, "write-output": true, "write-host": true, "select-object": true}

// selfDebug: a debugger on a guard pid, or a write into /proc/PID/mem of
// one; the pid literal (resolved now) or looked up in the same line by a
// pattern that matches the guard.
func selfDebug(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	var pids []string
	if debuggers[c.Name] {
		for i, a := range c.Args {
			switch {
			case (a == "-p" || a == "--pid" || a == "-t" && c.Name == "criu" || a == "attach" || a == "--attach-pid" || a == "-pid") && i+1 < len(c.Args):
				pids = append(pids, c.Args[i+1])
			case strings.HasPrefix(a, "--pid="):
				pids = append(pids, a[6:])
			case strings.HasPrefix(a, "-p") && len(a) > 2 && a[2] >= '0' && a[2] <= '9':
				pids = append(pids, a[2:])
			case c.Name == "gdb" && i > 0 && isNumber(a):
				pids = append(pids, a) // gdb PROGRAM PID
			case (c.Name == "gcore" || c.Name == "reptyr" || c.Name == "procdump" || c.Name == "renice" || c.Name == "taskset" ||
				c.Name == "chrt" || c.Name == "cgclassify") && !strings.HasPrefix(a, "-") && (isNumber(a) || strings.Contains(a, shell.Dyn)):
				pids = append(pids, a) // renice 19 PID, taskset -p MASK PID
			}
		}
	}
	if !debuggers[c.Name] && !pidReaders[c.Name] && !rules.GuardKillers[c.Name] && c.Name != "kill" &&
		rules.GuardWord(c.Raw) && (strings.Contains(c.Raw, "$(") || strings.Contains(c.Raw, "`")) {
		// the substitution in this very command looks the guard up
		// Any other program handed a pid looked up in the same line
		// (node -e 'process.kill(+process.argv[1])' $(pidof agent-guard),
		// a script given the guard's pid) acts on that process.
		for _, a := range c.Args {
			if strings.Contains(a, shell.Dyn) {
				pids = append(pids, a)
				break
			}
		}
	}
	targets := rules.WrittenBy(c)
	for _, r := range c.Redirs {
		switch r.Op {
		case ">", ">>", ">|", "<>", "&>":
			targets = append(targets, r.Target)
		}
	}
	if c.Name == "tee" {
		targets = append(targets, c.Operands()...)
	}
	for _, t := range targets {
		s := rules.Slashify(t)
		if strings.HasPrefix(s, "/proc/") && (strings.HasSuffix(s, "/mem") || strings.Contains(s, "/fd/") || strings.HasSuffix(s, "/environ")) {
			pid, _, _ := strings.Cut(strings.TrimPrefix(s, "/proc/"), "/")
			pids = append(pids, pid)
		}
	}
	if len(pids) == 0 {
		return rules.Finding{}, false
	}
	set := rules.SetFor(x.Cwd, x.Home)
	for _, p := range pids {
		if strings.Contains(p, shell.Dyn) {
			if guardLookupInLine(x) {
				return debugFinding(c, "a pid looked up by a pattern that matches agent-guard"), true
			}
			continue
		}
		if pid, err := strconv.Atoi(p); err == nil {
			if what, ok := set.GuardPID(pid); ok {
				return debugFinding(c, "process "+p+", which is agent-guard itself ("+what+")"), true
			}
		}
	}
	return rules.Finding{}, false
}

func isNumber(s string) bool { _, err := strconv.Atoi(s); return err == nil && s != "" }

func debugFinding(c *shell.Cmd, what string) rules.Finding {
	return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.debug-guard", Marked: c.Raw,
		Reason: c.Name + " attaches to or writes into " + what + ": it can stop the guard or change what it answers; an agent must not switch off its own guard; ask the user to do it"}
}

// guardLookupInLine: pgrep/pidof/ps|grep in the line with a pattern that
// matches the guard (the $(...) feeding a pid).
func guardLookupInLine(x *rules.Ctx) bool {
	if x.All == nil {
		return false
	}
	for i := range x.All.Cmds {
		o := &x.All.Cmds[i]
		switch o.Name {
		case "pgrep":
			pat, full, exact, icase, _ := pkillArgs(o)
			if patternHitsGuard(pat, x, full, exact, icase, false) {
				return true
			}
		case "pidof":
			for _, a := range o.Operands() {
				if patternHitsGuard(a, x, false, true, false, false) {
					return true
				}
			}
		case "grep", "egrep", "awk", "get-process", "gps":
			for _, p := range lookupPatterns(o) {
				if patternHitsGuard(p.pat, x, true, false, p.icase, p.glob) {
					return true
				}
			}
		}
	}
	return false
}

// protectOwnTray: a binary that runs as a long-lived guard process (the
// tray/CLI), not the per-call hook.
func protectOwnTray(b string) bool {
	base := strings.TrimSuffix(strings.ToLower(path.Base(rules.Slashify(b))), ".exe")
	return base != "agent-guard-hook"
}

// lineRuns: one of the programs is among the line's commands.
func lineRuns(x *rules.Ctx, names ...string) bool {
	for i := range x.All.Cmds {
		for _, n := range names {
			if x.All.Cmds[i].Name == n {
				return true
			}
		}
	}
	return false
}

// ruleSelfThrottleByName: throttlers that pick their target by program
// name or path rather than pid (cpulimit -e NAME / -P PATH, --exe=,
// --path=): aimed at the guard they starve it past the host's hook
// timeout, like renice on its pid.
func ruleSelfThrottleByName(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	for i, a := range c.Args {
		v := ""
		switch {
		case (a == "-e" || a == "--exe" || a == "-P" || a == "--path") && i+1 < len(c.Args):
			v = c.Args[i+1]
		case strings.HasPrefix(a, "--exe=") || strings.HasPrefix(a, "--path="):
			_, v, _ = strings.Cut(a, "=")
		}
		if v != "" && rules.GuardWord(v) {
			return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.debug-guard", Marked: c.Raw,
				Reason: c.Name + " throttles " + v + ", the agent's own guard, by name: it would answer after the host's hook timeout; an agent must not slow or stop its own guard; ask the user"}, true
		}
	}
	return rules.Finding{}, false
}

func init() { pack.On(ruleSelfThrottleByName, "cpulimit") }
