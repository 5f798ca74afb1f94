// Package e2e runs the real agent-guard-hook and agent-guard binaries as
// child processes, the way ZCode and Claude Code do: event on stdin,
// decision on stdout, exit code, against a real `serve --headless` or with
// no server (fallback). Every test lives under its own AGENT_GUARD_HOME and
// AGENT_GUARD_PIPE in a temp dir, offline.
package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/agent-guard/agent-guard/app/judge/corpus"
	"github.com/agent-guard/agent-guard/internal/testbin"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/pipe"
	"github.com/agent-guard/agent-guard/app/wire"
)

var (
	hookBin  string // built agent-guard-hook
	guardBin string // built agent-guard (nogui)
	judgeBin string // built agent-guard-judge, beside the hook (its fallback)
)

func TestMain(m *testing.M) {
	if path := os.Getenv("E2E_FAKE_SERVER"); path != "" {
		os.Exit(fakeServerMain(path))
	}
	if path := os.Getenv("E2E_IMPOSTOR"); path != "" {
		os.Exit(impostorMain(path))
	}
	dir, err := os.MkdirTemp("", "agent-guard-e2e-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := func() int {
		defer os.RemoveAll(dir)
		exe := ""
		if runtime.GOOS == "windows" {
			exe = ".exe"
		}
		hookBin = filepath.Join(dir, "agent-guard-hook"+exe)
		guardBin = filepath.Join(dir, "agent-guard"+exe)
		judgeBin = filepath.Join(dir, "agent-guard-judge"+exe)
		for bin, pkg := range map[string]string{hookBin: "./cmd/agent-guard-hook", guardBin: "./cmd/agent-guard", judgeBin: "./cmd/agent-guard-judge"} {
			if ok, err := testbin.Install(bin); ok {
				if err != nil {
					fmt.Fprintln(os.Stderr, "e2e:", err)
					return 1
				}
				continue
			}
			cmd := exec.Command("go", "build", "-tags", "nogui", "-o", bin, pkg)
			cmd.Dir = ".."
			cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
			if out, err := cmd.CombinedOutput(); err != nil {
				fmt.Fprintf(os.Stderr, "e2e: building %s: %v\n%s", pkg, err, out)
				return 1
			}
		}
		return m.Run()
	}()
	os.Exit(code)
}

// fakeServerMain is a "tray" that reads one request and then hangs, so the
// parent can kill it mid-request.
func fakeServerMain(path string) int {
	l, err := pipe.Listen(path)
	if err != nil {
		fmt.Println("ERR", err)
		return 1
	}
	fmt.Println("READY")
	c, err := l.Accept()
	if err != nil {
		return 1
	}
	wire.ReadRequest(c)
	fmt.Println("GOT")
	select {}
}

// testBin is this test binary: the fake servers run it, and a hook told
// --guard testBin(t) trusts them as it trusts the real agent-guard.
func testBin(t testing.TB) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return self
}

// startFake runs fakeServerMain as a child with e's environment (so it
// serves e's config home and pipe) and waits for it to listen.
func startFake(t testing.TB, e *env) (*exec.Cmd, *bufio.Scanner) {
	t.Helper()
	srv := exec.Command(testBin(t))
	srv.Env = append(e.vars, "E2E_FAKE_SERVER="+e.pipe)
	out, err := srv.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Process.Kill(); srv.Wait() })
	lines := bufio.NewScanner(out)
	if !lines.Scan() || lines.Text() != "READY" {
		t.Fatalf("fake server: %q", lines.Text())
	}
	return srv, lines
}

// env is one isolated agent-guard installation.
type env struct {
	home, pipe string
	vars       []string
}

func newEnv(t testing.TB) *env {
	t.Helper()
	home := t.TempDir()
	// Socket paths have a ~104-byte limit; t.TempDir() can be longer.
	sockDir, err := os.MkdirTemp("", "age")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sockDir) })
	p := filepath.Join(sockDir, "s.sock")
	if runtime.GOOS == "windows" {
		p = fmt.Sprintf(`\\.\pipe\agent-guard-e2e-%d-%d`, os.Getpid(), time.Now().UnixNano())
	}
	e := &env{home: home, pipe: p}
	e.vars = append(os.Environ(),
		"AGENT_GUARD_HOME="+home,
		"AGENT_GUARD_PIPE="+p,
		"AGENT_GUARD_HOOK_DEADLINE=",
		"TYPESAFE_API_KEY=",
		"HOME="+home, // no ~/.agentguardrc key: offline
		"USERPROFILE="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, "xdg-config"),
	)
	return e
}

type hookRun struct {
	stdout, stderr string
	code           int
	took           time.Duration
}

// hook runs agent-guard-hook with stdin and args, as the host would.
func (e *env) hook(t testing.TB, stdin []byte, args ...string) hookRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, hookBin, args...)
	cmd.Env = e.vars
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	t0 := time.Now()
	err := cmd.Run()
	r := hookRun{stdout: out.String(), stderr: errb.String(), took: time.Since(t0)}
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("hook did not run: %v", err)
		}
		r.code = ee.ExitCode()
	}
	return r
}

// hostDecision is the host's output schema, decoded strictly.
type hostDecision struct {
	HookSpecificOutput struct {
		HookEventName            string `json:"hookEventName"`
		PermissionDecision       string `json:"permissionDecision"`
		PermissionDecisionReason string `json:"permissionDecisionReason"`
	} `json:"hookSpecificOutput"`
}

// decision checks that out is exactly one host decision object with
// exactly the three keys, and returns decision and reason.
func decision(t testing.TB, r hookRun) (string, string) {
	t.Helper()
	if r.code != 0 {
		t.Fatalf("exit %d, stderr %q, stdout %q", r.code, r.stderr, r.stdout)
	}
	if !strings.HasSuffix(r.stdout, "}\n") || strings.Count(r.stdout, "\n") != 1 {
		t.Fatalf("stdout is not one JSON line: %q", r.stdout)
	}
	dec := json.NewDecoder(strings.NewReader(r.stdout))
	dec.DisallowUnknownFields()
	var d hostDecision
	if err := dec.Decode(&d); err != nil {
		t.Fatalf("stdout %q: %v", r.stdout, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		t.Fatalf("stdout has more than one value: %q", r.stdout)
	}
	// Exact key sets, including keys with zero values.
	var raw map[string]map[string]json.RawMessage
	if err := json.Unmarshal([]byte(r.stdout), &raw); err != nil || len(raw) != 1 || len(raw["hookSpecificOutput"]) != 3 {
		t.Fatalf("stdout keys: %q", r.stdout)
	}
	h := d.HookSpecificOutput
	if h.HookEventName != "PreToolUse" {
		t.Fatalf("hookEventName %q", h.HookEventName)
	}
	switch h.PermissionDecision {
	case "allow", "ask", "deny":
	default:
		t.Fatalf("permissionDecision %q", h.PermissionDecision)
	}
	if h.PermissionDecisionReason == "" {
		t.Fatal("empty permissionDecisionReason")
	}
	return h.PermissionDecision, h.PermissionDecisionReason
}

// server runs `agent-guard serve --headless` and waits until it answers.
func (e *env) server(t testing.TB) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(guardBin, "serve", "--headless")
	cmd.Env = e.vars
	var errb syncBuffer
	cmd.Stdout, cmd.Stderr = &errb, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// exited is closed once Wait has returned (waitErr is set before), so
	// the cleanup and the loop below can both look without racing Wait's
	// write of cmd.ProcessState.
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		select {
		case <-exited:
			return
		default:
		}
		stopProcess(cmd)
		select {
		case <-exited:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Errorf("serve did not stop on its signal; output:\n%s", errb.String())
		}
	})
	for end := time.Now().Add(60 * time.Second); ; {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		c, err := pipe.Dial(ctx, e.pipe)
		cancel()
		if err == nil {
			c.Close()
			return cmd
		}
		select {
		case <-exited:
			t.Fatalf("serve exited early (%v):\n%s", waitErr, errb.String())
		default:
		}
		if time.Now().After(end) {
			t.Fatalf("serve not reachable within 60 s: %v\n%s", err, errb.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func stopProcess(cmd *exec.Cmd) {
	if runtime.GOOS == "windows" {
		cmd.Process.Kill()
		return
	}
	cmd.Process.Signal(os.Interrupt)
}

// sample is one line of testdata/samples.jsonl.
type sample struct {
	Expect string          `json:"expect"`
	Event  json.RawMessage `json:"event"`
}

func samples(t testing.TB) []sample {
	t.Helper()
	cases, err := corpus.LoadLenient("../testdata/samples.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var out []sample
	for _, c := range cases {
		out = append(out, sample{Expect: c.Expect, Event: c.EventJSON()})
	}
	if len(out) != 12 {
		t.Fatalf("%d samples, want 12", len(out))
	}
	return out
}

// withFields returns the event with extra top-level fields set.
func withFields(t testing.TB, ev json.RawMessage, kv map[string]any) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(ev, &m); err != nil {
		t.Fatal(err)
	}
	for k, v := range kv {
		m[k] = v
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// auditLines waits until the audit log holds at least n complete lines
// (the server writes each line just after answering the hook), then
// parses every line strictly.
func (e *env) auditLines(t testing.TB, n int) []map[string]any {
	t.Helper()
	var complete []string
	for end := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		data, err := os.ReadFile(filepath.Join(e.home, "audit.jsonl"))
		if err != nil && !os.IsNotExist(err) {
			t.Fatalf("audit log: %v", err)
		}
		complete = strings.SplitAfter(string(data), "\n")
		if last := complete[len(complete)-1]; !strings.HasSuffix(last, "\n") {
			complete = complete[:len(complete)-1] // not yet terminated
		}
		if len(complete) >= n {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("%d audit lines after 30 s, want %d", len(complete), n)
		}
	}
	var out []map[string]any
	for i, line := range complete {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("audit line %d does not parse: %v: %q", i+1, err, line)
		}
		out = append(out, m)
	}
	return out
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
