package self

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"path"
	"path/filepath"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
	"github.com/agent-guard/agent-guard/app/protect"
)

// Running the guard under another name: a copy, link or build of one of
// its binaries made earlier in the same line (cp agent-guard /tmp/ag &&
// /tmp/ag config accept; go build -o x ./cmd/agent-guard && ./x serve),
// or `go run` of its own package. On disk selfExec recognises a copy by
// its build info; within one line the copy does not exist yet, so the
// line's own copies are followed here. The verb decides, as for the
// installed binary: read-only verbs pass, the rest is self.guard-exec.

func init() { pack.OnAny(ruleGuardCopies) }

func ruleGuardCopies(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if c.DynName || c.Func {
		return rules.Finding{}, false
	}
	if c.Name == "go" && len(c.Args) > 0 && c.Args[0] == "run" {
		return goRunGuard(c, x)
	}
	if strings.HasPrefix(c.Name, "ld-linux") || strings.HasPrefix(c.Name, "ld-musl") || c.Name == "ld.so" {
		// the dynamic loader runs the program it is given
		for i, a := range c.Args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			if isGuardBinaryPath(a, x) {
				run := *c
				run.Args = c.Args[i+1:]
				f := rules.GuardVerb(&run, !strings.HasPrefix(strings.ToLower(path.Base(rules.Slashify(a))), "agent-guard-hook"))
				f.Marked = c.Raw
				return f, true
			}
			break
		}
	}
	if !strings.ContainsAny(c.Prog, `/\`) || x.All == nil || len(x.All.Cmds) < 2 {
		return rules.Finding{}, false // a copy is run by its path, after the command that made it
	}
	n := rules.Normalize(c.Prog, x.Cwd, x.Home)
	if n.Dynamic() {
		return rules.Finding{}, false
	}
	for _, d := range guardCopiesIn(x) {
		if d.low == n.Low() {
			f := rules.GuardVerb(c, true)
			if f.Rule == "guard.cli-read" {
				return f, true
			}
			f.Reason = c.Prog + " is a copy of agent-guard made in the same command (" + d.how + "): " + f.Reason
			return f, true
		}
	}
	return rules.Finding{}, false
}

type guardCopy struct{ low, how string }

// guardCopiesIn lists where the line copies, links or builds one of the
// guard's binaries.
func guardCopiesIn(x *rules.Ctx) []guardCopy {
	var out []guardCopy
	add := func(dst, src, how string) {
		dn := rules.Normalize(dst, x.Cwd, x.Home)
		if dn.Dynamic() {
			return
		}
		low := dn.Low()
		if strings.HasSuffix(dst, "/") || rules.IsDirOnDisk(dn.Abs()) {
			low = strings.TrimRight(low, "/") + "/" + strings.ToLower(path.Base(rules.Slashify(src)))
		}
		out = append(out, guardCopy{low, how})
	}
	for i := range x.All.Cmds {
		o := &x.All.Cmds[i]
		switch o.Name {
		case "cp", "install", "rsync", "ditto", "ln", "copy-item", "cpi", "copy", "gcp":
			ops := o.Operands()
			if o.Name == "install" {
				ops = installOperands(o)
			}
			if len(ops) < 2 {
				continue
			}
			dst := ops[len(ops)-1]
			for _, s := range ops[:len(ops)-1] {
				if isGuardBinaryPath(s, x) {
					add(dst, s, o.Name+" "+s)
				}
			}
		case "cat", "dd", "get-content", "gc", "type":
			srcs := o.Operands()
			if o.Name == "dd" {
				srcs = nil
				for _, a := range o.Args {
					if strings.HasPrefix(a, "if=") {
						srcs = append(srcs, a[3:])
					}
				}
			}
			guard := false
			for _, s := range srcs {
				guard = guard || isGuardBinaryPath(s, x)
			}
			if !guard {
				continue
			}
			for _, r := range o.Redirs {
				if r.Op == ">" || r.Op == ">>" || r.Op == ">|" {
					add(r.Target, "", o.Name+" > "+r.Target)
				}
			}
			for _, a := range o.Args {
				if strings.HasPrefix(a, "of=") {
					add(a[3:], "", "dd of="+a[3:])
				}
			}
		case "go":
			if len(o.Args) > 0 && o.Args[0] == "build" {
				out0 := flagValue(o, "-o")
				for _, p := range goPkgs(o.Args[1:]) {
					if isGuardPkg(p, x.Cwd) && out0 != "" {
						add(out0, "", "go build -o "+out0+" "+p)
					}
				}
			}
		}
	}
	return out
}

// installOperands: install's operands without -m MODE, -o OWNER, -g GROUP.
func installOperands(c *shell.Cmd) []string {
	var out []string
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		switch {
		case a == "-m" || a == "-o" || a == "-g" || a == "--mode" || a == "--owner" || a == "--group" || a == "-S" || a == "-t":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			out = append(out, a)
		}
	}
	return out
}

// isGuardBinaryPath: s names one of the guard's binaries (by name, as a
// protected binary, or by its build info on disk).
func isGuardBinaryPath(s string, x *rules.Ctx) bool {
	n := rules.Normalize(s, x.Cwd, x.Home)
	if n.Dynamic() {
		return false
	}
	if protect.OwnName(path.Base(n.Abs())) {
		return true
	}
	set := rules.SetFor(x.Cwd, x.Home)
	if e, ok := set.Lookup(n.Abs()); ok && e.Kind == protect.Binary {
		return true
	}
	return rules.IsAbs(n.Abs()) && !strings.HasPrefix(n.Abs(), "~") && set.IsGuardBinary(filepath.FromSlash(n.Abs()))
}

// isGuardPkg: a go package path that builds one of the guard's programs.
func isGuardPkg(p, cwd string) bool {
	if strings.Contains(strings.ToLower(p), "agent-guard/agent-guard") {
		return true
	}
	return protect.OwnName(goBinName(p, cwd))
}

// goRunGuard: go run PKG ARGS... of the guard's own package runs the
// guard with ARGS.
func goRunGuard(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	takes := map[string]bool{"-tags": true, "-ldflags": true, "-gcflags": true, "-mod": true, "-modfile": true,
		"-exec": true, "-C": true, "-p": true, "-toolexec": true, "-overlay": true}
	for i := 1; i < len(c.Args); i++ {
		a := c.Args[i]
		switch {
		case takes[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			if !isGuardPkg(a, x.Cwd) {
				return rules.Finding{}, false
			}
			run := *c
			run.Args = c.Args[i+1:]
			f := rules.GuardVerb(&run, true)
			if f.Rule != "guard.cli-read" {
				f.Reason = "go run " + a + " runs agent-guard from source: " + f.Reason
			}
			f.Marked = c.Raw
			return f, true
		}
	}
	return rules.Finding{}, false
}
