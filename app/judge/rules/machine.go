package rules

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/disk"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Machine is the state beyond the text that the rules may look at: the
// disk (git recoverability, blast radius, scripts and recipes about to
// run) and the session's memory of names the agent defined. A nil
// *Machine judges the text alone and pays nothing.
type Machine struct {
	Disk *disk.Looker
	Mem  Memory
	// depth counts scripts opened inside scripts (bounded).
	depth int
}

// Memory is what the session remembers of earlier calls (app/judge/session).
type Memory interface {
	// Defined returns what a name defined earlier in the session runs:
	// code (an alias's value, the line that defined a function) or the
	// program a copied or linked binary is. ok=false: not defined.
	Defined(name string) (code, program string, ok bool)
}

// maxScriptDepth bounds scripts that run scripts.
const maxScriptDepth = 3

// BashOn is Bash with the machine state m (nil: the same as Bash).
func BashOn(script, cwd, home string, m *Machine) Finding {
	a := shell.Analyze(script)
	return BashEach(&a, script, cwd, home, m, nil)
}

// deeper is m one script further down; nil when too deep.
func (m *Machine) deeper() *Machine {
	if m == nil || m.depth >= maxScriptDepth {
		return nil
	}
	n := *m
	n.depth++
	return &n
}

// adjust merges the machine's findings for c into w, the text rules'
// finding. Git's "all recoverable" lowers a scope-only text finding.
func (m *Machine) adjust(c *shell.Cmd, x *Ctx, w Finding) Finding {
	if m.Disk != nil {
		if f, ok := diskFinding(c, x); ok {
			if f.Rule == "disk.recoverable" && lowerable[w.Rule] && !w.RedLine && w.Violation < 0.5 && !dynArgs(c) {
				f.Reason += " (" + w.Reason + ")"
				w = f
			} else if (f.Rule == "disk.discard-changes" && f.score() >= w.score() || w.Rule == "git.clean" && f.score() >= 1.5) && !w.RedLine {
				// The same risk, with the count of what is lost (git clean's
				// text guess about -x is replaced by what git lists).
				w = f
			} else {
				w = Worst(w, f)
			}
		}
		if f, ok := fileScriptFinding(c, x); ok {
			w = Worst(w, f)
		}
		if f, ok := recipeFromDisk(c, x); ok {
			w = Worst(w, f)
		}
	}
	if m.Mem != nil && (len(rulesFor(c.Name)) == 0 || c.Path != "") {
		// Only a name the rules do not know, or a file path, can be one
		// the session defined (a known program is judged as itself).
		if f, ok := memFinding(c, x); ok {
			w = Worst(w, f)
		}
	}
	return w
}

func dynArgs(c *shell.Cmd) bool {
	for _, a := range c.Args {
		if strings.Contains(a, shell.Dyn) {
			return !hasWord(c.Wrappers, "xargs")
		}
	}
	return false
}

// memFinding: c runs a name the agent defined in an earlier call.
func memFinding(c *shell.Cmd, x *Ctx) (Finding, bool) {
	key := c.Name
	if c.Path != "" {
		key = absPath(c.Path, x)
	}
	code, prog, ok := x.M.Mem.Defined(key)
	if !ok && c.Path != "" {
		code, prog, ok = x.M.Mem.Defined(c.Name)
	}
	if !ok {
		return Finding{}, false
	}
	sub := x.M.deeper()
	if sub == nil {
		return Finding{}, false
	}
	var f Finding
	if prog != "" {
		f = judgeAs(c, prog, x)
		f.Reason = c.Name + " is a copy of " + prog + " made earlier in this session: " + f.Reason
	} else {
		f = BashOn(bindArgs(code, c.Args)+"\n"+c.Raw, x.Cwd, x.Home, sub)
		f.Reason = c.Name + " was defined earlier in this session as " + oneLineShort(code) + ": " + f.Reason
	}
	f.Marked = c.Raw
	return f, true
}

// judgeAs judges c as if its program were prog (a renamed copy of rm).
func judgeAs(c *shell.Cmd, prog string, x *Ctx) Finding {
	sub := *c
	sub.Name, sub.Path = prog, ""
	return judgeCmd(&sub, x)
}

func oneLineShort(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 80 {
		s = s[:80] + "..."
	}
	return s
}

// bindArgs puts a call's arguments where a function's code reads $1..$9,
// $@ and $* (tidyup() { rm -rf "$1"; } called as tidyup ~).
func bindArgs(code string, args []string) string {
	if len(args) == 0 {
		return code
	}
	all := strings.Join(args, " ")
	pairs := []string{`"$@"`, all, `"$*"`, all, "$@", all, "$*", all, "${@}", all}
	for i := 9; i >= 1; i-- {
		v := ""
		if i <= len(args) {
			v = args[i-1]
		}
		n := string(rune('0' + i))
		pairs = append(pairs, `"$`+n+`"`, v, "${"+n+"}", v, "$"+n, v)
	}
	return strings.NewReplacer(pairs...).Replace(code)
}
