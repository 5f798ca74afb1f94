package everyday

// Everyday tools that can run shell commands of their own: editor and
// debugger shell escapes (vim -c ':!cmd', gdb -ex 'shell cmd'), expect's
// spawn, a Makefile fed on stdin, and wrappers that only change the
// environment of the program they start (faketime, eatmydata...). What
// they run is judged like a command line; the tool alone stays everyday.

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

func init() {
	pack.On(ruleEditorEscape, "vim", "vi", "nvim", "view", "ex", "gvim", "vimdiff")
	pack.On(ruleDebuggerEscape, "gdb", "lldb", "cgdb")
	pack.On(ruleExpect, "expect")
	pack.On(ruleMakeStdin, "make", "gmake")
	pack.On(ruleEnvWrapper, "faketime", "eatmydata", "nocache", "torsocks", "tsocks", "catchsegv", "libfaketime")
	pack.On(ruleMountvol, "mountvol")
}

// pkJudgeInner judges a command line a tool runs; ok only when it is
// worth reporting (confirm or worse).
func pkJudgeInner(c *shell.Cmd, x *rules.Ctx, line, who string) (rules.Finding, bool) {
	line = strings.TrimSpace(strings.ReplaceAll(line, shell.Dyn, "$X"))
	if line == "" || c.Depth >= rules.PkMaxDepth {
		return rules.Finding{}, false
	}
	f := rules.Bash(line, x.Cwd, x.Home)
	if f.Score() < 1.5 && !f.RedLine {
		return rules.Finding{}, false
	}
	f.Rule = who + "/" + f.Rule
	f.Reason = who + " runs a shell command that " + f.Reason
	f.Marked = c.Raw
	return f, true
}

// pkWorstInner judges several command lines; the worst one decides.
func pkWorstInner(c *shell.Cmd, x *rules.Ctx, lines []string, who string) (rules.Finding, bool) {
	var fs []rules.Finding
	for _, l := range lines {
		if f, ok := pkJudgeInner(c, x, l, who); ok {
			fs = append(fs, f)
		}
	}
	if len(fs) == 0 {
		return rules.Finding{}, false
	}
	return rules.Worst(fs...), true
}

// pkVimShell returns the shell command of an ex command (":!cmd",
// ":r !cmd", ":w !cmd", ":call system('cmd')"), or "".
func pkVimShell(ex string) []string {
	e := strings.TrimLeft(strings.TrimSpace(ex), ":")
	e = strings.TrimSpace(e)
	switch {
	case strings.HasPrefix(e, "!"):
		return []string{e[1:]}
	case strings.HasPrefix(e, "r !"), strings.HasPrefix(e, "r!"), strings.HasPrefix(e, "read !"), strings.HasPrefix(e, "w !"), strings.HasPrefix(e, "w!"), strings.HasPrefix(e, "write !"), strings.HasPrefix(e, "sil !"), strings.HasPrefix(e, "silent !"), strings.HasPrefix(e, "silent!"), strings.HasPrefix(e, "te "), strings.HasPrefix(e, "terminal "):
		_, rest, _ := strings.Cut(e, "!")
		if rest == "" {
			_, rest, _ = strings.Cut(e, " ")
		}
		return []string{rest}
	}
	if strings.Contains(e, "system(") || strings.Contains(e, "systemlist(") || strings.Contains(e, "jobstart(") {
		return rules.PkInnerShell(e, false)
	}
	return nil
}

// ruleEditorEscape: vim -c ':!rm -rf ~', vim +'!cmd', --cmd.
func ruleEditorEscape(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	var lines []string
	for i, a := range c.Args {
		switch {
		case (a == "-c" || a == "--cmd") && i+1 < len(c.Args):
			lines = append(lines, pkVimShell(c.Args[i+1])...)
		case strings.HasPrefix(a, "+") && len(a) > 1:
			lines = append(lines, pkVimShell(a[1:])...)
		}
	}
	return pkWorstInner(c, x, lines, c.Name)
}

// ruleDebuggerEscape: gdb -ex 'shell cmd' / '!cmd' / 'call system("cmd")',
// lldb -o 'platform shell cmd'.
func ruleDebuggerEscape(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	var lines []string
	for i, a := range c.Args {
		var ex string
		switch {
		case (a == "-ex" || a == "--ex" || a == "-iex" || a == "--eval-command" || a == "-o" || a == "--one-line" || a == "-O") && i+1 < len(c.Args):
			ex = c.Args[i+1]
		case strings.HasPrefix(a, "--eval-command="), strings.HasPrefix(a, "-ex="):
			_, ex, _ = strings.Cut(a, "=")
		default:
			continue
		}
		e := strings.TrimSpace(ex)
		le := strings.ToLower(e)
		switch {
		case strings.HasPrefix(e, "!"):
			lines = append(lines, e[1:])
		case len(e) > 6 && strings.EqualFold(e[:6], "shell "):
			lines = append(lines, e[6:])
		case len(e) > 15 && strings.EqualFold(e[:15], "platform shell "):
			lines = append(lines, e[15:])
		case strings.Contains(le, "system("), strings.Contains(le, "popen("), strings.Contains(le, "exec"):
			lines = append(lines, rules.PkInnerShell(e, false)...)
		}
	}
	return pkWorstInner(c, x, lines, c.Name)
}

// ruleExpect: expect -c 'spawn CMD; ...' and exec/system in Tcl code.
func ruleExpect(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	code, _ := rules.PkVal(c, "-c")
	if s := rules.PkStdinCode(c); s != "" {
		code += "\n" + s
	}
	if strings.TrimSpace(code) == "" {
		return rules.Finding{}, false
	}
	var lines []string
	for _, st := range strings.FieldsFunc(code, func(r rune) bool { return r == ';' || r == '\n' }) {
		st = strings.TrimSpace(strings.Trim(strings.TrimSpace(st), "[]{}"))
		for _, kw := range []string{"spawn ", "exec ", "system "} {
			if strings.HasPrefix(st, kw) {
				rest := strings.TrimSpace(st[len(kw):])
				for strings.HasPrefix(rest, "-") { // spawn -noecho cmd
					_, rest, _ = strings.Cut(rest, " ")
				}
				lines = append(lines, rest)
			}
		}
	}
	return pkWorstInner(c, x, lines, "expect")
}

// ruleMakeStdin: make -f /dev/stdin (or -f -) with the Makefile on stdin:
// its recipe lines are shell commands.
func ruleMakeStdin(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	f, _ := rules.PkVal(c, "-f", "--file", "--makefile")
	if f != "-" && f != "/dev/stdin" && !rules.PkHasPrefix(c, "--file=/dev/stdin", "--file=-", "-f/dev/stdin", "-f-") {
		return rules.Finding{}, false
	}
	mk := rules.PkStdinCode(c)
	if mk == "" {
		return rules.PkUnsure(c, 1.5, "build.make-stdin", "runs a Makefile that arrives on stdin (its recipes are not visible)")
	}
	var lines []string
	for _, l := range strings.Split(mk, "\n") {
		if strings.HasPrefix(l, "\t") {
			lines = append(lines, strings.TrimLeft(strings.TrimSpace(l), "@-+"))
		}
	}
	return pkWorstInner(c, x, lines, "make")
}

// ruleEnvWrapper: faketime TIME CMD, eatmydata CMD...: the program they
// start is judged as itself.
func ruleEnvWrapper(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	args := c.Args
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") {
		if c.Name == "faketime" && args[i] == "-p" {
			i++ // -p PID
		}
		i++
	}
	if c.Name == "faketime" || c.Name == "libfaketime" {
		i++ // the timestamp
	}
	if i >= len(args) {
		return rules.Finding{}, false
	}
	inner := rules.PkInner(c, args[i:])
	f, ok := rules.PkEval(inner, x)
	if !ok {
		return rules.Finding{}, false
	}
	f.Rule = c.Name + "/" + f.Rule
	f.Marked = c.Raw
	return f, true
}

// ruleMountvol: mountvol X: /d or /p removes a drive letter or dismounts a
// volume; mountvol alone or /l lists.
func ruleMountvol(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if rules.PkWinFlag(c, "d", "p") {
		return rules.PkRet(c, 2.2, 0.5, "disk.mountvol", "removes a drive letter or dismounts a volume (programs and data on it become unreachable)")
	}
	if rules.PkWinFlag(c, "r", "n", "e", "s") {
		return rules.PkRet(c, 1.6, 0.2, "disk.mountvol-change", "changes how volumes are mounted")
	}
	return rules.PkAllow(c, 0, "disk.mountvol-list", "lists volume mount points")
}
