package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-guard/agent-guard/app/install"
)

func TestCheckHostsPerHost(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, home, hook string)
		opt   Options
		ok    bool
		wants []string
	}{
		{"every host installed", func(t *testing.T, home, hook string) {
			for _, h := range install.AllHosts() {
				paths, _ := install.ConfigPaths(home, h)
				installTo(t, h, paths[0], hook, 120)
			}
		}, Options{Hosts: install.AllHosts()}, true, []string{
			"OK  Codex CLI: hook installed", "OK  Cursor: timeouts consistent: host 145s > hook deadline 135s > approval 120s",
			"OK  Windsurf: timeouts consistent: host about 30s (it has no setting) > hook deadline 25s",
			"NOTE Windsurf: the approval dialog gets at most 25s here",
			"NOTE GitHub Copilot CLI, when a hook fails: a hook that fails",
			"NOTE Codex CLI, when a hook fails: \"ask\" is unsupported",
			"NOTE Codex CLI: Codex runs a new hook only once you trust it: open /hooks in Codex and trust agent-guard's entry (press t)",
		}},
		{"cursor missing one of its events", func(t *testing.T, home, hook string) {
			p := filepath.Join(home, ".cursor", "hooks.json")
			installTo(t, install.Cursor, p, hook, 120)
			b, _ := os.ReadFile(p)
			os.WriteFile(p, []byte(strings.Replace(string(b), `"beforeMCPExecution"`, `"beforeMCPExecutionOff"`, 1)), 0o600)
		}, Options{Hosts: []string{install.Cursor}}, false, []string{
			"FIX Cursor: hooks.beforeMCPExecution in " + "", "has no agent-guard entry, so those calls are not guarded: run 'agent-guard install --cursor' again",
		}},
		{"codex entry speaking claude", func(t *testing.T, home, hook string) {
			p := filepath.Join(home, ".codex", "hooks.json")
			installTo(t, install.Codex, p, hook, 120)
			b, _ := os.ReadFile(p)
			os.WriteFile(p, []byte(strings.Replace(string(b), "--host codex", "--host claude", 1)), 0o600)
		}, Options{Hosts: []string{install.Codex}}, false, []string{
			`FIX Codex CLI: the hook in`, `speaks --host "claude", not "codex"`,
		}},
		{"hooks switched off for the whole host", func(t *testing.T, home, hook string) {
			p := filepath.Join(home, ".qwen", "settings.json")
			os.MkdirAll(filepath.Dir(p), 0o700)
			os.WriteFile(p, []byte(`{"disableAllHooks": true}`), 0o600)
			installTo(t, install.Qwen, p, hook, 120)
		}, Options{Hosts: []string{install.Qwen}}, false, []string{
			`FIX Qwen Code: "disableAllHooks": true in`, "runs no hooks, agent-guard's included",
		}},
		{"a present host without the hook is named, an absent one is not", func(t *testing.T, home, hook string) {
			installTo(t, install.Claude, install.ClaudePath(home), hook, 120)
			os.MkdirAll(filepath.Join(home, ".gemini"), 0o700)
		}, Options{}, true, []string{
			"NOTE Gemini CLI is not guarded; if you use it, run 'agent-guard install --gemini'",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := tempHome(t)
			t.Setenv("CODEX_HOME", "")
			t.Setenv("COPILOT_HOME", "")
			t.Setenv("KIMI_CODE_HOME", "")
			t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
			tt.setup(t, home, fakeHook(t))
			out, ok := hostLines(t, tt.opt)
			if ok != tt.ok {
				t.Errorf("ok = %v, want %v\n%s", ok, tt.ok, out)
			}
			for _, w := range tt.wants {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
			if tt.name == "a present host without the hook is named, an absent one is not" && strings.Contains(out, "Cursor") {
				t.Errorf("an absent host was mentioned:\n%s", out)
			}
		})
	}
}
