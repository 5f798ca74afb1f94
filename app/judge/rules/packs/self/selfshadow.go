package self

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Mounts that cover the guard's files instead of writing them: a bind or
// tmpfs mounted over ~/.config/agent-guard or ~/.claude (mount --bind,
// unshare -rm sh -c 'mount ...', bwrap --bind/--tmpfs, firejail
// --blacklist/--tmpfs/--bind/--private, proot -b, systemd-run -p
// TemporaryFileSystem=/BindPaths=/InaccessiblePaths=) show every program
// in the namespace another config, or none: a host started there runs
// without our hook (self.hooks-off), and mount(8) itself replaces the
// files for all (self.guard-shadow). A sandbox over them for another
// program confirms (guard.shadow-mount): the user should know what it
// hides. Sandboxes that hide the whole home or root (firejail --private,
// bwrap --tmpfs $HOME) for a build or test are ordinary and stay as
// they were, unless they start a host.

func init() {
	pack.On(ruleShadowMount, "mount", "bwrap", "firejail", "proot", "systemd-run", "systemd-nspawn", "sandbox-exec")
	pack.On(ruleShadowMount, fuseMounters...)
	pack.OnAny(ruleShadowWrapper)
}

// ruleShadowWrapper: firejail and systemd-run are wrappers the parser
// peels (c is what they run); their options are read back from the raw
// text.
func ruleShadowWrapper(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	for _, w := range c.Wrappers {
		if w != "firejail" && w != "systemd-run" {
			continue
		}
		words := strings.Fields(c.Raw)
		for i, t := range words {
			if strings.Trim(rules.LastSeg(t), `'"`) != w {
				continue
			}
			var args []string
			for _, a := range words[i+1:] {
				args = append(args, strings.Trim(a, `'"`))
			}
			if f, ok := ruleShadowMount(&shell.Cmd{Name: w, Args: args, Raw: c.Raw}, x); ok {
				return f, true
			}
			break
		}
	}
	return rules.Finding{}, false
}

func ruleShadowMount(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	dests, whole := shadowDests(c, x.Home)
	if len(dests) == 0 && whole == "" {
		return rules.Finding{}, false
	}
	host := shadowHost(c, x)
	for _, d := range dests {
		what, ok := shadowed(d, x)
		if !ok {
			continue
		}
		switch {
		case host != "":
			return rules.HooksOffFinding(c.Raw, "starting "+host+" where "+c.Name+" covers "+d+" ("+what+")"), true
		case c.Name == "mount" || isFuseMounter(c.Name):
			return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.guard-shadow", Marked: c.Raw,
				Reason: "mounts over " + d + " (" + what + "): every program in this mount namespace, the guard and the agent's host included, would read something else; an agent must not switch off its own guard; ask the user to do it"}, true
		}
		return rules.Finding{Risk: 2, Violation: 0.6, Rule: "guard.shadow-mount", Marked: c.Raw,
			Reason: c.Name + " covers " + d + " (" + what + ") for the program it runs: a host started inside would run without the guard; the user should see this"}, true
	}
	if whole != "" && host != "" {
		return rules.HooksOffFinding(c.Raw, "starting "+host+" where "+c.Name+" hides "+whole), true
	}
	return rules.Finding{}, false
}

// shadowed: d is a guard file or host hook config, or a folder holding
// one of this user's.
func shadowed(d string, x *rules.Ctx) (string, bool) {
	if d == "" || strings.Contains(d, shell.Dyn) {
		return "", false
	}
	if f, ok := rules.Protected(d, x.Cwd, x.Home); ok {
		return strings.TrimPrefix(f.Rule, "self.") + " of the agent's own guard", true
	}
	n := rules.Normalize(d, x.Cwd, x.Home)
	if n.Dynamic() || !n.HomeKnown() {
		return "", false
	}
	if n.Low() == n.LowHome() || n.Low() == "/" || n.Low() == "/home" {
		return "", false // the whole home or root: see whole
	}
	if _, ok := rules.ProtectedBelow(n, d, x.Cwd, x.Home); ok {
		return "a folder holding the agent's own guard", true
	}
	own := []string{n.LowHome() + "/.config/agent-guard", n.LowHome() + "/.local/state/agent-guard", n.LowHome() + "/.cache/agent-guard", n.LowHome() + "/.local/bin/agent-guard-hook"}
	for _, r := range rules.UserHostRels() {
		own = append(own, n.LowHome()+"/"+r)
	}
	for _, o := range own {
		if rules.Under(o, n.Low()) {
			return "a folder holding the agent's own guard or hook configuration", true
		}
	}
	if oh := otherHome(n.Abs(), x); oh != "" && oh != d && !strings.EqualFold(oh, x.Home) {
		return shadowed(oh, x) // /Users/dev/.claude named by its literal path
	}
	return "", false
}

// shadowHost names the agent host the line starts (in c's arguments or
// as a command of its own), "" when none.
func shadowHost(c *shell.Cmd, x *rules.Ctx) string {
	is := func(w string) bool {
		w = strings.ToLower(rules.LastSeg(w))
		w = strings.TrimSuffix(strings.TrimSuffix(w, ".exe"), ".cmd")
		_, ok := rules.NestedHosts[w]
		return ok
	}
	for _, a := range c.Args {
		for _, w := range strings.Fields(a) { // sh -c 'mount ...; claude -p x' inside bwrap
			if is(w) {
				return rules.LastSeg(w)
			}
		}
	}
	if x.All != nil {
		for i := range x.All.Cmds {
			if is(x.All.Cmds[i].Name) {
				return x.All.Cmds[i].Name
			}
		}
	}
	return ""
}

// shadowDests are the paths c mounts over; whole names a mount that
// hides the whole home or root.
func shadowDests(c *shell.Cmd, home string) (dests []string, whole string) {
	a := c.Args
	if isFuseMounter(c.Name) {
		return fuseMountPoint(c), ""
	}
	switch c.Name {
	case "sandbox-exec":
		// sandbox-exec -p PROFILE | -f FILE CMD: the profile's paths
		// ((subpath "X"), (literal "X")) are what it denies or remaps; a
		// profile read from a file cannot be seen
		for i := 0; i+1 < len(a); i++ {
			switch a[i] {
			case "-p":
				for _, q := range strings.Split(a[i+1], "\"")[1:] {
					if strings.HasPrefix(q, "/") || strings.HasPrefix(q, "~") {
						dests = append(dests, q)
					}
				}
				i++
			case "-f", "-n":
				whole = "the sandbox profile " + a[i+1]
				i++
			}
		}
	case "mount":
		var ops []string
		for i := 0; i < len(a); i++ {
			switch s := a[i]; {
			case s == "-t" || s == "-o" || s == "-O" || s == "-L" || s == "-U" || s == "--types" || s == "--options" || s == "-N" || s == "--namespace":
				i++
			case strings.HasPrefix(s, "-"):
			default:
				ops = append(ops, s)
			}
		}
		if len(ops) > 0 && !rules.PkHas(c, "--make-private", "--make-rprivate", "--make-slave", "--make-shared") {
			dests = append(dests, ops[len(ops)-1])
		}
	case "bwrap":
		for i := 0; i < len(a); i++ {
			switch s := a[i]; s {
			case "--bind", "--ro-bind", "--dev-bind", "--bind-try", "--ro-bind-try", "--dev-bind-try", "--symlink", "--bind-data", "--ro-bind-data", "--file", "--overlay", "--tmp-overlay":
				if i+2 < len(a) {
					if homeOrRoot(a[i+2], home) {
						if a[i+1] != a[i+2] {
							whole = a[i+2]
						}
					} else {
						dests = append(dests, a[i+2])
					}
				}
				i += 2
			case "--tmpfs", "--remount-ro":
				if i+1 < len(a) {
					if homeOrRoot(a[i+1], home) {
						whole = a[i+1]
					} else {
						dests = append(dests, a[i+1])
					}
				}
				i++
			case "--setenv":
				if i+2 < len(a) && shadowEnv(a[i+1]) {
					whole = a[i+1] + "=" + a[i+2]
				}
				i += 2
			case "--unsetenv":
				i++
			case "--chdir", "--dir", "--dev", "--proc", "--mqueue", "--uid", "--gid", "--hostname", "--seccomp", "--info-fd", "--json-status-fd", "--sync-fd", "--block-fd", "--userns-block-fd", "--lock-file", "--exec-label", "--file-label", "--chmod", "--cap-add", "--cap-drop", "--args", "--userns", "--userns2", "--pidns", "--perms", "--size":
				i++
			default:
				if !strings.HasPrefix(s, "-") {
					return dests, whole
				}
			}
		}
	case "firejail":
		for _, s := range a {
			if !strings.HasPrefix(s, "-") {
				break
			}
			k, v, _ := strings.Cut(s, "=")
			switch k {
			case "--blacklist", "--tmpfs":
				dests = append(dests, v)
			case "--bind":
				if _, d, ok := strings.Cut(v, ","); ok {
					dests = append(dests, d)
				}
			case "--private", "--whitelist", "--private-home":
				whole = s
			case "--env":
				if e, _, _ := strings.Cut(v, "="); shadowEnv(e) {
					whole = s
				}
			}
		}
	case "proot":
		for i := 0; i < len(a); i++ {
			s := a[i]
			v := ""
			switch {
			case s == "-b" || s == "--bind" || s == "-m" || s == "--mount":
				if i+1 < len(a) {
					v = a[i+1]
				}
				i++
			case strings.HasPrefix(s, "--bind=") || strings.HasPrefix(s, "--mount="):
				_, v, _ = strings.Cut(s, "=")
			case s == "-r" || s == "--rootfs" || s == "-R":
				whole = s
				i++
			case !strings.HasPrefix(s, "-"):
				return dests, whole
			}
			if v != "" {
				if j := strings.LastIndexByte(v, ':'); j > 1 {
					v = v[j+1:]
				}
				dests = append(dests, v)
			}
		}
	case "systemd-run", "systemd-nspawn":
		for i := 0; i < len(a); i++ {
			s := a[i]
			v := ""
			switch {
			case s == "-p" || s == "--property" || s == "--bind" || s == "--bind-ro" || s == "--tmpfs" || s == "--inaccessible" || s == "-E" || s == "--setenv":
				if i+1 < len(a) {
					v = s + "=" + a[i+1]
				}
				i++
			case strings.HasPrefix(s, "-p") && len(s) > 2 && s[2] != '-':
				v = "-p=" + s[2:]
			case strings.HasPrefix(s, "--"):
				v = s
			case !strings.HasPrefix(s, "-"):
				return dests, whole
			}
			k, val, _ := strings.Cut(v, "=")
			if k == "-p" || k == "--property" {
				k, val, _ = strings.Cut(val, "=")
			}
			switch strings.ToLower(strings.TrimPrefix(k, "--")) {
			case "temporaryfilesystem", "inaccessiblepaths", "tmpfs", "inaccessible":
				for _, p := range strings.Fields(val) {
					p, _, _ = strings.Cut(strings.TrimLeft(p, "-"), ":")
					dests = append(dests, p)
				}
			case "bindpaths", "bindreadonlypaths", "bind", "bind-ro":
				for _, p := range strings.Fields(val) {
					p = strings.TrimLeft(p, "-")
					if j := strings.IndexByte(p, ':'); j >= 0 {
						d := p[j+1:]
						d, _, _ = strings.Cut(d, ":")
						dests = append(dests, d)
					} else {
						dests = append(dests, p)
					}
				}
			case "protecthome":
				if val != "no" && val != "false" && val != "read-only" {
					whole = v
				}
			case "environment", "setenv", "e":
				if e, _, _ := strings.Cut(val, "="); shadowEnv(e) {
					whole = v
				}
			}
		}
	}
	return dests, whole
}

// shadowEnv: a variable that moves the guard's or a host's config.
func shadowEnv(k string) bool {
	k = strings.ToUpper(k)
	if strings.HasPrefix(k, "AGENT_GUARD_") {
		return true
	}
	switch k {
	case "HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_RUNTIME_DIR", "USERPROFILE", "APPDATA", "LOCALAPPDATA":
		return true
	}
	for _, h := range rules.NestedHosts {
		for _, e := range h.EnvOff() {
			if strings.EqualFold(e, k) {
				return true
			}
		}
	}
	return false
}

// homeOrRoot: p names the root, /home or the user's home.
func homeOrRoot(p, home string) bool {
	p = strings.TrimRight(p, "/")
	switch p {
	case "", "~", "$HOME", "${HOME}", "/home":
		return true
	}
	return home != "" && p == strings.TrimRight(home, "/")
}

// fuseMounters mount a file system of their own over a folder (FUSE,
// disk images, network shares): over the guard's files it is mount(8).
var fuseMounters = []string{"sshfs", "bindfs", "squashfuse", "fuse-overlayfs", "gocryptfs", "encfs", "s3fs", "goofys",
	"archivemount", "fuse-zip", "ntfs-3g", "mount_smbfs", "mount_nfs", "mount_afp", "mount_webdav", "mount.cifs",
	"mount.nfs", "mount.fuse", "mount_apfs", "mount_hfs", "rclone", "hdiutil", "diskutil", "guestmount", "vmhgfs-fuse", "davfs2", "mount.davfs"}

func isFuseMounter(name string) bool {
	for _, m := range fuseMounters {
		if m == name {
			return true
		}
	}
	return false
}

// fuseMountPoint is the folder a FUSE or image mounter mounts over.
func fuseMountPoint(c *shell.Cmd) []string {
	a := c.Args
	switch c.Name {
	case "hdiutil", "diskutil":
		// hdiutil attach -mountpoint DIR IMG, diskutil mount -mountPoint DIR DEV
		for i := 0; i+1 < len(a); i++ {
			if strings.EqualFold(a[i], "-mountpoint") {
				return []string{a[i+1]}
			}
		}
		return nil
	case "rclone":
		if len(a) == 0 || a[0] != "mount" && a[0] != "nfsmount" {
			return nil
		}
		a = a[1:]
	}
	var ops []string
	for i := 0; i < len(a); i++ {
		switch s := a[i]; {
		case s == "-o" || s == "-p" || s == "-F" || s == "--config" || s == "-t":
			i++
		case strings.HasPrefix(s, "-"):
		default:
			ops = append(ops, s)
		}
	}
	if len(ops) < 2 {
		return nil
	}
	return ops[len(ops)-1:]
}
