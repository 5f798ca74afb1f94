package rules

import (
	"path"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Findings for paths share these weights so the levels stay consistent:
// block is risk 3 (red lines add violation 0.95), confirm is risk 2.
func redLine(rule, reason, marked string) Finding {
	return Finding{Risk: 3, Violation: 0.95, Rule: rule, Reason: reason, Marked: marked, RedLine: true}
}

func blockPath(rule, reason, marked string) Finding {
	return Finding{Risk: 3, Violation: 0.6, Rule: rule, Reason: reason, Marked: marked}
}

func confirmPath(rule, reason, marked string) Finding {
	return Finding{Risk: 2, Violation: 0.3, Rule: rule, Reason: reason, Marked: marked}
}

func allowPath(risk float64, rule, reason, marked string) Finding {
	return Finding{Risk: risk, Rule: rule, Reason: reason, Marked: marked}
}

// np is a normalized path: forward slashes, ~ and $HOME expanded, made
// absolute against cwd, cleaned. low is the lower-cased form every rule
// matches against (macOS and Windows file systems ignore case, so a rule
// must too; on Linux this only errs on the side of caution).
type np struct {
	abs, low   string
	lowHome    string
	lowCwd     string
	inProject  bool // under cwd (or relative with no cwd)
	inHome     bool
	dynamic    bool // contains a part unknown statically
	homeKnown  bool
	projectIsH bool // cwd is the home folder itself
}

// envHome lists spellings of the home folder in shells and cmd.
var envHome = []string{"${home}", "$home", "%userprofile%", "$env:userprofile", "$env:home", "%homepath%", "${env:userprofile}"}

// envWin maps Windows variables to their usual value (relative to home
// when it starts with "~").
var envWin = []struct{ v, to string }{
	{"%systemroot%", "c:/windows"}, {"%windir%", "c:/windows"}, {"$env:systemroot", "c:/windows"}, {"$env:windir", "c:/windows"},
	{"%programfiles%", "c:/program files"}, {"$env:programfiles", "c:/program files"},
	{"%programdata%", "c:/programdata"}, {"$env:programdata", "c:/programdata"},
	{"%appdata%", "~/appdata/roaming"}, {"$env:appdata", "~/appdata/roaming"},
	{"%localappdata%", "~/appdata/local"}, {"$env:localappdata", "~/appdata/local"},
	{"%temp%", "/tmp"}, {"$env:temp", "/tmp"}, {"%tmp%", "/tmp"}, {"$env:tmp", "/tmp"},
}

// slashify turns backslashes into slashes and strips quotes and the
// Windows long-path prefix.
func slashify(p string) string {
	p = strings.TrimSpace(p)
	if len(p) >= 2 && (p[0] == '"' && p[len(p)-1] == '"' || p[0] == '\'' && p[len(p)-1] == '\'') {
		p = p[1 : len(p)-1]
	}
	p = strings.ReplaceAll(p, "\\", "/")
	for _, pre := range []string{"//?/", "/??/"} {
		p = strings.TrimPrefix(p, pre)
	}
	return p
}

// hasDrive reports a Windows drive prefix such as "c:".
func hasDrive(p string) bool {
	return len(p) >= 2 && p[1] == ':' && (p[0] >= 'a' && p[0] <= 'z' || p[0] >= 'A' && p[0] <= 'Z')
}

// cleanAbs cleans an absolute path, keeping a drive letter in place
// ("c:/x/../y" -> "c:/y"); "~" paths stay rooted at "~".
func cleanAbs(p string) string {
	switch {
	case hasDrive(p):
		return strings.ToLower(p[:2]) + path.Clean("/"+p[2:])
	case strings.HasPrefix(p, "~"):
		c := path.Clean("/" + strings.TrimPrefix(p, "~"))
		if c == "/" {
			return "~"
		}
		return "~" + c
	}
	return path.Clean(p)
}

func isAbs(p string) bool {
	return strings.HasPrefix(p, "/") || hasDrive(p) || p == "~" || strings.HasPrefix(p, "~/")
}

// expand replaces home and Windows variables (case-insensitively).
func expand(p, home string) string {
	if p == "" || p[0] != '~' && p[0] != '$' && p[0] != '%' {
		return p
	}
	low := strings.ToLower(p)
	if low == "~" || strings.HasPrefix(low, "~/") {
		return home + p[1:]
	}
	if strings.HasPrefix(p, "~") { // ~user/...: another user's home
		user, rest, _ := strings.Cut(p[1:], "/")
		return "/home/" + user + "/" + rest
	}
	for _, v := range envHome {
		if strings.HasPrefix(low, v) && (len(low) == len(v) || low[len(v)] == '/') {
			return home + p[len(v):]
		}
	}
	for _, v := range envWin {
		if strings.HasPrefix(low, v.v) && (len(low) == len(v.v) || low[len(v.v)] == '/') {
			to := v.to
			if strings.HasPrefix(to, "~") {
				to = home + to[1:]
			}
			return to + p[len(v.v):]
		}
	}
	return p
}

func normalize(p, cwd, home string) np {
	var n np
	n.dynamic = strings.Contains(p, shell.Dyn)
	p = strings.ReplaceAll(p, shell.Dyn, "_dyn_")
	h := slashify(home)
	n.homeKnown = h != ""
	if h == "" {
		h = "~"
	} else {
		h = cleanAbs(h)
	}
	c := slashify(cwd)
	if c != "" {
		c = cleanAbs(expand(c, h))
	}
	p = expand(slashify(p), h)
	relative := !isAbs(p)
	if !relative && strings.HasPrefix(p, "/proc/") {
		// /proc/PID/root/X is X for every process of this mount namespace,
		// whatever the pid ($$, $BASHPID, 1); /proc/self/cwd/X is X in the
		// shell's folder (before cleaning: /proc/self/cwd/../x)
		if rest, ok := procAlias(p, c); ok {
			p = rest
			n.dynamic = strings.Contains(p, "_dyn_")
		}
	}
	switch {
	case relative && c != "":
		p = cleanAbs(c + "/" + p)
	case relative:
		p = path.Clean(p)
	default:
		p = cleanAbs(p)
	}
	n.abs = p
	n.low = strings.ToLower(p)
	n.lowHome = strings.ToLower(h)
	n.lowCwd = strings.ToLower(c)
	n.inHome = under(n.low, n.lowHome)
	switch {
	case relative && c == "":
		n.inProject = !strings.HasPrefix(n.low, "../") && n.low != ".."
	case c != "" && c != "/" && !(hasDrive(c) && len(c) <= 3):
		n.inProject = under(n.low, n.lowCwd)
	}
	n.projectIsH = n.lowCwd != "" && n.lowCwd == n.lowHome
	return n
}

// under reports whether p is dir or inside it.
func under(p, dir string) bool {
	if dir == "" {
		return false
	}
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return strings.HasPrefix(p, dir) && (len(p) == len(dir) || p[len(dir)] == '/')
}

// hasSeq reports whether the slash-separated segments seq occur in p
// consecutively as whole segments.
// It is strings.Contains("/"+p+"/", "/"+seq+"/") without building either
// string: it runs a few dozen times per written path (paths.go,
// selfshared.go, selfenv.go), and the two copies were most of its cost.
func hasSeq(p, seq string) bool {
	for from := 0; from <= len(p); {
		i := strings.Index(p[from:], seq)
		if i < 0 {
			return false
		}
		i += from
		end := i + len(seq)
		if (i == 0 || p[i-1] == '/') && (end == len(p) || p[end] == '/') {
			return true
		}
		from = i + 1
	}
	return false
}

// lastSeg is the base name.
func lastSeg(p string) string { return path.Base(p) }

// systemDirs are red lines to write into (rule, reason).
var systemPrefixes = []struct{ dir, what string }{
	{"/etc/sudoers", "the sudoers file (root access)"},
	{"/etc/sudoers.d", "the sudoers folder (root access)"},
	{"/etc/passwd", "the system's user accounts"},
	{"/etc/shadow", "the system's password hashes"},
	{"/etc/gshadow", "the system's group passwords"},
	{"/etc/group", "the system's groups"},
	{"/etc/hosts", "the hosts file (name resolution)"},
	{"/etc/fstab", "the file-system table (boot mounts)"},
	{"/etc/crypttab", "the encrypted-disk table"},
	{"/etc/ssh", "the SSH server configuration"},
	{"/etc/pam.d", "PAM authentication"},
	{"/etc/security", "system security policy"},
	{"/etc/systemd", "systemd services"},
	{"/etc/init.d", "system services"},
	{"/etc/rc.local", "the boot script"},
	{"/etc/crontab", "the system crontab (runs commands as root on a schedule)"},
	{"/etc/cron.d", "the system cron jobs (run as root on a schedule)"},
	{"/etc/cron.hourly", "the system cron jobs (run as root)"},
	{"/etc/cron.daily", "the system cron jobs (run as root)"},
	{"/etc/cron.weekly", "the system cron jobs (run as root)"},
	{"/etc/cron.monthly", "the system cron jobs (run as root)"},
	{"/etc/anacrontab", "the system anacron table (runs commands as root)"},
	{"/etc/apt/apt.conf.d", "APT hooks (commands run as root on every update)"},
	{"/etc/update-motd.d", "login scripts run as root"},
	{"/etc/udev/rules.d", "udev rules (commands run as root on device events)"},
	{"/etc/logrotate.d", "logrotate scripts run as root"},
	{"/etc/networkmanager/dispatcher.d", "network scripts run as root"},
	{"/etc/xdg/autostart", "programs started for every user at login"},
	{"/etc/inittab", "the init table (boot processes)"},
	{"/etc/rc.d", "boot scripts"},
	{"/etc/modules-load.d", "kernel modules loaded at boot"},
	{"/etc/sudo.conf", "sudo's own configuration (root access)"},
	{"/etc/pam.conf", "PAM authentication"},
	{"/etc/nsswitch.conf", "name and account lookup"},
	{"/var/spool/cron/crontabs/root", "root's crontab (runs commands as root on a schedule)"},
	{"/var/spool/cron/root", "root's crontab (runs commands as root on a schedule)"},
	{"/var/at/tabs/root", "root's crontab (runs commands as root on a schedule)"},
	{"/usr/lib/cron/tabs/root", "root's crontab (runs commands as root on a schedule)"},
	{"/private/etc/crontab", "the system crontab (runs commands as root on a schedule)"},
	{"/etc/profile", "every user's login shell"},
	{"/etc/profile.d", "every user's login shell"},
	{"/etc/bash.bashrc", "every user's shell"},
	{"/etc/environment", "every process's environment"},
	{"/etc/ld.so.preload", "the dynamic loader (preloads code into every program)"},
	{"/etc/ld.so.conf", "the dynamic loader"},
	{"/etc/ld.so.conf.d", "the dynamic loader"},
	{"/etc/resolv.conf", "name resolution"},
	{"/etc/apt/sources.list", "package sources"},
	{"/etc/apt/sources.list.d", "package sources"},
	{"/etc/yum.repos.d", "package sources"},
	{"/etc/default/grub", "the boot loader"},
	{"/etc/modprobe.d", "kernel modules"},
	{"/etc/sysctl.conf", "kernel settings"},
	{"/etc/sysctl.d", "kernel settings"},
	{"/etc/selinux", "SELinux policy"},
	{"/etc/polkit-1", "privilege policy"},
	{"/etc/doas.conf", "doas (root access)"},
	{"/boot", "the boot files"},
	{"/usr", "system programs"},
	{"/bin", "system programs"},
	{"/sbin", "system programs"},
	{"/lib", "system libraries"},
	{"/lib32", "system libraries"},
	{"/lib64", "system libraries"},
	{"/libx32", "system libraries"},
	{"/efi", "the boot partition"},
	{"/proc", "the kernel's process interface"},
	{"/sys", "the kernel's device interface"},
	{"/var/lib/dpkg", "the package database"},
	{"/var/lib/rpm", "the package database"},
	{"/var/log", "the system logs"},
	{"/system", "macOS system files"},
	{"/library/launchdaemons", "macOS launch daemons (system services)"},
	{"/library/launchagents", "macOS launch agents for every user"},
	{"/library/startupitems", "macOS startup items"},
	{"/private/etc/sudoers", "the sudoers file (root access)"},
	{"/private/etc/hosts", "the hosts file (name resolution)"},
	{"/private/etc/passwd", "the system's user accounts"},
	{"/private/var/db", "macOS system databases"},
	{"c:/windows", "Windows system files"},
	{"c:/boot", "the Windows boot files"},
	{"c:/bootmgr", "the Windows boot manager"},
	{"c:/recovery", "the Windows recovery partition files"},
	{"c:/system volume information", "Windows restore points and shadow copies"},
	{"c:/programdata/microsoft/windows/start menu/programs/startup", "the Windows startup folder for every user"},
}

// Disk devices: writing to them destroys the file systems on them.
var diskDevices = []string{
	"sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk", "md", "dm-", "mapper/",
	"loop", "sr", "mem", "kmem", "port", "nbd", "zd", "zram", "root", "fb",
}

// Harmless devices: shells redirect to these all the time.
var harmlessDevices = []string{
	"/dev/null", "/dev/zero", "/dev/stdout", "/dev/stderr", "/dev/stdin", "/dev/tty",
	"/dev/random", "/dev/urandom", "/dev/full", "/dev/ptmx", "/dev/console",
}

// WritePath judges writing or editing the file at path (Write/Edit tools,
// and shell redirections / tee / cp / mv targets). Rules, first match wins:
// guard self-protection and system files block (red lines); disk devices
// block; credentials, shell start-up files, git hooks and other
// persistence places confirm; files in the project are allowed; files
// elsewhere in home are allowed at risk 1; the rest of the machine
// confirms. Paths are normalized first: ~, $HOME, %USERPROFILE%, "..",
// backslashes and case.
func WritePath(p, cwd, home string) Finding {
	if strings.TrimSpace(p) == "" {
		return Finding{Risk: 2, Rule: "path.empty", Reason: "write without a file path", Uncertain: true}
	}
	n := normalize(p, cwd, home)
	if f, ok := protectedAll(n, p, cwd, home); ok {
		return f
	}
	if f, ok := systemPath(n, p); ok {
		return f
	}
	if f, ok := sensitivePath(n, p); ok {
		return f
	}
	if !n.inProject && !n.dynamic {
		// A file that holds secrets to read (~/.pgpass, ~/.vault-token,
		// ~/.cargo/credentials) holds them to overwrite too: the read
		// classifier answers, rather than a second list here.
		if k, what := pkSecretPath(p, &Ctx{Cwd: cwd, Home: home}); k == pkStrong {
			return confirmPath("path.credentials", "edits "+what+": "+p, p)
		}
	}
	if f, ok := systemArea(n, p); ok {
		return f
	}
	if f, ok := userBinShadow(n, p); ok {
		return f
	}
	if n.dynamic {
		return Finding{Risk: 2, Violation: 0.1, Rule: "path.dynamic", Reason: "writes to a path that cannot be known before it runs: " + p, Marked: p, Uncertain: true}
	}
	switch {
	case hasSeq(n.low, ".github/workflows"):
		return allowPath(0, "path.ci-workflow", "edits a CI workflow file: "+p, p)
	case n.inProject:
		return allowPath(0, "path.project", "writes a file in the project: "+p, p)
	case isTemp(n.low):
		return allowPath(0.5, "path.temp", "writes a temporary file: "+p, p)
	case n.inHome:
		return allowPath(1, "path.home", "writes a file outside the project, in the home folder: "+p, p)
	}
	f := confirmPath("path.outside", "writes a file outside the project and the home folder: "+p, p)
	f.Risk, f.Violation, f.Uncertain = 1.5, 0.2, true
	return f
}

func isTemp(low string) bool {
	for _, d := range []string{"/tmp", "/var/tmp", "/private/tmp", "/private/var/folders", "/var/folders", "/dev/shm", "c:/temp", "c:/tmp"} {
		if under(low, d) {
			return true
		}
	}
	return hasSeq(low, "appdata/local/temp")
}

// systemPath: red-line system files, disk devices, other system areas.
func systemPath(n np, orig string) (Finding, bool) {
	low := n.low
	if strings.HasPrefix(low, "/dev/") {
		for _, h := range harmlessDevices {
			if low == h {
				return allowPath(0, "path.dev-null", "writes to "+h, orig), true
			}
		}
		if under(low, "/dev/fd") || under(low, "/dev/pts") || under(low, "/dev/shm") {
			return allowPath(0, "path.dev-stream", "writes to a terminal or stream", orig), true
		}
		if under(low, "/dev/tcp") || under(low, "/dev/udp") {
			return Finding{Risk: 2, Violation: 0.6, Rule: "path.dev-net", Marked: orig,
				Reason: "sends data over the network through " + orig + " (a common way to leak files)"}, true
		}
		rest := strings.TrimPrefix(low, "/dev/")
		for _, d := range diskDevices {
			if strings.HasPrefix(rest, d) {
				return redLine("path.disk-device", "writes straight to a disk or memory device ("+orig+"): this destroys the data on it", orig), true
			}
		}
		return blockPath("path.device", "writes to a device file ("+orig+")", orig), true
	}
	if strings.Contains(low, "physicaldrive") || strings.HasPrefix(low, "//./") {
		return redLine("path.disk-device", "writes straight to a raw Windows disk ("+orig+"): this destroys the data on it", orig), true
	}
	// Windows system folders on any drive, and the hosts file wherever it is.
	if hasSeq(low, "windows/system32") || hasSeq(low, "windows/syswow64") || hasSeq(low, "drivers/etc") {
		return redLine("path.system", "edits Windows system files ("+orig+")", orig), true
	}
	for _, s := range systemPrefixes {
		if under(low, s.dir) && !under(low, "/usr/src") && !under(low, "/usr/local/src") {
			return redLine("path.system", "edits "+s.what+" ("+orig+"): system files are a red line", orig), true
		}
	}
	return Finding{}, false
}

// systemArea: the rest of the machine outside home and project confirms.
func systemArea(n np, orig string) (Finding, bool) {
	low := n.low
	if isTemp(low) {
		return Finding{}, false
	}
	switch {
	case under(low, "/etc") || under(low, "/private/etc"):
		return confirmPath("path.etc", "edits system configuration under /etc ("+orig+")", orig), true
	case under(low, "/var/spool/cron") || under(low, "/var/at/tabs") || under(low, "/var/cron"):
		return confirmPath("path.crontab", "edits a crontab (runs commands on a schedule): "+orig, orig), true
	case under(low, "/library") || under(low, "/applications") || under(low, "/opt") || under(low, "/srv") ||
		under(low, "/var") || under(low, "/root") || under(low, "/snap") || under(low, "/nix"):
		if !n.inProject && !n.inHome {
			return confirmPath("path.system-area", "writes into a system-wide folder ("+orig+")", orig), true
		}
	case hasDrive(low) && (under(low[2:], "/program files") || under(low[2:], "/program files (x86)") || under(low[2:], "/programdata")):
		return confirmPath("path.system-area", "writes into a system-wide Windows folder ("+orig+")", orig), true
	}
	return Finding{}, false
}

var rcFiles = map[string]bool{
	".bashrc": true, ".bash_profile": true, ".bash_login": true, ".bash_logout": true, ".profile": true,
	".zshrc": true, ".zprofile": true, ".zshenv": true, ".zlogin": true, ".zlogout": true,
	".cshrc": true, ".tcshrc": true, ".kshrc": true, ".mkshrc": true, ".inputrc": false,
	"microsoft.powershell_profile.ps1": true, "profile.ps1": true, "microsoft.vscode_profile.ps1": true,
	".xprofile": true, ".xinitrc": true, ".xsessionrc": true, ".pam_environment": true,
}

// sensitivePath: credentials, persistence and code-execution hooks.
func sensitivePath(n np, orig string) (Finding, bool) {
	low := n.low
	base := lastSeg(low)
	switch {
	case strings.HasPrefix(base, "authorized_keys") && hasSeq(low, ".ssh/"+base),
		base == "administrators_authorized_keys" && hasSeq(low, "ssh"):
		return redLine("path.ssh-authorized-keys", "edits SSH authorized_keys: this grants someone login access to the machine", orig), true
	case hasSeq(low, ".ssh") && (strings.HasPrefix(base, "id_") && !strings.HasSuffix(base, ".pub") || strings.HasSuffix(base, ".pem") || strings.HasSuffix(base, ".key")):
		return blockPath("path.ssh-key", "overwrites an SSH private key ("+orig+"): it cannot be recovered", orig), true
	case hasSeq(low, ".ssh"):
		return confirmPath("path.ssh", "edits the SSH configuration ("+orig+")", orig), true
	case hasSeq(low, ".gnupg"):
		return confirmPath("path.gnupg", "edits the GnuPG keyring or its settings ("+orig+")", orig), true
	case hasSeq(low, ".aws") || hasSeq(low, ".azure") || hasSeq(low, ".config/gcloud") || hasSeq(low, ".kube") ||
		hasSeq(low, ".docker") && base == "config.json" || base == ".netrc" || base == "_netrc" ||
		base == ".npmrc" && !n.inProject || base == ".pypirc" || base == ".git-credentials" ||
		hasSeq(low, ".config/gh") || hasSeq(low, ".terraform.d") && base == "credentials.tfrc.json":
		return confirmPath("path.credentials", "edits a credentials or cloud configuration file ("+orig+")", orig), true
	case rcFiles[base] || hasSeq(low, ".config/fish") && strings.HasSuffix(base, ".fish") ||
		hasSeq(low, "windowspowershell") && strings.HasSuffix(base, ".ps1") ||
		hasSeq(low, "documents/powershell") && strings.HasSuffix(base, "profile.ps1"):
		return confirmPath("path.shell-rc", "edits a shell start-up file ("+orig+"): it runs in every new shell", orig), true
	case hasSeq(low, ".git/hooks") || hasSeq(low, ".husky") && !strings.HasSuffix(base, ".md"):
		return confirmPath("path.git-hook", "edits a git hook ("+orig+"): it runs on every commit or checkout", orig), true
	case hasSeq(low, ".git") && (base == "config" || base == "info") || base == ".gitconfig" || hasSeq(low, ".config/git"):
		return confirmPath("path.git-config", "edits git configuration ("+orig+"): it can set hooks and commands git runs", orig), true
	case base == "crontab" || hasSeq(low, "cron.d") || hasSeq(low, ".crontab"):
		return confirmPath("path.crontab", "edits a crontab (runs commands on a schedule): "+orig, orig), true
	case hasSeq(low, ".config/autostart") || hasSeq(low, "library/launchagents") || hasSeq(low, ".config/systemd") ||
		hasSeq(low, "start menu/programs/startup"):
		return confirmPath("path.autostart", "adds or edits something that starts automatically at login ("+orig+")", orig), true
	case base == ".env" || strings.HasPrefix(base, ".env.") && !n.inProject:
		if !n.inProject {
			return confirmPath("path.env", "edits an environment file with secrets outside the project ("+orig+")", orig), true
		}
	}
	return Finding{}, false
}

// SecretPath reports whether reading the file could leak credentials
// (SSH and cloud keys, tokens, .env files). It does not judge: callers
// combine it with what happens to the content.
func SecretPath(p, cwd, home string) bool {
	// One classifier for Bash, Write and MCP (creds_paths.go).
	k, _ := pkSecretPath(p, &Ctx{Cwd: cwd, Home: home})
	return k != pkNoSecret
}

// stateDirs are the config, cache, state and app-data folders under which
// an "agent-guard" folder is the guard's own (any user, any home).
var stateDirs = []string{
	".config", ".cache", ".local/state", ".local/share", "library/application support",
	"library/caches", "library/logs", "library/preferences", "appdata/roaming", "appdata/local",
	"appdata/locallow", "xdg_config", "xdg_state",
}

// Protected reports whether path is one of the guard's own files or the
// agent's hook configuration (self-protection: block). It matches by
// pattern wherever the path lies, not only at this user's exact paths, so
// another home or a relative spelling does not slip through:
// an agent-guard folder under a config/cache/state/app-data folder,
// $AGENT_GUARD_HOME, .zcode/**/config.json, .claude/settings*.json,
// .agentguardrc and the hook binary.
func Protected(p, cwd, home string) (Finding, bool) {
	if strings.TrimSpace(p) == "" {
		return Finding{}, false
	}
	return protectedAll(normalize(p, cwd, home), p, cwd, home)
}

func protectedN(n np, p, home string) (Finding, bool) {
	low := n.low
	base := lastSeg(low)
	hit := func(what string) (Finding, bool) {
		return Finding{
			Risk: 3, Violation: 1, RedLine: true, Rule: "self." + what, Marked: p,
			Reason: "touches " + p + ", part of the agent's own guard (" + what + "): an agent must not change or switch off its own guard; ask the user to do it",
		}, true
	}
	if i := strings.Index("/"+low+"/", "/agent-guard/"); i >= 0 {
		before := strings.Trim(("/" + low + "/")[:i], "/")
		// $XDG_CONFIG_HOME/agent-guard, %APPDATA%\agent-guard: a folder only
		// known at run time right before it is taken for a config folder.
		if n.dynamic && strings.Contains(lastSeg("/"+before), "_dyn_") && guardFileTail(("/" + low + "/")[i+len("/agent-guard/"):]) {
			return hit("guard-files")
		}
		for _, d := range stateDirs {
			if before == d || strings.HasSuffix(before, "/"+d) || strings.Contains("/"+before+"/", "/"+d+"/") {
				return hit("guard-files")
			}
		}
	}
	if g := guardHome(); g != "" {
		gn := normalize(g, "", home)
		if under(low, gn.low) {
			return hit("guard-home")
		}
	}
	if base == ".agentguardrc" {
		return hit("guard-key")
	}
	if what, ok := protectedMore(n); ok {
		return hit(what)
	}
	// The binaries by name wherever they lie (the computed set has the
	// installed ones; a copy elsewhere may be the one a host runs next).
	// agent-guard-judge answers for the hook when no server does.
	if base == "agent-guard-hook" || base == "agent-guard-hook.exe" || base == "agent-guard.exe" ||
		base == "agent-guard-judge" || base == "agent-guard-judge.exe" {
		return hit("guard-binary")
	}
	// The root-owned install folder (install --system) and its likes.
	if hasSeq(low, "lib/agent-guard") || hasSeq(low, "program files/agent-guard") || hasSeq(low, "libexec/agent-guard") ||
		hasSeq(low, "progra~1/agent-guard") || hasSeq(low, "progra~2/agent-guard") || hasSeq(low, "agent-guard~1") {
		return hit("guard-binary")
	}
	// ZCode workspace configs are written by the installer in any folder
	// (nothing records which), so they are the guard's wherever they lie.
	if strings.Contains("/"+low+"/", "/.zcode/") && (base == "config.json" || strings.HasPrefix(base, "hooks")) {
		return hit("agent-hook-config")
	}
	// Other host configs are the guard's by where they lie (protectedMore: the
	// user level under any home; the computed set: this project's, and any
	// that holds our entry), not by name: a project's copy of
	// .claude/settings.json elsewhere is an ordinary file.
	// Claude Code's enterprise policy file holds hooks too.
	if base == "managed-settings.json" && (strings.Contains(low, "claude")) {
		return hit("agent-hook-config")
	}
	return Finding{}, false
}

// guardFileTail: what follows a run-time folder's agent-guard/ looks like
// the guard's own data (the folder itself, its JSON config and state, a
// key), not a build output such as $OUT/agent-guard/bin.
func guardFileTail(tail string) bool {
	tail = strings.Trim(tail, "/")
	if tail == "" {
		return true
	}
	base := lastSeg(tail)
	return strings.HasSuffix(base, ".json") || strings.Contains(base, "config") || strings.Contains(base, "state") ||
		strings.Contains(base, "key") || strings.Contains(base, "token") || strings.HasSuffix(base, "rc") || strings.HasSuffix(base, ".db")
}

// ProtectedTree reports whether deleting or moving the folder at path
// would take guard files with it (rm -rf ~/.config, mv ~/.zcode away).
// It checks this user's own locations (and $AGENT_GUARD_HOME) below path,
// and anything Protected matches inside it.
func ProtectedTree(p, cwd, home string) (Finding, bool) {
	if strings.TrimSpace(p) == "" {
		return Finding{}, false
	}
	n := normalize(p, cwd, home)
	if f, ok := protectedOp(n, p, cwd, home, true); ok {
		return f, ok
	}
	if f, ok := protectedBelow(n, p, cwd, home); ok {
		return f, ok
	}
	if f, ok := carriedBelow(n, p); ok {
		return f, ok
	}
	if f, ok := hostSettingsDir(n, p, cwd, home); ok {
		return f, ok
	}
	if !n.homeKnown || n.low == "/" || n.low == n.lowHome || n.dynamic {
		// deleting / or ~ is judged by the deletion rules (a red line anyway)
		return Finding{}, false
	}
	var own []string
	for i, h := range []string{n.lowHome, anyHomeOf(n.low)} {
		if h == "" || i == 1 && (h == n.lowHome || !strings.HasPrefix(n.low, h+"/")) {
			continue // another home itself: the deletion rules'
		}
		// the judge's home, and the home the path names (C:\Users\张伟,
		// /Users/dev: the machine's user, named by its literal path)
		own = append(own,
			h+"/.config/agent-guard", h+"/.cache/agent-guard", h+"/.local/state/agent-guard",
			h+"/library/application support/agent-guard", h+"/library/caches/agent-guard",
			h+"/library/logs/agent-guard", h+"/appdata/roaming/agent-guard", h+"/appdata/local/agent-guard",
			h+"/.zcode", h+"/.claude", h+"/.agentguardrc")
	}
	if g := guardHome(); g != "" {
		own = append(own, normalize(g, "", home).low)
	}
	if z := n.lowCwd + "/.zcode"; n.lowCwd != "" && (under(n.low, z) || exists(z)) {
		own = append(own, z) // the installer's workspace config (a folder above it: only when it is there)
	}
	for _, o := range own {
		if under(o, n.low) {
			return Finding{
				Risk: 3, Violation: 1, RedLine: true, Rule: "self.guard-tree", Marked: p,
				Reason: "removes or moves " + p + ", which holds the agent's own guard or hook configuration: an agent must not switch off its own guard; ask the user to do it",
			}, true
		}
	}
	return Finding{}, false
}

// procAlias strips /proc/PID/root (any pid) and /proc/self/cwd (this
// shell's pid) from an absolute path.
func procAlias(p, cwd string) (string, bool) {
	pid, rest, ok := strings.Cut(strings.TrimPrefix(p, "/proc/"), "/")
	if !ok || pid == "" {
		return p, false
	}
	kind, tail, _ := strings.Cut(rest, "/")
	switch {
	case kind == "root":
		return cleanAbs("/" + tail), true
	case kind == "cwd" && cwd != "" && (pid == "self" || pid == "thread-self" || strings.Contains(pid, "_dyn_")):
		return cleanAbs(cwd + "/" + tail), true
	}
	return p, false
}

// anyHomeOf is the home folder (lower-cased) that low lies under when it
// is shaped like one (c:/users/NAME, /users/NAME, /home/NAME; any drive),
// "" otherwise or for shared folders (Public, Default).
func anyHomeOf(low string) string {
	for _, pre := range []string{"/users/", "/home/"} {
		i := strings.Index(low, pre)
		if i != 0 && !(i == 2 && hasDrive(low)) {
			continue
		}
		name, _, _ := strings.Cut(low[i+len(pre):], "/")
		if !fsUserName(name) || strings.ContainsAny(name, "*?[$") {
			return ""
		}
		return low[:i+len(pre)] + name
	}
	return ""
}
