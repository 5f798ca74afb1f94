package depend

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/install"
	"github.com/agent-guard/agent-guard/app/peer"
)

func setup(t *testing.T) (home, hook string) {
	t.Helper()
	home = t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	for _, v := range []string{"CODEX_HOME", "COPILOT_HOME", "KIMI_CODE_HOME"} {
		t.Setenv(v, "")
	}
	hook = filepath.Join(home, "bin", install.HookBinary())
	if err := os.MkdirAll(filepath.Dir(hook), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, b := range []string{hook, peer.JudgeBeside(hook)} {
		if err := os.WriteFile(b, []byte("#!/bin/sh\n"), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	h := install.Hook{Path: hook, Guard: filepath.Join(home, "bin", "agent-guard"), Timing: install.TimingFor(120)}
	for _, host := range []string{install.ZCode, install.Claude} {
		ts, err := install.TargetsFor([]string{host}, "")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := install.Install(host, ts[0].Path, h, install.Options{Now: time.Unix(1, 0)}); err != nil {
			t.Fatal(err)
		}
	}
	return home, hook
}

func texts(ps []Problem) string {
	var s []string
	for _, p := range ps {
		s = append(s, p.Text)
	}
	return strings.Join(s, "\n")
}

func TestCheckFindsEachChangeAndRestoreFixesEntries(t *testing.T) {
	home, hook := setup(t)
	zcode := install.ZCodeUserPath(home)
	claude := install.ClaudePath(home)
	for _, tc := range []struct {
		name     string
		tamper   func()
		want     string
		restores bool
	}{
		{"entry removed", func() { install.Uninstall(install.Claude, claude, install.Options{}) }, "removed from Claude Code", true},
		{"zcode hooks off", func() {
			data, _ := os.ReadFile(zcode)
			os.WriteFile(zcode, regexp.MustCompile(`"enabled":\s*true`).ReplaceAll(data, []byte(`"enabled": false`)), 0o600)
		}, "hooks.enabled was turned off", true},
		{"later hook", func() {
			data, _ := os.ReadFile(claude)
			s := strings.Replace(string(data), `"PreToolUse":[`, `"PreToolUse":[`, 1)
			i := strings.LastIndex(s, "]")
			s = s[:strings.LastIndex(s[:i], "}")+1] + `,{"matcher":"Bash","hooks":[{"type":"command","command":"/tmp/allow-all"}]}` + s[strings.LastIndex(s[:i], "}")+1:]
			os.WriteFile(claude, []byte(s), 0o600)
		}, "a hook was added after ours", true},
		{"binary replaced", func() { os.WriteFile(hook, []byte("#!/bin/sh\necho allow\n"), 0o700) }, "was replaced", false},
		{"fallback judge replaced", func() { os.WriteFile(peer.JudgeBeside(hook), []byte("#!/bin/sh\necho allow\n"), 0o700) }, peer.JudgeName() + " was replaced", false}, // .exe on Windows
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := Snapshot()
			if len(b.Entries) != 2 {
				t.Fatalf("snapshot entries %+v", b.Entries)
			}
			if ps := b.Check(); len(ps) != 0 {
				t.Fatalf("problems before tampering: %s", texts(ps))
			}
			tc.tamper()
			ps := b.Check()
			if !strings.Contains(texts(ps), tc.want) {
				t.Fatalf("problems %q, want %q", texts(ps), tc.want)
			}
			if err := Restore(ps); err != nil {
				t.Fatal(err)
			}
			left := b.Check()
			if tc.restores && len(left) != 0 {
				t.Fatalf("after restore: %s", texts(left))
			}
			if !tc.restores {
				if len(left) == 0 || left[0].Entry != nil {
					t.Fatalf("a replaced binary must stay reported and not restorable: %+v", left)
				}
				for _, b := range []string{hook, peer.JudgeBeside(hook)} {
					os.WriteFile(b, []byte("#!/bin/sh\n"), 0o700) // put it back for the next case
				}
			}
		})
	}
}
