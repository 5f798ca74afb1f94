//go:build linux

package faults

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/agent-guard/agent-guard/app/judge/corpus"
	"github.com/agent-guard/agent-guard/internal/testbin"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// bins are the real binaries under test, built once in TestMain.
var bins struct{ guard, hook string }

// hookWait bounds one hook run. The hook has its own, shorter deadline; this
// only keeps a broken hook from hanging the suite. Generous on purpose: CI
// is a loaded 2-core machine running -race tests beside us.
const hookWait = 150 * time.Second

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "agent-guard-faults-bin")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := 1
	flag.Parse()
	if fuzzingOrListing() {
		// FuzzHookRun runs the hook in-process, and -list runs nothing:
		// no binaries needed.
		code = m.Run()
	} else if err := buildBinaries(dir); err != nil {
		fmt.Fprintln(os.Stderr, "faults: building the binaries under test failed:", err)
	} else {
		code = m.Run()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// fuzzingOrListing reports whether this process runs a fuzz target (the
// coordinator or a worker) or only lists tests, which need no binaries.
func fuzzingOrListing() bool {
	for _, name := range []string{"test.fuzz", "test.list"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != "" {
			return true
		}
	}
	f := flag.Lookup("test.fuzzworker")
	return f != nil && f.Value.String() == "true"
}

func buildBinaries(dir string) error {
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gobin); err != nil {
		gobin = "go"
	}
	exe := ""
	if runtime.GOOS == "windows" {
		exe = ".exe"
	}
	bins.guard = filepath.Join(dir, "agent-guard"+exe)
	bins.hook = filepath.Join(dir, "agent-guard-hook"+exe)
	for out, pkg := range map[string]string{
		bins.guard: "github.com/agent-guard/agent-guard/cmd/agent-guard",
		bins.hook:  "github.com/agent-guard/agent-guard/cmd/agent-guard-hook",
		// the hook's fallback judge, beside it
		filepath.Join(dir, "agent-guard-judge"+exe): "github.com/agent-guard/agent-guard/cmd/agent-guard-judge",
	} {
		if ok, err := testbin.Install(out); ok {
			if err != nil {
				return err
			}
			continue
		}
		cmd := exec.Command(gobin, "build", "-tags", "nogui", "-o", out, pkg)
		cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
		if b, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go build %s: %v\n%s", pkg, err, b)
		}
	}
	return nil
}

// sample is one public case from testdata/samples.jsonl.
type sample struct {
	Expect string          `json:"expect"` // allow | confirm | block
	Event  json.RawMessage `json:"event"`
}

func loadSamples(t testing.TB) []sample {
	t.Helper()
	cases, err := corpus.LoadLenient(filepath.Join("..", "testdata", "samples.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out []sample
	for _, c := range cases {
		out = append(out, sample{Expect: c.Expect, Event: c.EventJSON()})
	}
	if len(out) == 0 {
		t.Fatal("samples.jsonl is empty")
	}
	return out
}

// pick returns the first sample of each wanted level.
func pick(t testing.TB, all []sample, levels ...string) []sample {
	t.Helper()
	var out []sample
	for _, lv := range levels {
		found := false
		for _, s := range all {
			if s.Expect == lv {
				out = append(out, s)
				found = true
				break
			}
		}
		if !found {
			t.Fatalf("no sample with level %s", lv)
		}
	}
	return out
}

// wantDecision is the host decision for a level when nobody can approve:
// the headless server and the fallback turn confirm into deny under full
// access (the samples carry no permission_mode, which means full access).
func wantDecision(level string) string {
	if level == "allow" {
		return "allow"
	}
	return "deny"
}

// syncBuf collects a child's stderr safely while it runs.
type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuf) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// sandbox is one isolated agent-guard installation: its own home, config,
// cache, audit log and socket, and an environment with nothing of the real
// user's in it.
type sandbox struct {
	t      testing.TB
	home   string
	sock   string
	env    []string
	srv    *exec.Cmd
	srvErr *syncBuf
	done   chan struct{} // closed when srv has exited
}

func newSandbox(t testing.TB) *sandbox {
	t.Helper()
	home := t.TempDir()
	// Unix socket paths are limited to ~108 bytes; t.TempDir can be long.
	sockDir, err := os.MkdirTemp("", "agf")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sockDir) })
	if err := os.Chmod(sockDir, 0o700); err != nil {
		t.Fatal(err)
	}
	sb := &sandbox{t: t, home: home, sock: filepath.Join(sockDir, "s")}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "AGENT_GUARD_"), strings.HasPrefix(k, "XDG_"), k == "TYPESAFE_API_KEY",
			k == "HOME", k == "DISPLAY", k == "WAYLAND_DISPLAY", k == "DBUS_SESSION_BUS_ADDRESS",
			k == "HTTPS_PROXY", k == "HTTP_PROXY", k == "https_proxy", k == "http_proxy":
			continue
		}
		sb.env = append(sb.env, kv)
	}
	sb.env = append(sb.env,
		"AGENT_GUARD_HOME="+home,
		"AGENT_GUARD_PIPE="+sb.sock,
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, "xdg-config"),
		"XDG_CACHE_HOME="+filepath.Join(home, "xdg-cache"),
		"XDG_STATE_HOME="+filepath.Join(home, "xdg-state"),
		"XDG_RUNTIME_DIR="+sockDir,
		"NO_PROXY=*",
	)
	return sb
}

// setEnv adds or replaces one variable for the children started after it.
func (sb *sandbox) setEnv(k, v string) {
	for i, kv := range sb.env {
		if strings.HasPrefix(kv, k+"=") {
			sb.env[i] = k + "=" + v
			return
		}
	}
	sb.env = append(sb.env, k+"="+v)
}

func (sb *sandbox) path(name string) string { return filepath.Join(sb.home, name) }

// writeConfig writes config.json as the default with the given keys
// replaced (a nil patch writes the plain default).
func (sb *sandbox) writeConfig(patch map[string]any) {
	sb.t.Helper()
	cfg := map[string]any{}
	for k, v := range patch {
		cfg[k] = v
	}
	b, err := json.MarshalIndent(cfg, "", "  ")
	if err != nil {
		sb.t.Fatal(err)
	}
	if err := os.WriteFile(sb.path("config.json"), b, 0o600); err != nil {
		sb.t.Fatal(err)
	}
	// The user wrote it: accept it as the user would, in a terminal (a
	// weakening of config.json is not in force until accepted).
	cmd := exec.Command(bins.guard, "config", "accept")
	cmd.Env = sb.env
	cmd.Stdin = strings.NewReader("yes\n")
	if out, err := cmd.CombinedOutput(); err != nil {
		sb.t.Fatalf("agent-guard config accept: %v\n%s", err, out)
	}
}

// startServer runs `agent-guard serve --headless` and waits until its socket
// exists (net.Listen binds and listens in one step, so connections queue
// from then on).
func (sb *sandbox) startServer() {
	sb.t.Helper()
	cmd := exec.Command(bins.guard, "serve", "--headless")
	cmd.Env = sb.env
	cmd.Dir = sb.home
	sb.srvErr = &syncBuf{}
	cmd.Stdout = sb.srvErr
	cmd.Stderr = sb.srvErr
	if err := cmd.Start(); err != nil {
		sb.t.Fatal(err)
	}
	sb.srv = cmd
	sb.done = make(chan struct{})
	done := sb.done
	go func() { cmd.Wait(); close(done) }()
	sb.t.Cleanup(func() { sb.stopServer(syscall.SIGKILL) })
	deadline := time.Now().Add(60 * time.Second)
	for {
		if fi, err := os.Stat(sb.sock); err == nil && fi.Mode()&os.ModeSocket != 0 {
			return
		}
		select {
		case <-done:
			sb.t.Fatalf("serve --headless exited before listening: %v\n%s", cmd.ProcessState, sb.srvErr)
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			sb.t.Fatalf("serve --headless did not create %s within 60s\n%s", sb.sock, sb.srvErr)
		}
	}
}

// stopServer signals the server and waits for it (SIGKILL after 20s).
func (sb *sandbox) stopServer(sig syscall.Signal) {
	if sb.srv == nil {
		return
	}
	p := sb.srv.Process
	p.Signal(syscall.SIGCONT) // a stopped process cannot act on SIGTERM
	p.Signal(sig)
	select {
	case <-sb.done:
	case <-time.After(20 * time.Second):
		p.Kill()
		<-sb.done
	}
	sb.srv = nil
}

// serverAlive reports whether the server process is still running.
func (sb *sandbox) serverAlive() bool {
	if sb.srv == nil {
		return false
	}
	select {
	case <-sb.done:
		return false
	default:
		return true
	}
}

// answer is what one hook run told the host.
type answer struct {
	Decision string // allow | ask | deny
	Reason   string
	Exit     int
	Stdout   string
	Stderr   string
	Took     time.Duration
	Err      error // the hook broke the host protocol or did not finish
}

func (a answer) String() string {
	s := fmt.Sprintf("decision=%q exit=%d took=%v reason=%q", a.Decision, a.Exit, a.Took.Round(time.Millisecond), trim(a.Reason, 400))
	if a.Err != nil {
		s += fmt.Sprintf(" err=%v stdout=%q", a.Err, trim(a.Stdout, 600))
	}
	if a.Stderr != "" {
		s += fmt.Sprintf(" stderr=%q", trim(a.Stderr, 600))
	}
	return s
}

func trim(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// hookOutput is the exact shape ZCode accepts: no other keys anywhere.
type hookOutput struct {
	HookSpecificOutput struct {
		HookEventName            string `json:"hookEventName"`
		PermissionDecision       string `json:"permissionDecision"`
		PermissionDecisionReason string `json:"permissionDecisionReason"`
	} `json:"hookSpecificOutput"`
}

// runHook runs agent-guard-hook on one event the way a host does and
// checks that the answer follows the host protocol: exit 0 with exactly the
// hookSpecificOutput JSON, or exit 2 with a reason on stderr (a block).
// Any other exit lets Claude Code run the tool, so it is an error here.
func (sb *sandbox) runHook(event []byte) answer {
	ctx, cancel := context.WithTimeout(context.Background(), hookWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, bins.hook)
	cmd.Env = sb.env
	cmd.Dir = sb.home
	cmd.Stdin = bytes.NewReader(event)
	var out, errb bytes.Buffer
	cmd.Stdout = &out
	cmd.Stderr = &errb
	t0 := time.Now()
	err := cmd.Run()
	a := answer{Took: time.Since(t0), Stdout: out.String(), Stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		a.Err = fmt.Errorf("hook did not answer within %v", hookWait)
		return a
	case errors.As(err, &ee):
		a.Exit = ee.ExitCode()
	case err != nil:
		a.Err = err
		return a
	}
	switch a.Exit {
	case 0:
		var ho hookOutput
		dec := json.NewDecoder(strings.NewReader(a.Stdout))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&ho); err != nil {
			a.Err = fmt.Errorf("stdout is not the host's JSON: %v", err)
			return a
		}
		if dec.More() {
			a.Err = errors.New("stdout has data after the JSON object")
			return a
		}
		h := ho.HookSpecificOutput
		if h.HookEventName != "PreToolUse" {
			a.Err = fmt.Errorf("hookEventName %q, want PreToolUse", h.HookEventName)
			return a
		}
		switch h.PermissionDecision {
		case "allow", "ask", "deny":
		default:
			a.Err = fmt.Errorf("permissionDecision %q is not allow, ask or deny", h.PermissionDecision)
			return a
		}
		a.Decision, a.Reason = h.PermissionDecision, h.PermissionDecisionReason
		if a.Decision != "allow" && strings.TrimSpace(a.Reason) == "" {
			a.Err = errors.New("a deny/ask without a reason")
		}
	case 2:
		a.Decision, a.Reason = "deny", strings.TrimSpace(a.Stderr)
		if a.Reason == "" {
			a.Err = errors.New("exit 2 without a reason on stderr")
		}
	default:
		a.Err = fmt.Errorf("exit code %d: the host treats it as a non-blocking error and runs the tool", a.Exit)
	}
	return a
}

// check asserts one answer under a fault: answered in the host's format,
// never allow for a call that is not allow without the fault. When exact
// is set, the answer must also be the fault-free decision.
func check(t testing.TB, what string, s sample, a answer, exact bool) {
	t.Helper()
	if a.Err != nil {
		t.Errorf("%s: %s: broken answer: %v\n  %s", what, s.Event, a.Err, a)
		return
	}
	want := wantDecision(s.Expect)
	if want != "allow" && a.Decision == "allow" {
		t.Errorf("%s: %s (a %s case) was ALLOWED under the fault\n  %s", what, s.Event, s.Expect, a)
		return
	}
	if exact && a.Decision != want {
		t.Errorf("%s: %s: decision %q, want %q\n  %s", what, s.Event, a.Decision, want, a)
	}
}

// auditLines reads the audit log and fails on any line that is not one
// whole JSON object with the fields every entry has.
//
// The server writes a decision's line just after answering the hook, so
// the log may still be growing when a test reads it: wait until it ends
// with a whole line first.
func (sb *sandbox) auditLines() []map[string]any {
	sb.t.Helper()
	sb.waitAudit(0)
	f, err := os.Open(sb.path("audit.jsonl"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		sb.t.Fatalf("audit log: %v", err)
	}
	defer f.Close()
	var out []map[string]any
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 4<<20)
	n := 0
	for sc.Scan() {
		n++
		var e map[string]any
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			sb.t.Errorf("audit line %d is not whole JSON (%v): %q", n, err, trim(sc.Text(), 300))
			continue
		}
		for _, k := range []string{"ts", "tool", "level", "decision"} {
			if _, ok := e[k]; !ok {
				sb.t.Errorf("audit line %d has no %q: %q", n, k, trim(sc.Text(), 300))
			}
		}
		out = append(out, e)
	}
	if err := sc.Err(); err != nil {
		sb.t.Errorf("audit log: %v", err)
	}
	return out
}

// waitAudit waits (up to 20 s) until the audit log holds at least min
// lines and ends with a newline, so no line is read half written.
func (sb *sandbox) waitAudit(min int) {
	waitFor(20*time.Second, func() bool {
		data, err := os.ReadFile(sb.path("audit.jsonl"))
		if err != nil {
			return min == 0
		}
		if len(data) == 0 {
			return min == 0
		}
		return data[len(data)-1] == '\n' && bytes.Count(data, []byte{'\n'}) >= min
	})
}

// waitFor polls cond until it holds or the timeout passes.
func waitFor(timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		if cond() {
			return true
		}
		time.Sleep(50 * time.Millisecond)
	}
	return cond()
}
