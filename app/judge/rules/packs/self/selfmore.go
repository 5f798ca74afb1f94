package self

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"os"
	"path/filepath"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
	"github.com/agent-guard/agent-guard/app/protect"
)

// Self-protection routes of the ninth red-team round: synthetic input to
// the guard's own windows, plist edits of its login entry, links made by
// cp, archive extraction by python -m zipfile and cpio, tool installers
// whose package is the guard's, and the trust store.

func init() {
	pack.On(ruleSelfWindow, "xdotool", "wmctrl", "xkill", "xdo", "wtype")
	pack.On(ruleSelfPlist, "plutil", "defaults", "plistbuddy")
	pack.On(ruleSelfCpLink, "cp", "gcp")
	pack.On(ruleSelfCpio, "cpio")
	pack.On(ruleSelfToolInstall, "pipx", "uv", "pip", "pip3", "uvx", "npm", "pnpm", "yarn", "bun", "cargo")
	pack.On(ruleTrustStoreMac, "security")
	pack.OnAny(ruleSelfPyExtract)
}

// windowActs are xdotool/wmctrl actions that type into, click on, close
// or raise a window.
var windowActs = []string{"key", "keydown", "keyup", "type", "click", "mousedown", "mouseup", "windowkill",
	"windowclose", "windowquit", "windowactivate", "windowfocus", "windowunmap", "windowminimize", "windowmove",
	"windowsize", "set_window", "windowraise", "behave", "-c", "-ic", "-a", "-ia", "-r", "-ir", "-k"}

// ruleSelfWindow: xdotool/wmctrl/xkill aimed at a window of agent-guard's
// (the approval dialog: Alt+A allows once, closing it denies): a click or
// a key the agent sends there is an approval nobody gave.
func ruleSelfWindow(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if !rules.GuardWord(c.Raw) {
		return rules.Finding{}, false
	}
	act := c.Name == "xkill"
	for _, a := range c.Args {
		for _, w := range windowActs {
			if strings.EqualFold(a, w) {
				act = true
			}
		}
	}
	if !act {
		return rules.Finding{}, false // xdotool search --name agent-guard: a lookup
	}
	return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.guard-window", Marked: c.Raw,
		Reason: c.Name + " sends input to, closes or raises a window of agent-guard (its approval dialog answers only a human): an agent must not answer or dismiss its own guard; ask the user"}, true
}

// ruleSelfPlist: plutil -replace/-remove/-insert/-convert FILE, defaults
// write/delete/import DOMAIN (a path without .plist), PlistBuddy -c CMD
// FILE on the guard's login entry or any protected plist.
func ruleSelfPlist(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	var cands []string
	switch c.Name {
	case "plutil":
		writes := rules.PkHas(c, "-replace", "-insert", "-remove", "-convert", "-create", "-o")
		if ops := c.Operands(); writes && len(ops) > 0 {
			cands = append(cands, ops[len(ops)-1])
		}
	case "defaults":
		ops := c.Operands()
		if len(ops) >= 2 {
			switch strings.ToLower(ops[0]) {
			case "write", "delete", "import", "rename":
				cands = append(cands, ops[1], ops[1]+".plist")
				// a host's managed preferences (com.anthropic.claudecode):
				// a key that switches its hooks off, or the domain deleted
				if hostDomain(ops[1]) {
					kv := strings.Join(ops[2:], "=")
					if rules.HooksOff(kv) || rules.HooksOff(strings.ReplaceAll(kv, "=-bool=", "=")) ||
						strings.EqualFold(ops[0], "import") || strings.Contains(strings.ToLower(kv), "hook") {
						return rules.HooksOffFinding(c.Raw, "defaults "+ops[0]+" of "+ops[1]+", the agent host's preferences"), true
					}
				}
			}
		}
	default: // PlistBuddy -c 'Set :RunAtLoad false' FILE
		if ops := c.Operands(); len(ops) > 0 {
			cands = append(cands, ops[len(ops)-1])
		}
	}
	for _, p := range cands {
		if f, ok := rules.Protected(p, x.Cwd, x.Home); ok {
			f.Reason = c.Name + " edits " + p + ": " + f.Reason
			f.Marked = c.Raw
			return f, true
		}
		if strings.Contains(strings.ToLower(p), "ai.agentguard") || strings.Contains(strings.ToLower(p), "agent-guard") {
			return rules.CoreSelfFinding(string(protect.Autostart), p, " (agent-guard's login entry)"), true
		}
	}
	return rules.Finding{}, false
}

// ruleSelfCpLink: cp -l / cp -s make a hard or symbolic link, like ln: a
// link to a protected file is a way to write it under another name.
func ruleSelfCpLink(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if !c.Flag('l', "--link") && !c.Flag('s', "--symbolic-link") {
		return rules.Finding{}, false
	}
	ops := c.Operands()
	if len(ops) < 2 {
		return rules.Finding{}, false
	}
	for _, src := range ops[:len(ops)-1] {
		if f, ok := rules.ProtectedTree(src, x.Cwd, x.Home); ok {
			f.Reason = c.Name + " makes a link to " + src + " (a write through the link would change it): " + f.Reason
			f.Marked = c.Raw
			return f, true
		}
	}
	return rules.Finding{}, false
}

// ruleSelfCpio: cpio -i extracts into the current folder (or -D DIR).
func ruleSelfCpio(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	in := false
	dir := x.Cwd
	for i, a := range c.Args {
		switch {
		case a == "--extract" || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Contains(a, "i"):
			in = true
		case (a == "-D" || a == "--directory") && i+1 < len(c.Args):
			dir = c.Args[i+1]
		case strings.HasPrefix(a, "--directory="):
			dir = strings.TrimPrefix(a, "--directory=")
		}
	}
	if !in || dir == "" {
		return rules.Finding{}, false
	}
	return unknownOver(c, dir, "cpio extracts an archive from stdin", x)
}

// ruleSelfPyExtract: python -m zipfile -e ARCHIVE DIR, -m tarfile -e.
func ruleSelfPyExtract(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if !strings.HasPrefix(c.Name, "python") && c.Name != "py" {
		return rules.Finding{}, false
	}
	for i := 0; i+4 < len(c.Args)+1; i++ {
		if c.Args[i] != "-m" || i+1 >= len(c.Args) || c.Args[i+1] != "zipfile" && c.Args[i+1] != "tarfile" {
			continue
		}
		rest := c.Args[i+2:]
		for k := 0; k+2 < len(rest); k++ {
			if rest[k] == "-e" || rest[k] == "--extract" {
				file, dir := rest[k+1], rest[k+2]
				if f, ok := archiveInto(c, file, dir, 0, x); ok {
					return f, true
				}
			}
		}
		return rules.Finding{}, false
	}
	return rules.Finding{}, false
}

// pyProjectFiles hold a Python or Node package's name and the commands it
// installs.
var pyProjectFiles = []string{"pyproject.toml", "setup.cfg", "setup.py", "package.json", "Cargo.toml"}

// ruleSelfToolInstall: pipx/uv tool/pip --user put a package's commands
// into ~/.local/bin, beside (or over) the guard's hook. A package named
// for the guard, or a local one whose metadata declares a command of the
// guard's name, replaces the hook; a forced install of a local package
// whose metadata cannot be read may.
func ruleSelfToolInstall(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := c.Operands()
	if len(ops) == 0 {
		return rules.Finding{}, false
	}
	switch c.Name {
	case "uv":
		if len(ops) < 2 || ops[0] != "tool" || ops[1] != "install" && ops[1] != "upgrade" {
			return rules.Finding{}, false
		}
		ops = ops[2:]
	case "uvx":
	case "pipx":
		if ops[0] != "install" && ops[0] != "upgrade" && ops[0] != "reinstall" && ops[0] != "inject" {
			return rules.Finding{}, false
		}
		ops = ops[1:]
	case "npm", "pnpm", "yarn", "bun":
		if ops[0] != "install" && ops[0] != "i" && ops[0] != "add" && ops[0] != "global" || !c.Flag('g', "--global") && ops[0] != "global" {
			return rules.Finding{}, false
		}
		ops = ops[1:]
		if len(ops) > 0 && ops[0] == "add" {
			ops = ops[1:]
		}
	case "cargo":
		if ops[0] != "install" {
			return rules.Finding{}, false
		}
		ops = ops[1:]
		if p, ok := rules.PkVal(c, "--path"); ok {
			ops = append(ops, p)
		}
	default: // pip install --user
		if ops[0] != "install" || !c.Flag(0, "--user") {
			return rules.Finding{}, false
		}
		ops = ops[1:]
	}
	force := c.Flag('f', "--force", "--force-reinstall")
	valued := map[string]bool{}
	for i, a := range c.Args {
		if i > 0 && installValueOpts[c.Args[i-1]] {
			valued[a] = true
		}
	}
	for _, spec := range ops {
		if valued[spec] && !(c.Name == "cargo" && spec == func() string { v, _ := rules.PkVal(c, "--path"); return v }()) {
			continue // --root DIR, --prefix DIR: where, not what (the path rules judge it)
		}
		if rules.GuardWord(spec) || strings.Contains(strings.ToLower(spec), "agent-guard-hook") {
			return rules.CoreSelfFinding(string(protect.Binary), spec, " (a package by the guard's name installs commands over its hook)"), true
		}
		local := strings.HasPrefix(spec, ".") || strings.HasPrefix(spec, "/") || strings.HasPrefix(spec, "~")
		if !local {
			continue
		}
		n := rules.Normalize(spec, x.Cwd, x.Home)
		if n.Dynamic() || !rules.RootedAbs(n.Abs()) {
			continue
		}
		read := false
		for _, f := range pyProjectFiles {
			b, err := os.ReadFile(filepath.Join(filepath.FromSlash(n.Abs()), f))
			if err != nil {
				continue
			}
			read = true
			if len(b) > 1<<20 {
				b = b[:1<<20]
			}
			if rules.GuardWord(string(b)) {
				return rules.CoreSelfFinding(string(protect.Binary), spec, " (its "+f+" declares a command of the guard's name, which lands over the hook)"), true
			}
		}
		if !read && force {
			return rules.Finding{Risk: 2, Violation: 0.6, Rule: "guard.tool-install-unseen", Marked: c.Raw,
				Reason: c.Name + " force-installs the local package " + spec + " into ~/.local/bin, where the guard's hook lies, and what commands it brings cannot be read before it runs"}, true
		}
	}
	return rules.Finding{}, false
}

// installValueOpts take a value that is no package.
var installValueOpts = map[string]bool{"--root": true, "--prefix": true, "--path": true, "--index": true,
	"--registry": true, "--target": true, "-t": true, "--python": true, "--with": true, "--git": true,
	"--branch": true, "--tag": true, "--rev": true, "--features": true, "-F": true, "--index-url": true,
	"-i": true, "--extra-index-url": true, "--pip-args": true, "--suffix": true}

// ruleTrustStoreMac: security add-trusted-cert / add-certificates /
// trust-settings-import: a certificate the guard's remote call (and
// everything else) then trusts.
func ruleTrustStoreMac(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := c.Operands()
	if len(ops) == 0 {
		return rules.Finding{}, false
	}
	switch ops[0] {
	case "add-trusted-cert", "add-certificates", "trust-settings-import", "remove-trusted-cert", "delete-certificate":
		return rules.PkRet(c, 2.3, 0.6, "sys.certstore", "changes the trusted certificate store")
	}
	return rules.Finding{}, false
}

// xargsWriters change or remove the files xargs hands them.
var xargsWriters = map[string]bool{"rm": true, "unlink": true, "truncate": true, "shred": true, "mv": true, "cp": true,
	"chmod": true, "chown": true, "chattr": true, "sed": true, "perl": true, "tee": true, "dd": true, "rmdir": true,
	"trash-put": true, "trash": true, "gio": true, "ln": true, "touch": true, "install": true, "setfacl": true, "gzip": true,
	"bzip2": true, "xz": true, "zstd": true, "remove-item": true, "ri": true, "del": true}

// xargsListers print the names they are given.
var xargsListers = map[string]bool{"ls": true, "echo": true, "printf": true, "realpath": true, "readlink": true,
	"find": true, "dir": true, "get-childitem": true, "gci": true, "basename": true, "dirname": true}

// ruleSelfXargsFed: ls ~/.claude/settings.json | xargs truncate -s0: the
// names xargs passes come from a command that prints a protected path.
func ruleSelfXargsFed(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if x.All == nil || !rules.Contains(c.Wrappers, "xargs") || !xargsWriters[c.Name] && !shellNames[c.Name] || len(c.PipedFrom) == 0 {
		return rules.Finding{}, false
	}
	for i := range x.All.Cmds {
		o := &x.All.Cmds[i]
		if o == c || !xargsListers[o.Name] || !rules.Contains(c.PipedFrom, o.Name) {
			continue
		}
		for _, a := range o.Args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			if f, ok := rules.ProtectedTree(a, x.Cwd, x.Home); ok {
				f.Reason = "xargs hands " + c.Name + " what " + o.Name + " prints, " + a + ": " + f.Reason
				f.Marked = c.Raw
				return f, true
			}
		}
	}
	return rules.Finding{}, false
}

// gitTreeVerbs rewrite files of the work tree.
var gitTreeVerbs = map[string]bool{"stash": true, "reset": true, "clean": true, "checkout": true, "restore": true,
	"switch": true, "rm": true, "mv": true, "pull": true, "merge": true, "rebase": true, "am": true, "apply": true,
	"cherry-pick": true, "revert": true, "read-tree": true, "checkout-index": true}

// ruleSelfGitTree: git stash -u / reset --hard / checkout / clean in a
// work tree that is a host's folder or the one holding the guard's (cd
// ~/.claude && git stash -u takes settings.json away with the rest). The
// home folder as a work tree (a dotfiles repository) is left to the git
// rules, which confirm its destructive verbs.
func ruleSelfGitTree(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	dir, verb := x.Cwd, ""
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		switch {
		case a == "-C" && i+1 < len(c.Args):
			dir = c.Args[i+1]
			i++
		case strings.HasPrefix(a, "--work-tree="):
			dir = strings.TrimPrefix(a, "--work-tree=")
		case a == "--work-tree" && i+1 < len(c.Args):
			dir = c.Args[i+1]
			i++
		case a == "--git-dir" || a == "-c" || a == "--namespace":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			verb = a
			i = len(c.Args)
		}
	}
	if !gitTreeVerbs[verb] || dir == "" {
		return rules.Finding{}, false
	}
	if verb == "stash" && len(c.Args) > 0 {
		for _, a := range c.Args {
			if a == "list" || a == "show" {
				return rules.Finding{}, false
			}
		}
	}
	n := rules.Normalize(dir, x.Cwd, x.Home)
	proj := x.Project
	if proj == "" {
		proj = x.Cwd
	}
	if n.Dynamic() || !rules.RootedAbs(n.Abs()) || n.Low() == n.LowHome() {
		return rules.Finding{}, false
	}
	if p := rules.Normalize(proj, "", x.Home); p.Low() != p.LowHome() && (n.Low() == p.Low() || strings.HasPrefix(n.Low(), p.Low()+"/")) {
		return rules.Finding{}, false // the project's own work tree
	}
	if f, ok := rules.Protected(dir, x.Cwd, x.Home); ok {
		// the work tree is the guard's folder (or one inside it):
		// git --work-tree=~/.config/agent-guard checkout -f
		return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.guard-tree", Marked: c.Raw,
			Reason: "git " + verb + " rewrites the work tree " + dir + ": " + f.Reason}, true
	}
	// presumed from the call's project: a folder entered by cd holds no
	// workspace config of ours unless the disk shows one
	e, ok := presumedUnder(rules.SetFor(proj, x.Home), n.Abs(), proj, x.Home)
	if !ok {
		return rules.Finding{}, false
	}
	return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.guard-tree", Marked: c.Raw,
		Reason: "git " + verb + " rewrites the work tree " + dir + ", which holds " + e.Path + " (" + string(e.Kind) + " of the agent's own guard): an agent must not switch off its own guard; ask the user to do it"}, true
}

func init() {
	pack.OnAny(ruleSelfXargsFed)
	pack.On(ruleSelfGitTree, "git")
}

// shellNames run the code xargs builds (xargs -I{} sh -c ': > {}').
var shellNames = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "busybox": true}

// hostDomain: a macOS preferences domain (or plist path) of an agent host.
func hostDomain(d string) bool {
	l := strings.ToLower(d)
	for _, h := range []string{"anthropic", "claude", "gemini", "codex", "openai", "zcode", "cursor", "windsurf", "qwen", "opencode"} {
		if strings.Contains(l, h) {
			return true
		}
	}
	return false
}
