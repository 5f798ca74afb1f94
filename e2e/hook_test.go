package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// rendered is what the host must see for a judge level: with no dialog
// (headless or fallback) a confirm under full access is denied, and with
// the host's own prompts on ("default" mode) it is the host's ask.
func rendered(level string, fullAccess bool) string {
	switch level {
	case "allow":
		return "allow"
	case "confirm":
		if !fullAccess {
			return "ask"
		}
	}
	return "deny"
}

func checkSamples(t *testing.T, e *env, mode string, wantSource func(string) bool) {
	t.Helper()
	full := mode == "" || mode == "bypassPermissions"
	for i, s := range samples(t) {
		kv := map[string]any{"session_id": fmt.Sprintf("sample-%d", i)}
		if mode != "" {
			kv["permission_mode"] = mode
		}
		r := e.hook(t, withFields(t, s.Event, kv))
		got, reason := decision(t, r)
		if want := rendered(s.Expect, full); got != want {
			t.Errorf("sample %d (%s, mode %q): %s, want %s: %s", i, s.Expect, mode, got, want, reason)
		}
		if got == "deny" {
			for _, must := range []string{"A human must confirm", "do not retry"} {
				if !strings.Contains(reason, must) {
					t.Errorf("sample %d: deny reason lacks %q: %s", i, must, reason)
				}
			}
		}
	}
	lines := e.auditLines(t, 12)
	if len(lines) != 12 {
		t.Fatalf("%d audit lines, want 12", len(lines))
	}
	for _, l := range lines {
		if src, _ := l["source"].(string); !wantSource(src) {
			t.Errorf("audit source %q: %v", src, l)
		}
	}
}

func TestSamplesFallback(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	checkSamples(t, e, "", func(s string) bool { return s == "fallback" })
	r := e.hook(t, withFields(t, samples(t)[4].Event, nil)) // a confirm
	if _, reason := decision(t, r); !strings.Contains(reason, "agent-guard is not running") {
		t.Errorf("fallback confirm reason: %s", reason)
	}
}

func TestSamplesFallbackDefaultMode(t *testing.T) {
	t.Parallel()
	checkSamples(t, newEnv(t), "default", func(s string) bool { return s == "fallback" })
}

func TestSamplesServer(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.server(t)
	checkSamples(t, e, "", func(s string) bool { return s != "" && s != "fallback" })
	r := e.hook(t, withFields(t, samples(t)[4].Event, nil))
	if _, reason := decision(t, r); !strings.Contains(reason, "could not ask anyone") {
		t.Errorf("headless confirm reason: %s", reason)
	}
}

func TestSamplesServerBypassAndDefault(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.server(t)
	checkSamples(t, e, "bypassPermissions", func(s string) bool { return s != "fallback" })
	e2 := newEnv(t)
	e2.server(t)
	checkSamples(t, e2, "default", func(s string) bool { return s != "fallback" })
}

// ZCode's camelCase field names judge the same as snake_case.
func TestCamelCase(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for i, s := range samples(t) {
		var snake map[string]any
		json.Unmarshal(s.Event, &snake)
		camel := map[string]any{"hookEventName": snake["hook_event_name"], "toolName": snake["tool_name"],
			"toolInput": snake["tool_input"], "cwd": snake["cwd"], "sessionId": "camel"}
		b, _ := json.Marshal(camel)
		got, reason := decision(t, e.hook(t, b))
		if want := rendered(s.Expect, true); got != want {
			t.Errorf("camelCase sample %d: %s, want %s: %s", i, got, want, reason)
		}
	}
}

func TestBadInput(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	cases := map[string]string{
		"garbage":         "this is not json",
		"empty":           "",
		"array":           `[1,2]`,
		"truncated":       `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"`,
		"no tool":         `{"hook_event_name":"PreToolUse","tool_input":{"command":"ls"}}`,
		"bash no command": `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}}`,
		"input not obj":   `{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":"x"}`,
		"two objects":     `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}} {}`,
	}
	for name, in := range cases {
		if got, reason := decision(t, e.hook(t, []byte(in))); got != "deny" {
			t.Errorf("%s: %s (%s)", name, got, reason)
		}
	}
	// Bad flags fail closed too.
	good := withFields(t, samples(t)[0].Event, nil)
	for _, args := range [][]string{{"--host", "vscode"}, {"--deadline", "soon"}, {"--bogus"}, {"extra"}} {
		if got, _ := decision(t, e.hook(t, good, args...)); got != "deny" {
			t.Errorf("args %q: %s", args, got)
		}
	}
}

func TestOversizedInput(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	big := `{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"a.txt","content":"` + strings.Repeat("x", 1<<20) + `"}}`
	got, reason := decision(t, e.hook(t, []byte(big)))
	if got != "deny" || !strings.Contains(reason, "too large") {
		t.Fatalf("oversized: %s %s", got, reason)
	}
}

// Events the guard does not judge get no output at all.
func TestNotJudged(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	for _, in := range []string{
		`{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`,
		`{"hook_event_name":"SessionStart"}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"a"}}`,
		`{"hookEventName":"PreToolUse","toolName":"Glob","toolInput":{"pattern":"*"}}`,
	} {
		r := e.hook(t, []byte(in))
		if r.code != 0 || r.stdout != "" {
			t.Errorf("%s: exit %d, stdout %q", in, r.code, r.stdout)
		}
	}
}

func TestClaudeHost(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.server(t)
	got, _ := decision(t, e.hook(t, withFields(t, samples(t)[0].Event, nil), "--host", "claude"))
	if got != "allow" {
		t.Fatalf("claude host: %s", got)
	}
	if h := e.auditLines(t, 1)[0]["host"]; h != "claude" {
		t.Fatalf("audit host %v", h)
	}
}

// A server that accepts and never answers: the hook denies on its own,
// before its deadline would let the host kill it.
func TestServerNeverAnswers(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// The server is this test binary (fakeServerMain), trusted by --guard.
	startFake(t, e)
	r := e.hook(t, withFields(t, samples(t)[0].Event, nil), "--deadline", "2s", "--guard", testBin(t))
	got, reason := decision(t, r)
	if got != "deny" || !strings.Contains(reason, "deadline") {
		t.Fatalf("hung server: %s %s", got, reason)
	}
	if r.took < 1500*time.Millisecond || r.took > 30*time.Second {
		t.Errorf("hook answered after %v with a 2 s deadline", r.took)
	}
	// Connected, so no fallback: no audit line from the hook.
	if _, err := os.Stat(filepath.Join(e.home, "audit.jsonl")); err == nil {
		t.Error("hook fell back after connecting")
	}
}

// A server killed while a request is in flight: the hook denies.
func TestServerKilledMidRequest(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	srv, lines := startFake(t, e)
	got := make(chan struct{})
	go func() {
		if lines.Scan() && lines.Text() == "GOT" {
			srv.Process.Kill()
		}
		close(got)
	}()
	r := e.hook(t, withFields(t, samples(t)[0].Event, nil), "--deadline", "60s", "--guard", testBin(t))
	<-got
	d, reason := decision(t, r)
	if d != "deny" || !strings.Contains(reason, "stopped answering") {
		t.Fatalf("killed server: %s %s", d, reason)
	}
	if r.took > 30*time.Second {
		t.Errorf("took %v to notice the dead server", r.took)
	}
}

// 200 hooks at once against one server: every answer right, every audit
// line present and parseable.
func TestManyHooksAtOnce(t *testing.T) {
	e := newEnv(t)
	e.server(t)
	ss := samples(t)
	const n = 200
	type res struct {
		i       int
		got     string
		errText string
	}
	results := make(chan res, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			<-start
			in := withFields(t, ss[i%len(ss)].Event, map[string]any{"session_id": fmt.Sprintf("many-%d", i)})
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			// A generous dial timeout: on a loaded 2-core machine a hook
			// can be descheduled for longer than the default 50 ms, and
			// this test is about the server, not the fallback.
			cmd := exec.CommandContext(ctx, hookBin, "--dial-timeout", "10s")
			cmd.Env = e.vars
			cmd.Stdin = strings.NewReader(string(in))
			out, err := cmd.Output()
			if err != nil {
				results <- res{i: i, errText: err.Error()}
				return
			}
			var d hostDecision
			dec := json.NewDecoder(strings.NewReader(string(out)))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&d); err != nil {
				results <- res{i: i, errText: fmt.Sprintf("%v: %q", err, out)}
				return
			}
			results <- res{i: i, got: d.HookSpecificOutput.PermissionDecision}
		}(i)
	}
	close(start)
	wg.Wait()
	close(results)
	for r := range results {
		if r.errText != "" {
			t.Errorf("hook %d: %s", r.i, r.errText)
			continue
		}
		if want := rendered(ss[r.i%len(ss)].Expect, true); r.got != want {
			t.Errorf("hook %d (sample %d): %s, want %s", r.i, r.i%len(ss), r.got, want)
		}
	}
	lines := e.auditLines(t, n)
	seen := map[string]string{}
	for _, l := range lines {
		sess, _ := l["session"].(string)
		if _, dup := seen[sess]; dup {
			t.Errorf("two audit lines for %s", sess)
		}
		seen[sess], _ = l["decision"].(string)
		if l["source"] == "fallback" {
			t.Errorf("%s fell back instead of reaching the server", sess)
		}
	}
	for i := 0; i < n; i++ {
		sess := fmt.Sprintf("many-%d", i)
		got, ok := seen[sess]
		if !ok {
			t.Errorf("no audit line for %s", sess)
		} else if want := rendered(ss[i%len(ss)].Expect, true); got != want {
			t.Errorf("audit %s: %s, want %s", sess, got, want)
		}
	}
}

// An audit log that cannot be written does not stop decisions, with or
// without a server. (A folder in the log's place: even root cannot write
// it, unlike a chmod'ed file.)
func TestAuditUnwritable(t *testing.T) {
	t.Parallel()
	for _, withServer := range []bool{false, true} {
		e := newEnv(t)
		if err := os.Mkdir(filepath.Join(e.home, "audit.jsonl"), 0o500); err != nil {
			t.Fatal(err)
		}
		if withServer {
			e.server(t)
		}
		ss := samples(t)
		for _, i := range []int{0, 4, 7} {
			got, reason := decision(t, e.hook(t, withFields(t, ss[i].Event, nil)))
			if want := rendered(ss[i].Expect, true); got != want {
				t.Errorf("server=%v sample %d: %s, want %s (%s)", withServer, i, got, want, reason)
			}
		}
	}
}

// When stdout is gone the hook cannot print JSON: it exits 2 with the
// reason on stderr, which the host treats as a block.
func TestStdoutClosedExits2(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("closed-pipe semantics differ on Windows")
	}
	t.Parallel()
	e := newEnv(t)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	pr.Close() // nobody reads: writing fails
	cmd := exec.Command(hookBin)
	cmd.Env = e.vars
	cmd.Stdin = strings.NewReader(string(withFields(t, samples(t)[0].Event, nil)))
	cmd.Stdout = pw
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err = cmd.Run()
	pw.Close()
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != 2 {
		t.Fatalf("exit: %v, stderr %q", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "could not write the decision") {
		t.Fatalf("stderr %q", stderr.String())
	}
}

// serve --headless picks up config edits without a restart.
func TestServeHotReload(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.server(t)
	confirm := withFields(t, samples(t)[4].Event, nil) // git reset --hard: confirm
	if got, reason := decision(t, e.hook(t, confirm)); got != "deny" {
		t.Fatalf("before: %s %s", got, reason)
	}
	path := filepath.Join(e.home, "config.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := json.Unmarshal(data, &cfg); err != nil {
		t.Fatal(err)
	}
	cfg["full_access"] = "never" // the host's own ask can be trusted now
	data, _ = json.MarshalIndent(cfg, "", "  ")
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		t.Fatal(err)
	}
	// An editor's save: a rename over the file. Windows refuses it for a
	// moment while the server is renaming or reading it, so an editor
	// tries again, as the guard's own writers do (app/internal/sharedfile).
	err = os.Rename(tmp, path)
	for end := time.Now().Add(2 * time.Second); err != nil && runtime.GOOS == "windows" && time.Now().Before(end); {
		time.Sleep(20 * time.Millisecond)
		err = os.Rename(tmp, path)
	}
	if err != nil {
		t.Fatal(err)
	}
	// full_access never weakens the guard: it waits until the user accepts it.
	if out, code := e.guardVerb(t, "yes\n", "config", "accept"); code != 0 {
		t.Fatalf("config accept (%d):\n%s", code, out)
	}
	for end := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		got, _ := decision(t, e.hook(t, confirm))
		if got == "ask" {
			return
		}
		if time.Now().After(end) {
			t.Fatalf("config change not applied within 30 s: still %s", got)
		}
	}
}
