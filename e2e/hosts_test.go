package e2e

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-guard/agent-guard/app/hostproto"
)

// hostAnswer runs the real hook in host's dialect and reads its output the
// way the host does. The output must be exactly what hostproto renders for
// that decision and reason, and something the host understands.
func hostAnswer(t *testing.T, e *env, h hostproto.Host, stdin []byte) (string, string) {
	t.Helper()
	r := e.hook(t, stdin, "--host", h.Name, "--deadline", "60s")
	out := hostproto.Output{Stdout: []byte(r.stdout), Stderr: []byte(r.stderr), Code: r.code}
	decision, reason, err := h.HostDecision(out)
	if err != nil {
		t.Fatalf("%s: %s cannot read the hook's answer (%v): stdout %q stderr %q exit %d", h.Name, h.Display, err, r.stdout, r.stderr, r.code)
	}
	want := h.Render(decision, reason)
	if decision == hostproto.Allow && len(out.Stdout) == 0 && out.Code == 0 {
		want = hostproto.Output{} // allow on a deny-only host: no output at all
	}
	if !bytes.Equal(want.Stdout, out.Stdout) || !bytes.Equal(want.Stderr, out.Stderr) || want.Code != out.Code {
		t.Errorf("%s: output is not exactly the host's dialect:\n got %q %q %d\nwant %q %q %d", h.Name, out.Stdout, out.Stderr, out.Code, want.Stdout, want.Stderr, want.Code)
	}
	return decision, reason
}

// bashSamples are the shell samples with their expected level.
func bashSamples(t *testing.T) []struct{ command, level string } {
	var out []struct{ command, level string }
	for _, s := range samples(t) {
		var ev struct {
			Tool  string `json:"tool_name"`
			Input struct {
				Command string `json:"command"`
			} `json:"tool_input"`
		}
		json.Unmarshal(s.Event, &ev)
		if ev.Tool == "Bash" {
			out = append(out, struct{ command, level string }{ev.Input.Command, s.Expect})
		}
	}
	if len(out) < 6 {
		t.Fatalf("only %d shell samples", len(out))
	}
	return out
}

// withMode sets permission_mode where the host's event has one.
func withMode(t *testing.T, ev []byte, mode string) []byte {
	var m map[string]any
	if err := json.Unmarshal(ev, &m); err != nil {
		t.Fatal(err)
	}
	if _, ok := m["permission_mode"]; ok {
		m["permission_mode"] = mode
	}
	b, _ := json.Marshal(m)
	return b
}

// checkHosts runs every shell sample through the real hook in every
// host's dialect: allow is the host's allow, a block its deny, and a
// confirm (no dialog here: headless server or fallback) a deny everywhere
// under full access; with the host's own prompts on ("default"), an ask
// only where the host honours ask and a deny everywhere else. Broken
// input is the host's deny.
func checkHosts(t *testing.T, e *env, wantReason string) {
	for _, h := range hostproto.All() {
		for _, s := range bashSamples(t) {
			ev := h.ShellEvent(s.command, "/home/dev/proj", "e2e-"+h.Name)
			for _, mode := range []string{"bypassPermissions", "default"} {
				got, reason := hostAnswer(t, e, h, withMode(t, ev, mode))
				want := rendered(s.level, mode != "default" || !h.AskHonoured())
				if got != want {
					t.Errorf("%s %q (%s, mode %s): %s, want %s: %s", h.Name, s.command, s.level, mode, got, want, reason)
				}
				if s.level == "confirm" && got == hostproto.Deny && !strings.Contains(reason, wantReason) {
					t.Errorf("%s %q: confirm deny reason lacks %q: %s", h.Name, s.command, wantReason, reason)
				}
			}
		}
		for _, bad := range []string{"{", "", `[1]`} {
			got, reason := hostAnswer(t, e, h, []byte(bad))
			if got != hostproto.Deny || !strings.Contains(reason, "could not be read") {
				t.Errorf("%s: malformed %q: %s %s", h.Name, bad, got, reason)
			}
		}
	}
}

func TestHostsFallback(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	checkHosts(t, e, "agent-guard is not running")
	checkPatch(t, e)
	checkNotOurs(t, e)
}

// Events that are not ours (other events, tools we do not judge) get
// exactly the host's "no opinion" from the real hook, as in the golden
// fixtures: nothing at all, or Cursor's explicit allow (with failClosed,
// nothing would be a refusal).
func checkNotOurs(t *testing.T, e *env) {
	t.Helper()
	for _, h := range hostproto.All() {
		data, err := os.ReadFile(filepath.Join("..", "app", "hostproto", "testdata", h.Name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var cases []struct {
			Name, Stdin, Stdout, Stderr string
			Judged                      bool
			Code                        int
		}
		if err := json.Unmarshal(data, &cases); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, c := range cases {
			if c.Judged {
				continue
			}
			n++
			r := e.hook(t, []byte(c.Stdin), "--host", h.Name)
			if r.stdout != c.Stdout || r.stderr != c.Stderr || r.code != c.Code {
				t.Errorf("%s %s: got %q %q %d, want %q %q %d", h.Name, c.Name, r.stdout, r.stderr, r.code, c.Stdout, c.Stderr, c.Code)
			}
		}
		if n == 0 {
			t.Errorf("%s: no fixture of an event that is not ours", h.Name)
		}
	}
}

func TestHostsServer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.server(t)
	checkHosts(t, e, "could not ask anyone")
	checkPatch(t, e)
	// The audit names the host of every call.
	seen := map[string]bool{}
	for _, l := range e.auditLines(t, 1) {
		if h, _ := l["host"].(string); h != "" {
			seen[h] = true
		}
	}
	for _, h := range hostproto.Names() {
		if !seen[h] {
			t.Errorf("no audit line names host %s (seen %v)", h, seen)
		}
	}
}

// A Codex apply_patch over several files is judged file by file: all
// harmless is allowed (nothing printed), one bad file denies the whole
// call.
func checkPatch(t *testing.T, e *env) {
	t.Helper()
	patch := func(body string) []byte {
		b, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": "e2e-patch", "cwd": "/home/dev/proj",
			"permission_mode": "bypassPermissions", "tool_name": "apply_patch",
			"tool_input": map[string]string{"command": "*** Begin Patch\n" + body + "*** End Patch\n"}})
		return b
	}
	got, reason := hostAnswer(t, e, hostproto.Codex, patch("*** Add File: notes.txt\n+hello\n*** Update File: src/main.go\n@@\n-a := 1\n+a := 2\n"))
	if got != hostproto.Allow {
		t.Errorf("harmless patch: %s %s", got, reason)
	}
	got, reason = hostAnswer(t, e, hostproto.Codex, patch("*** Add File: notes.txt\n+hello\n*** Add File: /etc/sudoers\n+dev ALL=(ALL) NOPASSWD:ALL\n"))
	if got != hostproto.Deny || reason == "" {
		t.Errorf("patch writing /etc/sudoers: %s %s", got, reason)
	}
}
