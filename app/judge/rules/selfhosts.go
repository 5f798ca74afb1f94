package rules

import (
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/agent-guard/agent-guard/app/install"
	"github.com/agent-guard/agent-guard/app/internal/lazyre"
	"github.com/agent-guard/agent-guard/app/judge/shell"
	"github.com/agent-guard/agent-guard/app/protect"
)

// The hosts' side of the guard: the files where a host reads its hooks
// and the switches that turn them off, and the socket the hook talks to.
//
// Which host config is the guard's own is a question of where it lies,
// not of its name: the user-level configs app/install writes (under any
// home, so a judge running as root still knows /home/dev/.claude), the
// workspace configs it writes, and any file that carries our hook entry.
// A project's own .claude/settings.json is an ordinary file: copying or
// deleting it cannot switch the guard off. Writing a switch into it that
// turns every hook off (disableAllHooks, [features] hooks = false) can,
// wherever it lies: that is judged by content (self.hooks-off).

// userHostRels are host config paths relative to a home: every file
// app/install writes, plus the files where the same host turns hooks
// off or adds its own (Codex config.toml, Claude's settings.local.json,
// Antigravity's hooks file).
var userHostRels = sync.OnceValue(func() []string {
	const h = "/h"
	seen := map[string]bool{}
	var out []string
	add := func(rel string) {
		if rel = strings.ToLower(rel); !seen[rel] {
			seen[rel] = true
			out = append(out, rel)
		}
	}
	for _, host := range install.AllHosts() {
		ps, _ := install.ConfigPaths(h, host)
		for _, p := range ps {
			if rel, err := filepath.Rel(h, p); err == nil && !strings.HasPrefix(rel, "..") {
				add(filepath.ToSlash(rel))
			}
		}
	}
	for _, rel := range []string{".codex/config.toml", ".codex/requirements.toml", ".claude/settings.local.json",
		".claude.json", ".gemini/config/hooks.json", ".gemini/settings.json", ".qwen/settings.json",
		".factory/settings.json", ".augment/settings.json", ".cursor/hooks.json", ".copilot/config.json",
		".config/amp/settings.json", ".kimi-code/config.toml", ".zcode/config.json",
		// Cline's hook file under both systems' names: app/install writes
		// only this system's, and a judge reading another system's paths
		// (a corpus, a WSL home, a shared drive) must know the other one.
		"documents/cline/hooks/pretooluse", "documents/cline/hooks/pretooluse.ps1"} {
		add(rel)
	}
	return out
})

// homeRoot reports the home folder p lies in (this user's, or any
// /home/NAME, /Users/NAME, /root, C:/Users/NAME) and the rest of p.
func homeRoot(low, lowHome string) (string, bool) {
	if lowHome != "" && lowHome != "~" && under(low, lowHome) && low != lowHome {
		return strings.TrimPrefix(low[len(lowHome):], "/"), true
	}
	if strings.HasPrefix(low, "~/") {
		return low[2:], true
	}
	if hasDrive(low) && strings.HasPrefix(low[2:], "/users/") {
		low = low[2:] // D:/Users/NAME as well as C:
	}
	for _, pre := range []string{"/home/", "/users/", "/var/home/", "/export/home/"} {
		if strings.HasPrefix(low, pre) {
			_, rest, ok := strings.Cut(low[len(pre):], "/")
			return rest, ok
		}
	}
	for _, pre := range []string{"/root/", "/var/root/"} {
		if strings.HasPrefix(low, pre) {
			return low[len(pre):], true
		}
	}
	return "", false
}

// socketSeg: the socket folder pipe makes (agent-guard under
// XDG_RUNTIME_DIR or TMPDIR, agent-guard-UID in the temp folder).
var socketSeg = lazyre.New(`(^|/)(run/user/\d+/agent-guard|agent-guard-(\d+|_dyn_[a-z0-9_]*))(/|$)`)

// protectedMore is protectedN's table of what else is the guard's: the
// socket by its shape, and the hosts' user-level configs under any home.
func protectedMore(n np) (string, bool) {
	low := n.low
	base := lastSeg(low)
	// socketSeg matches only text holding "agent-guard": test that first
	// (every written path comes here, few name the guard).
	if base == "agent-guard.sock" || strings.Contains(low, "agent-guard") && socketSeg.MatchString(low) {
		return "guard-socket", true
	}
	if hasSeq(low, "agent-guard") && (strings.HasPrefix(low, "/tmp/") || strings.HasPrefix(low, "/run/") || hasSeq(low, "var/folders") || hasSeq(low, "appdata/local/temp")) {
		if strings.HasSuffix(base, ".sock") || base == "agent-guard" {
			return "guard-socket", true
		}
	}
	rel, ok := homeRoot(low, n.lowHome)
	{
		// $ENV{HOME}/.claude/settings.json, os.homedir()/.codex/config.toml,
		// $X/.gemini/settings.json: a folder spelled as the home (or known
		// only at run time) right before a user-level host config.
		for _, r := range userHostRels() {
			if !strings.HasSuffix(low, r) {
				continue // the cheap test first
			}
			if low == "/"+r || low == r {
				return "agent-hook-config", true // a home glued on in code: "/.claude/settings.json"
			}
			if strings.HasSuffix(low, "/"+r) {
				prev := lastSeg("/" + strings.TrimSuffix(low, "/"+r))
				if strings.Contains(prev, "_dyn_") || strings.Contains(prev, "home") || strings.Contains(prev, "userprofile") || strings.HasPrefix(prev, "~") {
					return "agent-hook-config", true
				}
			}
		}
	}
	if ok {
		for _, r := range userHostRels() {
			if rel == r {
				return "agent-hook-config", true
			}
		}
		if strings.HasPrefix(rel, ".kiro/agents/") && strings.HasSuffix(rel, ".json") ||
			strings.HasPrefix(rel, ".copilot/hooks/") || strings.HasPrefix(rel, ".config/opencode/plugins/") ||
			// opencode also loads plugin/ (its older name), Amp its
			// plugins: our file there by its name (Cline's other hook
			// files are the user's: only ours is protected, by the set)
			(strings.HasPrefix(rel, ".config/opencode/plugin/") || strings.HasPrefix(rel, ".config/amp/plugins/")) && strings.HasPrefix(base, "agent-guard") {
			return "agent-hook-config", true
		}
	}
	if strings.Contains(low, "agent guard.app") || strings.Contains(low, "agentguard.app") || strings.Contains(low, "agent-guard.app") {
		return "guard-binary", true // the macOS app bundle of the tray
	}
	if hasSeq(low, "start menu/programs/startup") && guardWord(base) {
		return "autostart", true // the login shortcut, by its name
	}
	if systemHostConfig(low) {
		return "agent-hook-config", true
	}
	if systemdGuardUnit(low) {
		return "autostart", true
	}
	return "", false
}

// systemdGuardUnit: a systemd unit named like the guard, or a drop-in of
// one (~/.config/systemd/user/agent-guard.service.d/override.conf sets
// its Environment=, CPUQuota= or ExecStart= behind the user's back).
func systemdGuardUnit(low string) bool {
	i := strings.Index(low, "/systemd/")
	if i < 0 {
		return false
	}
	for _, seg := range strings.Split(low[i+len("/systemd/"):], "/") {
		if !guardWord(seg) {
			continue
		}
		u := strings.TrimSuffix(seg, ".d")
		for _, ext := range []string{".service", ".socket", ".timer", ".path", ".slice", ".scope"} {
			if strings.HasSuffix(u, ext) {
				return true
			}
		}
	}
	return false
}

// systemHostConfig: a host's system-level settings, which override the
// user's (hooks, the switch that turns them off): Gemini CLI's and Qwen
// Code's system settings and defaults, Cursor's enterprise hooks.json,
// Claude Code's managed-settings drop-in folder. Writing them needs
// admin rights on most machines; an agent that has them must still ask.
func systemHostConfig(low string) bool {
	base := lastSeg(low)
	for _, d := range []string{"etc/", "programdata/", "library/application support/"} {
		i := strings.Index(low, d)
		if i < 0 || i > 3 || strings.Contains(low[:i], "users") || strings.Contains(low[:i], "home") {
			continue // /Users/x/Library/Application Support is the user's
		}
		rest := low[i+len(d):]
		switch {
		case strings.HasPrefix(rest, "gemini-cli/") || strings.HasPrefix(rest, "geminicli/") ||
			strings.HasPrefix(rest, "qwen-code/") || strings.HasPrefix(rest, "qwencode/"):
			return strings.HasSuffix(base, ".json")
		case strings.HasPrefix(rest, "cursor/"):
			return base == "hooks.json"
		case strings.HasPrefix(rest, "claude-code/") || strings.HasPrefix(rest, "claudecode/"):
			return strings.HasSuffix(base, ".json") || strings.HasSuffix(rest, "managed-settings.d")
		}
	}
	return false
}

// hostConfigShaped: p is a file a host reads hooks or hook switches from,
// at any level (user, project, system).
func hostConfigShaped(low string) bool {
	base := lastSeg(low)
	dir := path.Base(path.Dir(low))
	switch {
	case dir == ".claude" && strings.HasPrefix(base, "settings") && strings.HasSuffix(base, ".json"),
		base == "managed-settings.json",
		dir == ".codex" && (base == "config.toml" || base == "hooks.json" || base == "requirements.toml"),
		(dir == ".gemini" || dir == ".qwen" || dir == ".augment" || dir == ".factory") && strings.HasSuffix(base, ".json"),
		(dir == ".cursor" || dir == ".windsurf" || dir == "windsurf") && base == "hooks.json",
		strings.Contains("/"+low+"/", "/.zcode/") && (base == "config.json" || strings.HasPrefix(base, "hooks")),
		hasSeq(low, ".github/hooks") && strings.HasSuffix(base, ".json"),
		dir == "config" && base == "hooks.json" && hasSeq(low, ".gemini"):
		return true
	}
	return false
}

// hooksOffRe finds a switch that turns a host's hooks off, in settings
// text with spaces and quotes removed (JSON, TOML, jq and -c forms).
var hooksOffRe = lazyre.New(`disableallhooks[:=]true|allowmanagedhooksonly[:=]true|codex_hooks[:=](false|0|off|no)\b|` +
	`(^|[^a-z_])hooks[:=](false|\[\]|\{\})|features\.(codex_)?hooks[:=](false|0|off|no)\b|hooks[:=]\{;*enabled[:=]false|hooks\.enabled[:=]false|` +
	`enablehooks[:=]false|claude_code_(simple|safe_mode)[:=]|disable[a-z_]*hooks?[:=](1|true|yes)|hooks?_?disabled?[:=](1|true|yes)`)

// squasher is squash's replacer, built once (it ran per call).
var squasher = strings.NewReplacer(`\n`, ";", `\r`, ";", `\t`, "", " ", "", "\t", "", "\"", "", "'", "", "\n", ";", "\r", ";", "\\", "")

func squash(s string) string {
	// Line breaks, also JSON-escaped ones (MCP arguments, MultiEdit), keep
	// a separator so "name = x" and "hooks = false" stay two settings.
	return squasher.Replace(strings.ToLower(s))
}

// hooksOff reports a hooks-off switch in text.
func hooksOff(s string) bool {
	l := strings.ToLower(s)
	if !strings.Contains(l, "hook") && !strings.Contains(l, "claude_code_") {
		return false // the cheap test first: this runs for every command
	}
	return hooksOffRe.MatchString(squash(s))
}

func hooksOffFinding(marked, what string) Finding {
	return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.hooks-off", Marked: marked,
		Reason: what + " turns the agent's hooks off, and with them its guard: an agent must not switch off its own guard; ask the user to do it"}
}

// HooksOffWrite judges a Write/Edit of a host config whose new content
// turns hooks off (self.hooks-off: block).
func HooksOffWrite(p, content, cwd, home string) (Finding, bool) {
	n := normalize(p, cwd, home)
	if !hostConfigShaped(n.low) {
		return Finding{}, false
	}
	if hooksOff(content) {
		return hooksOffFinding(p, "writing "+p), true
	}
	if hostEnvSet(content) {
		return hooksOffFinding(p, "setting a variable the guard's hook reads in "+p), true
	}
	return Finding{}, false
}

// ruleHooksOff: a command line that writes a host config (redirection,
// tee, sed -i, cp, mv, jq > file) and carries a hooks-off switch, and
// a host CLI switching its own hooks off (codex features disable hooks).
func ruleHooksOff(c *shell.Cmd, x *Ctx) (Finding, bool) {
	if c.Name == "codex" && len(c.Args) >= 3 && c.Args[0] == "features" && c.Args[1] == "disable" && strings.Contains(c.Args[2], "hooks") {
		return hooksOffFinding(c.Raw, "codex features disable "+c.Args[2]), true
	}
	text := c.Raw
	for _, r := range c.Redirs {
		if r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<" {
			text += "\n" + r.Target
		}
	}
	carries := hooksOff(text) || hostEnvSet(text)
	if !carries && len(c.PipedFrom) > 0 && x.All != nil {
		for i := range x.All.Cmds {
			if o := &x.All.Cmds[i]; o != c && contains(c.PipedFrom, o.Name) && (hooksOff(o.Raw) || hostEnvSet(o.Raw)) {
				carries = true
			}
		}
	}
	if !carries {
		return Finding{}, false
	}
	targets := writtenBy(c)
	for _, r := range c.Redirs {
		switch r.Op {
		case ">", ">>", ">|", "&>", "&>>", "<>":
			targets = append(targets, r.Target)
		}
	}
	switch c.Name {
	case "tee", "cp", "mv", "install", "rsync", "set-content", "add-content", "out-file", "sc", "ac", "copy-item", "move-item":
		targets = append(targets, c.Operands()...)
	}
	for _, t := range targets {
		if hostConfigShaped(normalize(t, x.Cwd, x.Home).low) {
			return hooksOffFinding(c.Raw, "writing "+t), true
		}
	}
	// A later command moving a temp file over a host config: the switch
	// was written to the temp file (jq ... > /tmp/s && mv /tmp/s ~/.claude/settings.json).
	if x.All != nil {
		for i := range x.All.Cmds {
			o := &x.All.Cmds[i]
			if o.Name != "mv" && o.Name != "cp" && o.Name != "install" && o.Name != "move-item" && o.Name != "copy-item" {
				continue
			}
			ops := o.Operands()
			if len(ops) > 0 && hostConfigShaped(normalize(ops[len(ops)-1], x.Cwd, x.Home).low) {
				return hooksOffFinding(c.Raw, "writing "+ops[len(ops)-1]), true
			}
		}
	}
	return Finding{}, false
}

// projectHostRels are where a host reads hooks inside a project folder.
var projectHostRels = []string{".claude/settings.json", ".claude/settings.local.json", ".codex/hooks.json",
	".codex/config.toml", ".gemini/settings.json", ".cursor/hooks.json", ".zcode/config.json", ".qwen/settings.json",
	".factory/hooks.json", ".augment/settings.json", ".windsurf/hooks.json", ".github/hooks/agent-guard.json"}

// carriedBelow: deleting or moving the folder p takes a host config that
// runs our hook with it (p is a project holding one, or the host folder
// itself). A few stats, only for folder deletes and moves.
func carriedBelow(n np, p string) (Finding, bool) {
	if n.dynamic || !isAbs(n.abs) || strings.HasPrefix(n.abs, "~") || n.low == "/" || n.low == n.lowHome || !isDirOnDisk(n.abs) {
		// / and ~ are the delete rules' (a red line anyway)
		return Finding{}, false
	}
	for _, rel := range projectHostRels {
		var cand string
		dir, file := path.Split(rel)
		switch {
		case path.Base(n.low) == strings.TrimSuffix(dir, "/"):
			cand = n.abs + "/" + file // p is the .claude folder itself
		default:
			cand = n.abs + "/" + rel
		}
		if protect.CarriesHook(filepath.FromSlash(cand)) {
			return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.guard-tree", Marked: p,
				Reason: "removes or moves " + p + ", which holds " + cand + ", a host config that runs agent-guard's hook: an agent must not switch off its own guard; ask the user to do it"}, true
		}
	}
	return Finding{}, false
}
