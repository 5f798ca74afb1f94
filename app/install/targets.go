package install

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/agent-guard/agent-guard/app/hostproto"
)

// Target is one host config file agent-guard can be installed into.
type Target struct {
	Host  string // a host name: ZCode, Claude, Codex, ...
	Path  string // the config file
	Label string // for people: "ZCode (user)", "ZCode (workspace /w)", "Codex CLI"
	// Workspace is the ZCode workspace folder, "" for user-level configs.
	Workspace string
}

// Targets lists the config files the flags name: ZCode's user level (or,
// with a workspace, that workspace's config instead) and Claude Code's
// settings, under os.UserHomeDir (HOME; USERPROFILE on Windows). A
// workspace must be an existing folder, so a typo does not create a stray
// .zcode somewhere.
func Targets(zcode, claude bool, workspace string) ([]Target, error) {
	var hosts []string
	if zcode {
		hosts = append(hosts, ZCode)
	}
	if claude {
		hosts = append(hosts, Claude)
	}
	if len(hosts) == 0 && workspace == "" {
		return nil, errors.New("install: name a host: --zcode, --claude or --workspace DIR")
	}
	return TargetsFor(hosts, workspace)
}

// TargetsFor lists the config files of the named hosts (with workspace,
// ZCode's workspace config instead of its user level).
func TargetsFor(hosts []string, workspace string) ([]Target, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil, fmt.Errorf("install: cannot find your home folder (%v); set HOME (USERPROFILE on Windows)", err)
	}
	var ts []Target
	if workspace != "" {
		dir, err := filepath.Abs(workspace)
		if err != nil {
			return nil, err
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("install: workspace %s is not an existing folder", dir)
		}
		ts = append(ts, Target{Host: ZCode, Path: ZCodeWorkspacePath(dir), Label: "ZCode (workspace " + dir + ")", Workspace: dir})
	}
	for _, h := range hosts {
		if h == ZCode && workspace != "" {
			continue
		}
		paths, err := ConfigPaths(home, h)
		if err != nil {
			return nil, err
		}
		for _, p := range paths {
			ts = append(ts, Target{Host: h, Path: p, Label: label(h, p, len(paths))})
		}
	}
	if len(ts) == 0 {
		return nil, errors.New("install: name a host (--zcode, --claude, --codex, ...) or none to install into every host found")
	}
	return ts, nil
}

func label(host, path string, n int) string {
	l := Display(host)
	if host == ZCode {
		l += " (user)"
	}
	if n > 1 {
		l += " (" + filepath.Base(path) + ")"
	}
	return l
}

// Display is the host's name for people.
func Display(host string) string {
	if h, ok := hostproto.Lookup(host); ok {
		return h.Display
	}
	return host
}

// AllHosts lists every host install can write, sorted.
func AllHosts() []string {
	ns := append(HostNames(), Kimi, OpenCode, Cline, Amp)
	sort.Strings(ns)
	return ns
}

// hostHome is the folder whose presence says a host is installed, under
// home (or the host's own environment variable).
func hostHome(home, host string) string {
	env := func(name, def string) string {
		if v := os.Getenv(name); v != "" {
			return v
		}
		return def
	}
	switch host {
	case ZCode:
		return filepath.Join(home, ".zcode")
	case Claude:
		return filepath.Join(home, ".claude")
	case Codex:
		return env("CODEX_HOME", filepath.Join(home, ".codex"))
	case Gemini:
		return filepath.Join(home, ".gemini")
	case Cursor:
		return filepath.Join(home, ".cursor")
	case Copilot:
		return env("COPILOT_HOME", filepath.Join(home, ".copilot"))
	case Windsurf:
		return filepath.Join(home, ".codeium", "windsurf")
	case Qwen:
		return filepath.Join(home, ".qwen")
	case Kiro:
		return filepath.Join(home, ".kiro")
	case Droid:
		return filepath.Join(home, ".factory")
	case Auggie:
		return filepath.Join(home, ".augment")
	case Kimi:
		return env("KIMI_CODE_HOME", filepath.Join(home, ".kimi-code"))
	case OpenCode:
		return filepath.Join(env("XDG_CONFIG_HOME", filepath.Join(home, ".config")), "opencode")
	case Cline:
		return filepath.Join(home, "Documents", "Cline")
	case Antigravity:
		return filepath.Join(home, ".gemini", "config")
	case Amp:
		return filepath.Join(env("XDG_CONFIG_HOME", filepath.Join(home, ".config")), "amp")
	}
	return ""
}

// ConfigPaths is where host keeps the hook config we edit, under home
// (HOME; %USERPROFILE% on Windows, where every host uses the same
// dot-folders). Kiro has one file per agent: every agent file, or a new
// agent-guard agent when there is none.
func ConfigPaths(home, host string) ([]string, error) {
	dir := hostHome(home, host)
	switch host {
	case ZCode:
		return []string{ZCodeUserPath(home)}, nil
	case Claude:
		return []string{ClaudePath(home)}, nil
	case Codex, Cursor, Windsurf:
		return []string{filepath.Join(dir, "hooks.json")}, nil
	case Droid:
		return []string{filepath.Join(dir, "hooks.json")}, nil
	case Gemini, Qwen, Auggie:
		return []string{filepath.Join(dir, "settings.json")}, nil
	case Copilot:
		return []string{filepath.Join(dir, "hooks", "agent-guard.json")}, nil
	case Kimi:
		return []string{filepath.Join(dir, "config.toml")}, nil
	case OpenCode:
		return []string{filepath.Join(dir, "plugins", "agent-guard.js")}, nil
	case Cline:
		return []string{filepath.Join(dir, "Hooks", clineFile())}, nil
	case Antigravity:
		return []string{filepath.Join(dir, "hooks.json")}, nil
	case Amp:
		return []string{filepath.Join(dir, "plugins", "agent-guard.ts")}, nil
	case Kiro:
		agents, _ := filepath.Glob(filepath.Join(dir, "agents", "*.json"))
		if len(agents) == 0 {
			agents = []string{filepath.Join(dir, "agents", "agent-guard.json")}
		}
		sort.Strings(agents)
		return agents, nil
	}
	return nil, fmt.Errorf("install: unknown host %q (want one of %s)", host, strings.Join(AllHosts(), ", "))
}

// Detect lists the hosts present on this machine: their config folder exists.
func Detect() ([]string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil, fmt.Errorf("install: cannot find your home folder (%v); set HOME (USERPROFILE on Windows)", err)
	}
	var found []string
	for _, h := range AllHosts() {
		if fi, err := os.Stat(hostHome(home, h)); err == nil && fi.IsDir() {
			found = append(found, h)
		}
	}
	return found, nil
}

// ManualStep is what the user must still do after installing into host.
func ManualStep(host string) string {
	return manualSteps[host]
}

var manualSteps = map[string]string{
	Claude:      "Claude Code reads its hooks when a session starts: restart running sessions.",
	ZCode:       "ZCode reads its hooks when a session starts: restart running sessions.",
	Codex:       "Codex runs a new hook only once you trust it: open /hooks in Codex and trust agent-guard's entry (press t). Hooks need a recent Codex; where they are still behind a flag, set codex_hooks = true under [features] in ~/.codex/config.toml.",
	Gemini:      "Gemini CLI reads settings.json at start: restart running sessions (/hooks lists agent-guard).",
	Cursor:      "Restart Cursor (or reload its window) so it reads ~/.cursor/hooks.json; every entry is failClosed.",
	Copilot:     "Copilot CLI loads ~/.copilot/hooks at session start: restart running sessions.",
	Windsurf:    "Reload Windsurf so Cascade reads ~/.codeium/windsurf/hooks.json.",
	Qwen:        "Qwen Code reads settings.json at start: restart running sessions.",
	Kiro:        "Kiro runs the hooks of the agent in use; if agent-guard created ~/.kiro/agents/agent-guard.json, start Kiro with --agent agent-guard or make it your default agent.",
	Droid:       "droid reads ~/.factory/hooks.json at start: restart running sessions (/hooks lists agent-guard).",
	Auggie:      "Auggie reads ~/.augment/settings.json at start: restart running sessions.",
	Kimi:        "Kimi Code reads config.toml at start: restart running sessions.",
	OpenCode:    "opencode loads plugins at start: restart it.",
	Cline:       "Turn hooks on in Cline's settings (Features > Enable Hooks) if they are off; Cline then runs ~/Documents/Cline/Hooks/PreToolUse before every tool.",
	Antigravity: "Antigravity CLI reads ~/.gemini/config/hooks.json at start: restart running sessions.",
	Amp:         "Restart Amp or run \"plugins: reload\" in it; `amp plugins list` should show agent-guard active.",
}

// FindGuard returns the agent-guard binary the hook must verify: explicit
// when given, else agent-guard beside the hook, else the running
// agent-guard itself.
func FindGuard(explicit, hookPath string) (string, error) {
	name := "agent-guard"
	if strings.EqualFold(filepath.Ext(hookPath), ".exe") {
		name += ".exe"
	}
	candidates := []string{explicit}
	if explicit == "" {
		candidates = []string{filepath.Join(filepath.Dir(hookPath), name)}
		if exe, err := os.Executable(); err == nil {
			candidates = append(candidates, exe)
		}
	}
	var last error
	for _, c := range candidates {
		abs, err := filepath.Abs(c)
		if err != nil {
			last = err
			continue
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		if err := CheckExecutable(abs); err != nil {
			last = err
			continue
		}
		return abs, nil
	}
	return "", fmt.Errorf("install: cannot find the agent-guard binary for --guard (%v); pass --guard PATH", last)
}

// WorkspaceConfigPaths are the hook configs a host reads from inside a
// project folder that are not its user-level file's twin under the
// project (Cline's .clinerules/hooks/PreToolUse): the protected set
// guards them too.
// ProjectTwin reports whether a host also reads its user-level hook file
// at the same relative place under a project (.claude/, .cursor/,
// .gemini/, ...). Cline's project hooks live in .clinerules/ (see
// WorkspaceConfigPaths), and Amp's and opencode's plugin folders under
// ~/.config have no project copy there.
func ProjectTwin(host string) bool {
	switch host {
	case Cline, Amp, OpenCode:
		return false
	}
	return true
}

func WorkspaceConfigPaths(dir, host string) []string {
	if host == Cline {
		return []string{filepath.Join(dir, ".clinerules", "hooks", clineFile())}
	}
	return nil
}
