package rules

import (
	"path"
	"strings"

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

// fsScope classifies a path for deletion-like operations.
type fsScope int

const (
	fsProject  fsScope = iota // inside the project (cwd) or /tmp
	fsCache                   // a cache or build folder anywhere under home
	fsOutside                 // elsewhere (another folder of home, /mnt/x)
	fsUnknown                 // not statically known ($DIR, $(...))
	fsSoftware                // installed software: /usr/local/go, /opt/x, C:\Program Files\X
	fsCwdAll                  // the whole project: ., *, ./*
	fsGitDir                  // a .git folder
	fsBackup                  // backups
	fsHomeKey                 // ~/.ssh, ~/Documents...: the user's own data
	fsSystem                  // /etc, /usr, C:\Windows...
	fsHome                    // ~ itself, all homes
	fsRoot                    // / or C:\
)

var fsScopeWords = [...]string{
	fsProject: "a path inside the project", fsCache: "a cache or build folder",
	fsOutside: "a folder outside the project", fsUnknown: "a path only known at run time",
	fsSoftware: "installed software or a system cache",
	fsCwdAll:   "the whole working folder", fsGitDir: "the repository's .git history",
	fsBackup: "backups", fsHomeKey: "the user's own data in the home folder",
	fsSystem: "a system folder", fsHome: "the home folder", fsRoot: "the root of the file system",
}

var fsSystemDirs = []string{
	"/etc", "/usr", "/bin", "/sbin", "/boot", "/var", "/lib", "/lib32", "/lib64", "/libx32",
	"/opt", "/srv", "/sys", "/proc", "/dev", "/root", "/snap", "/run",
	"/system", "/library", "/applications", "/private", "/cores", "/volumes",
	"c:/windows", "c:/program files", "c:/program files (x86)", "c:/programdata",
	"c:/users", "c:/system volume information", "c:/recovery", "c:/boot",
}

// fsSoftDirs hold installed software and caches: deleting inside them
// (not the folder itself) is recoverable by reinstalling, so confirm.
var fsSoftDirs = []string{"/usr/local", "/opt", "/var/cache", "/var/lib/apt/lists", "/var/www", "/srv",
	"/applications", "/library/caches", "/snap", "c:/program files", "c:/program files (x86)", "c:/programdata",
	"/usr/share/doc", "/var/lib/docker", "/opt/homebrew"}

// fsSoftFiles are single files under system folders that are routinely removed.
var fsSoftFiles = []string{"/var/lib/dpkg/lock", "/var/lib/dpkg/lock-frontend", "/var/cache/apt/archives/lock",
	"/var/lib/apt/lists/lock", "/var/run/docker.sock"}

// Temporary or volatile places under system dirs that are fine to clean.
var fsVolatile = []string{"/var/tmp", "/var/cache/apt/archives", "/dev/shm", "/run/user", "/var/folders"}

var fsHomeKeys = map[string]bool{
	".ssh": true, ".gnupg": true, ".aws": true, ".azure": true, ".kube": true, ".docker": true,
	".config": true, ".local": true, ".password-store": true, ".mozilla": true, ".thunderbird": true,
	"documents": true, "desktop": true, "pictures": true, "music": true, "videos": true,
	"downloads": true, "library": true, "appdata": true, "onedrive": true, "dropbox": true,
	"google drive": true, "icloud drive": true, ".bashrc": true, ".zshrc": true, ".profile": true,
	".bash_profile": true, ".gitconfig": true, ".vscode": true, "projects": true, "src": true,
	"code": true, "work": true, "repos": true, "git": true, "dev": true, "workspace": true,
}

var fsCacheNames = map[string]bool{
	"node_modules": true, "build": true, "dist": true, "target": true, "out": true,
	".cache": true, "__pycache__": true, ".pytest_cache": true, ".mypy_cache": true,
	".ruff_cache": true, ".tox": true, ".venv": true, "venv": true, ".next": true,
	".nuxt": true, ".turbo": true, ".parcel-cache": true, "coverage": true, ".gradle": true,
	".npm": true, "_cacache": true, ".yarn": true, "tmp": true, ".tmp": true, "temp": true,
	"bin": true, "obj": true, ".angular": true, ".svelte-kit": true, "cmake-build-debug": true,
	".eggs": true, "site-packages": true, ".terraform": true, "caches": true, ".m2": true,
	"go-build": true, "pip": true, ".nox": true, "htmlcov": true, ".dart_tool": true,
	"cache": true, "registry": true, ".pnpm-store": true, "deriveddata": true,
}

// fsPath is a target resolved for matching: lower case, forward slashes,
// absolute ("~/..." for home), cleaned.
type fsPath struct {
	orig, abs string
	dyn, glob bool
	home      string // lower-cased home ("/home/dev")
	cwd       string
	proj      string // the project folder (the call's original cwd)
}

func fsResolve(p string, x *Ctx) fsPath {
	r := fsPath{orig: p, dyn: strings.Contains(p, shell.Dyn)}
	p = strings.ReplaceAll(p, shell.Dyn, "\x01")
	if strings.ContainsAny(p, "%$") {
		if e := shell.ExpandWinVars(p); e != shell.Dyn {
			p = e
		} else {
			// C:\Users\%USERNAME%\x: only the variable itself is unknown.
			p = fsWinVarParts(p)
		}
		if strings.Contains(p, shell.Dyn) || strings.IndexByte(p, 1) >= 0 {
			r.dyn = true
			p = strings.ReplaceAll(p, shell.Dyn, "\x01")
		}
	}
	p = strings.ToLower(strings.ReplaceAll(p, "\\", "/"))
	r.glob = strings.ContainsAny(p, "*?[")
	home := strings.ToLower(strings.ReplaceAll(x.Home, "\\", "/"))
	cwd := strings.ToLower(strings.ReplaceAll(x.Cwd, "\\", "/"))
	if home == "" {
		home = "~"
	}
	if strings.HasPrefix(cwd, "~") {
		cwd = home + cwd[1:]
	}
	r.home, r.cwd = fsClean(home), fsClean(cwd)
	r.proj = r.cwd
	if x.Project != "" {
		pr := strings.ToLower(strings.ReplaceAll(x.Project, "\\", "/"))
		if strings.HasPrefix(pr, "~") {
			pr = home + pr[1:]
		}
		r.proj = fsClean(pr)
	}
	if strings.Contains(cwd, shell.Dyn) && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") && !(len(p) >= 2 && p[1] == ':') {
		r.dyn = true
		r.cwd = ""
		p = "\x01/" + p
	}
	switch {
	case p == "~" || strings.HasPrefix(p, "~/"):
		p = home + p[1:]
	case strings.HasPrefix(p, "~"):
		p = "/home/" + p[1:]
	case len(p) >= 2 && p[1] == ':':
		if len(p) == 2 {
			p += "/"
		}
	case strings.HasPrefix(p, "/"):
	case r.cwd != "":
		p = r.cwd + "/" + p
	}
	r.abs = fsClean(p)
	return r
}

func fsClean(p string) string {
	if p == "" {
		return ""
	}
	if len(p) >= 2 && p[1] == ':' {
		return p[:2] + path.Clean("/"+p[2:])
	}
	return path.Clean(p)
}

func fsUnder(p, dir string) bool {
	if dir == "" {
		return false
	}
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}

// fsClassify scopes a deletion target.
func fsClassify(p string, x *Ctx) fsScope {
	r := fsResolve(p, x)
	a := r.abs
	// The part before the first dynamic piece decides how bad it can be.
	if r.dyn {
		pre := a
		if i := strings.IndexByte(a, 1); i >= 0 {
			pre = a[:i]
		}
		if pre != "/" {
			pre = strings.TrimSuffix(pre, "/")
		}
		if i := strings.IndexByte(a, 1); i >= 0 && !strings.Contains(a[i:], "..") && !r.glob {
			// $DIR/node_modules, or build under an unknown cwd: a build folder.
			if fsCacheNames[path.Base(a)] && strings.Count(a[i:], "/") <= 1 && (strings.HasPrefix(r.orig, shell.Dyn) || r.cwd == "") {
				return fsCache
			}
		}
		// bare: nothing follows the unknown part ("/$X", "~/$X/", "/home/$USER/*").
		tail := ""
		if i := strings.LastIndexByte(a, 1); i >= 0 {
			tail = a[i+1:]
		}
		bare := tail == "" || tail == "/" || tail == "/*" || tail == "/." || tail == "/.*"
		switch {
		case fsUnder(pre, "/tmp") && pre != "/tmp" || pre == "/tmp" && strings.HasPrefix(a, "/tmp/\x01"):
			return fsProject // tmp=$(mktemp -d); rm -rf "$tmp"
		case pre == "" || pre == ".":
			return fsUnknown
		case !bare:
			return fsUnknown
		case pre == "/" || len(pre) == 2 && pre[1] == ':':
			// "/$X": the root if $X is empty, any system folder otherwise.
			return fsRoot
		case pre == "/home" || pre == "/users" || pre == "c:/users":
			// /home/$USER, C:\Users\%USERNAME%: a home folder.
			return fsHome
		case pre == r.home || fsUnder(r.home, pre):
			// "~/$X": home if $X is empty.
			return fsHome
		}
		return fsUnknown
	}
	base := path.Base(a)
	dir := a
	whole := false // the glob takes everything in its folder (*, .*, *.*)
	if r.glob {
		// A glob deletes what its folder holds: judge the folder.
		for k := 0; k < 64 && strings.ContainsAny(path.Base(dir), "*?["); k++ {
			b := path.Base(dir)
			if b == "*" || b == ".*" || b == "*.*" || b == "**" || b == "?*" || b == "*.*.*" || b[0] == '.' && b != ".*" && strings.ContainsAny(b[1:2], "*?[") {
				whole = true
			}
			nd := path.Dir(dir)
			if nd == dir {
				break
			}
			dir = nd
		}
		if !whole {
			// *.log: some files of the folder, judged like one file there.
			if dir == "/" || len(dir) <= 3 && strings.HasSuffix(dir, ":") || len(dir) == 3 && dir[1] == ':' {
				return fsRoot
			}
			a = dir + "/x"
			r.glob = false
		}
	}
	switch {
	case dir == "/" || (len(dir) <= 3 && len(dir) >= 2 && dir[1] == ':') || dir == "//":
		return fsRoot
	case dir == r.home || dir == "/home" || dir == "/users" || dir == "c:/users" ||
		(path.Dir(dir) == "/home" || path.Dir(dir) == "/users" || path.Dir(dir) == "c:/users") && !fsUnder(r.cwd, dir):
		return fsHome
	case fsUnder(r.home, dir):
		// A parent of home (/home/dev/.. or /home).
		return fsHome
	}
	if (base == ".git" || (r.glob && path.Base(dir) == ".git")) && !fsUnder(a, "/tmp") {
		return fsGitDir
	}
	if i := strings.Index(a, "/.git/"); i >= 0 && !fsUnder(a, "/tmp") {
		// Inside .git: objects, refs, packed-refs are the history; hooks,
		// lock files and a stuck rebase's state are routine to remove.
		top, _, _ := strings.Cut(a[i+6:], "/")
		switch {
		case strings.HasSuffix(a, ".lock"), top == "hooks", top == "rebase-merge", top == "rebase-apply",
			top == "gc.log", top == "fetch_head", top == "orig_head", strings.HasPrefix(top, "merge_"),
			top == "sequencer", top == "lfs", top == "modules", top == "worktrees", top == "info", top == "description":
		default:
			return fsGitDir
		}
	}
	if strings.Contains(a, "backup") || strings.HasSuffix(a, ".bak") || strings.Contains(a, "snapshot") ||
		strings.Contains(a, "time machine") {
		return fsBackup
	}
	if r.proj != "" && dir == r.proj && (r.glob || a == r.proj) {
		if r.proj == r.home {
			return fsHome
		}
		return fsCwdAll
	}
	if fsUnder(a, r.proj) && r.proj != "/" && r.proj != r.home && len(r.proj) > 3 {
		return fsProject
	}
	if fsUnder(a, "/tmp") || fsUnder(a, "/private/tmp") || fsUnder(a, "/private/var/folders") {
		if a == "/tmp" || dir == "/tmp" && r.glob {
			return fsOutside
		}
		return fsProject
	}
	for _, v := range fsVolatile {
		if fsUnder(a, v) && a != v {
			return fsProject
		}
	}
	for _, f := range fsSoftFiles {
		if a == f {
			return fsSoftware
		}
	}
	for _, d := range fsSoftDirs {
		if fsUnder(a, d) && a != d && !r.glob || r.glob && fsUnder(dir, d) {
			return fsSoftware
		}
	}
	for _, s := range fsSystemDirs {
		if fsUnder(a, s) && !(s == "c:/users" && a != s) {
			return fsSystem
		}
	}
	home := r.home
	if strings.HasPrefix(a, "c:/users/") {
		// A Windows home: C:\Users\<name>.
		u, _, _ := strings.Cut(a[len("c:/users/"):], "/")
		if u != "public" && u != "default" && u != "all users" && u != "" {
			home = "c:/users/" + u
		}
	}
	if fsUnder(a, home) {
		rel := strings.TrimPrefix(a, home+"/")
		top, _, _ := strings.Cut(rel, "/")
		for seg := range strings.SplitSeq(rel, "/") {
			if fsCacheNames[seg] {
				return fsCache
			}
		}
		if fsHomeKeys[top] && (!strings.Contains(rel, "/") || top == ".ssh" || top == ".gnupg" || top == ".aws" || top == ".password-store") {
			return fsHomeKey
		}
		if top == "library" && strings.HasPrefix(rel, "library/caches") {
			return fsCache
		}
		return fsOutside
	}
	if fsCacheNames[base] {
		return fsCache
	}
	return fsOutside
}

// fsTargetFinding judges deleting (or wiping) one target.
func fsTargetFinding(c *shell.Cmd, t string, recursive bool, verb string, x *Ctx) Finding {
	if f, ok := ProtectedTree(t, x.Cwd, x.Home); ok {
		return f
	}
	s := fsClassify(t, x)
	what := fsScopeWords[s]
	mk := func(risk, viol float64, rule, reason string) Finding {
		return Finding{Risk: risk, Violation: viol, Rule: rule, Reason: reason, Marked: c.Raw, RedLine: viol >= 0.85}
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
	for _, a := range c.Args {
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
					strings.HasPrefix("-filter", la) && len(la) >= 3, la == "-credential", la == "-stream":
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
	inFind := len(c.Wrappers) > 0 && c.Wrappers[len(c.Wrappers)-1] == "find"
	var w Finding
	have := false
	for _, t := range targets {
		if t == "" {
			continue // rm "" deletes nothing
		}
		if inFind && strings.Contains(t, "{}") {
			continue // find decides the scope; the find rule judges it
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
		if s := fsClassify(a, x); s == fsBackup || s == fsSystem {
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

func rulePerms(c *shell.Cmd, x *Ctx) (Finding, bool) {
	recursive := c.Flag('R', "--recursive")
	ops := c.Operands()
	win := c.Name == "icacls" || c.Name == "cacls" || c.Name == "takeown" || c.Name == "attrib"
	if win {
		for _, a := range c.Args {
			la := strings.ToLower(a)
			if la == "/t" || la == "/r" || la == "/s" {
				recursive = true
			}
		}
		ops = nil
		for _, a := range c.Args {
			if !strings.HasPrefix(a, "/") && !strings.HasPrefix(a, "+") && !strings.HasPrefix(a, "-") || strings.Contains(a, ":\\") {
				ops = append(ops, a)
			}
		}
	}
	mode := ""
	switch c.Name {
	case "chmod", "chown", "chgrp":
		if len(ops) > 0 {
			mode, ops = ops[0], ops[1:]
			for _, a := range c.Args {
				if strings.HasPrefix(a, "--reference") {
					ops = append([]string{mode}, ops...)
					mode = ""
					break
				}
			}
		}
	case "chattr":
		// chattr +i file: the mode starts with + or -, which Operands drops.
		for _, a := range c.Args {
			if len(a) > 1 && (a[0] == '+' || a[0] == '-' || a[0] == '=') && strings.Trim(a[1:], "aAcCdDeFijmPsStTux") == "" {
				mode = a
			}
		}
	case "setfacl":
		ops = ops[:0:0]
		skip := false
		for _, a := range c.Args {
			if skip {
				skip = false
				continue
			}
			if a == "-m" || a == "-x" || a == "-M" || a == "-X" || a == "--modify" || a == "--remove" {
				skip = true
				continue
			}
			if !strings.HasPrefix(a, "-") {
				ops = append(ops, a)
			}
		}
	}
	var w Finding
	have := false
	for _, t := range ops {
		f := fsPermTarget(c, t, recursive, mode, x)
		if !have || f.Worse(w) {
			w, have = f, true
		}
	}
	if !have {
		return Finding{Risk: 0.5, Rule: "fs.perms", Reason: c.Name + " without a file", Marked: c.Raw}, true
	}
	return w, true
}

func fsPermTarget(c *shell.Cmd, t string, recursive bool, mode string, x *Ctx) Finding {
	if f, ok := Protected(t, x.Cwd, x.Home); ok {
		return f
	}
	mk := func(risk, viol float64, rule, reason string) Finding {
		return Finding{Risk: risk, Violation: viol, Rule: rule, Reason: reason, Marked: c.Raw, RedLine: viol >= 0.85}
	}
	shown := strings.ReplaceAll(t, shell.Dyn, "$?")
	s := fsClassify(t, x)
	wide := strings.Contains(mode, "777") || strings.Contains(mode, "666") || strings.Contains(mode, "o+w") ||
		strings.Contains(mode, "a+w") || mode == "+w" || strings.Contains(mode, "+s") || strings.Contains(mode, "4755")
	switch s {
	case fsRoot, fsHome:
		if recursive {
			return mk(3, 0.9, "fs.perms-tree", c.Name+" -R on "+shown+": changes every file's permissions or owner; hard to undo")
		}
		return mk(2, 0.5, "fs.perms-top", c.Name+" on "+shown+" changes who can use the whole folder")
	case fsSystem:
		return mk(3, 0.9, "fs.perms-system", c.Name+" on "+shown+": changing system files' permissions or owners can break the system or open it up")
	case fsHomeKey:
		if strings.Contains(t, ".ssh") || strings.Contains(t, ".gnupg") {
			if wide {
				return mk(2.5, 0.7, "fs.perms-keys", c.Name+" "+mode+" on "+shown+" exposes private keys")
			}
			return mk(1, 0, "fs.perms-keys", c.Name+" on "+shown+" (key folder permissions)")
		}
		if recursive {
			return mk(2, 0.4, "fs.perms-user-data", c.Name+" -R on "+shown)
		}
	case fsUnknown:
		if recursive {
			return mk(2, 0.3, "fs.perms-dynamic", c.Name+" -R on a path only known at run time")
		}
		f := mk(1, 0, "fs.perms-dynamic", c.Name+" on a path only known at run time")
		f.Uncertain = true
		return f
	case fsSoftware:
		if recursive || wide {
			return mk(2, 0.3, "fs.perms-software", c.Name+" "+mode+" on "+shown+": installed software outside the project")
		}
		f := mk(1, 0, "fs.perms-software", c.Name+" on "+shown)
		f.Uncertain = true
		return f
	case fsOutside, fsGitDir, fsBackup:
		if recursive {
			return mk(2, 0.3, "fs.perms-outside", c.Name+" -R on "+shown+": outside the project")
		}
		f := mk(1.2, 0.1, "fs.perms-outside", c.Name+" on "+shown+": outside the project")
		f.Uncertain = true
		return f
	case fsCwdAll:
		if recursive && wide {
			return mk(1.8, 0.2, "fs.perms-project", c.Name+" -R "+mode+" on the whole project")
		}
		user, _, _ := strings.Cut(mode, ":")
		self := strings.Contains(mode, shell.Dyn) || user == path.Base(strings.ReplaceAll(x.Home, "\\", "/")) || user == ""
		if recursive && c.Name != "chmod" && !self {
			return mk(1.8, 0.2, "fs.perms-project", c.Name+" -R "+mode+" hands the whole project to another owner")
		}
		if recursive && c.Name != "chmod" {
			f := mk(1.2, 0.1, "fs.perms-project", c.Name+" -R "+mode+" on the whole project")
			f.Uncertain = true
			return f
		}
	}
	if c.Name == "chattr" && strings.Contains(mode, "i") {
		return mk(1.5, 0.2, "fs.chattr-immutable", "chattr "+mode+" changes the immutable flag of "+shown)
	}
	if wide && recursive {
		return mk(1.5, 0.2, "fs.perms-wide", c.Name+" "+mode+" -R makes files writable by everyone")
	}
	return mk(0.5, 0, "fs.perms-project", c.Name+" on "+shown+" inside the project")
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
		case len(a) > 1 && a[0] == '-', winFlags && len(a) > 1 && a[0] == '/' && len(a) <= 5 && !strings.Contains(a[1:], "/"):
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
				add(fsTargetFinding(c, dst, true, "robocopy "+la+" into", x))
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
	ops := c.Operands()
	del := false
	for _, a := range c.Args {
		if strings.HasPrefix(a, "--delete") || a == "--remove-source-files" || a == "--del" {
			del = true
		}
	}
	if len(ops) < 2 {
		return Finding{Risk: 0.5, Rule: "fs.rsync", Reason: "rsync", Marked: c.Raw, Uncertain: true}, true
	}
	dst := ops[len(ops)-1]
	if strings.Contains(dst, ":") && !strings.Contains(dst, ":\\") && !strings.HasPrefix(dst, "/") {
		// Remote destination: the network rules judge what leaves.
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
	i := 0
	if c.Name == "find" {
		for i < len(c.Args) {
			a := c.Args[i]
			if a == "-H" || a == "-L" || a == "-P" || strings.HasPrefix(a, "-O") || strings.HasPrefix(a, "-D") {
				i++
				continue
			}
			if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
				break
			}
			starts = append(starts, a)
			i++
		}
	} else if ops := c.Operands(); len(ops) >= 2 {
		starts = ops[1:2]
	}
	for j := i; j < len(c.Args); j++ {
		a := c.Args[j]
		switch a {
		case "-delete":
			deletes = true
		case "-exec", "-execdir", "-ok", "-okdir", "-x", "--exec", "-X", "--exec-batch":
			if j+1 < len(c.Args) {
				switch shell.NormName(c.Args[j+1]) {
				case "rm", "shred", "unlink", "rmdir", "srm", "wipe", "truncate", "mv":
					deletes = true
				case "chmod", "chown", "chgrp", "chattr", "setfacl":
					perms = true
				}
			}
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
			if (sc == fsCwdAll || sc == fsProject || sc == fsCache) && fsHasFilter(c.Args[i:]) {
				f = Finding{Risk: 1, Rule: "fs.find-delete", Reason: "find deletes matching files inside the project", Marked: c.Raw}
			} else {
				f = fsTargetFinding(c, s, true, "find -delete under", x)
			}
		} else {
			f = fsPermTarget(c, s, true, "", x)
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

// fsWinVarParts replaces each %VAR% or $env:VAR / $VAR inside a path with
// the unknown marker, keeping the known parts around it.
func fsWinVarParts(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '%':
			if j := strings.IndexByte(p[i+1:], '%'); j > 0 {
				b.WriteByte(1)
				i += j + 1
				continue
			}
		case c == '$':
			j := i + 1
			if strings.HasPrefix(strings.ToLower(p[j:]), "env:") {
				j += 4
			}
			for j < len(p) && (p[j] == '_' || p[j] >= 'a' && p[j] <= 'z' || p[j] >= 'A' && p[j] <= 'Z' || p[j] >= '0' && p[j] <= '9' || p[j] == '{' || p[j] == '}') {
				j++
			}
			if j > i+1 {
				b.WriteByte(1)
				i = j - 1
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}
