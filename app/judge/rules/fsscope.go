package rules

import (
	"path"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Scope of a path for the file-system rules: where it resolves (cwd, ~,
// Windows variables) and how bad losing it would be.

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
var fsVolatile = []string{"/var/tmp", "/var/cache/apt/archives", "/dev/shm", "/run/user", "/var/folders", "c:/windows/temp"}

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
	r.cwd, r.proj = fsDriveMount(r.cwd), fsDriveMount(r.proj)
	if fsNotProject(r.proj) {
		// An agent started in /etc or C:\Windows: that folder is no project
		// whose files are the agent's to remove (rm -rf ./* there is /etc/*).
		r.proj = ""
	}
	if strings.Contains(cwd, shell.Dyn) && !strings.HasPrefix(p, "/") && !strings.HasPrefix(p, "~") && !(len(p) >= 2 && p[1] == ':') {
		r.dyn = true
		r.cwd = ""
		p = "\x01/" + p
	}
	p = fsDriveMount(p)
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

// fsDriveMount writes a Windows drive reached through a Unix-style mount
// as the drive itself: WSL's /mnt/c, Cygwin's /cygdrive/c and Git Bash's
// /c (the shell Claude Code runs on Windows) are C:\, so /mnt/c/Users/x
// is a home and /c/Windows the system folder, not "a folder outside the
// project". p is lower-cased with forward slashes; other paths come back
// as they are.
func fsDriveMount(p string) string {
	if !strings.HasPrefix(p, "/") {
		return p
	}
	p = path.Clean(p)
	rest := p
	for _, pre := range [...]string{"/mnt/", "/cygdrive/", "/"} {
		if strings.HasPrefix(p, pre) {
			rest = p[len(pre):]
			break
		}
	}
	if rest == p || len(rest) == 0 || rest[0] < 'a' || rest[0] > 'z' || len(rest) > 1 && rest[1] != '/' {
		return p
	}
	return fsClean(rest[:1] + ":" + rest[1:])
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

// fsClassify scopes a deletion target. The order of the steps is the
// order of precedence: a path with a run-time part is judged by what is
// known of it; a glob by its folder; then the root and homes, git
// history, backups, the project, temp and volatile folders, installed
// software, system folders, and what a home holds.
func fsClassify(p string, x *Ctx) fsScope {
	r := fsResolve(p, x)
	a := r.abs
	if r.dyn {
		return fsClassifyDynamic(r)
	}
	base := path.Base(a)
	dir := a
	whole := false // the glob takes everything in its folder (*, .*, *.*)
	if r.glob {
		var root bool
		dir, a, whole, root = fsGlobFolder(a)
		if root {
			return fsRoot
		}
		r.glob = whole // a partial glob is now one file of its folder
	}
	switch {
	case dir == "/" || (len(dir) <= 3 && len(dir) >= 2 && dir[1] == ':') || dir == "//":
		return fsRoot
	case dir == r.home || dir == "/home" || dir == "/users" || dir == "c:/users" || dir == "/root" ||
		(path.Dir(dir) == "/home" || path.Dir(dir) == "/users" || path.Dir(dir) == "c:/users") && fsUserName(path.Base(dir)):
		// Any user's home, not only the judge's own $HOME: the hook may
		// run as root in a container while the agent works in /home/dev.
		return fsHome
	case fsUnder(r.home, dir):
		// A parent of home (/home/dev/.. or /home).
		return fsHome
	}
	if s, ok := fsGitScope(a, dir, base, r.glob); ok {
		return s
	}
	if !fsUnder(a, "/tmp") && (strings.Contains(a, "backup") || strings.HasSuffix(a, ".bak") || strings.Contains(a, "snapshot") ||
		strings.Contains(a, "time machine") || fsBackupWord(a)) {
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
	if r.glob && (dir == "c:/program files" || dir == "c:/program files (x86)" || dir == "c:/programdata") {
		// C:\Program Files\*: every installed program, Windows' own
		// (Defender, Common Files) among them; the folder itself already is.
		return fsSystem
	}
	for _, d := range fsSoftDirs {
		if fsUnder(a, d) && a != d && !r.glob || r.glob && fsUnder(dir, d) {
			return fsSoftware
		}
	}
	home := fsHomeOf(a, r.home)
	for _, s := range fsSystemDirs {
		if fsUnder(a, s) && !(s == "c:/users" && a != s) && home == "" {
			return fsSystem
		}
	}
	if home != "" {
		return fsInHome(a, dir, home, whole)
	}
	if fsCacheNames[base] {
		return fsCache
	}
	return fsOutside
}

// fsBackupWords: "backup" in the languages users name their folders in
// (D:\备份 on a Chinese Windows is D:\backup).
var fsBackupWords = []string{"备份", "備份", "バックアップ", "백업", "sicherung", "sauvegarde", "respaldo",
	"copia de seguridad", "резервн", "бэкап", "yedek", "kopia zapasowa", "cópia de segurança", "copia di sicurezza"}

func fsBackupWord(a string) bool {
	for _, w := range fsBackupWords {
		if strings.Contains(a, w) {
			return true
		}
	}
	return false
}

// fsClassifyDynamic scopes a path with a run-time part ($X, %VAR%): the
// part before the first unknown piece decides how bad it can be.
func fsClassifyDynamic(r fsPath) fsScope {
	a := r.abs
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

// fsGlobFolder: a glob deletes what its folder holds, so the folder is
// judged. whole says the glob takes everything in it (*, .*, *.*); a
// partial glob (*.log) is judged like one file there (a = dir/x), and
// root says that folder is a drive's or the system's root.
func fsGlobFolder(a string) (dir, judged string, whole, root bool) {
	dir = a
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
			return dir, a, whole, true
		}
		return dir, dir + "/x", false, false
	}
	return dir, a, whole, false
}

// fsGitScope: .git itself, and inside it the history (objects, refs,
// packed-refs); hooks, lock files and a stuck rebase's state are routine
// to remove. Not under /tmp.
func fsGitScope(a, dir, base string, glob bool) (fsScope, bool) {
	if (base == ".git" || (glob && path.Base(dir) == ".git")) && !fsUnder(a, "/tmp") {
		return fsGitDir, true
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
			return fsGitDir, true
		}
	}
	return 0, false
}

// fsInHome scopes a path under a home folder (home): caches, the user's
// keys and personal folders, or other files of the user.
func fsInHome(a, dir, home string, whole bool) fsScope {
	ha := a
	if whole {
		ha = dir // ~/Documents/*: the folder's content is the folder
	}
	rel := strings.TrimPrefix(ha, home+"/")
	top, _, _ := strings.Cut(rel, "/")
	for seg := range strings.SplitSeq(rel, "/") {
		if seg == top && fsGenericOutNames[seg] {
			continue // ~/bin, ~/build, ~/tmp: the user's own folders, not a project's output
		}
		if fsCacheNames[seg] || strings.HasSuffix(seg, "-cache") || strings.HasSuffix(seg, "_cache") || strings.HasSuffix(seg, ".cache") {
			return fsCache
		}
	}
	if (fsHomeKeys[top] || fsLocalUserDirs[top]) && (!strings.Contains(rel, "/") || top == ".ssh" || top == ".gnupg" || top == ".aws" || top == ".password-store") {
		return fsHomeKey
	}
	if rel == "appdata/roaming" || rel == "appdata/local" || rel == "appdata/locallow" || rel == "library/application support" || rel == "library/preferences" {
		// every program's settings, sessions and local data at once
		return fsHomeKey
	}
	if sub, ok := strings.CutPrefix(rel, top+"/"); ok && !strings.Contains(sub, "/") && fsSyncRoot(top) && (fsPersonalFolders[sub] || fsLocalUserDirs[sub]) {
		// ~/OneDrive/Documents: Windows moves Documents and Desktop into
		// OneDrive when it backs them up; they are the same folders.
		return fsHomeKey
	}
	if top == "library" && strings.HasPrefix(rel, "library/caches") {
		return fsCache
	}
	return fsOutside
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

// fsHomeOf is the home folder holding a: the judge's own $HOME, /root, or
// any /home/<user>, /Users/<user>, C:\Users\<user>. The judge may run as
// root while the agent works as another user, so ~/.cache under /root is a
// home cache, not a system folder. "" when a is under no home.
func fsHomeOf(a, own string) string {
	if own != "" && own != "/" && own != "~" && fsUnder(a, own) {
		return own
	}
	if fsUnder(a, "/root") {
		return "/root"
	}
	for _, pre := range [...]string{"/home/", "/users/", "c:/users/"} {
		if strings.HasPrefix(a, pre) {
			u, _, _ := strings.Cut(a[len(pre):], "/")
			if fsUserName(u) {
				return pre + u
			}
		}
	}
	return ""
}

// fsUserName: a folder under /home or C:\Users that is a user's home.
func fsUserName(u string) bool {
	return u != "" && u != "public" && u != "default" && u != "all users" && u != "shared" && u != "default user"
}

// fsCriticalDirs: a cwd at or under these is a system folder, never a project.
var fsCriticalDirs = []string{"/etc", "/boot", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/usr/bin",
	"/usr/sbin", "/usr/lib", "/sys", "/proc", "/dev", "c:/windows", "c:/program files", "c:/program files (x86)"}

// fsNotProject: the cwd is the root, a drive, a system folder itself
// (/usr, /var) or inside a critical one (/etc/nginx, C:\Windows\System32).
// /usr/src/app, /var/www/site, /opt/app stay projects (Docker WORKDIRs).
func fsNotProject(p string) bool {
	if p == "" {
		return false
	}
	if p == "/" || len(p) <= 3 && len(p) >= 2 && p[1] == ':' {
		return true
	}
	for _, d := range fsSystemDirs {
		if p == d && d != "c:/users" {
			return true
		}
	}
	for _, d := range fsCriticalDirs {
		if fsUnder(p, d) {
			return true
		}
	}
	return false
}

// fsSyncRoot: a cloud-synced folder of the home (OneDrive, "OneDrive -
// Company", Dropbox, Google Drive, iCloud Drive), lower case.
func fsSyncRoot(top string) bool {
	return strings.HasPrefix(top, "onedrive") || top == "dropbox" || top == "google drive" || top == "icloud drive" || top == "icloud drive (archive)"
}
