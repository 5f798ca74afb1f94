package self

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"path"
	"strconv"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Self-protection against indirect routes: a copy, move, sync or archive
// extraction whose target is a folder above a protected path, links
// pointing at one, permission changes of the folders holding one, build
// outputs over the guard's binaries, persistent AGENT_GUARD_* variables,
// signals to the guard by pid, and starting the guard's own binaries.

func init() { pack.OnAny(ruleSelfRoutes) }

func ruleSelfRoutes(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if c.DynName {
		return rules.Finding{}, false
	}
	var f rules.Finding
	var ok bool
	switch c.Name {
	case "cp", "mv", "rsync", "ditto", "install", "gcp", "gmv":
		f, ok = selfCopy(c, x)
	case "copy-item", "cpi", "copy", "move-item", "mi", "move", "robocopy", "xcopy":
		f, ok = selfCopyWin(c, x)
	case "tar", "bsdtar", "gtar":
		if f, ok := selfArchiveDeletes(c, x); ok {
			return f, true
		}
		f, ok = selfTar(c, x)
	case "zip":
		f, ok = selfArchiveDeletes(c, x)
	case "unzip", "7z", "7za", "7zz", "expand-archive", "ditto-x":
		if f, ok := selfArchiveDeletes(c, x); ok {
			return f, true
		}
		f, ok = selfUnzip(c, x)
	case "ln", "mklink", "new-item", "ni", "link":
		f, ok = selfLink(c, x) // link(1) is ln without options
	case "chmod", "chown", "chgrp", "chattr", "setfacl", "icacls", "takeown", "attrib", "set-acl", "cacls", "chflags":
		f, ok = selfPerms(c, x)
	case "kill", "taskkill", "stop-process", "spps", "tskill":
		f, ok = selfPid(c, x)
	case "fsutil":
		f, ok = selfFsutil(c, x)
	}
	if ok {
		return f, true
	}
	if f, ok := rules.SelfEnvPersist(c, x); ok {
		return f, true
	}
	if f, ok := rules.SelfBuildOutput(c, x); ok {
		return f, true
	}
	return rules.SelfExec(c, x)
}

// unknownInto is the confirm for a copy or extraction into dir whose
// content cannot be seen, when dir holds protected paths.
func unknownInto(c *shell.Cmd, dir, why string, x *rules.Ctx) (rules.Finding, bool) {
	if f, ok := rules.Protected(dir, x.Cwd, x.Home); ok {
		return f, true
	}
	n := rules.Normalize(dir, x.Cwd, x.Home)
	if n.Dynamic() || !n.HomeKnown() && !rules.IsAbs(n.Abs()) {
		return rules.Finding{}, false
	}
	set := rules.SetFor(x.Cwd, x.Home)
	for _, d := range []string{n.Abs(), rules.RealPath(n.Abs())} {
		if e, ok := rules.ExistingUnder(set, d); ok {
			return rules.Finding{Risk: 2, Violation: 0.6, Rule: "guard.unknown-into", Marked: c.Raw,
				Reason: why + " into " + dir + ", which holds " + e.Path + " (" + string(e.Kind) + " of the agent's own guard), and what it would write there cannot be known before it runs"}, true
		}
	}
	// presumed entries come from the call's project: a cd earlier in the
	// line moves the cwd, whose workspace configs are only the disk's
	pset := set
	if p := projectOf(x); p != x.Cwd {
		pset = rules.SetFor(p, x.Home)
	}
	for _, d := range []string{n.Abs(), otherHome(n.Abs(), x)} {
		if e, ok := presumedUnder(pset, d, projectOf(x), x.Home); d != "" && ok {
			return rules.Finding{Risk: 2, Violation: 0.6, Rule: "guard.unknown-into", Marked: c.Raw,
				Reason: why + " into " + dir + ", where the agent's own guard keeps " + e.Path + " (" + string(e.Kind) + "), and what it would write there cannot be known before it runs"}, true
		}
	}
	return rules.Finding{}, false
}

// otherHome maps a folder in a home-shaped path that is not the judge's
// own home (C:\Users\张伟\AppData\Roaming, /Users/dev/.config,
// /home/dev2) onto the judge's home: the guard's files sit at the same
// place in whichever home the machine's user has, and the agent may name
// that home by its literal path. "" when p is no such path.
func otherHome(p string, x *rules.Ctx) string {
	low := strings.ToLower(rules.Slashify(p))
	if len(low) > 2 && low[1] == ':' {
		low = "c" + low[1:] // any drive: D:\Users\x too
	}
	for _, pre := range []string{"c:/users/", "/users/", "/home/"} {
		if !strings.HasPrefix(low, pre) || x.Home == "" || x.Home == "~" {
			continue
		}
		name, rest, _ := strings.Cut(p[len(pre):], "/")
		switch strings.ToLower(name) {
		case "", "public", "default", "all users", "shared", "default user":
			return ""
		}
		if rest != "" {
			return strings.TrimRight(x.Home, "/") + "/" + rest
		}
		return x.Home
	}
	return ""
}

// unknownOver is unknownInto for content that replaces what is there
// (an archive extracted, a folder copied or synced, a backup restored, a
// dotfiles tree applied): DESIGN's "copy or extract into an ancestor" of
// the protected set, a block (self.extract-into). Installers and patches
// keep unknownInto's confirm: make install PREFIX=~/.local is everyday.
func unknownOver(c *shell.Cmd, dir, why string, x *rules.Ctx) (rules.Finding, bool) {
	f, ok := unknownInto(c, dir, why, x)
	if ok && f.Rule == "guard.unknown-into" && !remoteHome(x) && !(mirrors(c) && rules.FsClassify(dir, x) == rules.FsHome) {
		f = extractInto(f)
	}
	return f, ok
}

// mirrors: the copy also deletes what the source lacks (rsync --delete,
// robocopy /MIR or /PURGE): over a home that is the home's deletion, a
// block the delete rules name (fs.delete-home).
func mirrors(c *shell.Cmd) bool {
	for _, a := range c.Args {
		la := strings.ToLower(a)
		if strings.HasPrefix(la, "--delete") || c.Name == "robocopy" && (la == "/mir" || la == "/purge") {
			return true
		}
	}
	return false
}

// projectOf is the call's own project folder: a cd earlier in the line
// (cd ~/.config && 7z x a.7z) moves the cwd, not the project whose
// entries presumedUnder leaves to the disk.
func projectOf(x *rules.Ctx) string {
	if x.Project != "" {
		return x.Project
	}
	return x.Cwd
}

// remoteHome: the line is judged for another machine (ssh host CMD: home
// and cwd "~"), whose guard is not this one's; the confirm stays.
func remoteHome(x *rules.Ctx) bool { return x.Home == "~" }

func extractInto(f rules.Finding) rules.Finding {
	f.Risk, f.Violation, f.RedLine, f.Rule = 3, 1, true, "self.extract-into"
	f.Reason += ": it may carry an older or emptied copy of them, so an agent must not do it; ask the user to do it"
	return f
}

// landings judges the paths a copy of src into root would write: src's
// tree on disk mapped under root. known is false when src is not on disk.
func landings(c *shell.Cmd, src, root string, x *rules.Ctx) (f rules.Finding, hit, known bool) {
	if f, ok := rules.Protected(root, x.Cwd, x.Home); ok {
		return f, true, true
	}
	sn := rules.Normalize(src, x.Cwd, x.Home)
	if sn.Dynamic() || !rules.IsAbs(sn.Abs()) || strings.HasPrefix(sn.Abs(), "~") {
		return rules.Finding{}, false, false
	}
	rels, ok := rules.ListTree(sn.Abs())
	if !ok {
		return rules.Finding{}, false, false
	}
	rn := rules.Normalize(root, x.Cwd, x.Home)
	var plugin rules.Finding
	for _, rel := range rels {
		dst := path.Join(rn.Abs(), rel)
		if f, ok := rules.Protected(dst, "", x.Home); ok {
			f.Reason = "copies " + src + " into " + root + ", which writes " + dst + ": " + f.Reason
			f.Marked = c.Raw
			return f, true, true
		}
		if f, ok := rules.HostPluginWrite(dst, "", x.Home); ok && !plugin.Worse(f) {
			plugin = f // kept: a protected path further on outranks it
		}
	}
	if plugin.Rule != "" {
		plugin.Reason = "copies " + src + " into " + root + ", which " + plugin.Reason
		plugin.Marked = c.Raw
		return plugin, true, true
	}
	return rules.Finding{}, false, true
}

// selfCopy: cp/mv/rsync SRC... DEST, -t DIR.
func selfCopy(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := c.Operands()
	dest, explicitDir := "", false
	for i, a := range c.Args {
		switch {
		case a == "-t" && i+1 < len(c.Args):
			dest, explicitDir = c.Args[i+1], true
		case strings.HasPrefix(a, "--target-directory="):
			dest, explicitDir = strings.TrimPrefix(a, "--target-directory="), true
		}
	}
	if dest != "" {
		ops = without(ops, dest)
	} else {
		if len(ops) < 2 {
			return rules.Finding{}, false
		}
		dest, ops = ops[len(ops)-1], ops[:len(ops)-1]
	}
	dn := rules.Normalize(dest, x.Cwd, x.Home)
	intoDir := explicitDir || len(ops) > 1 || strings.HasSuffix(dest, "/") || strings.HasSuffix(dest, "\\") || rules.IsDirOnDisk(dn.Abs())
	if c.Flag('T', "--no-target-directory") {
		intoDir = false
	}
	var w rules.Finding
	have := false
	for _, src := range ops {
		root := dest
		contents := strings.HasSuffix(src, "/.") || c.Name == "rsync" && strings.HasSuffix(src, "/") ||
			// ditto SRC DST copies SRC's content into DST
			c.Name == "ditto" && !intoDir ||
			// cp -rT SRC DEST, mv SRC DEST with no DEST folder: SRC's
			// content becomes DEST's
			!intoDir && (c.Name == "mv" || c.Name == "gmv" || c.Flag('r', "--recursive") || c.Flag('R') || c.Flag('a', "--archive"))
		if intoDir && !contents {
			root = strings.TrimRight(dest, "/\\") + "/" + path.Base(rules.Slashify(strings.TrimRight(src, "/")))
		}
		f, hit, known := landings(c, src, root, x)
		if hit {
			return f, true
		}
		if !known && intoDir && strings.ContainsAny(path.Base(rules.Slashify(src)), "*?[") &&
			(c.Flag('r', "--recursive") || c.Flag('R') || c.Flag('a', "--archive") || c.Name == "mv" || c.Name == "gmv") {
			// cp -r * ~/.config/: whatever the glob finds (folders named
			// like the guard's among them) lands in dest
			if f, ok := unknownOver(c, dest, c.Name+" copies what "+src+" matches", x); ok && (!have || f.Worse(w)) {
				w, have = f, true
			}
			continue
		}
		if !known && (contents || intoDir && strings.HasSuffix(src, "/")) {
			if f, ok := unknownOver(c, dest, c.Name+" copies the contents of "+src, x); ok && (!have || f.Worse(w)) {
				w, have = f, true
			}
		} else if !known && intoDir && (c.Name == "mv" || c.Name == "gmv" || c.Flag('r', "--recursive") || c.Flag('R') || c.Flag('a', "--archive")) {
			// cp -a /tmp/fake/.claude ~/: the folder lands as root
			if f, ok := unknownOver(c, root, c.Name+" copies the folder "+src, x); ok && (!have || f.Worse(w)) {
				w, have = f, true
			}
		}
	}
	return w, have
}

// selfCopyWin: Copy-Item/Move-Item -Path X -Destination Y, robocopy SRC DST.
func selfCopyWin(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	src, dst := "", ""
	var pos []string
	for i := 0; i < len(c.Args); i++ {
		a := strings.ToLower(c.Args[i])
		switch {
		case (a == "-destination" || a == "-dest") && i+1 < len(c.Args):
			dst = c.Args[i+1]
			i++
		case (a == "-path" || a == "-literalpath") && i+1 < len(c.Args):
			src = c.Args[i+1]
			i++
		case strings.HasPrefix(a, "-") || strings.HasPrefix(a, "/"):
			if rules.HasDrive(a) || strings.HasPrefix(a, "/") && len(a) > 3 {
				pos = append(pos, c.Args[i]) // a Unix-style path, not a switch
			}
		default:
			pos = append(pos, c.Args[i])
		}
	}
	if src == "" && len(pos) > 0 {
		src, pos = pos[0], pos[1:]
	}
	if dst == "" && len(pos) > 0 {
		dst = pos[0]
	}
	if src == "" || dst == "" {
		return rules.Finding{}, false
	}
	if f, ok := rules.Protected(dst, x.Cwd, x.Home); ok && c.Name != "robocopy" {
		// copy NUL settings.json, Copy-Item x.json -Destination FILE: the
		// destination is the file itself (or a protected folder)
		f.Marked = c.Raw
		return f, true
	}
	root := strings.TrimRight(dst, "/\\")
	srcBase := path.Base(rules.Slashify(src))
	switch {
	case c.Name != "robocopy" && c.Name != "xcopy":
		root += "/" + srcBase
	case c.Name == "xcopy" && (strings.HasSuffix(dst, "\\") || strings.HasSuffix(dst, "/")) && path.Ext(srcBase) != "" && !strings.ContainsAny(srcBase, "*?"):
		root += "/" + srcBase // xcopy FILE DIR\: the file lands in the folder
	case c.Name == "robocopy" && len(pos) > 1:
		// robocopy SRC DST FILE...: each named file lands in DST
		for _, f := range pos[1:] {
			if ff, ok := rules.Protected(root+"/"+f, x.Cwd, x.Home); ok && !strings.ContainsAny(f, "*?") {
				ff.Marked = c.Raw
				return ff, true
			}
		}
	}
	if f, hit, known := landings(c, src, root, x); hit {
		return f, true
	} else if !known {
		return unknownOver(c, dst, c.Name+" copies "+src, x)
	}
	return rules.Finding{}, false
}

func without(l []string, s string) []string {
	var out []string
	for _, a := range l {
		if a != s {
			out = append(out, a)
		}
	}
	return out
}

// selfTar: tar -x[f ARCHIVE] [-C DIR]: every member's landing path.
func selfTar(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	extract, file, dir, strip := false, "", "", 0
	args := c.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		next := func() string {
			if i+1 < len(args) {
				i++
				return args[i]
			}
			return ""
		}
		switch {
		case a == "--extract" || a == "--get":
			extract = true
		case strings.HasPrefix(a, "--file="):
			file = strings.TrimPrefix(a, "--file=")
		case a == "--file":
			file = next()
		case strings.HasPrefix(a, "--directory="):
			dir = strings.TrimPrefix(a, "--directory=")
		case a == "--directory" || a == "-C":
			dir = next()
		case strings.HasPrefix(a, "--strip-components="):
			strip, _ = strconv.Atoi(strings.TrimPrefix(a, "--strip-components="))
		case strings.HasPrefix(a, "--"):
		case strings.HasPrefix(a, "-") || i == 0 && !strings.Contains(a, "/") && !strings.Contains(a, "."):
			// a cluster: -xzf ARCHIVE, xvf ARCHIVE, -C DIR inside (-xC)
			cl := strings.TrimPrefix(a, "-")
			for k := 0; k < len(cl); k++ {
				switch cl[k] {
				case 'x':
					extract = true
				case 'f':
					if k+1 < len(cl) {
						file = cl[k+1:]
					} else {
						file = next()
					}
					k = len(cl)
				case 'C':
					if k+1 < len(cl) {
						dir = cl[k+1:]
					} else {
						dir = next()
					}
					k = len(cl)
				}
			}
		}
	}
	if !extract {
		return rules.Finding{}, false
	}
	if dir == "" {
		dir = x.Cwd
	}
	if dir == "" || file == "" || file == "-" {
		return unknownOver(c, dir, "tar extracts an archive from stdin", x)
	}
	return archiveInto(c, file, dir, strip, x)
}

// selfUnzip: unzip ZIP [-d DIR], 7z x ZIP -oDIR, Expand-Archive -Path ZIP -DestinationPath DIR.
func selfUnzip(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	file, dir := "", ""
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		low := strings.ToLower(a)
		switch {
		case (a == "-d" || low == "-destinationpath") && i+1 < len(c.Args):
			dir = c.Args[i+1]
			i++
		case c.Name != "unzip" && strings.HasPrefix(a, "-o") && len(a) > 2:
			dir = a[2:]
		case (low == "-path" || low == "-literalpath") && i+1 < len(c.Args):
			file = c.Args[i+1]
			i++
		case strings.HasPrefix(a, "-"):
		case strings.HasPrefix(c.Name, "7z") && (a == "x" || a == "e") && file == "":
		case file == "":
			file = a
		case c.Name == "expand-archive" && dir == "":
			dir = a
		}
	}
	if file == "" {
		return rules.Finding{}, false
	}
	if dir == "" {
		dir = x.Cwd
	}
	if dir == "" {
		return rules.Finding{}, false
	}
	return archiveInto(c, file, dir, 0, x)
}

// archiveInto judges extracting the archive file into dir by its listing.
func archiveInto(c *shell.Cmd, file, dir string, strip int, x *rules.Ctx) (rules.Finding, bool) {
	if f, ok := rules.Protected(dir, x.Cwd, x.Home); ok {
		return f, true
	}
	an := rules.Normalize(file, x.Cwd, x.Home)
	var members []rules.Member
	ok := false
	if !an.Dynamic() && rules.IsAbs(an.Abs()) && !strings.HasPrefix(an.Abs(), "~") {
		members, ok = rules.ListArchive(an.Abs())
	}
	if !ok {
		return unknownOver(c, dir, c.Name+" extracts "+file+" (its listing cannot be read)", x)
	}
	dn := rules.Normalize(dir, x.Cwd, x.Home)
	for _, m := range members {
		name := stripComponents(m.Name(), strip)
		if name == "" {
			continue
		}
		dst := path.Join(dn.Abs(), name)
		if f, ok := rules.Protected(dst, "", x.Home); ok {
			f.Reason = c.Name + " extracts " + file + " into " + dir + ", which writes " + dst + ": " + f.Reason
			f.Marked = c.Raw
			return f, true
		}
		if m.Link() != "" {
			t := m.Link()
			if !strings.HasPrefix(t, "/") && !strings.HasPrefix(t, "~") {
				t = path.Join(path.Dir(dst), t)
			}
			if f, ok := rules.Protected(t, "", x.Home); ok {
				f.Reason = c.Name + " extracts a link " + dst + " pointing at " + m.Link() + ": " + f.Reason
				f.Marked = c.Raw
				return f, true
			}
		}
	}
	return rules.Finding{}, false
}

func stripComponents(name string, n int) string {
	name = strings.TrimLeft(path.Clean("/"+strings.ReplaceAll(name, "\\", "/")), "/")
	for ; n > 0 && name != ""; n-- {
		_, rest, _ := strings.Cut(name, "/")
		name = rest
	}
	return name
}

// selfLink: ln -s TARGET LINK, mklink LINK TARGET, New-Item -ItemType
// SymbolicLink -Path LINK -Target TARGET: a link pointing at a protected
// path (a later write through it would change the guard), or over one.
func selfLink(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	var targets, links []string
	switch c.Name {
	case "ln", "link":
		ops := c.Operands()
		switch {
		case len(ops) == 1:
			targets = ops
		case len(ops) > 1:
			targets, links = ops[:len(ops)-1], ops[len(ops)-1:]
		}
	case "mklink":
		ops := []string{}
		for _, a := range c.Args {
			if !strings.HasPrefix(a, "/") || len(a) > 3 {
				ops = append(ops, a)
			}
		}
		if len(ops) == 2 {
			links, targets = ops[:1], ops[1:]
		}
	default: // New-Item
		isLink := false
		for i := 0; i < len(c.Args); i++ {
			a := strings.ToLower(c.Args[i])
			switch {
			case (a == "-itemtype" || a == "-type") && i+1 < len(c.Args):
				t := strings.ToLower(c.Args[i+1])
				isLink = t == "symboliclink" || t == "hardlink" || t == "junction"
				i++
			case (a == "-target" || a == "-value") && i+1 < len(c.Args):
				targets = append(targets, c.Args[i+1])
				i++
			case (a == "-path" || a == "-name") && i+1 < len(c.Args):
				links = append(links, c.Args[i+1])
				i++
			}
		}
		if !isLink {
			return rules.Finding{}, false
		}
	}
	for _, t := range targets {
		if f, ok := rules.ProtectedTree(t, x.Cwd, x.Home); ok {
			f.Reason = c.Name + " makes a link to " + t + " (a write through the link would change it): " + f.Reason
			f.Marked = c.Raw
			return f, true
		}
	}
	for _, l := range links {
		// a link over a protected file, or over a folder holding one (ln -sfn /tmp/x ~/.claude)
		if f, ok := rules.ProtectedTree(l, x.Cwd, x.Home); ok {
			return f, true
		}
	}
	return rules.Finding{}, false
}

// selfPerms: chmod/chown/chattr/... of a protected path, or of a folder
// holding one in a way that can lock the guard out.
func selfPerms(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	args := c.Args
	mode := ""
	var targets []string
	for i, a := range args {
		switch {
		case c.Name == "chmod" && mode == "" && isModeArg(a):
			mode = a
		case a == "--" || strings.HasPrefix(a, "--") || len(a) > 1 && a[0] == '-' && c.Name != "chmod" && c.Name != "chattr":
		case c.Name == "chattr" && (strings.HasPrefix(a, "+") || strings.HasPrefix(a, "-") || strings.HasPrefix(a, "=")):
			mode = a
		case c.Name == "chmod" && len(a) > 1 && a[0] == '-' && !isModeArg(a):
		case c.Name == "chflags" && mode == "" && !strings.HasPrefix(a, "-"):
			mode = a // chflags FLAGS PATH: uchg, schg, uappnd, hidden, nouchg
		case (c.Name == "chown" || c.Name == "chgrp" || c.Name == "setfacl") && i == firstOperand(args):
			// the owner, group or ACL spec, shown where chmod's mode is
			mode = a
		default:
			targets = append(targets, a)
		}
	}
	for _, t := range targets {
		if f, ok := rules.Protected(t, x.Cwd, x.Home); ok {
			return f, true
		}
		if c.Name == "chmod" && !modeLocksOut(mode) {
			continue // only adds permissions: the guard keeps its access
		}
		n := rules.Normalize(t, x.Cwd, x.Home)
		if f, ok := rules.ProtectedBelow(n, t, x.Cwd, x.Home); ok {
			f.Reason = c.Name + rules.PmMode(mode) + " on " + t + ": " + f.Reason
			f.Marked = c.Raw
			if c.Name != "chmod" && c.Name != "chattr" {
				// Above "outside the project" (2): it can lock the guard out.
				f.Risk, f.Violation, f.RedLine, f.Rule = 2.2, 0.6, false, "guard.perms-above"
			}
			return f, true
		}
		// the folder is where the installer puts the guard's files (they
		// may be missing from this disk right now): a recursive lock or an
		// immutable flag reaches them as well (the home itself: the home-wide
		// rules name it, fs.perms-tree)
		locks := c.Name == "chattr" && (strings.ContainsAny(mode, "ia") && !strings.HasPrefix(mode, "-")) ||
			c.Name == "chflags" && (strings.Contains(mode, "chg") || strings.Contains(mode, "appnd")) && !strings.HasPrefix(mode, "no")
		if !n.Dynamic() && rules.FsClassify(t, x) != rules.FsHome && (locks || c.Flag('R', "--recursive") && c.Name != "chflags") {
			if e, ok := presumedUnder(rules.SetFor(projectOf(x), x.Home), n.Abs(), projectOf(x), x.Home); ok {
				f := rules.CoreSelfFinding(string(e.Kind), e.Path, "")
				f.Reason = c.Name + rules.PmMode(mode) + " on " + t + ", which holds " + e.Path + ": " + f.Reason
				f.Marked = c.Raw
				if !locks && c.Name != "chmod" {
					f.Risk, f.Violation, f.RedLine, f.Rule = 2.2, 0.6, false, "guard.perms-above"
				}
				return f, true
			}
		}
	}
	return rules.Finding{}, false
}

func firstOperand(args []string) int {
	for i, a := range args {
		if !strings.HasPrefix(a, "-") {
			return i
		}
	}
	return -1
}

// isModeArg: a chmod mode (755, u+x, -x, a=r, +t), not a flag.
func isModeArg(a string) bool {
	if a == "" {
		return false
	}
	if strings.Trim(a, "01234567") == "" {
		return true
	}
	if strings.HasPrefix(a, "--reference=") {
		return true
	}
	return strings.Trim(a, "ugoa+-=rwxXstugo,") == "" && strings.ContainsAny(a, "+-=") &&
		a != "-R" && a != "-v" && a != "-c" && a != "-f"
}

// modeLocksOut: the mode can take read, write or search access from the
// owner (numeric owner digit without r+x, or a symbolic -/= for u or all).
func modeLocksOut(mode string) bool {
	if mode == "" || strings.HasPrefix(mode, "--reference=") {
		return true
	}
	if strings.Trim(mode, "01234567") == "" {
		m, err := strconv.ParseUint(mode, 8, 32)
		return err != nil || (m>>6)&7 != 7
	}
	for _, cl := range strings.Split(mode, ",") {
		who := strings.TrimLeft(cl, "ugoa")
		whoPart := cl[:len(cl)-len(who)]
		if (strings.ContainsAny(who, "-=")) && (whoPart == "" || strings.ContainsAny(whoPart, "ua")) {
			return true
		}
	}
	return false
}

// selfPid: kill PID, taskkill /PID N, Stop-Process -Id N where the pid is
// a running guard process (resolved now, through /proc).
func selfPid(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	set := rules.SetFor(x.Cwd, x.Home)
	for i, a := range c.Args {
		v := strings.TrimPrefix(a, "-")
		if c.Name == "taskkill" || c.Name == "tskill" {
			if l := strings.ToLower(a); strings.HasPrefix(l, "/pid:") {
				v = a[5:]
			} else if i == 0 || !strings.EqualFold(c.Args[i-1], "/pid") && c.Name == "taskkill" {
				continue
			}
		}
		if c.Name == "kill" && i > 0 && (c.Args[i-1] == "-s" || c.Args[i-1] == "-n") {
			continue // a signal number
		}
		if c.Name == "kill" && strings.HasPrefix(a, "-") && !(i > 0 && c.Args[i-1] == "--") {
			continue // -9, -TERM: the signal
		}
		for _, p := range strings.Split(v, ",") {
			pid, err := strconv.Atoi(strings.TrimSpace(p))
			if err != nil || pid <= 1 {
				continue
			}
			if what, ok := set.GuardPID(pid); ok {
				return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.kill-guard", Marked: c.Raw,
					Reason: "signals process " + p + ", which is agent-guard itself (" + what + "): an agent must not switch off its own guard; ask the user to do it"}, true
			}
		}
	}
	return rules.Finding{}, false
}

// selfArchiveDeletes: archivers that remove what they pack (tar
// --remove-files, zip -m, 7z a -sdel): a delete of every operand.
func selfArchiveDeletes(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	removes := false
	for _, a := range c.Args {
		switch {
		case a == "--remove-files", a == "-sdel",
			c.Name == "zip" && len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], "m"):
			removes = true
		}
	}
	if !removes {
		return rules.Finding{}, false
	}
	for _, t := range c.Operands() {
		if f, ok := rules.ProtectedTree(t, x.Cwd, x.Home); ok {
			f.Reason = c.Name + " packs and then deletes " + t + ": " + f.Reason
			f.Marked = c.Raw
			return f, true
		}
	}
	return rules.Finding{}, false
}

// selfFsutil: fsutil verbs that change a file or folder (reparsepoint
// delete, file setshortname/seteof/setzerodata/setvaliddata, sparse
// setflag, objectid delete/set, hardlink create) on a protected path;
// query verbs only read.
func selfFsutil(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if len(c.Args) < 3 {
		return rules.Finding{}, false
	}
	verb := strings.ToLower(c.Args[1])
	switch strings.ToLower(c.Args[0]) {
	case "reparsepoint", "file", "sparse", "objectid", "hardlink", "usn":
	default:
		return rules.Finding{}, false
	}
	if strings.HasPrefix(verb, "query") || strings.HasPrefix(verb, "find") || strings.HasPrefix(verb, "read") || verb == "list" || verb == "layout" {
		return rules.Finding{}, false
	}
	for _, a := range c.Args[2:] {
		if strings.HasPrefix(a, "/") && len(a) < 4 {
			continue
		}
		if f, ok := rules.Protected(a, x.Cwd, x.Home); ok {
			f.Reason = "fsutil " + c.Args[0] + " " + c.Args[1] + " on " + a + ": " + f.Reason
			f.Marked = c.Raw
			return f, true
		}
	}
	return rules.Finding{}, false
}
