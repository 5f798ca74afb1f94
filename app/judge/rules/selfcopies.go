package rules

import (
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

func init() { onAny(ruleGuardCopies) }

func ruleGuardCopies(c *shell.Cmd, x *Ctx) (Finding, bool) {
	if c.DynName || c.Func {
		return Finding{}, false
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
				f := guardVerb(&run, !strings.HasPrefix(strings.ToLower(path.Base(slashify(a))), "agent-guard-hook"))
				f.Marked = c.Raw
				return f, true
			}
			break
		}
	}
	if !strings.ContainsAny(c.Prog, `/\`) || x.All == nil || len(x.All.Cmds) < 2 {
		return Finding{}, false // a copy is run by its path, after the command that made it
	}
	n := normalize(c.Prog, x.Cwd, x.Home)
	if n.dynamic {
		return Finding{}, false
	}
	for _, d := range guardCopiesIn(x) {
		if d.low == n.low {
			f := guardVerb(c, true)
			if f.Rule == "guard.cli-read" {
				return f, true
			}
			f.Reason = c.Prog + " is a copy of agent-guard made in the same command (" + d.how + "): " + f.Reason
			return f, true
		}
	}
	return Finding{}, false
}

type guardCopy struct{ low, how string }

// guardCopiesIn lists where the line copies, links or builds one of the
// guard's binaries.
func guardCopiesIn(x *Ctx) []guardCopy {
	var out []guardCopy
	add := func(dst, src, how string) {
		dn := normalize(dst, x.Cwd, x.Home)
		if dn.dynamic {
			return
		}
		low := dn.low
		if strings.HasSuffix(dst, "/") || isDirOnDisk(dn.abs) {
			low = strings.TrimRight(low, "/") + "/" + strings.ToLower(path.Base(slashify(src)))
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
func isGuardBinaryPath(s string, x *Ctx) bool {
	n := normalize(s, x.Cwd, x.Home)
	if n.dynamic {
		return false
	}
	if protect.OwnName(path.Base(n.abs)) {
		return true
	}
	set := setFor(x.Cwd, x.Home)
	if e, ok := set.Lookup(n.abs); ok && e.Kind == protect.Binary {
		return true
	}
	return isAbs(n.abs) && !strings.HasPrefix(n.abs, "~") && set.IsGuardBinary(filepath.FromSlash(n.abs))
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
func goRunGuard(c *shell.Cmd, x *Ctx) (Finding, bool) {
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
				return Finding{}, false
			}
			run := *c
			run.Args = c.Args[i+1:]
			f := guardVerb(&run, true)
			if f.Rule != "guard.cli-read" {
				f.Reason = "go run " + a + " runs agent-guard from source: " + f.Reason
			}
			f.Marked = c.Raw
			return f, true
		}
	}
	return Finding{}, false
}
