package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/install"
	"github.com/agent-guard/agent-guard/app/judge/typesafe"
	"github.com/agent-guard/agent-guard/app/peer"
)

// tempHome points every path doctor looks at into a fresh temp dir.
func tempHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv(config.HomeEnv, filepath.Join(home, "guard"))
	t.Setenv("AGENT_GUARD_PIPE", filepath.Join(home, "pipe.sock"))
	t.Setenv(typesafe.KeyEnv, "")
	return home
}

// fakeHook is an executable file named like the hook, with its fallback
// judge beside it; the host checks only look at them, never run them.
func fakeHook(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), install.HookBinary())
	for _, f := range []string{p, peer.JudgeBeside(p)} {
		if err := os.WriteFile(f, []byte("not run\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// The judge beside the hook is what runs without the tray: doctor says
// when it is missing or untrusted.
func TestCheckJudge(t *testing.T) {
	hook := fakeHook(t)
	target := install.Target{Host: install.Claude, Label: "Claude Code", Path: "settings.json"}
	var b bytes.Buffer
	r := &report{w: &b}
	checkJudge(r, target, hook)
	if r.failed {
		t.Fatalf("judge present:\n%s", b.String())
	}
	os.Remove(peer.JudgeBeside(hook))
	checkJudge(r, target, hook)
	if !r.failed || !strings.Contains(b.String(), "fallback judge") || !strings.Contains(b.String(), "every call is denied") {
		t.Fatalf("judge missing:\n%s", b.String())
	}
}

func hostLines(t *testing.T, opt Options) (string, bool) {
	t.Helper()
	var b bytes.Buffer
	r := &report{w: &b}
	checkHosts(r, opt, config.Default())
	return b.String(), !r.failed
}

func TestCheckHosts(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, home, hook string)
		opt   Options
		ok    bool
		wants []string
		nots  []string
	}{
		{"nothing installed", func(*testing.T, string, string) {}, Options{}, false,
			[]string{"FIX no agent is guarded: run 'agent-guard install' to guard every agent host found here"}, nil},
		{"zcode installed, claude optional", func(t *testing.T, home, hook string) {
			installTo(t, install.ZCode, install.ZCodeUserPath(home), hook, 120)
		}, Options{}, true,
			[]string{"OK  ZCode (user): hook installed in", "OK  ZCode (user): timeouts consistent: host 145s > hook deadline 135s > approval 120s",
				"NOTE Claude Code is not guarded; if you use it, run 'agent-guard install --claude'"}, []string{"FIX"}},
		{"claude asked for but missing", func(t *testing.T, home, hook string) {
			installTo(t, install.ZCode, install.ZCodeUserPath(home), hook, 120)
		}, Options{Claude: true}, false,
			[]string{"FIX Claude Code: the agent-guard hook is not in"}, nil},
		{"timeouts below the approval timeout", func(t *testing.T, home, hook string) {
			installTo(t, install.Claude, install.ClaudePath(home), hook, 30) // deadline 45s < approval 120s
		}, Options{Claude: true}, false,
			[]string{"FIX Claude Code: timeouts out of order: host 55s, hook deadline 45s, approval 120s", "run 'agent-guard install --claude' again"}, nil},
		{"binary gone", func(t *testing.T, home, hook string) {
			installTo(t, install.ZCode, install.ZCodeUserPath(home), hook, 120)
			os.Remove(hook)
		}, Options{ZCode: true}, false,
			[]string{"FIX ZCode (user): the hook in", "which cannot run"}, nil},
		{"another hook after ours", func(t *testing.T, home, hook string) {
			p := install.ZCodeUserPath(home)
			os.MkdirAll(filepath.Dir(p), 0o700)
			os.WriteFile(p, []byte(`{"hooks":{"enabled":true,"events":{"PreToolUse":[
				{"matcher":"Bash|Write|Edit|mcp__.*","hooks":[{"type":"process","command":`+jsonString(t, hook)+`,"args":["--deadline","135s"],"timeoutMs":145000}]},
				{"matcher":"Bash","hooks":[{"type":"process","command":"/bin/approve-all"}]},
				{"matcher":"Read","hooks":[{"type":"process","command":"/bin/read-logger"}]}]}}}`), 0o600)
		}, Options{ZCode: true}, false,
			[]string{`FIX ZCode (user): /bin/approve-all (matcher "Bash") runs after agent-guard`}, nil},
		{"hooks switched off", func(t *testing.T, home, hook string) {
			p := install.ZCodeUserPath(home)
			installTo(t, install.ZCode, p, hook, 120)
			b, _ := os.ReadFile(p)
			os.WriteFile(p, bytes.Replace(b, []byte(`"enabled": true`), []byte(`"enabled": false`), 1), 0o600)
		}, Options{ZCode: true}, false,
			[]string{"FIX ZCode (user): hooks.enabled is not true"}, nil},
		{"invalid host config", func(t *testing.T, home, hook string) {
			p := install.ClaudePath(home)
			os.MkdirAll(filepath.Dir(p), 0o700)
			os.WriteFile(p, []byte("{\n  \"hooks\": \n"), 0o600)
		}, Options{Claude: true}, false,
			[]string{"FIX Claude Code:", "not valid JSON at line 2"}, nil},
		{"workspace", func(t *testing.T, home, hook string) {
			installTo(t, install.ZCode, install.ZCodeWorkspacePath(filepath.Join(home, "ws")), hook, 120)
		}, Options{Workspace: "ws"}, true,
			[]string{"OK  ZCode (workspace "}, []string{"FIX"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := tempHome(t)
			if err := os.MkdirAll(filepath.Join(home, "ws"), 0o700); err != nil {
				t.Fatal(err)
			}
			if tt.opt.Workspace != "" {
				tt.opt.Workspace = filepath.Join(home, tt.opt.Workspace)
			}
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
			for _, n := range tt.nots {
				if strings.Contains(out, n) {
					t.Errorf("output has %q:\n%s", n, out)
				}
			}
		})
	}
}

// jsonString renders s as a JSON string: a Windows path's backslashes
// must be escaped to make valid JSON.
func jsonString(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func installTo(t *testing.T, host, path, hook string, approval int) {
	t.Helper()
	if _, err := install.Install(host, path, install.Hook{Path: hook, Timing: install.TimingFor(approval)}, install.Options{}); err != nil {
		t.Fatal(err)
	}
}

func TestTypeSafeKey(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer good-key-123" {
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		w.Write([]byte(`{"answers":{"destructive_risk":{"score":0.1},"policy_violation":{"noul":0.01}}}`))
	}))
	defer srv.Close()

	tests := []struct {
		name, env, rc string
		online        bool
		want          string
		ok            bool
	}{
		{"no key", "", "", false, "OK  TypeSafe key: not set", true},
		{"env key offline", "good-key-123", "", false, "NOTE TypeSafe reachability not checked", true},
		{"rc key online", "", "# mine\nexport TYPESAFE_API_KEY=\"good-key-123\"\n", true, "OK  TypeSafe: " + srv.URL + " answered with the key from ", true},
		{"rc key rejected", "", "api_key=bad-key-456\n", true, "FIX TypeSafe: typesafe: the API key was refused (HTTP 401)", false},
		{"unreachable", "good-key-123", "", true, "FIX TypeSafe: typesafe: cannot reach", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			home := tempHome(t)
			t.Setenv(typesafe.KeyEnv, tt.env)
			if tt.rc != "" {
				os.WriteFile(filepath.Join(home, ".agentguardrc"), []byte(tt.rc), 0o600)
			}
			cfg := config.Default()
			cfg.TypeSafe.Endpoint = srv.URL
			if tt.name == "unreachable" {
				cfg.TypeSafe.Endpoint = "http://127.0.0.1:1/v1"
			}
			var b bytes.Buffer
			r := &report{w: &b}
			checkTypeSafe(context.Background(), r, Options{Online: tt.online}, cfg)
			out := b.String()
			if !strings.Contains(out, tt.want) || r.failed == tt.ok {
				t.Errorf("failed=%v output:\n%s\nwant %q", r.failed, out, tt.want)
			}
			for _, k := range []string{"good-key-123", "bad-key-456"} {
				if strings.Contains(out, k) {
					t.Errorf("the key was printed: %s", out)
				}
			}
		})
	}
}

// On a fresh home doctor says what is missing and fails; nothing needs a
// binary for that.
func TestDoctorFreshHome(t *testing.T) {
	tempHome(t)
	var b bytes.Buffer
	if Run(context.Background(), Options{}, &b) {
		t.Errorf("doctor passed on a fresh home:\n%s", b.String())
	}
	out := b.String()
	for _, w := range []string{
		"OK  config: ", "does not exist yet",
		"FIX no agent is guarded",
		"FIX tray: not reachable on ", "start agent-guard",
		"OK  audit: ",
		"fonts: ", // OK, FIX or NOTE by what this machine has (fonts_test.go)
		"OK  TypeSafe key: not set",
		"FIX round trip: no hook to run",
		"NOTE ZCode 3.9 does not run config-file hooks for subagent tool calls",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		if !strings.HasPrefix(line, OK) && !strings.HasPrefix(line, FIX) && !strings.HasPrefix(line, NOTE) {
			t.Errorf("line without OK/FIX/NOTE: %q", line)
		}
	}
}
