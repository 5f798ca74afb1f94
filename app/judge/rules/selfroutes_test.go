package rules

import (
	"os"
	"path/filepath"
	"testing"
)

// A watched variable set to its usual folder moves nothing; any other
// value, or a hooks-off variable, is a change.
func TestGuardEnvAssigned(t *testing.T) {
	for s, want := range map[string]bool{
		"export XDG_CONFIG_HOME=/tmp/x":              true,
		`export XDG_CONFIG_HOME="$HOME/.config"`:     false,
		"export PATH=$HOME/go/bin:$PATH":             false,
		"set -gx CODEX_HOME /tmp/c":                  true,
		"setenv CLAUDE_CONFIG_DIR /tmp/c":            true,
		"export HOME=/tmp/h":                         true,
		"echo $HOME=x":                               false,
		"export CODEX_DISABLE_HOOKS=1":               true,
		"export LD_PRELOAD=/tmp/x.so":                true,
		"export LD_LIBRARY_PATH=/usr/local/cuda/lib": false,
		"AGENT_GUARD_HOME=/x":                        true,
	} {
		if _, got := guardEnvAssigned(s); got != want {
			t.Errorf("guardEnvAssigned(%q) = %v, want %v", s, got, want)
		}
	}
}

// Hook switches in JSON, TOML, jq and -c forms.
func TestHooksOff(t *testing.T) {
	for s, want := range map[string]bool{
		`{"disableAllHooks": true}`:            true,
		"[features]\nhooks = false":            true,
		"codex_hooks = false":                  true,
		"features.hooks=false":                 true,
		`{"hooks": {"enabled": false}}`:        true,
		`.disableAllHooks = true`:              true,
		`{"hooks": {"PreToolUse": []}}`:        false,
		`{"disableAllHooks": false}`:           false,
		"[features]\nweb_search = false":       false,
		`{"permissions": {"allow": ["Bash"]}}`: false,
	} {
		if got := hooksOff(s); got != want {
			t.Errorf("hooksOff(%q) = %v, want %v", s, got, want)
		}
	}
}

// FuzzSelfRoutes: the self-protection rules never panic, and whatever
// they find as self.* is a red line.
func FuzzSelfRoutes(f *testing.F) {
	for _, c := range loadCorpus(f, "self_routes.jsonl") {
		f.Add(c.Cmd)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		fd := Bash(s, "/home/dev/proj", corpusHome)
		if SelfFinding(fd) && !fd.RedLine {
			t.Errorf("%q: self finding %s is not a red line", s, fd.Rule)
		}
	})
}

// Settings on separate lines stay separate after squashing.
func TestHooksOffLines(t *testing.T) {
	for s, want := range map[string]bool{
		"name = \"abc\"\nhooks = false":              true,
		"name = \"abc\"\nnohooks = false":            false,
		"{\n \"hooks\": {\n  \"enabled\": false\n}}": true,
		`[features]\nhooks = false`:                  true, // JSON-escaped
	} {
		if got := hooksOff(s); got != want {
			t.Errorf("hooksOff(%q) = %v, want %v", s, got, want)
		}
	}
}

// A chown -R of a folder that holds a host's hook config is named for the
// guard, not as a folder "outside the project" at the same level. The home
// is made outside /tmp (in this package's folder), because the judge
// counts /tmp as scratch space and a /tmp home hid that the two tied (and
// the generic rule won) on a real home.
func TestGuardPermsAboveOutranksOutside(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	home, err := os.MkdirTemp(wd, "home-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	if err := os.MkdirAll(filepath.Join(home, ".claude"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".claude", "settings.json"), []byte("{}"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"chown -R nobody ~/.claude", "chgrp -R staff ~/.claude", "setfacl -R -m u:x:--- ~/.claude"} {
		if f := Bash(cmd, "/home/dev/proj", home); f.Rule != "guard.perms-above" {
			t.Errorf("%s: decided by %s (%s), want guard.perms-above", cmd, f.Rule, f.Reason)
		}
	}
}
