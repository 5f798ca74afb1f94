package self

import (
	"path"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// A program named by a glob (/usr/bin/pk?ll agent-guard, /???/???/rm):
// the shell expands it to the program it matches, so each program the
// pattern can mean is judged with the same arguments, for
// self-protection.

func init() { pack.OnAny(ruleGlobName) }

// globbedPrograms are the programs a pattern is tried against: those
// that stop the guard or change its files.
var globbedPrograms = []string{"pkill", "killall", "kill", "rm", "mv", "cp", "ln", "chmod", "truncate", "tee", "sed",
	"systemctl", "launchctl", "taskkill", "shred", "unlink", "rsync", "install", "dd", "perl", "python3", "node"}

func ruleGlobName(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	base := path.Base(rules.Slashify(c.Prog))
	if !strings.ContainsAny(base, "*?[") || c.DynName {
		return rules.Finding{}, false
	}
	var codes []string
	for _, p := range globbedPrograms {
		if ok, _ := path.Match(base, p); ok {
			codes = append(codes, rules.ShellJoin(append([]string{p}, c.Args...)))
		}
	}
	if f, code, ok := rules.SelfInCode(codes, x.Cwd, x.Home, 8192); ok {
		f.Reason = c.Prog + " is a pattern the shell expands to a program (" + rules.OneLineCut(code, 60) + "): " + f.Reason
		f.Marked = c.Raw
		return f, true
	}
	return rules.Finding{}, false
}
