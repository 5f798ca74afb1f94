package rules

import (
	"os"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/disk"
	"github.com/agent-guard/agent-guard/app/judge/opts"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// gitCleanFinding counts what `git clean -f` would delete, as rm's
// targets are counted: git lists the untracked (with -x also ignored,
// with -X only ignored) files under the folder, untracked folders only
// with -d, and the disk classifies them (build output and the agent's
// own files are recoverable; everything else is lost). Nothing listed:
// nothing lost. A failed look leaves the text rule (confirm) alone.
func gitCleanFinding(c *shell.Cmd, x *Ctx) (Finding, bool) {
	if c.Name != "git" || x.M == nil || x.M.Disk == nil {
		return Finding{}, false
	}
	g := opts.ParseGit(c.Args)
	if g.Sub != "clean" || g.Args.ReadOnly || !g.Args.Has("force") || g.Args.Has("interactive") {
		return Finding{}, false
	}
	cwd := x.Cwd
	if c.Dir != "" {
		cwd = c.Dir
	}
	for _, d := range g.Global.Values("C") {
		cwd = bashCd(&shell.Cmd{Name: "cd", Args: []string{d}}, &Ctx{Cwd: cwd, Home: x.Home})
	}
	if len(g.Global.Values("git-dir", "work-tree")) > 0 || len(g.Args.Values("exclude")) > 0 {
		return Finding{}, false // another repository or extra rules: the text rule speaks
	}
	cwd = expandHome(cwd, x.Home)
	if cwd == "" || strings.Contains(cwd, shell.Dyn) {
		return Finding{}, false
	}
	ops := g.Args.Operands
	for _, o := range ops {
		if strings.Contains(o, shell.Dyn) {
			return Finding{}, false
		}
	}
	set := disk.CleanSet{Ignored: g.Args.Has("x"), OnlyIgnored: g.Args.Has("X"), Pathspec: ops}
	list, err := x.M.Disk.Untracked(winPath(cwd), set)
	if err != nil {
		return Finding{}, false
	}
	dirs := g.Args.Has("d")
	var targets []string
	for _, p := range list {
		if strings.HasSuffix(p, string(os.PathSeparator)) {
			if !dirs {
				continue // without -d git clean leaves untracked folders alone
			}
			p = strings.TrimSuffix(p, string(os.PathSeparator))
		}
		targets = append(targets, p)
	}
	if len(targets) == 0 {
		return Finding{Risk: 0.5, Rule: "disk.recoverable", Marked: c.Raw,
			Reason: "git clean finds nothing untracked to delete here"}, true
	}
	for _, p := range targets {
		if strings.ContainsAny(p, "*?[") {
			// The disk's walk would expand the name as a glob: leave the
			// line to the text rule (confirm) rather than count it wrong.
			return Finding{}, false
		}
	}
	named := *c
	named.Name = "git clean"
	return judgeEffect(&named, effect{kind: "delete", q: disk.Query{Cwd: cwd, Targets: targets, Recursive: true}}, x)
}
