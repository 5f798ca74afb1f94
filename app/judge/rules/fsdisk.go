package rules

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/disk"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Disk state for file changes (issue 11, items 1 and 2): a command that
// deletes, empties, overwrites, edits in place or re-permissions files
// inside a git work tree asks git (through disk.Looker) what it would
// lose, and counts what it hits. The line drawn:
//
//   - everything hit is tracked and unchanged, build output or the
//     agent's own scratch: recoverable, risk at most 1 (a scope-only
//     text finding is lowered to that);
//   - any uncommitted data (untracked, modified, staged only, ignored
//     data such as .env or *.db), or files outside git whose
//     recoverability cannot be known: confirm, the reason says how many;
//   - 50 or more uncommitted files, or 100 MiB or more of them: block.
//     At that size it is a body of work, and one click in a dialog is too
//     easy a slip for it;
//   - the look failed or ran over its budget: confirm, never allow.
const (
	massFiles      = 100       // a mass change (ladder level 2)
	blockLostFiles = 50        // uncommitted files lost: block from here
	blockLostBytes = 100 << 20 // uncommitted bytes lost: block from here
	bigOverwrite   = 1 << 20   // a plain `>` over data this big counts
)

// effect is one set of files a command changes.
type effect struct {
	kind string // "delete", "empty", "overwrite", "edit", "perms"
	q    disk.Query
}

// lowerable are the text rules that judge a deletion by its scope alone;
// git's "all recoverable" may lower them to risk 1.
var lowerable = map[string]bool{"fs.delete-project": true, "fs.delete-cwd": true, "fs.delete-all-files": true,
	"fs.find-delete": true, "fs.delete-dynamic": true, "fs.write-dynamic": true, "fs.perms-project": true,
	"git.checkout-discard": true, "git.restore": true, "git.reset-hard": true, "git.clean": true}

// diskFinding judges c's file effects against the disk; ok=false when c
// changes no files (nothing to look at, nothing paid).
func diskFinding(c *shell.Cmd, x *Ctx) (Finding, bool) {
	if f, ok := gitCleanFinding(c, x); ok {
		return f, true
	}
	effs := fileEffects(c, x)
	if len(effs) == 0 {
		return Finding{}, false
	}
	var w Finding
	have := false
	for _, e := range effs {
		f, ok := judgeEffect(c, e, x)
		if ok && (!have || f.Worse(w)) {
			w, have = f, true
		}
	}
	return w, have
}

func judgeEffect(c *shell.Cmd, e effect, x *Ctx) (Finding, bool) {
	if e.q.Cwd == "" || e.q.Cwd == shell.Dyn || strings.Contains(e.q.Cwd, shell.Dyn) {
		return Finding{}, false
	}
	rep := x.M.Disk.Assess(e.q)
	verb := map[string]string{"delete": "deletes", "empty": "empties", "overwrite": "overwrites", "edit": "edits in place", "perms": "changes the permissions of"}[e.kind]
	if rep.Err != nil {
		return Finding{Risk: 2, Violation: 0.2, Rule: "disk.unknown", Marked: c.Raw,
			Reason: "could not tell what " + c.Name + " would change (" + rep.Err.Error() + "), so asking instead"}, true
	}
	if rep.Files == 0 && rep.GitDirs == 0 {
		return Finding{}, false
	}
	lost := rep.Lost()
	count := countWords(rep)
	switch e.kind {
	case "perms":
		if rep.Files >= massFiles || rep.More {
			return Finding{Risk: 2, Violation: 0.2, Rule: "disk.mass-perms", Marked: c.Raw,
				Reason: c.Name + " " + verb + " " + count + ": a mass change"}, true
		}
		return Finding{}, false
	case "edit":
		if (rep.Files >= massFiles || rep.More) && lost > 0 {
			return Finding{Risk: 2, Violation: 0.2, Rule: "disk.mass-edit", Marked: c.Raw,
				Reason: c.Name + " " + verb + " " + count + "; the uncommitted ones cannot be restored from git"}, true
		}
		return Finding{}, false
	case "overwrite":
		if lost == 0 || rep.LostBytes < bigOverwrite {
			return Finding{}, false
		}
	case "discard":
		// git checkout/restore/reset --hard drop changes to tracked files;
		// untracked files stay where they are.
		n := rep.ByClass[disk.Modified] + rep.ByClass[disk.Staged]
		if n == 0 {
			if !discardOnly(c) {
				return Finding{}, false
			}
			return Finding{Risk: 0.5, Rule: "disk.recoverable", Marked: c.Raw,
				Reason: "git " + firstOp(c) + " has no uncommitted changes to throw away in " + plural(rep.Files, "file")}, true
		}
		risk := 2.0
		if n >= blockLostFiles {
			risk = 3
		}
		return Finding{Risk: risk, Violation: 0.3, Rule: "disk.discard-changes", Marked: c.Raw,
			Reason: fmt.Sprintf("%s throws away uncommitted changes in %s (%d modified, %d staged only); git cannot bring them back",
				"git "+firstOp(c), plural(n, "file"), rep.ByClass[disk.Modified], rep.ByClass[disk.Staged])}, true
	}
	if rep.GitDirs > 0 && e.kind == "delete" {
		return Finding{Risk: 3, Violation: 0.7, Rule: "disk.delete-git", Marked: c.Raw,
			Reason: c.Name + " deletes " + plural(rep.GitDirs, ".git folder") + ": the repository history, which git cannot restore"}, true
	}
	if lost == 0 {
		why := ": git can restore every one of them"
		if n := rep.ByClass[disk.Clean]; n < rep.Files {
			why = fmt.Sprintf(": nothing uncommitted (%d tracked and unchanged, %d build output or caches, %d the agent's own or temporary files)",
				n, rep.ByClass[disk.Regenerable], rep.ByClass[disk.Scratch])
		}
		f := Finding{Risk: 0.5, Rule: "disk.recoverable", Marked: c.Raw, Reason: c.Name + " " + verb + " " + count + why}
		if rep.Files >= massFiles {
			f.Risk = 1
		}
		return f, true
	}
	gitLost := rep.ByClass[disk.Modified] + rep.ByClass[disk.Staged] + rep.ByClass[disk.Untracked]
	risk, viol := 2.0, 0.3
	tail := "; uncommitted data that git cannot bring back"
	if gitLost == 0 {
		tail = "; not under version control, so it may not be recoverable"
	}
	if gitLost >= blockLostFiles || rep.LostBytes >= blockLostBytes && gitLost > 0 {
		risk, viol = 3, 0.6
	}
	return Finding{Risk: risk, Violation: viol, Rule: "disk.uncommitted-" + e.kind, Marked: c.Raw,
		Reason: c.Name + " " + verb + " " + count + tail}, true
}

// countWords says "312 files (4.1 MiB), 41 of them untracked, 2 modified".
func countWords(r disk.Report) string {
	more := ""
	if r.More {
		more = "more than "
	}
	s := more + plural(r.Files, "file")
	if r.Bytes > 0 {
		s += " (" + sizeWords(r.Bytes) + ")"
	}
	var parts []string
	for _, k := range []disk.Class{disk.Untracked, disk.Modified, disk.Staged, disk.Outside, disk.Unknown} {
		if n := r.ByClass[k]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, k))
		}
	}
	if len(parts) > 0 {
		if r.Files > 1 {
			n, k, _ := strings.Cut(parts[0], " ")
			parts[0] = n + " of them " + k
		}
		s += ", " + strings.Join(parts, ", ")
	}
	return s
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func sizeWords(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(b)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", b)
}

// fileEffects lists what c changes on disk, with the cwd it runs in.
func fileEffects(c *shell.Cmd, x *Ctx) []effect {
	// x.Cwd is already where c runs: Bash resolves a wrapper's folder
	// (env -C DIR, sudo -D DIR) against the line's cwd before judging c
	// (c.Dir itself may be relative to that cwd, not to the judge's).
	cwd := expandHome(x.Cwd, x.Home)
	var out []effect
	add := func(kind string, recursive bool, match func(abs, rel, name string, dir bool) bool, targets ...string) {
		var ts []string
		for _, t := range targets {
			if t == "" || strings.Contains(t, shell.Dyn) || strings.Contains(t, "{}") {
				continue
			}
			ts = append(ts, winPath(expandHome(t, x.Home)))
		}
		if len(ts) > 0 {
			out = append(out, effect{kind: kind, q: disk.Query{Cwd: cwd, Targets: ts, Recursive: recursive, Match: match}})
		}
	}
	switch c.Name {
	case "rm", "unlink", "shred", "srm", "wipe", "del", "erase", "rd", "rmdir", "remove-item", "ri", "rimraf":
		targets, recursive := fsTargets(c)
		if c.Name == "rmdir" && !recursive {
			break
		}
		if (c.Name == "del" || c.Name == "erase") && recursive {
			// del /s *.cs: the pattern in this folder and every one below.
			for _, t := range targets {
				dir, pat := filepath.Split(winPath(t))
				if dir == "" {
					dir = "."
				}
				p := pat
				add("delete", false, func(_, rel, name string, isDir bool) bool { return !isDir && globMatch(p, name) }, dir)
			}
			break
		}
		if len(targets) == 0 && (c.Name == "remove-item" || c.Name == "ri") {
			if src := pipedSource(c, x); src != nil {
				if q, ok := psListing(src); ok {
					add("delete", true, q.match, q.targets...)
				}
			}
			break
		}
		if xs := xargsInputs(c, x); xs != nil {
			targets = append(targets[:0:0], xs.targets...)
			if xs.match != nil {
				add("delete", recursive, xs.match, targets...)
				break
			}
		}
		add("delete", recursive, nil, targets...)
	case "truncate":
		add("empty", false, nil, truncateTargets(c)...)
	case "clear-content", "clc":
		add("empty", false, nil, psPathArgs(c)...)
	case "find":
		if q, kind, ok := findEffect(c); ok {
			add(kind, q.recursive, q.match, q.targets...)
		}
	case "chmod", "chown", "chgrp", "setfacl", "chattr":
		if c.Flag('R', "--recursive") {
			ops := c.Operands()
			if len(ops) > 1 && (c.Name != "chmod" || widensMode(ops[0])) {
				add("perms", true, nil, ops[1:]...)
			}
		}
	case "sed", "perl":
		if inPlace(c) {
			if xs := xargsInputs(c, x); xs != nil {
				add("edit", false, xs.match, xs.targets...)
			}
		}
	case "rsync":
		if dest, match, ok := rsyncDeletes(c, cwd, x.Home); ok {
			add("delete", true, match, dest)
		}
	case "git":
		if paths, ok := gitDiscards(c); ok {
			n := len(out)
			add("discard", true, nil, paths...)
			if len(out) > n {
				out[n].q.OneRepo = true // git acts on the repository at the cwd only
			}
		}
	case "mv", "cp", "move", "copy", "move-item", "mi", "copy-item", "cpi":
		if ops := c.Operands(); len(ops) >= 2 && !strings.HasSuffix(ops[len(ops)-1], "/") {
			add("overwrite", false, nil, ops[len(ops)-1])
		}
	}
	for _, r := range c.Redirs {
		if r.Op != ">" && r.Op != ">|" && r.Op != "&>" {
			continue
		}
		kind := "overwrite"
		if emptiesTarget(c) {
			kind = "empty"
		}
		add(kind, false, nil, r.Target)
	}
	return out
}

// emptiesTarget: the command writes nothing, so `>` leaves an empty file
// (`: > f`, `> f`, `true > f`, `cat /dev/null > f`, `echo -n > f`).
func emptiesTarget(c *shell.Cmd) bool {
	switch c.Name {
	case "", ":", "true", "false":
		return true
	case "cat":
		ops := c.Operands()
		return len(ops) == 1 && ops[0] == "/dev/null"
	case "echo", "printf":
		for _, a := range c.Args {
			if a != "-n" && a != "" {
				return false
			}
		}
		return c.Name == "printf" || hasWord(c.Args, "-n")
	}
	return false
}

func truncateTargets(c *shell.Cmd) []string {
	var out []string
	shrinks := false
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		if a == "-s" || a == "--size" {
			if i+1 < len(c.Args) && !strings.HasPrefix(c.Args[i+1], "+") {
				shrinks = true
			}
			i++
			continue
		}
		if strings.HasPrefix(a, "--size=") || strings.HasPrefix(a, "-s") && len(a) > 2 {
			v := strings.TrimPrefix(strings.TrimPrefix(a, "--size="), "-s")
			shrinks = !strings.HasPrefix(v, "+")
			continue
		}
		if a == "-r" || a == "--reference" {
			i++
			shrinks = true
			continue
		}
		if !strings.HasPrefix(a, "-") {
			out = append(out, a)
		}
	}
	if !shrinks {
		return nil
	}
	return out
}

// psPathArgs: a cmdlet's -Path/-LiteralPath values or its positional words.
func psPathArgs(c *shell.Cmd) []string {
	var out []string
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		la := strings.ToLower(a)
		if strings.HasPrefix(la, "-") {
			if la == "-path" || la == "-literalpath" || la == "-lp" {
				if i+1 < len(c.Args) {
					out = append(out, c.Args[i+1])
				}
			}
			if la != "-force" && la != "-whatif" && la != "-confirm" && !strings.HasPrefix(la, "-confirm:") {
				i++
			}
			continue
		}
		out = append(out, a)
	}
	return out
}

func inPlace(c *shell.Cmd) bool {
	for _, a := range c.Args {
		if a == "--" {
			return false
		}
		if strings.HasPrefix(a, "--in-place") || c.Name == "sed" && len(a) >= 2 && a[0] == '-' && a[1] != '-' && strings.Contains(a, "i") ||
			c.Name == "perl" && len(a) >= 2 && a[0] == '-' && strings.Contains(a, "i") && strings.Contains(a, "p") {
			return true
		}
	}
	return false
}

// listing is a set of files named by another command (find, grep -l,
// ls, Get-ChildItem, a file list).
type listing struct {
	targets   []string
	recursive bool
	match     func(abs, rel, name string, dir bool) bool
}

// pipedSource is the command right before c in its pipeline.
func pipedSource(c *shell.Cmd, x *Ctx) *shell.Cmd {
	if x.All == nil || len(c.PipedFrom) == 0 {
		return nil
	}
	want := c.PipedFrom[len(c.PipedFrom)-1]
	for i := range x.All.Cmds {
		if &x.All.Cmds[i] == c || x.All.Cmds[i].Raw == c.Raw && x.All.Cmds[i].Name == c.Name {
			for j := i - 1; j >= 0; j-- {
				if x.All.Cmds[j].Name == want {
					return &x.All.Cmds[j]
				}
			}
			return nil
		}
	}
	return nil
}

// xargsInputs: the files an xargs-run command gets, from `xargs -a FILE`
// or from find / grep -l / ls / cat FILE piped into xargs.
func xargsInputs(c *shell.Cmd, x *Ctx) *listing {
	if !hasWord(c.Wrappers, "xargs") {
		return nil
	}
	words := strings.Fields(c.Raw)
	for i, w := range words {
		if (w == "-a" || w == "--arg-file") && i+1 < len(words) {
			return fileList(strings.Trim(words[i+1], `"'`), x)
		}
		if v, ok := strings.CutPrefix(w, "--arg-file="); ok {
			return fileList(strings.Trim(v, `"'`), x)
		}
	}
	src := pipedSource(c, x)
	if src == nil {
		return nil
	}
	switch src.Name {
	case "find":
		if q, ok := findListing(src); ok {
			return &q
		}
	case "grep", "rg", "egrep", "fgrep", "git":
		return grepListing(src)
	case "ls":
		ops := src.Operands()
		if len(ops) == 0 {
			ops = []string{"*"}
		}
		return &listing{targets: ops}
	case "cat":
		if ops := src.Operands(); len(ops) == 1 {
			return fileList(ops[0], x)
		}
	}
	return nil
}

// fileList reads a list of files, one per line (xargs -a files.txt).
func fileList(p string, x *Ctx) *listing {
	if strings.Contains(p, shell.Dyn) {
		return nil
	}
	abs := p
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(expandHome(x.Cwd, x.Home), p)
	}
	b, err := disk.ReadFile(abs)
	if err != nil {
		return nil
	}
	var ts []string
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" && len(ts) < disk.MaxEntries {
			ts = append(ts, l)
		}
	}
	return &listing{targets: ts}
}

// grepListing: grep -l PATTERN PATHS lists the files holding PATTERN;
// the files under PATHS are the set, narrowed by a literal pattern.
func grepListing(src *shell.Cmd) *listing {
	if src.Name == "git" {
		return nil
	}
	lists, rec := false, src.Name == "rg"
	var ops []string
	pattern, havePat := "", false
	for i := 0; i < len(src.Args); i++ {
		a := src.Args[i]
		switch {
		case a == "-e" || a == "--regexp":
			if i+1 < len(src.Args) {
				pattern, havePat = src.Args[i+1], true
				i++
			}
		case strings.HasPrefix(a, "--"):
			lists = lists || a == "--files-with-matches"
			rec = rec || a == "--recursive"
		case strings.HasPrefix(a, "-") && len(a) > 1:
			lists = lists || strings.ContainsAny(a[1:], "l")
			rec = rec || strings.ContainsAny(a[1:], "rR")
		case !havePat:
			pattern, havePat = a, true
		default:
			ops = append(ops, a)
		}
	}
	if !lists || strings.Contains(pattern, shell.Dyn) {
		return nil
	}
	if len(ops) == 0 {
		ops = []string{"."}
	}
	lit := pattern
	if strings.ContainsAny(lit, `.*+?[](){}|^$\`) {
		lit = "" // a regular expression: every file under the paths is a candidate
	}
	return &listing{targets: ops, recursive: rec, match: func(abs, rel, name string, dir bool) bool {
		return !dir && (lit == "" || fileHas(abs, lit))
	}}
}

// fileHas: does the file hold lit? (grep -l's set; unreadable counts.)
func fileHas(abs, lit string) bool {
	b, err := disk.ReadFile(abs)
	return err != nil || strings.Contains(string(b), lit)
}

// findListing: find's start folders and predicates as a listing.
func findListing(c *shell.Cmd) (listing, bool) {
	starts, i := shell.FindStarts(c.Args)
	if len(starts) == 0 {
		starts = []string{"."}
	}
	type pred struct {
		key, val string
		neg      bool
	}
	var preds []pred
	neg, anyOr := false, false
	maxDepth := -1
	args := c.Args[i:]
	for j := 0; j < len(args); j++ {
		a := args[j]
		switch a {
		case "!", "-not":
			neg = true
			continue
		case "-o", "-or", ",":
			anyOr = true
		case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-type":
			if j+1 < len(args) {
				preds = append(preds, pred{a, args[j+1], neg})
				j++
			}
		case "-maxdepth":
			if j+1 < len(args) {
				fmt.Sscan(args[j+1], &maxDepth)
				j++
			}
		case "-exec", "-execdir", "-ok", "-okdir":
			for j < len(args) && args[j] != ";" && args[j] != "+" {
				j++
			}
		case "-regex", "-iregex", "-newer", "-mtime", "-mmin", "-size", "-perm", "-user", "-group", "-links", "-inum", "-samefile", "-atime", "-ctime", "-mindepth", "-printf", "-fprint":
			j++ // a value we do not evaluate: the set is a superset
		}
		neg = false
	}
	if strings.Contains(strings.Join(starts, " "), shell.Dyn) {
		return listing{}, false
	}
	match := func(_, rel, name string, dir bool) bool {
		if maxDepth >= 0 && strings.Count(rel, "/")+1 > maxDepth {
			return false
		}
		if anyOr {
			return true
		}
		for _, p := range preds {
			ok := true
			switch p.key {
			case "-name":
				ok = globMatch(p.val, name)
			case "-iname":
				ok = globMatch(strings.ToLower(p.val), strings.ToLower(name))
			case "-path", "-wholename":
				ok = globMatch(p.val, "./"+rel) || globMatch(p.val, rel)
			case "-ipath", "-iwholename":
				ok = globMatch(strings.ToLower(p.val), strings.ToLower("./"+rel))
			case "-type":
				ok = p.val == "d" && dir || p.val == "f" && !dir || p.val != "d" && p.val != "f"
			}
			if ok == p.neg {
				return false
			}
		}
		return true
	}
	return listing{targets: starts, match: match}, true
}

// findEffect: find -delete, or find -exec rm/chmod/sed -i on what it finds.
func findEffect(c *shell.Cmd) (listing, string, bool) {
	kind := ""
	recursive := false
	for j := 0; j < len(c.Args); j++ {
		switch c.Args[j] {
		case "-delete":
			kind = "delete"
		case "-exec", "-execdir", "-ok", "-okdir":
			if j+1 >= len(c.Args) {
				continue
			}
			// find -exec env rm {} +: the wrapped program is what acts.
			_, payload := shell.PeelWrappers(c.Args[j+1:])
			prog := shell.NormName(payload[0])
			rest := payload[1:]
			switch prog {
			case "rm", "shred", "unlink", "rmdir", "srm":
				kind = "delete"
				for _, a := range rest {
					if a == ";" || a == "+" {
						break
					}
					if strings.HasPrefix(a, "-") && strings.ContainsAny(a, "rR") || a == "--recursive" {
						recursive = true
					}
				}
			case "chmod", "chown", "chgrp":
				if kind == "" {
					kind = "perms"
				}
			case "sed", "perl":
				if kind == "" {
					kind = "edit"
				}
			case "truncate":
				kind = "empty"
			}
		}
	}
	if kind == "" {
		return listing{}, "", false
	}
	l, ok := findListing(c)
	l.recursive = recursive
	return l, kind, ok
}

// psListing: Get-ChildItem PATH -Recurse -Filter *.x | Remove-Item.
func psListing(src *shell.Cmd) (listing, bool) {
	switch src.Name {
	case "get-childitem", "gci", "ls", "dir":
	default:
		return listing{}, false
	}
	recurse := false
	filter := ""
	var paths []string
	for i := 0; i < len(src.Args); i++ {
		a := src.Args[i]
		la := strings.ToLower(a)
		switch {
		case la == "-recurse" || la == "-r":
			recurse = true
		case la == "-filter" || la == "-include" || la == "-fi":
			if i+1 < len(src.Args) {
				filter = src.Args[i+1]
				i++
			}
		case la == "-path" || la == "-literalpath":
			if i+1 < len(src.Args) {
				paths = append(paths, src.Args[i+1])
				i++
			}
		case strings.HasPrefix(la, "-"):
			if la == "-depth" || la == "-exclude" || la == "-attributes" {
				i++
			}
		default:
			paths = append(paths, a)
		}
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	for k := range paths {
		paths[k] = winPath(paths[k])
	}
	return listing{targets: paths, match: func(_, rel, name string, dir bool) bool {
		if !recurse && strings.Contains(rel, "/") {
			return false
		}
		return filter == "" || globMatch(strings.ToLower(filter), strings.ToLower(name))
	}}, true
}

func globMatch(pat, name string) bool {
	ok, err := path.Match(pat, name)
	return err == nil && ok
}

// winPath turns .\src\x into ./src/x on Unix (the same call reads the
// same way wherever the judge runs).
func winPath(p string) string {
	if filepath.Separator == '/' && strings.Contains(p, `\`) && !strings.HasPrefix(p, `\\`) {
		return strings.ReplaceAll(p, `\`, "/")
	}
	return p
}

func expandHome(p, home string) string {
	if p == "~" {
		return home
	}
	if strings.HasPrefix(p, "~/") && home != "" {
		return filepath.Join(home, p[2:])
	}
	if strings.HasPrefix(p, "$HOME/") && home != "" {
		return filepath.Join(home, p[6:])
	}
	return p
}

func hasWord(ws []string, w string) bool {
	for _, x := range ws {
		if x == w {
			return true
		}
	}
	return false
}

// WriteOn judges a Write tool call against the disk: emptying an
// existing file, or replacing a large one, that holds uncommitted data.
func WriteOn(p, cwd, home string, empty bool, m *Machine) (Finding, bool) {
	if m == nil || m.Disk == nil || p == "" {
		return Finding{}, false
	}
	x := &Ctx{Cwd: cwd, Home: home, M: m}
	kind := "overwrite"
	if empty {
		kind = "empty"
	}
	c := &shell.Cmd{Name: "Write", Raw: p}
	return judgeEffect(c, effect{kind: kind, q: disk.Query{Cwd: expandHome(cwd, home), Targets: []string{winPath(expandHome(p, home))}}}, x)
}

// widensMode: a chmod mode that lets group or others write (777, a+rwx,
// o+w, +w); tightening or owner-only changes are everyday work.
func widensMode(m string) bool {
	if m != "" && strings.Trim(m, "01234567") == "" {
		last := m[len(m)-1]
		group := byte('0')
		if len(m) >= 2 {
			group = m[len(m)-2]
		}
		return strings.IndexByte("2367", last) >= 0 || strings.IndexByte("2367", group) >= 0
	}
	for _, part := range strings.Split(m, ",") {
		i := strings.IndexAny(part, "+=")
		if i < 0 || !strings.Contains(part[i:], "w") {
			continue
		}
		who := part[:i]
		if who == "" || strings.ContainsAny(who, "aog") {
			return true
		}
	}
	return false
}

// gitDiscards: git checkout [--] PATHS / git checkout . / git restore
// PATHS (not --staged alone) / git reset --hard: the paths whose
// uncommitted changes are thrown away ("." for the whole tree).
func gitDiscards(c *shell.Cmd) ([]string, bool) {
	ops := c.Operands()
	if len(ops) == 0 {
		return nil, false
	}
	switch ops[0] {
	case "reset":
		if hasWord(c.Args, "--hard") {
			return []string{"."}, true
		}
	case "restore":
		if hasWord(c.Args, "--staged") && !hasWord(c.Args, "--worktree") && !hasWord(c.Args, "-W") {
			return nil, false
		}
		if len(ops) > 1 {
			return ops[1:], true
		}
	case "checkout":
		dd := false
		for _, a := range c.Args {
			if a == "--" {
				dd = true
			}
		}
		if dd || len(ops) == 2 && (ops[1] == "." || strings.ContainsAny(ops[1], "*/")) {
			if len(ops) > 1 {
				return ops[1:], true
			}
		}
	}
	return nil, false
}

func firstOp(c *shell.Cmd) string {
	if ops := c.Operands(); len(ops) > 0 {
		return ops[0]
	}
	return ""
}

// discardOnly: the git command does nothing but restore files (reset
// --hard to another commit also drops commits: never lowered).
func discardOnly(c *shell.Cmd) bool {
	ops := c.Operands()
	if len(ops) > 0 && ops[0] == "reset" {
		return len(ops) == 1 || len(ops) == 2 && (ops[1] == "HEAD" || ops[1] == "@")
	}
	return true
}
