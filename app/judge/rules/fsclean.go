package rules

import (
	"os"
	"path"
	"path/filepath"
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
	cwd := x.Cwd // already c.Dir resolved, when a wrapper set one (bash.go)
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

// rsyncDeletes: `rsync --delete SRC... DEST` between local folders deletes
// the files in DEST that no source has. The match selects them (their
// path below DEST missing from every source), so the disk counts and
// classifies them as it does rm's targets. Remote ends (host:path) and
// dry runs are left to the text rules.
func rsyncDeletes(c *shell.Cmd, cwd, home string) (dest string, match func(abs, rel, name string, dir bool) bool, ok bool) {
	a := opts.ParseFor("rsync", c.Args)
	if a.ReadOnly || !a.Has("del", "delete", "delete-before", "delete-during", "delete-delay", "delete-after", "delete-excluded") {
		return "", nil, false
	}
	ops := a.Operands
	if len(ops) < 2 {
		return "", nil, false
	}
	for _, o := range ops {
		if strings.Contains(o, shell.Dyn) || rsyncRemote(o) {
			return "", nil, false
		}
	}
	abs := func(p string) string {
		p = expandHome(p, home)
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		return p
	}
	dest = ops[len(ops)-1]
	destAbs := abs(dest)
	// Each source's files land under DEST (src/ copies its content) or
	// DEST/base(src) (src copies the folder itself).
	type root struct{ under, src string }
	var roots []root
	for _, s := range ops[:len(ops)-1] {
		sa := abs(s)
		if strings.HasSuffix(s, "/") || strings.HasSuffix(s, "/.") {
			roots = append(roots, root{"", sa})
		} else {
			roots = append(roots, root{filepath.Base(sa), filepath.Dir(sa)})
		}
	}
	match = func(_, rel, _ string, _ bool) bool {
		inScope := false
		for _, r := range roots {
			if first, _, _ := strings.Cut(rel, "/"); r.under != "" && first != r.under {
				continue // not this source's folder: rsync leaves it alone
			}
			inScope = true
			if _, err := os.Lstat(filepath.Join(r.src, filepath.FromSlash(rel))); err == nil {
				return false // a source has it: overwritten with its copy, not deleted
			}
		}
		return inScope
	}
	return destAbs, match, true
}

// rsyncRemote: host:path, user@host:path or rsync://... (not C:\ on Windows).
func rsyncRemote(o string) bool {
	if strings.HasPrefix(o, "rsync://") {
		return true
	}
	i := strings.IndexByte(o, ':')
	if i < 0 {
		return false
	}
	if i == 1 && len(o) > 2 && (o[2] == '\\' || o[2] == '/') {
		return false // a Windows drive
	}
	return !strings.Contains(o[:i], "/")
}

// trackedSecret names a secret file (a key, .env, cloud credentials) the
// repository at x.Cwd tracks, read from its index; ok=false without the
// disk or when there is none.
func trackedSecret(x *Ctx) (string, bool) {
	if x == nil || x.M == nil || x.M.Disk == nil || x.Cwd == "" || strings.Contains(x.Cwd, shell.Dyn) {
		return "", false
	}
	found, err := x.M.Disk.TrackedMatching(winPath(expandHome(x.Cwd, x.Home)), func(rel string) bool {
		k, _ := pkSecretPath(path.Base(rel), x)
		return k == pkStrong
	}, 1)
	if err != nil || len(found) == 0 {
		return "", false
	}
	return found[0], true
}
