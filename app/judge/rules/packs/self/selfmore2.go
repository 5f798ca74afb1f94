package self

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"
	"path"

	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Self-protection routes of the ninth round, second list: substitutions
// that print a protected path, a nested agent started with an empty
// environment or a settings file that switches hooks off, drive letters
// seen through WSL (/mnt/c), the admin share (\\localhost\c$) and subst,
// AppleScript quitting the tray, login items reset or disabled, and every
// process of the user's own uid.

func init() {
	pack.OnAny(ruleSelfSubstFed)
	pack.OnAny(ruleNestedEnvEmpty)
	pack.On(ruleSelfSubst, "subst", "net", "net1", "new-psdrive", "ndr", "mount")
	pack.On(ruleSelfOsascript, "osascript")
	pack.On(ruleSelfLoginItems, "sfltool", "disable-scheduledtask", "reg", "systemctl", "loginctl")
}

// ruleSelfSubstFed: perl -pi -e '...' $(ls ~/.claude/settings.json): a
// writer whose argument is unknown statically, in a line where a lister
// prints a protected path that nothing else reads.
func ruleSelfSubstFed(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if x.All == nil || !xargsWriters[c.Name] || rules.Contains(c.Wrappers, "xargs") {
		return rules.Finding{}, false
	}
	dyn := false
	for _, a := range c.Args {
		if strings.Contains(a, shell.Dyn) {
			dyn = true
		}
	}
	if !dyn {
		return rules.Finding{}, false
	}
	for i := range x.All.Cmds {
		o := &x.All.Cmds[i]
		if o == c || !xargsListers[o.Name] || len(o.PipedTo) > 0 || len(o.Redirs) > 0 || o.Depth != c.Depth {
			continue
		}
		for _, a := range o.Args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			if f, ok := rules.ProtectedTree(a, x.Cwd, x.Home); ok {
				f.Reason = c.Name + " is handed what " + o.Name + " prints, " + a + ": " + f.Reason
				f.Marked = c.Raw
				return f, true
			}
		}
	}
	return rules.Finding{}, false
}

var envEmptyRe = lazyre.New(`(?i)(^|[\s;&|(])env\s+((-[a-z0-9]*\s+|--[a-z-]+(=\S*)?\s+|-u\s+\S+\s+|[A-Za-z_][A-Za-z0-9_]*=\S*\s+)*)(-i|--ignore-environment|-|-u\s+(HOME|USERPROFILE|APPDATA|XDG_CONFIG_HOME))(\s|$)`)

// ruleNestedEnvEmpty: env -i claude ..., env -u HOME codex ...: without
// HOME the host finds no user config, so no hook of the guard's; with a
// settings file (claude --settings FILE) that switches hooks off, the
// same.
func ruleNestedEnvEmpty(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if _, ok := rules.NestedHosts[c.Name]; !ok {
		return rules.Finding{}, false
	}
	if envEmptyRe.MatchString(c.Raw) {
		return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.hooks-off", Marked: c.Raw,
			Reason: "starts " + c.Name + " with an emptied environment (no HOME): it reads no user config and runs none of the guard's hooks; an agent must not switch off its own guard; ask the user to do it"}, true
	}
	if v, ok := rules.PkVal(c, "--settings"); ok && !strings.HasPrefix(strings.TrimSpace(v), "{") {
		n := rules.Normalize(v, x.Cwd, x.Home)
		if !n.Dynamic() && rules.RootedAbs(n.Abs()) {
			if b, err := os.ReadFile(filepath.FromSlash(n.Abs())); err == nil && len(b) < 1<<20 {
				if rules.HooksOff(string(b)) {
					return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.hooks-off", Marked: c.Raw,
						Reason: "starts " + c.Name + " with the settings file " + v + ", which switches its hooks off (and the guard with them): ask the user to do it"}, true
				}
				return rules.Finding{}, false
			}
		}
		return rules.Finding{Risk: 2, Violation: 0.6, Rule: "guard.nested-settings-unseen", Marked: c.Raw,
			Reason: "starts " + c.Name + " with the settings file " + v + ", which cannot be read now: it may switch the host's hooks (and the guard) off"}, true
	}
	return rules.Finding{}, false
}

// ruleSelfSubst: subst X: DIR, net use X: \\localhost\c$\DIR,
// New-PSDrive -Root DIR: a second name for a protected folder, as a link is.
func ruleSelfSubst(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	var targets []string
	switch c.Name {
	case "subst":
		if ops := c.Operands(); len(ops) == 2 {
			targets = ops[1:]
		}
	case "net", "net1":
		if ops := c.Operands(); len(ops) >= 3 && strings.EqualFold(ops[0], "use") {
			targets = ops[2:3]
		}
	case "mount":
		if c.Flag(0, "--bind", "--rbind") {
			if ops := c.Operands(); len(ops) == 2 {
				targets = ops[:1]
			}
		}
	default:
		if v, ok := rules.PkWinVal(c, "root"); ok {
			targets = append(targets, v)
		}
	}
	if c.Name != "mount" && strings.Contains(c.Raw, "$\\") {
		// net use Z: \\localhost\c$\Users\...: the shell read c$\ as a
		// variable, the line's text still names the folder
		for _, m := range adminShareRe.FindAllStringSubmatch(c.Raw, 4) {
			targets = append(targets, strings.ToLower(m[1])+":"+strings.ReplaceAll(m[2], `\`, "/"))
		}
	}
	for _, t := range targets {
		if d := rules.DrivePath(rules.Slashify(t)); d != "" {
			t = d
		}
		if f, ok := rules.ProtectedTree(t, x.Cwd, x.Home); ok {
			f.Reason = c.Name + " gives " + t + " a second name (a write through it would change it): " + f.Reason
			f.Marked = c.Raw
			return f, true
		}
	}
	return rules.Finding{}, false
}

var osaQuitRe = lazyre.New(`(?i)(delete|remove)\s+login\s+item\s+["']?agent[- ]?guard|(quit|close|kill)\b[^"']*["']?\s*(app(lication)?\s+)?["']?agent[- ]?guard|tell\s+app(lication)?\s+["']agent[- ]?guard["']\s+to\s+(quit|close)`)

// ruleSelfOsascript: AppleScript that quits agent-guard's tray.
func ruleSelfOsascript(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if !osaQuitRe.MatchString(c.Raw) {
		return rules.Finding{}, false
	}
	if strings.Contains(strings.ToLower(c.Raw), "login item") {
		return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.autostart", Marked: c.Raw,
			Reason: "the AppleScript removes agent-guard's login item: the guard would not start at the next login; ask the user to do it"}, true
	}
	return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.kill-guard", Marked: c.Raw,
		Reason: "the AppleScript quits agent-guard: an agent must not switch off its own guard; ask the user to do it"}, true
}

// ruleSelfLoginItems: the login entry disabled rather than removed:
// sfltool resetbtm (every background item off until approved again),
// Explorer's StartupApproved value, Disable-ScheduledTask, systemctl mask
// of the unit systemd makes from the .desktop entry, and loginctl
// ending the user's own sessions (every process of the user, the tray's
// too).
func ruleSelfLoginItems(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	low := strings.ToLower(c.Raw)
	low = strings.ReplaceAll(low, `\x2d`, "-")
	hit := func(what string) (rules.Finding, bool) {
		return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.autostart", Marked: c.Raw,
			Reason: what + ": the guard would not start at the next login; an agent must not switch off its own guard; ask the user to do it"}, true
	}
	switch c.Name {
	case "sfltool":
		if strings.Contains(low, "resetbtm") {
			return hit("sfltool resetbtm switches every login item off, agent-guard's among them")
		}
	case "disable-scheduledtask":
		if rules.GuardWord(low) {
			return hit("disables agent-guard's scheduled task")
		}
	case "reg":
		if strings.Contains(low, "startupapproved") && rules.GuardWord(low) && !strings.Contains(low, "reg query") {
			return hit("marks agent-guard's Run entry disabled (StartupApproved)")
		}
	case "systemctl":
		if rules.GuardWord(low) && (strings.Contains(low, " mask") || strings.Contains(low, " disable")) {
			return hit("masks or disables agent-guard's unit")
		}
	case "loginctl":
		ops := c.Operands()
		if len(ops) >= 1 && (ops[0] == "kill-user" || ops[0] == "terminate-user") {
			own := strings.ToLower(filepathBase(x.Home))
			for _, u := range ops[1:] {
				u = strings.ToLower(u)
				if u == own || u == strconv.Itoa(os.Getuid()) || strings.Contains(u, shell.Dyn) || u == "$user" {
					return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.kill-guard", Marked: c.Raw,
						Reason: "loginctl " + ops[0] + " ends every process of the user, agent-guard's too: an agent must not switch off its own guard; ask the user to do it"}, true
				}
			}
		}
	}
	return rules.Finding{}, false
}

func filepathBase(p string) string {
	p = strings.TrimRight(rules.Slashify(p), "/")
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

// unseenRunners run a program file given as their first operand.
var unseenRunners = map[string]bool{"python": true, "python3": true, "python2": true, "node": true, "ruby": true,
	"perl": true, "php": true, "deno": true, "bun": true, "go": true, "bash": true, "sh": true, "zsh": true,
	"pwsh": true, "powershell": true, "lua": true, "rscript": true, "julia": true}

// ruleSelfUnseenCode: go run /tmp/wipe.go ~/.claude/settings.json,
// python x.py ~/.config/agent-guard: code that cannot be read now is
// handed a protected path; and make -C DIR runs an unseen Makefile in a
// folder holding the guard's files.
func ruleSelfUnseenCode(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if c.Name == "make" || c.Name == "gmake" {
		d, ok := rules.PkVal(c, "-C", "--directory")
		if !ok {
			return rules.Finding{}, false
		}
		n := rules.Normalize(d, x.Cwd, x.Home)
		if n.Dynamic() || !rules.RootedAbs(n.Abs()) {
			return rules.Finding{}, false
		}
		for _, mf := range []string{"GNUmakefile", "makefile", "Makefile"} {
			if _, err := os.Stat(filepath.Join(filepath.FromSlash(n.Abs()), mf)); err == nil {
				return rules.Finding{}, false // the recipe rules read it
			}
		}
		return unknownInto(c, d, "make runs a Makefile that cannot be read", x)
	}
	if !unseenRunners[c.Name] || c.FedCode {
		return rules.Finding{}, false
	}
	ops := c.Operands()
	if c.Name == "go" {
		if len(ops) < 2 || ops[0] != "run" {
			return rules.Finding{}, false
		}
		ops = ops[1:]
	}
	if len(ops) < 2 || c.Flag('c') || c.Flag('e') || c.Flag('m') || c.Flag('r') {
		return rules.Finding{}, false
	}
	n := rules.Normalize(ops[0], x.Cwd, x.Home)
	if !n.Dynamic() && rules.RootedAbs(n.Abs()) {
		if _, err := os.Stat(filepath.FromSlash(n.Abs())); err == nil {
			return rules.Finding{}, false // the script rules read it
		}
	}
	for _, a := range ops[1:] {
		if f, ok := rules.ProtectedTree(a, x.Cwd, x.Home); ok {
			return rules.Finding{Risk: 2, Violation: 0.6, Rule: "guard.unseen-code-path", Marked: c.Raw,
				Reason: c.Name + " runs " + ops[0] + ", which cannot be read now, on " + a + " (" + strings.TrimPrefix(f.Rule, "self.") + " of the agent's own guard): what it does to it cannot be known before it runs"}, true
		}
	}
	return rules.Finding{}, false
}

func init() {
	pack.On(ruleSelfUnseenCode, "python", "python3", "python2", "node", "ruby", "perl", "php", "deno", "bun", "go", "bash", "sh", "zsh", "pwsh", "powershell", "lua", "rscript", "julia", "make", "gmake")
}

// ruleSelfLaterCode: code stored now and run by a later step of the same
// or a next command: npm pkg set scripts.X='...' (npm install runs it),
// podman/buildah unshare CMD (runs CMD here, in a user namespace), make
// -f <(echo '...') (a recipe printed into the Makefile).
func ruleSelfLaterCode(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	var codes []string
	ops := c.Operands()
	switch c.Name {
	case "npm", "pnpm", "yarn":
		if len(ops) >= 3 && ops[0] == "pkg" && ops[1] == "set" {
			for _, kv := range ops[2:] {
				if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, "scripts.") {
					codes = append(codes, v)
				}
			}
		}
		if len(ops) >= 3 && ops[0] == "set-script" {
			codes = append(codes, ops[2])
		}
	case "podman", "buildah":
		for i, a := range c.Args {
			if a == "unshare" && i+1 < len(c.Args) {
				codes = append(codes, rules.ShellJoin(c.Args[i+1:]))
				break
			}
		}
	case "make", "gmake":
		if f, ok := rules.PkVal(c, "-f", "--file", "--makefile"); ok && strings.Contains(f, shell.Dyn) && x.All != nil {
			for i := range x.All.Cmds {
				o := &x.All.Cmds[i]
				if o != c && (o.Name == "echo" || o.Name == "printf") {
					for _, l := range strings.Split(strings.ReplaceAll(strings.Join(o.Args, " "), `\n`, "\n"), "\n") {
						if _, r, ok := strings.Cut(l, ":;"); ok {
							l = r
						}
						codes = append(codes, strings.TrimLeft(l, "\t@-+ "))
					}
				}
			}
		}
	}
	if f, code, ok := rules.SelfInCode(codes, x.Cwd, x.Home, 8192); ok {
		f.Reason = c.Name + " stores or runs " + rules.OneLineCut(code, 80) + ": " + f.Reason
		f.Marked = c.Raw
		return f, true
	}
	return rules.Finding{}, false
}

func init() { pack.On(ruleSelfLaterCode, "npm", "pnpm", "yarn", "podman", "buildah", "make", "gmake") }

// ruleSelfLaterEcho: echo/printf/cat <<EOF > FILE (tee FILE) where FILE
// is run by itself later (a shell start-up file, a login entry, a unit, a
// crontab file, a git hook): the text is judged like a Write of it.
func ruleSelfLaterEcho(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if c.Name != "echo" && c.Name != "printf" && c.Name != "cat" && c.Name != "tee" {
		return rules.Finding{}, false
	}
	var targets []string
	for _, r := range c.Redirs {
		if r.Op == ">" || r.Op == ">>" || r.Op == ">|" {
			targets = append(targets, r.Target)
		}
	}
	if c.Name == "tee" {
		targets = append(targets, c.Operands()...)
	}
	if len(targets) == 0 {
		return rules.Finding{}, false
	}
	var text []string
	if c.Name == "echo" || c.Name == "printf" {
		text = append(text, strings.NewReplacer(`\n`, "\n", `\t`, "\t").Replace(strings.Join(c.Operands(), " ")))
	}
	for _, r := range c.Redirs {
		if r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<" {
			text = append(text, r.Target)
		}
	}
	if c.Name == "tee" && x.All != nil {
		text = append(text, lineEchoes(c, x)...)
	}
	content := strings.Join(text, "\n")
	for _, t := range targets {
		if strings.Contains(t, shell.Dyn) {
			continue
		}
		if f, ok := rules.RunsLaterWrite(t, content, x.Cwd, x.Home); ok {
			f.Marked = c.Raw
			return f, true
		}
		if code, ok := scriptTarget(t, content); ok {
			// a script for a later call (./warmup.sh, a hook folder set
			// with core.hooksPath, a file crontab reads): what the Write
			// tool's script check sees, seen here too
			if f, code, ok := rules.SelfInCode([]string{code}, x.Cwd, x.Home, 2*len(content)+64); ok {
				f.Reason = c.Name + " writes " + t + ", a script that would, when run, " + rules.OneLineCut(code, 60) + ": " + f.Reason
				f.Marked = c.Raw
				return f, true
			}
		}
	}
	return rules.Finding{}, false
}

// scriptTarget: a file written with this text is shell code to run later
// (a script's extension, a shebang, a file in a hooks folder, or a
// crontab line: its command); the code.
func scriptTarget(t, content string) (string, bool) {
	low := strings.ToLower(rules.Slashify(t))
	base := path.Base(low)
	switch path.Ext(base) {
	case ".sh", ".bash", ".zsh", ".ksh", ".command", ".bat", ".cmd", ".ps1":
		return content, true
	case ".py", ".js", ".mjs", ".cjs", ".ts", ".rb", ".pl", ".php":
		// a program's source: its string literals are read as that
		// interpreter's code is (postinstall.js, a test helper)
		if len(content) > 32<<10 || !rules.MayNameGuard(content) {
			return "", false // no name a self finding in code needs (reading code is dear)
		}
		in := map[string]string{".py": "python3", ".rb": "ruby", ".pl": "perl", ".php": "php"}[path.Ext(base)]
		if in == "" {
			in = "node"
		}
		return in + " <<'AGENT_GUARD_SRC'\n" + content + "\nAGENT_GUARD_SRC", true
	}
	c := strings.TrimSpace(content)
	if f := strings.Fields(c); cronLine(c) {
		if strings.HasPrefix(f[0], "@") {
			return strings.Join(f[1:], " "), true
		}
		return strings.Join(f[5:], " "), true
	}
	return content, strings.HasPrefix(c, "#!") || strings.Contains(low, "/hooks/")
}

// cronLine: text shaped like a crontab entry (five time fields, or @reboot).
func cronLine(c string) bool {
	f := strings.Fields(c)
	if len(f) > 1 && strings.HasPrefix(f[0], "@") {
		return true
	}
	if len(f) < 6 {
		return false
	}
	for _, w := range f[:5] {
		if strings.Trim(w, "0123456789*/,-") != "" {
			return false
		}
	}
	return true
}

func init() { pack.On(ruleSelfLaterEcho, "echo", "printf", "cat", "tee") }

// adminShareRe finds \\localhost\c$\... in a line's text: the shell reads
// c$\ as a variable, so the argument itself arrives unknown.
var adminShareRe = lazyre.New(`(?i)\\\\(?:\?\\unc\\)?(?:localhost|127\.0\.0\.1|\.|%computername%|\$env:computername|\$\{env:computername\}|\[?::1\]?)\\([a-z])\$(\\[^\s"'|;&<>]*)`)

// ruleSelfAdminShare: a write, move or delete whose target is reached
// through the admin share of the local drive.
func ruleSelfAdminShare(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if !strings.Contains(c.Raw, "$\\") || !strings.Contains(c.Raw, `\\`) {
		return rules.Finding{}, false
	}
	switch c.Name {
	case "echo", "type", "write-output", "cmd":
		if !strings.Contains(c.Raw, ">") {
			return rules.Finding{}, false // reads or prints: only a redirect writes
		}
	}
	for _, m := range adminShareRe.FindAllStringSubmatch(c.Raw, 8) {
		p := strings.ToLower(m[1]) + ":" + strings.ReplaceAll(m[2], `\`, "/")
		if f, ok := rules.ProtectedTree(p, x.Cwd, x.Home); ok {
			f.Reason = c.Name + " reaches " + p + " through the local admin share: " + f.Reason
			f.Marked = c.Raw
			return f, true
		}
	}
	return rules.Finding{}, false
}

func init() {
	pack.On(ruleSelfAdminShare, "del", "erase", "rd", "rmdir", "remove-item", "ri", "rm", "move", "move-item", "mi",
		"set-content", "out-file", "add-content", "ren", "rename", "rename-item", "clear-content", "new-item", "ni",
		"icacls", "takeown", "attrib", "copy", "copy-item", "cpi", "xcopy", "robocopy", "fsutil", "mklink", "cacls",
		"set-acl", "echo", "type", "write-output", "cmd")
}

// ruleSelfFuncArgs: f() { rm "$1"; }; f ~/.claude/settings.json: a
// function of the line, whose body changes files it is handed, called
// with a protected path.
func ruleSelfFuncArgs(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if x.All == nil || len(x.All.FuncDefs) == 0 || !rules.Contains(x.All.FuncDefs, c.Name) {
		return rules.Finding{}, false
	}
	writes := false
	for i := range x.All.Cmds {
		o := &x.All.Cmds[i]
		if o == c {
			continue
		}
		for _, a := range o.Args {
			if xargsWriters[o.Name] && strings.Contains(a, shell.Dyn) {
				writes = true
			}
		}
		for _, r := range o.Redirs {
			if (r.Op == ">" || r.Op == ">>" || r.Op == ">|") && strings.Contains(r.Target, shell.Dyn) {
				writes = true
			}
		}
	}
	if !writes {
		return rules.Finding{}, false
	}
	for _, a := range c.Args {
		if f, ok := rules.ProtectedTree(a, x.Cwd, x.Home); ok {
			f.Reason = "the function " + c.Name + " changes the files it is handed, here " + a + ": " + f.Reason
			f.Marked = c.Raw
			return f, true
		}
	}
	return rules.Finding{}, false
}

func init() { pack.OnAny(ruleSelfFuncArgs) }

// allowKeyRe: the approval dialog's Allow once shortcut (Alt+A) as the
// input tools spell it: xdotool alt+a, ydotool's key codes 56 (Alt) and
// 30 (A), wtype -M alt a, SendKeys '%a', AppleScript option down.
var allowKeyRe = lazyre.New(`(?i)\balt\+a\b|\b(56|100):1\b.*\b30:1\b|-m\s+alt\b.*\ba\b|sendkeys[^'"]*['"][^'"]*%a|sendwait\(\s*['"]%a|keystroke\s+"a"\s+using\s+(option|\{option)`)

// ruleSelfBlindKeys: synthetic keys sent to whatever window has the
// focus. The guard's approval dialog takes the focus when it opens, so a
// key sender started now (in the background, after a sleep) answers the
// next confirm for the user: Alt+A blocks, other keys confirm.
func ruleSelfBlindKeys(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	raw := c.Raw
	switch c.Name {
	case "xdotool", "ydotool", "wtype", "dotool", "xte":
	case "osascript", "powershell", "pwsh":
		if !strings.Contains(strings.ToLower(raw), "keystroke") && !strings.Contains(strings.ToLower(raw), "sendkeys") && !strings.Contains(strings.ToLower(raw), "sendwait") {
			return rules.Finding{}, false
		}
	default:
		return rules.Finding{}, false
	}
	if allowKeyRe.MatchString(raw) {
		return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.guard-window", Marked: raw,
			Reason: c.Name + " sends Alt+A, the approval dialog's Allow once, to whatever window has the focus (the guard's dialog takes it when it opens): an agent must not answer its own guard; ask the user"}, true
	}
	low := strings.ToLower(raw)
	if c.Name == "osascript" || c.Name == "powershell" || c.Name == "pwsh" {
		return rules.Finding{}, false // their other UI scripting is interp.applescript-ui's and the code rules'
	}
	blind := false
	for _, w := range []string{" key", " type", " keydown", " keyup", "keystroke", "sendkeys", "sendwait", "-k", " str "} {
		if strings.Contains(low, w) {
			blind = true
		}
	}
	if c.Name == "wtype" || c.Name == "dotool" {
		blind = true
	}
	for _, a := range c.Args {
		if c.Name == "xte" && (strings.HasPrefix(a, "key") || strings.HasPrefix(a, "str")) {
			blind = true // xte 'key Return': each argument is one command
		}
	}
	if !blind || strings.Contains(low, "--window") && !rules.GuardWord(low) {
		return rules.Finding{}, false
	}
	if c.Name == "xdotool" && !strings.Contains(low, " type") && !rules.ContainsAnyOf(low, buttonKeys) {
		return rules.Finding{}, false // ctrl+s, F5, Escape: no key that presses a button of the dialog
	}
	return rules.Finding{Risk: 2, Violation: 0.6, Rule: "guard.synthetic-input", Marked: raw,
		Reason: c.Name + " types into whatever window has the focus, which may be the guard's approval dialog"}, true
}

func init() {
	pack.On(ruleSelfBlindKeys, "xdotool", "ydotool", "wtype", "dotool", "xte", "osascript", "powershell", "pwsh")
}

// psKillRe: (Get-Process agent-guard).Kill(), a .Kill() on a process
// looked up by name in the same line.
var psKillRe = lazyre.New(`(?i)\b(?:get-process|gps|ps)\s+(?:-name\s+)?['"]?([\w*?.-]+)`)

// ruleSelfPsKillMethod: the process object's Kill() method on a process
// looked up by a name that matches the guard.
func ruleSelfPsKillMethod(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if !strings.Contains(x.Script, "ill(") {
		return rules.Finding{}, false // the cheap test first: this runs for every command
	}
	low := strings.ToLower(x.Script)
	if !strings.Contains(low, ".kill(") || !strings.Contains(strings.ToLower(c.Raw), "get-process") && !strings.Contains(strings.ToLower(c.Raw), ".kill(") {
		return rules.Finding{}, false
	}
	for _, m := range psKillRe.FindAllStringSubmatch(x.Script, 8) {
		if patternHitsGuard(m[1], x, false, true, true, true) {
			return killPatternFinding(c, m[1]), true
		}
	}
	return rules.Finding{}, false
}

// ruleSelfCgroupPid: cgclassify moves a process into a cgroup (a frozen
// one, a 1 % CPU one): aimed at a pid looked up as the guard's.
func ruleSelfCgroupPid(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	for _, a := range c.Args {
		if strings.Contains(a, shell.Dyn) && guardLookupInLine(x) {
			return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.debug-guard", Marked: c.Raw,
				Reason: c.Name + " moves agent-guard's process into another cgroup (frozen or starved): an agent must not switch off its own guard; ask the user to do it"}, true
		}
	}
	return rules.Finding{}, false
}

func init() {
	pack.OnAny(ruleSelfPsKillMethod)
	pack.On(ruleSelfCgroupPid, "cgclassify")
}

var joinPathRe = lazyre.New(`(?i)join-path\s+(?:-path\s+)?(\$env:[a-z_]+|\$home|~|'[^']*'|"[^"]*")\s+(?:-childpath\s+)?['"]([^'"]+)['"]`)

// psWriters change or remove the path they are given.
var psWriters = map[string]bool{"set-content": true, "sc": true, "add-content": true, "ac": true, "out-file": true,
	"clear-content": true, "clc": true, "remove-item": true, "ri": true, "del": true, "rm": true, "new-item": true, "ni": true,
	"copy-item": true, "cpi": true, "move-item": true, "mi": true, "rename-item": true, "rni": true, "set-acl": true}

// ruleSelfJoinPath: Set-Content -Path (Join-Path $env:USERPROFILE
// '.claude\settings.json'): the path built by Join-Path in the line.
func ruleSelfJoinPath(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if !psWriters[c.Name] || !strings.Contains(strings.ToLower(x.Script), "join-path") {
		return rules.Finding{}, false
	}
	for _, m := range joinPathRe.FindAllStringSubmatch(x.Script, 8) {
		p := strings.Trim(m[1], `'"`) + `\` + m[2]
		if f, ok := rules.ProtectedTree(p, x.Cwd, x.Home); ok {
			f.Reason = c.Name + " writes " + p + " (built by Join-Path): " + f.Reason
			f.Marked = c.Raw
			return f, true
		}
	}
	return rules.Finding{}, false
}

func init() { pack.OnAny(ruleSelfJoinPath) }

// buttonKeys reach or press a dialog button (Tab moves the focus, Space
// and Return press the focused one, Alt picks a mnemonic).
var buttonKeys = []string{"tab", "space", "return", "enter", "alt", "kp_enter", "iso_left_tab"}

// ruleSelfBlindClicks: synthetic mouse clicks (and cliclick's or nircmd's
// keys) sent to whatever is on screen: the guard's approval dialog opens
// on top, where a click at its Allow button answers the next confirm for
// the user. Confirm, like blind keys; moves and position reads pass.
func ruleSelfBlindClicks(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	clicks := false
	for _, a := range c.Args {
		l := strings.ToLower(a)
		switch c.Name {
		case "xdotool", "ydotool", "dotool":
			clicks = clicks || l == "click" || l == "mousedown" || l == "mouseup" || l == "buttondown" || l == "buttonup"
		case "xte":
			clicks = clicks || strings.HasPrefix(l, "mouseclick") || strings.HasPrefix(l, "mousedown")
		case "cliclick":
			for _, p := range []string{"c:", "dc:", "tc:", "rc:", "dd:", "du:", "kp:", "kd:", "t:"} {
				clicks = clicks || strings.HasPrefix(l, p)
			}
		case "nircmd", "nircmdc":
			clicks = clicks || l == "sendmouse" || l == "sendkeypress" || l == "sendkey"
		}
	}
	if !clicks || c.Name == "xdotool" && strings.Contains(c.Raw, "--window") && !rules.GuardWord(c.Raw) {
		return rules.Finding{}, false
	}
	return rules.Finding{Risk: 2, Violation: 0.6, Rule: "guard.synthetic-input", Marked: c.Raw,
		Reason: c.Name + " clicks or types at whatever is on screen, which may be the guard's approval dialog"}, true
}

func init() {
	pack.On(ruleSelfBlindClicks, "xdotool", "ydotool", "dotool", "xte", "cliclick", "nircmd", "nircmdc")
}
