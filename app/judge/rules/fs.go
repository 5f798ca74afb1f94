package rules

import (
	"path"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/opts"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// File-system pack: deletion (rm, rmdir, unlink, shred, del, rd,
// Remove-Item...), permission changes (chmod, chown, chattr, setfacl,
// icacls, takeown) and copies/moves/links whose targets are judged like
// writes. Scope decides: / ~ and system folders are red lines, build
// output inside the project is everyday work.

func init() {
	on(ruleDelete, "rm", "unlink", "shred", "srm", "wipe", "del", "erase", "rd", "rmdir",
		"remove-item", "ri", "rimraf", "trash", "trash-put", "gio")
	on(ruleTruncate, "truncate")
	on(rulePerms, "chmod", "chown", "chgrp", "chattr", "setfacl", "icacls", "cacls", "takeown", "attrib")
	on(ruleMoveCopy, "mv", "cp", "ln", "install", "move", "copy", "xcopy", "robocopy",
		"move-item", "mi", "copy-item", "cpi", "rename-item", "rni", "ren", "rename")
	on(ruleRsync, "rsync")
	on(ruleTee, "tee")
	on(ruleFind, "find", "fd", "fdfind")
}

// fsTargetFinding judges deleting (or wiping) one target.
func fsTargetFinding(c *shell.Cmd, t string, recursive bool, verb string, x *Ctx) Finding {
	if f, ok := ProtectedTree(t, x.Cwd, x.Home); ok {
		return f
	}
	s := fsClassify(t, x)
	what := fsScopeWords[s]
	mk := func(risk, viol float64, rule, reason string) Finding {
		return Finding{Risk: risk, Violation: viol, Rule: rule, Reason: reason, Marked: c.Raw, RedLine: viol >= RedLineAt}
	}
	shown := strings.ReplaceAll(t, shell.Dyn, "$?")
	switch s {
	case fsRoot:
		return mk(3, 0.98, "fs.rm-root", verb+" "+shown+": "+what+"; everything on the machine would be lost")
	case fsHome:
		if !recursive && verb != "wipe" {
			return mk(2, 0.3, "fs.delete-home", verb+" "+shown+" removes files at the top of the home folder")
		}
		return mk(3, 0.95, "fs.delete-home", verb+" "+shown+": "+what+"; all of the user's files would be lost")
	case fsSystem:
		if !recursive && verb != "wipe" {
			return mk(3, 0.7, "fs.delete-system", verb+" "+shown+" removes "+what+"'s file; the system may stop working")
		}
		return mk(3, 0.95, "fs.delete-system", verb+" "+shown+": "+what+"; the system would stop working")
	case fsSoftware:
		if recursive || verb == "wipe" {
			return mk(2.2, 0.4, "fs.delete-software", verb+" "+shown+": "+what+" outside the project")
		}
		return mk(1.6, 0.2, "fs.delete-software", verb+" "+shown+": a file of "+what)
	case fsHomeKey:
		lt := strings.ToLower(t)
		secret := strings.Contains(lt, "id_") || strings.Contains(lt, "authorized_keys") || strings.Contains(lt, ".gnupg") ||
			strings.Contains(lt, "credentials") || strings.Contains(lt, ".password-store") || strings.HasSuffix(lt, ".pem") || strings.HasSuffix(lt, ".key")
		if !recursive && !secret {
			return mk(2, 0.4, "fs.delete-user-data", verb+" "+shown+": "+what)
		}
		return mk(3, 0.9, "fs.delete-user-data", verb+" "+shown+": "+what+" (keys, documents or settings), not recoverable")
	case fsBackup:
		if recursive || verb == "wipe" {
			return mk(3, 0.9, "fs.delete-backup", verb+" "+shown+": deleting backups is a red line")
		}
		return mk(2, 0.5, "fs.delete-backup", verb+" "+shown+" looks like a backup; deleting backups needs the user's consent")
	case fsGitDir:
		if !recursive && verb != "wipe" {
			return mk(2, 0.3, "fs.delete-git", verb+" "+shown+" removes part of the repository's history or state")
		}
		return mk(3, 0.7, "fs.delete-git", verb+" "+shown+" deletes the repository's history")
	case fsCwdAll:
		if !recursive {
			return mk(1.5, 0.2, "fs.delete-all-files", verb+" "+shown+" removes every file in the working folder")
		}
		return mk(2.2, 0.4, "fs.delete-cwd", verb+" "+shown+" deletes the whole working folder, not just build output")
	case fsUnknown:
		if recursive || verb == "wipe" {
			return mk(2, 0.4, "fs.delete-dynamic", verb+" "+shown+": the target is only known at run time (an empty variable can mean / or ~)")
		}
		f := mk(1, 0, "fs.delete-dynamic", verb+" "+shown+": the file is only known at run time")
		f.Uncertain = true
		return f
	case fsOutside:
		if recursive || verb == "wipe" {
			return mk(2, 0.3, "fs.delete-outside", verb+" "+shown+": "+what)
		}
		if verb != "trash" && verb != "trash-put" && verb != "gio" && fsPersonalFile(t, x) {
			return mk(2, 0.3, "fs.delete-user-data", verb+" "+shown+": the user's own file outside any project, not recoverable")
		}
		if verb != "trash" && verb != "trash-put" && verb != "gio" && fsToolConfigFile(t, x) {
			return fsToolConfigDelete(c, verb+" "+shown)
		}
		f := mk(1.2, 0.1, "fs.delete-outside", verb+" "+shown+": a file outside the project")
		f.Uncertain = true
		return f
	}
	if verb == "wipe" {
		return mk(2, 0.3, "fs.shred", verb+" "+shown+": overwritten beyond recovery")
	}
	if recursive {
		return mk(1, 0, "fs.delete-project", verb+" "+shown+": "+what)
	}
	return mk(0.5, 0, "fs.delete-project", verb+" "+shown+": "+what)
}

// fsTargets returns a deletion command's targets and whether it recurses.
func fsTargets(c *shell.Cmd) (targets []string, recursive bool) {
	win := false
	switch c.Name {
	case "del", "erase", "rd":
		win = true
	case "rmdir":
		for _, a := range c.Args {
			if len(a) == 2 && a[0] == '/' {
				win = true
			}
		}
	}
	ps := c.Name == "remove-item" || c.Name == "ri"
	skip := false
	dashdash := false
	for k, a := range c.Args {
		if skip {
			skip = false
			continue
		}
		la := strings.ToLower(a)
		switch {
		case dashdash:
			targets = append(targets, a)
		case a == "--":
			dashdash = true
		case win && len(a) >= 2 && a[0] == '/':
			if la == "/s" {
				recursive = true
			}
		case a == shell.Dyn && k+1 < len(c.Args) || len(a) > 1 && a[0] == '-' && strings.Contains(a, shell.Dyn):
			// rm $OPTS ~, rm -$X ~: options only known at run time may be -rf.
			recursive = true
			if a == shell.Dyn {
				targets = append(targets, a)
			}
		case strings.HasPrefix(la, "--"):
			if la == "--recursive" || la == "--dir" && c.Name == "rm" {
				recursive = recursive || la == "--recursive"
			}
		case len(a) > 1 && a[0] == '-' && !strings.Contains(a, shell.Dyn):
			if ps || c.Name == "rm" && len(a) > 2 && strings.HasPrefix("-recurse", la) {
				switch {
				case strings.HasPrefix("-recurse", la) && len(la) >= 2:
					recursive = true
				case la == "-path" || la == "-literalpath" || la == "-lp" || la == "-pspath":
				case strings.HasPrefix("-include", la) && len(la) >= 3, strings.HasPrefix("-exclude", la) && len(la) >= 3,
					strings.HasPrefix("-filter", la) && len(la) >= 3, la == "-credential", la == "-stream",
					la == "-erroraction", la == "-ea", la == "-warningaction", la == "-wa", la == "-informationaction", la == "-ia",
					la == "-errorvariable", la == "-ev", la == "-outvariable", la == "-ov":
					skip = true
				}
				continue
			}
			if strings.ContainsAny(a[1:], "rR") && c.Name != "shred" {
				recursive = true
			}
			if c.Name == "shred" && strings.ContainsAny(a[1:], "nsx") && len(a) == 2 {
				skip = true // -n 3, -s size
			}
		default:
			targets = append(targets, a)
		}
	}
	if c.Name == "gio" {
		if len(targets) == 0 || targets[0] != "remove" && targets[0] != "trash" {
			return nil, false
		}
		targets = targets[1:]
	}
	if c.Name == "rimraf" {
		recursive = true
	}
	return targets, recursive
}

func ruleDelete(c *shell.Cmd, x *Ctx) (Finding, bool) {
	targets, recursive := fsTargets(c)
	verb := c.Name
	switch c.Name {
	case "shred", "srm", "wipe":
		verb = "wipe"
	case "trash", "trash-put":
		recursive = false // recoverable from the trash
	case "gio":
		if len(c.Args) > 0 && c.Args[0] == "trash" {
			recursive = false
		}
	case "rmdir":
		// Unix rmdir only removes empty folders.
		if !recursive {
			return Finding{Risk: 0.5, Rule: "fs.rmdir", Reason: "rmdir removes only empty folders", Marked: c.Raw}, true
		}
	}
	if c.Flag(0, "--no-preserve-root") {
		return Finding{Risk: 3, Violation: 0.98, RedLine: true, Rule: "fs.rm-root", Reason: "rm --no-preserve-root exists only to delete /", Marked: c.Raw}, true
	}
	if len(targets) == 0 {
		if c.Name == "remove-item" || c.Name == "ri" {
			// Piped input (Get-ChildItem -Recurse | Remove-Item): a set
			// of unknown items, judged like a recursive delete.
			return fsTargetFinding(c, shell.Dyn, true, verb, x), true
		}
		return Finding{Risk: 0, Rule: "fs.delete-nothing", Reason: c.Name + " with no file names", Marked: c.Raw}, true
	}
	inFind := hasWord(c.Wrappers, "find") // find -exec rm, and find -exec sh -c 'rm "$1"'
	var w Finding
	have := false
	for _, t := range targets {
		if t == "" {
			continue // rm "" deletes nothing
		}
		if inFind && strings.Contains(t, "{}") {
			continue // find decides the scope; the find rule judges it
		}
		if t == shell.Dyn && c.Name != "rm" && xargsFindSource(c, x) != nil {
			continue // find ... | xargs rimraf: judged as the find (xargsfind.go)
		}
		if t == shell.Dyn && psDeleters.Has(c.Name) && psForEachCovers(c, x) {
			continue // gci P | % { Remove-Item $_ }: judged as the loop (psforeachdelete.go)
		}
		f := fsTargetFinding(c, t, recursive, verb, x)
		if !have || f.Worse(w) {
			w, have = f, true
		}
	}
	if !have {
		return Finding{Risk: 0.5, Rule: "fs.find-exec", Reason: c.Name + " on what find selects (judged with find)", Marked: c.Raw}, true
	}
	return w, true
}

func ruleTruncate(c *shell.Cmd, x *Ctx) (Finding, bool) {
	var w Finding
	have := false
	args := c.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-s" || a == "-r" || a == "--size" || a == "--reference" {
			i++
			continue
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		f := fsWriteTarget(c, a, x)
		if s := fsClassify(a, x); s == fsBackup || s == fsSystem || s == fsOutside && fsPersonalFile(a, x) {
			f = Worst(f, fsTargetFinding(c, a, false, "truncate", x))
		}
		if !have || f.Worse(w) {
			w, have = f, true
		}
	}
	if !have {
		return Finding{Risk: 0.5, Rule: "fs.truncate", Reason: "truncate without a file", Marked: c.Raw}, true
	}
	return w, true
}

// fsWriteTarget judges writing to t: a disk device is a red line, the
// guard's own files are blocked, then the path rules decide.
func fsWriteTarget(c *shell.Cmd, t string, x *Ctx) Finding {
	if f, ok := diskDevice(c, t); ok {
		return f
	}
	switch t {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "-", "/dev/zero":
		return Finding{Rule: "fs.write-null", Reason: "writes to " + t, Marked: c.Raw}
	}
	if strings.HasPrefix(t, "/dev/fd/") || strings.HasPrefix(t, "/proc/self/fd/") {
		return Finding{Rule: "fs.write-fd", Reason: "writes to a file descriptor", Marked: c.Raw}
	}
	if f, ok := Protected(t, x.Cwd, x.Home); ok {
		return f
	}
	if t == shell.Dyn {
		return Finding{Risk: 1, Rule: "fs.write-dynamic", Reason: "writes to a file only known at run time", Marked: c.Raw, Uncertain: true}
	}
	f := WritePath(t, x.Cwd, x.Home)
	if f.Marked == "" {
		f.Marked = c.Raw
	}
	if strings.Contains(t, shell.Dyn) && !f.RedLine && f.Risk < 2.5 {
		// "$tmp/x" after tmp=$(mktemp -d), "$BUILD/node_modules": the
		// known part already places it in a temp or build folder.
		if s := fsClassify(t, x); s == fsProject || s == fsCache {
			return Finding{Risk: 0.5, Rule: "fs.write-dynamic", Reason: "writes under a temporary or build folder", Marked: c.Raw, Uncertain: true}
		}
	}
	return f
}

// ruleMoveCopy: mv/cp/ln/install and Windows copies. Sources of a move
// are deleted from where they were; the destination is a write.
func ruleMoveCopy(c *shell.Cmd, x *Ctx) (Finding, bool) {
	var ops []string
	dst := ""
	winFlags := c.Name == "copy" || c.Name == "xcopy" || c.Name == "robocopy" || c.Name == "move"
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		switch {
		case a == "-t" || strings.EqualFold(a, "-destination"):
			if i+1 < len(c.Args) {
				dst = c.Args[i+1]
				i++
			}
		case strings.HasPrefix(a, "--target-directory="):
			dst = a[len("--target-directory="):]
		case a == "-m" || a == "-o" || a == "-g" || a == "-S" || a == "--suffix" || a == "--mode" || a == "--owner" || a == "--group":
			i++
		case len(a) > 1 && a[0] == '-', winFlags && len(a) > 1 && a[0] == '/' && (len(a) <= 5 || c.Name == "robocopy" && len(a) <= 12) && !strings.Contains(a[1:], "/"):
		default:
			ops = append(ops, a)
		}
	}
	isDirs := c.Name == "install" && c.Flag('d', "--directory")
	switch {
	case dst != "" || isDirs:
	case c.Name == "ln" && len(ops) == 1:
		dst, ops = path.Base(strings.ReplaceAll(ops[0], "\\", "/")), nil
	case len(ops) >= 2:
		dst, ops = ops[len(ops)-1], ops[:len(ops)-1]
	}
	var w Finding
	have := false
	add := func(f Finding) {
		if !have || f.Worse(w) {
			w, have = f, true
		}
	}
	if isDirs {
		for _, d := range ops {
			add(fsWriteTarget(c, d, x))
		}
	}
	if dst != "" {
		add(fsWriteTarget(c, dst, x))
	}
	move := c.Name == "mv" || c.Name == "move" || c.Name == "move-item" || c.Name == "mi" ||
		c.Name == "rename-item" || c.Name == "rni" || c.Name == "ren" || c.Name == "rename"
	if c.Name == "robocopy" {
		for _, a := range c.Args {
			la := strings.ToLower(a)
			if la == "/mov" || la == "/move" {
				move = true
			}
			if (la == "/mir" || la == "/purge") && dst != "" {
				// Mirroring deletes whatever the destination has that the source lacks.
				f := fsTargetFinding(c, dst, true, "robocopy "+la+" into", x)
				if f.Rule == "fs.delete-backup" && len(ops) == 1 && robocopyBackupUpdate(ops[0], dst) {
					// robocopy src backup\src /MIR is how a backup of src is
					// kept current: it loses only what src itself deleted.
					f.Risk, f.Violation, f.RedLine = 1.5, 0.25, false
					f.Reason = "robocopy " + la + " keeps " + dst + " a copy of " + ops[0] + ": what " + ops[0] + " no longer has is deleted from the backup too"
				}
				add(f)
			}
		}
	}
	if move && (dst == "/dev/null" || strings.EqualFold(dst, "nul")) {
		// mv x /dev/null: x is gone.
		for _, s := range ops {
			add(fsTargetFinding(c, s, true, "mv to /dev/null", x))
		}
		return w, true
	}
	if move || c.Name == "rename" {
		for _, s := range ops {
			if f, ok := ProtectedTree(s, x.Cwd, x.Home); ok {
				add(f)
				continue
			}
			switch fsClassify(s, x) {
			case fsProject, fsCache, fsCwdAll:
				add(Finding{Risk: 0.5, Rule: "fs.move", Reason: c.Name + " " + s + " (recoverable)", Marked: c.Raw})
			case fsOutside, fsUnknown:
				add(Finding{Risk: 1, Rule: "fs.move", Reason: c.Name + " " + s + " from outside the project", Marked: c.Raw, Uncertain: true})
			default:
				add(fsTargetFinding(c, s, true, "move", x))
			}
		}
	}
	if !have {
		return Finding{Risk: 0.5, Rule: "fs." + c.Name, Reason: c.Name + " inside the project", Marked: c.Raw}, true
	}
	return w, true
}

// ruleRsync: --delete at the destination is a deletion there.
func ruleRsync(c *shell.Cmd, x *Ctx) (Finding, bool) {
	// rsync's own grammar (opts): --exclude X, -e CMD, --backup-dir D take
	// values, so the operands are where rsync sees them; -n is a dry run.
	a := opts.ParseFor("rsync", c.Args)
	ops := a.Operands
	del := a.Has("delete", "del", "delete-before", "delete-during", "delete-delay", "delete-after", "delete-excluded", "remove-source-files")
	if a.ReadOnly {
		return Finding{Risk: 0, Rule: "fs.rsync-dry-run", Reason: "rsync with --dry-run, --list-only or --help changes nothing", Marked: c.Raw}, true
	}
	if len(ops) < 2 {
		return Finding{Risk: 0.5, Rule: "fs.rsync", Reason: "rsync", Marked: c.Raw, Uncertain: true}, true
	}
	dst := ops[len(ops)-1]
	if f, ok := remoteWrite(c, dst, del, x); ok {
		return f, true
	}
	if strings.Contains(dst, ":") && !strings.Contains(dst, ":\\") && !strings.HasPrefix(dst, "/") {
		// host::module (rsync daemon) and other remote forms.
		if del {
			return Finding{Risk: 2, Violation: 0.3, Rule: "fs.rsync-remote-delete", Marked: c.Raw,
				Reason: "rsync --delete to " + dst + " deletes whatever the remote folder has that the source lacks"}, true
		}
		return Finding{Risk: 1, Rule: "fs.rsync-remote", Reason: "rsync to " + dst, Marked: c.Raw, Uncertain: true}, true
	}
	f := fsWriteTarget(c, dst, x)
	if del {
		f = Worst(f, fsTargetFinding(c, dst, true, "rsync --delete into", x))
	}
	return f, true
}

func ruleTee(c *shell.Cmd, x *Ctx) (Finding, bool) {
	var w Finding
	have := false
	for _, t := range c.Operands() {
		f := fsWriteTarget(c, t, x)
		if !have || f.Worse(w) {
			w, have = f, true
		}
	}
	if !have {
		return Finding{Rule: "fs.tee", Reason: "tee to the screen", Marked: c.Raw}, true
	}
	return w, true
}

// ruleFind: find -delete and find -exec rm ... delete everything found
// under the start folders; the scope of those folders decides.
func ruleFind(c *shell.Cmd, x *Ctx) (Finding, bool) {
	var starts []string
	deletes, perms := false, false
	trashOnly := true // every deleting payload only moves to the trash
	permProg := ""
	i := 0
	execCmd := func(w string) {
		switch n := shell.NormName(w); {
		case findDeleters.Has(n):
			deletes = true
			if n != "trash" && n != "trash-put" {
				trashOnly = false
			}
		case n == "chmod" || n == "chown" || n == "chgrp" || n == "chattr" || n == "setfacl":
			perms = true
			permProg = n
		}
	}
	if c.Name == "find" {
		// find's own grammar (opts.ParseFind): `find . -gid -delete` or
		// `-fprintf out -delete` has "-delete" as another primary's argument.
		fe := opts.ParseFind(c.Args)
		starts = fe.Starts
		i = len(c.Args)
		for k, a := range c.Args {
			if len(a) > 0 && a[0] == '-' && a != "-H" && a != "-L" && a != "-P" || a == "(" || a == "!" {
				i = k
				break
			}
		}
		deletes = fe.Has("-delete")
		trashOnly = !deletes
		for _, e := range fe.Execs() {
			_, payload := shell.PeelWrappers(e) // -exec env rm: rm acts
			execCmd(findPayloadProg(payload))
		}
		for _, w := range fe.Writes() {
			if f := fsWriteTarget(c, w, x); f.score() >= 1.5 || f.RedLine {
				return f, true
			}
		}
	} else {
		fd := parseFd(c.Args)
		starts = fd.paths
		if len(fd.exec) > 0 {
			_, payload := shell.PeelWrappers(fd.exec)
			execCmd(findPayloadProg(payload))
		}
		if fd.filtered {
			i = len(c.Args) // the pattern or -e narrows what fd finds
		}
	}
	if !deletes && !perms {
		return Finding{Rule: "fs.find", Reason: "find lists files", Marked: c.Raw}, true
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	var w Finding
	for k, s := range starts {
		var f Finding
		if deletes {
			sc := fsClassify(s, x)
			if sc == fsOutside && (s == "/tmp" || s == "/tmp/" || s == "/var/tmp") {
				sc = fsProject
			}
			filtered := fsHasFilter(c.Args[i:]) || c.Name != "find" && i == len(c.Args)
			switch {
			case (sc == fsCwdAll || sc == fsProject || sc == fsCache) && filtered && trashOnly:
				f = Finding{Risk: 0.5, Rule: "fs.find-exec", Reason: "find moves matching files of the project to the trash (recoverable)", Marked: c.Raw}
			case (sc == fsCwdAll || sc == fsProject || sc == fsCache) && filtered:
				f = Finding{Risk: 1, Rule: "fs.find-delete", Reason: "find deletes matching files inside the project", Marked: c.Raw}
			case trashOnly:
				// find ~ -exec trash {} +: recoverable from the trash,
				// judged like trashing the start folder itself.
				f = fsTargetFinding(c, s, false, "find -exec trash under", x)
			default:
				f = fsTargetFinding(c, s, true, "find -delete under", x)
			}
		} else {
			pc := *c // the reason names the program find runs: "find -exec chown on ~"
			pc.Name = c.Name + " -exec " + permProg
			if c.Name != "find" {
				pc.Name = c.Name + " -x " + permProg
			}
			f = fsPermTarget(&pc, s, true, "", x)
		}
		if deletes && strings.Contains(s, "..") {
			// find /tmp/x/../other -delete: a path spelled through ".." that
			// ends outside the project is judged as leaving it.
			proj := x.Project
			if proj == "" {
				proj = x.Cwd
			}
			if a, p := pkAbs(s, x), pkAbs(proj, x); a != "" && p != "" && a != p && !strings.HasPrefix(a, p+"/") {
				f = Worst(f, Finding{Risk: 2, Violation: 0.3, Rule: "fs.delete-dotdot", Marked: c.Raw,
					Reason: "find -delete under " + s + ", which leaves the project through \"..\" (" + a + ")"})
			}
		}
		if k == 0 || f.Worse(w) {
			w = f
		}
	}
	return w, true
}

// fsHasFilter: the find expression narrows what it matches (-name, -type
// f, -mtime...), so deleting "." is not the whole project.
func fsHasFilter(args []string) bool {
	for _, a := range args {
		switch a {
		case "-name", "-iname", "-path", "-ipath", "-regex", "-iregex", "-mtime", "-mmin", "-newer", "-size", "-empty", "-wholename":
			return true
		}
	}
	return false
}

// pkWriteTarget judges writing to p: the guard's own files, then the
// shared path rules (system files, credentials, rc files, hooks).
func pkWriteTarget(c *shell.Cmd, x *Ctx, p, verb string) (Finding, bool) {
	if p == "" {
		return pkUnsure(c, 1, "fs.write-unknown", verb+" writes to a file that is not named")
	}
	if pkDyn(p) && !strings.HasPrefix(p, shell.Dyn+"/") {
		return pkUnsure(c, 1, "fs.write-dynamic", verb+" writes to a file only known at run time")
	}
	if f, ok := Protected(p, x.Cwd, x.Home); ok {
		return f, true
	}
	f := WritePath(p, x.Cwd, x.Home) // names a path.* rule for every path
	if f.Marked == "" {
		f.Marked = c.Raw
	}
	return f, true
}

// diskDevice reports a write target that is a whole disk or partition.
func diskDevice(c *shell.Cmd, t string) (Finding, bool) {
	l := strings.ToLower(strings.ReplaceAll(t, "\\", "/"))
	dev := false
	switch {
	case strings.HasPrefix(l, "/dev/"):
		n := l[5:]
		for _, p := range [...]string{"sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk", "md", "dm-", "mapper/", "loop", "sr", "nbd", "zd", "bcache", "mtdblock", "root", "by-id/", "by-uuid/", "by-path/", "by-label/", "ada", "da", "wd"} {
			if strings.HasPrefix(n, p) {
				dev = true
				break
			}
		}
		if strings.HasPrefix(n, "disk/") {
			dev = true
		}
	case strings.HasPrefix(l, "//./physicaldrive"), strings.HasPrefix(l, "//?/physicaldrive"), strings.HasPrefix(l, "//./harddisk"),
		len(l) == 6 && strings.HasPrefix(l, "//./") && l[5] == ':':
		dev = true
	}
	if !dev {
		return Finding{}, false
	}
	return Finding{Risk: 3, Violation: 0.98, RedLine: true, Rule: "disk.write-device",
		Reason: "writes straight to the disk device " + t + ": the file system and all data on it are destroyed", Marked: c.Raw}, true
}

// robocopyBackupUpdate: a mirror into a backup folder of the source's
// own name (src -> D:\backup\src), the everyday way to keep a backup of
// one folder current; an empty or unknown source is not one.
func robocopyBackupUpdate(src, dst string) bool {
	b := func(p string) string {
		return strings.ToLower(path.Base(strings.TrimRight(strings.ReplaceAll(p, "\\", "/"), "/")))
	}
	s := b(src)
	if s == "" || s == "." || s == ".." || s == "/" || strings.ContainsAny(s, "$%*?") || strings.Contains(s, "empty") || fsBackupWord(s) || strings.Contains(s, "backup") {
		return false
	}
	return s == b(dst)
}
