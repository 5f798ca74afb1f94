package rules

import (
	"os"
	"path"
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
	on(ruleSelfWindow, "xdotool", "wmctrl", "xkill", "xdo", "wtype")
	on(ruleSelfPlist, "plutil", "defaults", "plistbuddy")
	on(ruleSelfCpLink, "cp", "gcp")
	on(ruleSelfCpio, "cpio")
	on(ruleSelfToolInstall, "pipx", "uv", "pip", "pip3", "uvx", "npm", "pnpm", "yarn", "bun", "cargo")
	on(ruleTrustStoreMac, "security")
	onAny(ruleSelfPyExtract)
}

// windowActs are xdotool/wmctrl actions that type into, click on, close
// or raise a window.
var windowActs = []string{"key", "keydown", "keyup", "type", "click", "mousedown", "mouseup", "windowkill",
	"windowclose", "windowquit", "windowactivate", "windowfocus", "windowunmap", "windowminimize", "windowmove",
	"windowsize", "set_window", "windowraise", "behave", "-c", "-ic", "-a", "-ia", "-r", "-ir", "-k"}

// ruleSelfWindow: xdotool/wmctrl/xkill aimed at a window of agent-guard's
// (the approval dialog: Alt+A allows once, closing it denies): a click or
// a key the agent sends there is an approval nobody gave.
func ruleSelfWindow(c *shell.Cmd, x *Ctx) (Finding, bool) {
	if !guardWord(c.Raw) {
		return Finding{}, false
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
		return Finding{}, false // xdotool search --name agent-guard: a lookup
	}
	return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.guard-window", Marked: c.Raw,
		Reason: c.Name + " sends input to, closes or raises a window of agent-guard (its approval dialog answers only a human): an agent must not answer or dismiss its own guard; ask the user"}, true
}

// ruleSelfPlist: plutil -replace/-remove/-insert/-convert FILE, defaults
// write/delete/import DOMAIN (a path without .plist), PlistBuddy -c CMD
// FILE on the guard's login entry or any protected plist.
func ruleSelfPlist(c *shell.Cmd, x *Ctx) (Finding, bool) {
	var cands []string
	switch c.Name {
	case "plutil":
		writes := false
		for _, a := range c.Args {
			switch strings.ToLower(a) {
			case "-replace", "-insert", "-remove", "-convert", "-create", "-o":
				writes = true
			}
		}
		if ops := c.Operands(); writes && len(ops) > 0 {
			cands = append(cands, ops[len(ops)-1])
		}
	case "defaults":
		ops := c.Operands()
		if len(ops) >= 2 {
			switch strings.ToLower(ops[0]) {
			case "write", "delete", "import", "rename":
				cands = append(cands, ops[1], ops[1]+".plist")
			}
		}
	default: // PlistBuddy -c 'Set :RunAtLoad false' FILE
		if ops := c.Operands(); len(ops) > 0 {
			cands = append(cands, ops[len(ops)-1])
		}
	}
	for _, p := range cands {
		if f, ok := Protected(p, x.Cwd, x.Home); ok {
			f.Reason = c.Name + " edits " + p + ": " + f.Reason
			f.Marked = c.Raw
			return f, true
		}
		if strings.Contains(strings.ToLower(p), "ai.agentguard") || strings.Contains(strings.ToLower(p), "agent-guard") {
			return selfFinding(string(protect.Autostart), p, " (agent-guard's login entry)"), true
		}
	}
	return Finding{}, false
}

// ruleSelfCpLink: cp -l / cp -s make a hard or symbolic link, like ln: a
// link to a protected file is a way to write it under another name.
func ruleSelfCpLink(c *shell.Cmd, x *Ctx) (Finding, bool) {
	if !c.Flag('l', "--link") && !c.Flag('s', "--symbolic-link") {
		return Finding{}, false
	}
	ops := c.Operands()
	if len(ops) < 2 {
		return Finding{}, false
	}
	for _, src := range ops[:len(ops)-1] {
		if f, ok := ProtectedTree(src, x.Cwd, x.Home); ok {
			f.Reason = c.Name + " makes a link to " + src + " (a write through the link would change it): " + f.Reason
			f.Marked = c.Raw
			return f, true
		}
	}
	return Finding{}, false
}

// ruleSelfCpio: cpio -i extracts into the current folder (or -D DIR).
func ruleSelfCpio(c *shell.Cmd, x *Ctx) (Finding, bool) {
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
		return Finding{}, false
	}
	return unknownInto(c, dir, "cpio extracts an archive from stdin", x)
}

// ruleSelfPyExtract: python -m zipfile -e ARCHIVE DIR, -m tarfile -e.
func ruleSelfPyExtract(c *shell.Cmd, x *Ctx) (Finding, bool) {
	if !strings.HasPrefix(c.Name, "python") && c.Name != "py" {
		return Finding{}, false
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
		return Finding{}, false
	}
	return Finding{}, false
}

// pyProjectFiles hold a Python or Node package's name and the commands it
// installs.
var pyProjectFiles = []string{"pyproject.toml", "setup.cfg", "setup.py", "package.json", "Cargo.toml"}

// ruleSelfToolInstall: pipx/uv tool/pip --user put a package's commands
// into ~/.local/bin, beside (or over) the guard's hook. A package named
// for the guard, or a local one whose metadata declares a command of the
// guard's name, replaces the hook; a forced install of a local package
// whose metadata cannot be read may.
func ruleSelfToolInstall(c *shell.Cmd, x *Ctx) (Finding, bool) {
	ops := c.Operands()
	if len(ops) == 0 {
		return Finding{}, false
	}
	switch c.Name {
	case "uv":
		if len(ops) < 2 || ops[0] != "tool" || ops[1] != "install" && ops[1] != "upgrade" {
			return Finding{}, false
		}
		ops = ops[2:]
	case "uvx":
	case "pipx":
		if ops[0] != "install" && ops[0] != "upgrade" && ops[0] != "reinstall" && ops[0] != "inject" {
			return Finding{}, false
		}
		ops = ops[1:]
	case "npm", "pnpm", "yarn", "bun":
		if ops[0] != "install" && ops[0] != "i" && ops[0] != "add" && ops[0] != "global" || !c.Flag('g', "--global") && ops[0] != "global" {
			return Finding{}, false
		}
		ops = ops[1:]
		if len(ops) > 0 && ops[0] == "add" {
			ops = ops[1:]
		}
	case "cargo":
		if ops[0] != "install" {
			return Finding{}, false
		}
		ops = ops[1:]
		if p, ok := pkVal(c, "--path"); ok {
			ops = append(ops, p)
		}
	default: // pip install --user
		if ops[0] != "install" || !c.Flag(0, "--user") {
			return Finding{}, false
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
		if valued[spec] && !(c.Name == "cargo" && spec == func() string { v, _ := pkVal(c, "--path"); return v }()) {
			continue // --root DIR, --prefix DIR: where, not what (the path rules judge it)
		}
		if guardWord(spec) || strings.Contains(strings.ToLower(spec), "agent-guard-hook") {
			return selfFinding(string(protect.Binary), spec, " (a package by the guard's name installs commands over its hook)"), true
		}
		local := strings.HasPrefix(spec, ".") || strings.HasPrefix(spec, "/") || strings.HasPrefix(spec, "~")
		if !local {
			continue
		}
		n := normalize(spec, x.Cwd, x.Home)
		if n.dynamic || !rootedAbs(n.abs) {
			continue
		}
		read := false
		for _, f := range pyProjectFiles {
			b, err := os.ReadFile(filepath.Join(filepath.FromSlash(n.abs), f))
			if err != nil {
				continue
			}
			read = true
			if len(b) > 1<<20 {
				b = b[:1<<20]
			}
			if guardWord(string(b)) {
				return selfFinding(string(protect.Binary), spec, " (its "+f+" declares a command of the guard's name, which lands over the hook)"), true
			}
		}
		if !read && force {
			return Finding{Risk: 2, Violation: 0.6, Rule: "guard.tool-install-unseen", Marked: c.Raw,
				Reason: c.Name + " force-installs the local package " + spec + " into ~/.local/bin, where the guard's hook lies, and what commands it brings cannot be read before it runs"}, true
		}
	}
	return Finding{}, false
}

// installValueOpts take a value that is no package.
var installValueOpts = map[string]bool{"--root": true, "--prefix": true, "--path": true, "--index": true,
	"--registry": true, "--target": true, "-t": true, "--python": true, "--with": true, "--git": true,
	"--branch": true, "--tag": true, "--rev": true, "--features": true, "-F": true, "--index-url": true,
	"-i": true, "--extra-index-url": true, "--pip-args": true, "--suffix": true}

// ruleTrustStoreMac: security add-trusted-cert / add-certificates /
// trust-settings-import: a certificate the guard's remote call (and
// everything else) then trusts.
func ruleTrustStoreMac(c *shell.Cmd, x *Ctx) (Finding, bool) {
	ops := c.Operands()
	if len(ops) == 0 {
		return Finding{}, false
	}
	switch ops[0] {
	case "add-trusted-cert", "add-certificates", "trust-settings-import", "remove-trusted-cert", "delete-certificate":
		return pkRet(c, 2.3, 0.6, "sys.certstore", "changes the trusted certificate store")
	}
	return Finding{}, false
}

// trayBinary: the tray's own binary has the name of its folders
// (agent-guard), so it is protected by name only in a bin folder outside
// the project (~/.local/bin/agent-guard, /usr/local/bin/agent-guard).
func trayBinary(n np) bool {
	if n.dynamic || n.inProject || lastSeg(n.low) != "agent-guard" {
		return false
	}
	return path.Base(path.Dir(n.low)) == "bin"
}

// longNames are the names on the way to a protected path that Windows
// gives a short 8.3 alias (AGENT-~1 for agent-guard, CLAUDE~1 for
// .claude, SETTIN~1.JSO for settings.json).
var longNames = []string{"agent-guard", ".claude", "settings.json", "settings.local.json", ".zcode", ".codex",
	".cursor", ".gemini", "hooks.json", "config.json", "config.toml", "agent-guard-hook.exe", "agent-guard.exe",
	"agent-guard-judge.exe", ".agentguardrc", "appdata", "application data", ".config", ".local", ".kimi-code",
	".codeium", ".copilot", ".factory", ".qwen", ".augment", ".kiro", "windsurf", "startup", "start menu"}

// shortMatch: seg (lower case) is an 8.3 alias that long may have.
func shortMatch(seg, long string) bool {
	i := strings.IndexByte(seg, '~')
	if i < 1 || i > 6 {
		return false
	}
	num, ext, _ := strings.Cut(seg[i+1:], ".")
	if num == "" || strings.Trim(num, "0123456789") != "" {
		return false
	}
	l := strings.ReplaceAll(strings.TrimLeft(long, ". "), " ", "")
	base, lext := l, ""
	if k := strings.LastIndexByte(l, '.'); k > 0 {
		base, lext = strings.ReplaceAll(l[:k], ".", ""), l[k+1:]
	}
	if len(lext) > 3 {
		lext = lext[:3]
	}
	return strings.HasPrefix(base, seg[:i]) && ext == lext
}

// expand83 replaces 8.3 aliases in p by the protected long names they may
// stand for (the first that fits each); p when there are none.
func expand83(p string) string {
	if !strings.Contains(p, "~") {
		return p
	}
	segs := strings.Split(p, "/")
	changed := false
	for i, s := range segs {
		if i == 0 || !strings.Contains(s, "~") {
			continue
		}
		ls := strings.ToLower(s)
		for _, l := range longNames {
			if shortMatch(ls, l) {
				segs[i], changed = l, true
				break
			}
		}
	}
	if !changed {
		return p
	}
	return strings.Join(segs, "/")
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
func ruleSelfXargsFed(c *shell.Cmd, x *Ctx) (Finding, bool) {
	if x.All == nil || !contains(c.Wrappers, "xargs") || !xargsWriters[c.Name] && !shellNames[c.Name] || len(c.PipedFrom) == 0 {
		return Finding{}, false
	}
	for i := range x.All.Cmds {
		o := &x.All.Cmds[i]
		if o == c || !xargsListers[o.Name] || !contains(c.PipedFrom, o.Name) {
			continue
		}
		for _, a := range o.Args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			if f, ok := ProtectedTree(a, x.Cwd, x.Home); ok {
				f.Reason = "xargs hands " + c.Name + " what " + o.Name + " prints, " + a + ": " + f.Reason
				f.Marked = c.Raw
				return f, true
			}
		}
	}
	return Finding{}, false
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
func ruleSelfGitTree(c *shell.Cmd, x *Ctx) (Finding, bool) {
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
		return Finding{}, false
	}
	if verb == "stash" && len(c.Args) > 0 {
		for _, a := range c.Args {
			if a == "list" || a == "show" {
				return Finding{}, false
			}
		}
	}
	n := normalize(dir, x.Cwd, x.Home)
	proj := x.Project
	if proj == "" {
		proj = x.Cwd
	}
	if n.dynamic || !rootedAbs(n.abs) || n.low == n.lowHome {
		return Finding{}, false
	}
	if p := normalize(proj, "", x.Home); p.low != p.lowHome && (n.low == p.low || strings.HasPrefix(n.low, p.low+"/")) {
		return Finding{}, false // the project's own work tree
	}
	e, ok := presumedUnder(setFor(x.Cwd, x.Home), n.abs, x.Cwd, x.Home)
	if !ok {
		return Finding{}, false
	}
	return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.guard-tree", Marked: c.Raw,
		Reason: "git " + verb + " rewrites the work tree " + dir + ", which holds " + e.Path + " (" + string(e.Kind) + " of the agent's own guard): an agent must not switch off its own guard; ask the user to do it"}, true
}

func init() {
	onAny(ruleSelfXargsFed)
	on(ruleSelfGitTree, "git")
}

// shellNames run the code xargs builds (xargs -I{} sh -c ': > {}').
var shellNames = map[string]bool{"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "busybox": true}
