package rules

import (
	"path"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/facts"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Bash judges a shell command line: every simple command the parser finds
// (nested shells, substitutions, wrappers included) goes through the rules
// registered for its name and the rules for all commands, plus the checks
// on its output redirections; the worst finding decides.
//
// Convention for packs: a rule returns ok=true for every form of its
// program it recognises, allows included. A command no rule recognised is
// an unknown program: allow, but Uncertain (the remote judge may look).
func Bash(script, cwd, home string) Finding {
	a := shell.AnalyzeDir(script, cwd)
	return BashAnalysis(&a, script, cwd, home)
}

// BashAnalysis is Bash over an existing analysis (the fast path's
// allowlist also needs the commands).
func BashAnalysis(a *shell.Analysis, script, cwd, home string) Finding {
	return BashEach(a, script, cwd, home, nil, nil)
}

// BashAnalysisOn is BashAnalysis with the machine state m (machine.go).
func BashAnalysisOn(a *shell.Analysis, script, cwd, home string, m *Machine) Finding {
	return BashEach(a, script, cwd, home, m, nil)
}

// BashEach is BashAnalysisOn that also hands each simple command's own
// finding to each (index into a.Cmds; nil: none), with the folder it runs
// in as far as the line says (after `cd DIR`, `env -C DIR`; shell.Dyn
// when unknown). Findings that belong to no single command (parse errors,
// fork bombs) go to each with index -1. The fast path's scoped approvals
// need the per-command view: an approval of one command must not cover a
// different one next to it, nor the same one run in another folder.
func BashEach(a *shell.Analysis, script, cwd, home string, m *Machine, each func(i int, dir string, f Finding)) Finding {
	x := &Ctx{Cwd: cwd, Home: home, All: a, Project: cwd, M: m, Script: script}
	var w Finding
	have := false
	cur, dir := -1, cwd
	add := func(f Finding) {
		if cur >= 0 {
			f = withSpan(f, &a.Cmds[cur], script)
		}
		if each != nil {
			each(cur, dir, f)
		}
		if !have || f.Worse(w) {
			w, have = f, true
		}
	}
	if a.TooDeep {
		return Finding{Risk: 3, Violation: 0.9, Rule: "shell.too-deep", Marked: oneLineCut(script, 80),
			Reason: a.Err.Error() + ": an agent sending such a line is probing the guard; blocked"}
	}
	if a.Err != nil {
		add(parseErrFinding(a, script))
	}
	if a.Capped {
		// 2000 harmless commands, or 256 KB of padding, then the real one:
		// the limits are in the source, and a tail the judge did not read
		// is one the user cannot read in the dialog either
		// Blocked whatever its commands say: they are not judged one by
		// one (2000 of them took over the judge's budget under -race,
		// which made the answer a time-out's instead of this one).
		return Finding{Risk: 3, Violation: 0.9, RedLine: true, Rule: "shell.too-long", Marked: oneLineCut(script, 80),
			Reason: a.Err.Error() + ": the rest of the line was not read, and no one can review such a line in a dialog; an agent sending it is probing the guard's limits; blocked"}
	}
	if a.ForkBomb != "" {
		add(forkBombFinding(a))
	}
	if a.Exhaust != "" {
		add(Finding{Risk: 2, Violation: 0.4, Rule: "res.endless-fill", Marked: a.Exhaust,
			Reason: "an endless loop without a pause keeps creating files or folders: it fills the disk"})
	}
	dirs := cwdTracker{cwd: map[string]string{"": cwd}}
	for i := range a.Cmds {
		c := &a.Cmds[i]
		x.Cwd = dirs.at(c.Scope)
		cur = i
		if c.Dir != "" {
			// env -C DIR cmd: cmd's relative paths are under DIR.
			y := *x
			y.Cwd = bashCd(&shell.Cmd{Name: "cd", Args: []string{c.Dir}, Raw: c.Raw}, x)
			dir = y.Cwd
			add(judgeCmd(c, &y))
			continue
		}
		dir = x.Cwd
		add(judgeCmd(c, x))
		dirs.follow(c, x)
	}
	if !have {
		return Finding{Rule: "shell.empty", Reason: "runs no command", Marked: script}
	}
	if what, seen := hiddenText(script); what != "" {
		if seen == script {
			seen = "true"
		}
		cur = -1
		add(hiddenTextFinding(what, seen, cwd, home, m, w))
	}
	return w
}

// cwdTracker follows cd, pushd and popd per subshell scope
// (shell.Cmd.Scope), so a cd inside ( ) or $( ) does not move the
// commands after it, and a popd comes back.
type cwdTracker struct {
	cwd   map[string]string   // scope -> its current folder
	stack map[string][]string // scope -> pushd's saved folders
}

// at is the folder commands in scope run in: the scope's own, else the
// nearest enclosing scope's (a subshell starts where its parent is).
func (t *cwdTracker) at(scope string) string {
	for {
		if d, ok := t.cwd[scope]; ok {
			return d
		}
		i := strings.LastIndexByte(scope, '/')
		if i < 0 {
			return t.cwd[""]
		}
		scope = scope[:i]
	}
}

func (t *cwdTracker) follow(c *shell.Cmd, x *Ctx) {
	switch c.Name {
	case "cd", "set-location", "sl", "chdir":
		t.cwd[c.Scope] = bashCd(c, x)
	case "pushd", "push-location":
		if t.stack == nil {
			t.stack = map[string][]string{}
		}
		if len(c.Operands()) == 0 {
			// pushd alone swaps the folder with the top of the stack.
			// With nothing pushed in this line the stack is empty (each
			// call starts a fresh shell): pushd fails and stays.
			if s := t.stack[c.Scope]; len(s) > 0 {
				t.cwd[c.Scope], s[len(s)-1] = s[len(s)-1], x.Cwd
			}
			return
		}
		t.stack[c.Scope] = append(t.stack[c.Scope], x.Cwd)
		t.cwd[c.Scope] = bashCd(c, x)
	case "popd", "pop-location":
		if s := t.stack[c.Scope]; len(s) > 0 {
			t.cwd[c.Scope] = s[len(s)-1]
			t.stack[c.Scope] = s[:len(s)-1]
		} // else: an empty stack, popd fails and the folder stays
	}
}

// withSpan gives f the offsets of what it marked inside command c's
// source span, when the analysis knows that span and it still reads as
// c's text (a second reading of the line, e.g. the Windows one, has other
// offsets and is left without).
func withSpan(f Finding, c *shell.Cmd, script string) Finding {
	if f.End > 0 || c.End <= c.Start || c.End > len(script) || script[c.Start:c.End] != c.Raw {
		return f
	}
	if f.Marked == "" || f.Marked == c.Raw {
		f.Start, f.End = c.Start, c.End
		return f
	}
	if k := strings.Index(c.Raw, f.Marked); k >= 0 {
		f.Start, f.End = c.Start+k, c.Start+k+len(f.Marked)
	}
	return f
}

// bashCd follows `cd DIR` so later relative paths resolve where they
// will run (`cd / && rm -rf *`). An unknown folder makes them unknown.
// The result is cleaned (`cd ..` from /a/b is /a, not /a/b/..), so the
// repository and the folder names are those of the folder it lands in.
func bashCd(c *shell.Cmd, x *Ctx) string {
	d := bashCdRaw(c, x)
	if strings.Contains(d, shell.Dyn) || strings.Contains(d, "\\") {
		return d
	}
	if strings.HasPrefix(d, "/") {
		return path.Clean(d)
	}
	if d == "~" || strings.HasPrefix(d, "~/") {
		if cl := path.Clean(d); strings.HasPrefix(cl, "~") || x.Home == "" {
			return cl
		}
		return path.Clean(x.Home + d[1:]) // ~/.. leaves the home folder
	}
	if len(d) >= 3 && d[1] == ':' && d[2] == '/' {
		return d[:2] + path.Clean(d[2:])
	}
	return d
}

func bashCdRaw(c *shell.Cmd, x *Ctx) string {
	ops := c.Operands()
	if len(ops) == 0 {
		return "~"
	}
	d := ops[0]
	switch {
	case strings.Contains(c.Raw, "--show-toplevel"):
		// cd "$(git rev-parse --show-toplevel)": the repository, taken as the project.
		return x.Project
	case d == "-" || strings.Contains(d, shell.Dyn):
		return shell.Dyn
	case strings.HasPrefix(d, "/") || strings.HasPrefix(d, "~") || len(d) >= 2 && d[1] == ':':
		return d
	case strings.HasPrefix(d, "%") || strings.HasPrefix(strings.ToLower(d), "$env:"):
		return d // cd %APPDATA%: a Windows variable names a folder of its own
	case x.Cwd == "":
		return d
	}
	return strings.TrimRight(x.Cwd, "/") + "/" + d
}

// judgeCmd is the worst finding for one simple command.
func judgeCmd(c *shell.Cmd, x *Ctx) Finding {
	if c.Obfuscated && c.WinProg != "" && !c.DynName && len(rulesFor(c.Name)) == 0 {
		// .venv\Scripts\python: bash would run .venvScriptspython, no
		// program any rule knows (nothing to hide); Windows runs the
		// program the path names, judged as that program. r\m stays rm.
		w := *c
		w.Name, w.Prog, w.Path = shell.NormName(c.WinProg), c.WinProg, c.WinProg
		w.Obfuscated, w.WinProg = false, ""
		return judgeCmd(&w, x)
	}
	var w Finding
	have, known := false, false
	add := func(f Finding) {
		if !have || f.Worse(w) {
			w, have = f, true
		}
	}
	if c.Name == "" && !c.DynName {
		known = true // only redirections
	}
	if f, ok := dynFinding(c); ok {
		add(f)
		known = !c.Obfuscated || c.DynName || c.HiddenCode
	}
	if f, ok := helpForm(c); ok {
		// rm --help, kubectl delete ns x -h: the packs would judge an
		// action that does not happen (redirections and anyCmd rules still run).
		add(f)
		known = true
	} else if !c.DynName {
		for _, r := range rulesFor(c.Name) {
			if f, ok := r.rule(c, x); ok {
				add(f)
				known = true
			}
		}
	}
	for _, r := range anyCmd {
		if f, ok := r.rule(c, x); ok {
			add(f)
		}
	}
	for _, r := range c.Redirs {
		if f, ok := redirFinding(c, r, x); ok {
			add(f)
		}
	}
	if f, ok := globName(c, x); ok {
		add(f) // /bin/r? -rf ~: judged as the programs the pattern matches
		known = true
	}
	if !known {
		if c.Func {
			add(Finding{Rule: "shell.function", Reason: "calls " + c.Name + ", a function defined in the same command", Marked: c.Raw})
		} else if f, ok := unknownDestroyVerb(c); ok {
			add(f)
		} else if f, ok := selfUnknownOperand(c, x); ok {
			add(f) // an unknown program given the guard's files (selfunknown.go)
		} else {
			add(Finding{Risk: 0.5, Rule: "shell.unknown", Reason: c.Name + " is a program the local rules do not know", Marked: c.Raw, Uncertain: true})
		}
	}
	if x.M != nil {
		w = x.M.adjust(c, x, w) // disk state, scripts about to run, session names (machine.go)
	}
	if (!known && !c.Func || w.NameOnly) && w.Risk < 2.5 && w.Violation < RedLineAt {
		if f, ok := tailFinding(c, x, known); ok {
			add(f)
		}
	}
	return w
}

// tailHeads are programs that, met among the arguments of an unknown
// wrapper (faketime, gosu root, tini --, valgrind, op run --), are most
// likely what it runs: the rest of the line is judged as that command.
// Every shell, interpreter and elevator of the facts table is one.
var tailHeads = func() *Set {
	l := []string{"rm", "rmdir", "shred", "dd", "wipefs", "truncate", "git",
		"chmod", "chown", "kill", "pkill", "killall", "find", "mv",
		"format", "del", "rd", "remove-item",
		"diskpart", "systemctl", "reboot", "shutdown", "halt", "poweroff",
		"crontab", "curl", "wget", "docker", "kubectl", "fdisk", "parted", "mkfs", "xargs",
		"tee", "ln", "cp", "psql", "mysql", "redis-cli", "terraform"}
	for _, k := range []facts.Kind{facts.Shell, facts.WinShell, facts.Interpreter, facts.Elevator} {
		l = append(l, facts.Names(k)...)
	}
	return newSet(l)
}()

// tailNever print or describe their arguments (man rm, which rm).
var tailNever = map[string]bool{"man": true, "info": true, "tldr": true, "help": true, "apropos": true,
	"whatis": true, "which": true, "whereis": true, "type": true, "echo": true, "printf": true}

// tailSubcommand are heads that, right after a known tool, are its
// own subcommand (ruff format, mytool cp a b).
var tailSubcommand = map[string]bool{"format": true, "cp": true, "mv": true, "ln": true, "tee": true, "find": true,
	"kill": true, "del": true, "rd": true, "git": true, "docker": true, "kubectl": true, "terraform": true,
	"psql": true, "mysql": true, "redis-cli": true, "xargs": true, "python": true, "python3": true, "node": true,
	"ruby": true, "perl": true, "curl": true, "wget": true, "crontab": true, "truncate": true, "rmdir": true}

func tailFinding(c *shell.Cmd, x *Ctx, known bool) (Finding, bool) {
	for k, a := range c.Args {
		n := shell.NormName(a)
		if !tailHeads.Has(n) && !strings.HasPrefix(n, "mkfs.") {
			continue
		}
		if k == 0 && tailSubcommand[n] && known {
			continue // ruff format ., dotnet format: a subcommand, not a program
		}
		sub := &shell.Cmd{Name: n, Args: c.Args[k+1:], Raw: c.Raw, Depth: c.Depth,
			Wrappers: append(append([]string(nil), c.Wrappers...), c.Name), PipedFrom: c.PipedFrom, PipedTo: c.PipedTo}
		f := judgeCmd(sub, x)
		if f.Risk < 1.5 && f.Violation < 0.5 {
			return Finding{}, false
		}
		f.Reason = c.Name + " runs " + n + ": " + f.Reason
		return f, true
	}
	return Finding{}, false
}

// redirFinding judges an output redirection's target like a write.
func redirFinding(c *shell.Cmd, r shell.Redir, x *Ctx) (Finding, bool) {
	switch r.Op {
	case ">", ">>", ">|", "&>", "&>>", "<>":
	case ">&":
		if len(r.Target) == 1 || r.Target == "-" || r.Target == "" {
			return Finding{}, false // 2>&1
		}
		if _, isNum := atoiSmall(r.Target); isNum {
			return Finding{}, false
		}
	default:
		return Finding{}, false
	}
	return fsWriteTarget(c, r.Target, x), true
}

// atoiSmall: is s a file descriptor number? (second result: yes)
func atoiSmall(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, s != ""
}

// The allow baseline this pack owns: shell builtins and plain readers.
// (The everyday pack owns the long list of build and dev tools.)
func init() {
	on(ruleBaseline, "ls", "cat", "echo", "pwd", "cd", "grep", "egrep", "fgrep", "rg", "head", "tail", "wc",
		"sort", "which", "true", "false", ":", "test", "[", "[[", "printf", "sleep", "date", "whoami",
		"exit", "return", "set", "unset", "shift", "export", "local", "declare", "typeset", "readonly",
		"read", "wait", "trap", "type", "hash", "alias", "unalias", "pushd", "popd", "dirs", "let",
		"shopt", "umask", "getopts", "command", "builtin", "exec", "break", "continue", "times", "jobs",
		"fg", "bg", "disown", "history", "help", "logout", "ulimit", "enable", "compgen", "complete",
		"basename", "dirname", "realpath", "readlink", "stat", "file", "tree", "less", "more", "uniq",
		"cut", "tr", "diff", "cmp", "comm", "nl", "tac", "rev", "fold", "column", "expand", "seq",
		"mkdir", "touch", "xargs", "nohup", "time", "env", "timeout", "nice", "sudo", "doas")
}

func ruleBaseline(c *shell.Cmd, x *Ctx) (Finding, bool) {
	switch c.Name {
	case "mkdir", "touch":
		var w Finding
		have := false
		for _, t := range c.Operands() {
			f := fsWriteTarget(c, t, x)
			if !have || f.Worse(w) {
				w, have = f, true
			}
		}
		if have && w.Risk > 0.5 || w.RedLine {
			return w, true
		}
		return Finding{Risk: 0, Rule: "fs." + c.Name, Reason: c.Name + " creates files or folders", Marked: c.Raw}, true
	case "sudo", "doas", "env", "nohup", "timeout", "nice", "time", "xargs", "exec", "command", "builtin":
		// A wrapper left alone: `sudo -v`, `env` (prints), `exec >log`.
		if c.Name == "sudo" || c.Name == "doas" {
			for _, a := range c.Args {
				if a == "-s" || a == "-i" || a == "su" {
					return Finding{Risk: 1.5, Violation: 0.3, Rule: "shell.root-shell", Reason: c.Name + " opens a root shell", Marked: c.Raw}, true
				}
			}
		}
		return Finding{Rule: "shell.builtin", Reason: c.Name + " runs nothing by itself", Marked: c.Raw}, true
	}
	return Finding{Rule: "shell.read", Reason: c.Name + " only reads or prints", Marked: c.Raw}, true
}

// oneLineCut is the first n bytes of s, for a Marked that must stay small.
func oneLineCut(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
