package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/audit"
	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/pipe"
	"github.com/agent-guard/agent-guard/app/wire"
)

// fakeJudge gives a fixed verdict per command, so these tests do not
// depend on the rules.
type fakeJudge map[string]judge.Level

func (f fakeJudge) Judge(ctx context.Context, s judge.State) judge.Verdict {
	l, ok := f[s.Command]
	if !ok {
		l = judge.Confirm
	}
	return judge.Verdict{Level: l, Source: judge.SourceRule, Rule: "fake." + l.String(), Reason: "fake verdict", Risk: float64(l)}
}

var levels = fakeJudge{"ls": judge.Allow, "reset": judge.Confirm, "wipe": judge.Block, "slow": judge.Confirm, "fast": judge.Confirm}

type memAudit struct {
	mu      sync.Mutex
	entries []audit.Entry
	fail    error
}

func (m *memAudit) Append(e audit.Entry) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail != nil {
		return m.fail
	}
	m.entries = append(m.entries, e)
	return nil
}

func (m *memAudit) all() []audit.Entry {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]audit.Entry(nil), m.entries...)
}

func request(cmd, mode string, budget time.Duration) wire.Request {
	ev := map[string]any{"hook_event_name": "PreToolUse", "session_id": "s1", "tool_name": "Bash",
		"tool_input": map[string]string{"command": cmd}, "cwd": "/w"}
	if mode != "" {
		ev["permission_mode"] = mode
	}
	b, _ := json.Marshal(ev)
	return wire.Request{V: wire.Version, Host: wire.HostZCode, Event: b, BudgetMS: budget.Milliseconds()}
}

func TestDecideWithoutAsker(t *testing.T) {
	s := New(Deps{Judge: levels})
	cases := []struct {
		cmd, mode, decision, decider string
	}{
		{"ls", "", wire.Allow, audit.DeciderAuto},
		{"wipe", "", wire.Deny, audit.DeciderAuto},
		{"reset", "", wire.Deny, audit.DeciderPolicy},
		{"reset", "bypassPermissions", wire.Deny, audit.DeciderPolicy},
		{"reset", "default", wire.Ask, audit.DeciderAuto},
	}
	for _, c := range cases {
		resp, e := s.Decide(context.Background(), request(c.cmd, c.mode, time.Minute))
		if resp.Decision != c.decision || e.Decider != c.decider || e.Decision != c.decision {
			t.Errorf("%s/%s: %s by %s, want %s by %s (%s)", c.cmd, c.mode, resp.Decision, e.Decider, c.decision, c.decider, resp.Reason)
		}
		if e.Tool != "Bash" || e.Input != c.cmd || e.Host != "zcode" || e.Session != "s1" || e.Rule == "" || resp.Rule != e.Rule {
			t.Errorf("%s: audit entry %+v", c.cmd, e)
		}
		if c.cmd == "reset" && c.mode != "default" && !strings.Contains(resp.Reason, "could not ask anyone") {
			t.Errorf("headless confirm reason: %s", resp.Reason)
		}
	}
}

func TestDecideBadEvent(t *testing.T) {
	s := New(Deps{Judge: levels})
	for _, ev := range []string{`{"tool_name":"Bash","tool_input":{}}`, `{"tool_input":{"command":"ls"}}`, `{"tool_name":"Write","tool_input":[1]}`} {
		resp, e := s.Decide(context.Background(), wire.Request{V: wire.Version, Host: "zcode", Event: json.RawMessage(ev), BudgetMS: 1000})
		if resp.Decision != wire.Deny || e.Decision != wire.Deny || e.Source != judge.SourceError {
			t.Errorf("%s: %+v", ev, resp)
		}
	}
}

func TestDecideWithAsker(t *testing.T) {
	var got Prompt
	asker := AskerFunc(func(ctx context.Context, p Prompt) Answer {
		got = p
		if p.State.Command == "reset" {
			return Answer{Allow: true, Decider: audit.DeciderUser}
		}
		return Answer{Allow: false, Decider: audit.DeciderUser, Reason: "denied in the dialog"}
	})
	s := New(Deps{Judge: levels, Asker: asker, Config: func() *config.Config { return config.Default() }})
	resp, e := s.Decide(context.Background(), request("reset", "", time.Minute))
	if resp.Decision != wire.Allow || e.Decider != audit.DeciderUser {
		t.Fatalf("approved: %+v %+v", resp, e)
	}
	if got.Host != "zcode" || got.Session != "s1" || got.State.Cwd != "/w" || got.Verdict.Level != judge.Confirm {
		t.Errorf("prompt %+v", got)
	}
	// The ask deadline is the approval timeout or the budget minus the margin.
	if d := time.Until(got.Deadline); d > 2*time.Minute || d < time.Minute-maxMargin-10*time.Second {
		t.Errorf("ask deadline in %v", d)
	}
	resp, e = s.Decide(context.Background(), request("fast", "", time.Minute))
	if resp.Decision != wire.Deny || e.Decider != audit.DeciderUser || !strings.Contains(resp.Reason, "denied in the dialog") {
		t.Fatalf("denied: %+v", resp)
	}
	// Not full access: the host asks, our dialog stays shut.
	got = Prompt{}
	resp, _ = s.Decide(context.Background(), request("reset", "default", time.Minute))
	if resp.Decision != wire.Ask || got.State.Command != "" {
		t.Fatalf("not full access: %+v, asked %+v", resp, got)
	}
	// Blocks and allows never reach the dialog.
	for _, cmd := range []string{"ls", "wipe"} {
		s.Decide(context.Background(), request(cmd, "", time.Minute))
		if got.State.Command != "" {
			t.Fatalf("%s reached the dialog", cmd)
		}
	}
}

// An Asker that ignores its context cannot hold the answer past the
// hook's budget.
func TestAskerThatHangsIsCutOff(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	s := New(Deps{Judge: levels, Asker: AskerFunc(func(ctx context.Context, p Prompt) Answer {
		<-block
		return Answer{Allow: true, Decider: audit.DeciderUser}
	})})
	t0 := time.Now()
	resp, e := s.Decide(context.Background(), request("reset", "", 2*time.Second))
	if el := time.Since(t0); el >= 2*time.Second {
		t.Fatalf("answered after %v, past the hook's 2 s budget", el)
	}
	if resp.Decision != wire.Deny || e.Decider != audit.DeciderPolicy || !strings.Contains(resp.Reason, "no one answered") {
		t.Fatalf("hung dialog: %+v %+v", resp, e)
	}
}

func TestAskerPanicDenies(t *testing.T) {
	var problems atomic.Int32
	s := New(Deps{Judge: levels, Stderr: &bytes.Buffer{}, OnProblem: func(error) { problems.Add(1) },
		Asker: AskerFunc(func(ctx context.Context, p Prompt) Answer { panic("boom") })})
	resp, _ := s.Decide(context.Background(), request("reset", "", time.Minute))
	if resp.Decision != wire.Deny || problems.Load() == 0 {
		t.Fatalf("panicking dialog: %+v", resp)
	}
}

// serve starts a server on a temp socket and returns the socket path.
func serve(t testing.TB, d Deps) (string, func()) {
	t.Helper()
	dir, err := os.MkdirTemp("", "ags")
	if err != nil {
		t.Fatal(err)
	}
	path := sockIn(dir)
	l, err := pipe.Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- New(d).Serve(ctx, l) }()
	var once sync.Once
	stop := func() { once.Do(func() { stopNow(t, cancel, done, dir) }) }
	t.Cleanup(stop)
	return path, stop
}

func stopNow(t testing.TB, cancel func(), done chan error, dir string) {
	{
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(30 * time.Second):
			t.Error("Serve did not return")
		}
		os.RemoveAll(dir)
	}
}

func roundTrip(path string, req wire.Request, timeout time.Duration) (wire.Response, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	c, err := pipe.Dial(ctx, path)
	if err != nil {
		return wire.Response{}, err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(timeout))
	b, err := wire.EncodeRequest(req)
	if err != nil {
		return wire.Response{}, err
	}
	if _, err := c.Write(b); err != nil {
		return wire.Response{}, err
	}
	return wire.ReadResponse(c)
}

// One approval waiting on a human does not hold up other requests.
func TestSlowApprovalDoesNotBlockOthers(t *testing.T) {
	release := make(chan struct{})
	asked := make(chan struct{}, 1)
	asker := AskerFunc(func(ctx context.Context, p Prompt) Answer {
		if p.State.Command != "slow" {
			return Answer{Allow: true, Decider: audit.DeciderUser}
		}
		asked <- struct{}{}
		select {
		case <-release:
			return Answer{Allow: true, Decider: audit.DeciderUser}
		case <-ctx.Done():
			return Answer{Decider: audit.DeciderPolicy, Reason: "cancelled"}
		}
	})
	log := &memAudit{}
	path, _ := serve(t, Deps{Judge: levels, Asker: asker, Audit: log})
	slow := make(chan wire.Response, 1)
	go func() {
		r, err := roundTrip(path, request("slow", "", time.Minute), time.Minute)
		if err != nil {
			r.Reason = err.Error()
		}
		slow <- r
	}()
	<-asked
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			cmd, want := []string{"ls", "wipe", "fast"}[i%3], []string{wire.Allow, wire.Deny, wire.Allow}[i%3]
			r, err := roundTrip(path, request(cmd, "", time.Minute), 30*time.Second)
			if err != nil || r.Decision != want {
				t.Errorf("%s while another waits: %+v %v", cmd, r, err)
			}
		}(i)
	}
	wg.Wait()
	select {
	case r := <-slow:
		t.Fatalf("slow approval answered early: %+v", r)
	default:
	}
	close(release)
	if r := <-slow; r.Decision != wire.Allow {
		t.Fatalf("slow approval: %+v", r)
	}
	// Audit lines are written after the answer: wait for the last one.
	waitFor(t, func() bool { return len(log.all()) == 21 })
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("condition not met within 30 s")
}

// A hook that disconnects cancels its pending approval.
func TestDisconnectCancelsAsk(t *testing.T) {
	cancelled := make(chan error, 1)
	asked := make(chan struct{}, 1)
	log := &memAudit{}
	path, _ := serve(t, Deps{Judge: levels, Audit: log, Asker: AskerFunc(func(ctx context.Context, p Prompt) Answer {
		asked <- struct{}{}
		<-ctx.Done()
		cancelled <- ctx.Err()
		return Answer{Decider: audit.DeciderPolicy, Reason: "cancelled"}
	})})
	c, err := pipe.Dial(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := wire.EncodeRequest(request("reset", "", time.Minute))
	c.Write(b)
	<-asked
	c.Close()
	select {
	case <-cancelled:
	case <-time.After(30 * time.Second):
		t.Fatal("Ask not cancelled after the hook went away")
	}
	waitFor(t, func() bool { return len(log.all()) == 1 })
	if e := log.all()[0]; e.Decision != wire.Deny || e.Decider != audit.DeciderPolicy {
		t.Fatalf("audit after disconnect: %+v", e)
	}
}

func TestAuditFailureStillAnswers(t *testing.T) {
	var problems []error
	var mu sync.Mutex
	stderr := &syncBuf{}
	log := &memAudit{fail: errors.New("disk full")}
	path, _ := serve(t, Deps{Judge: levels, Audit: log, Stderr: stderr, OnProblem: func(err error) {
		mu.Lock()
		problems = append(problems, err)
		mu.Unlock()
	}})
	r, err := roundTrip(path, request("ls", "", time.Minute), 30*time.Second)
	if err != nil || r.Decision != wire.Allow {
		t.Fatalf("%+v %v", r, err)
	}
	waitFor(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(problems) == 1 })
	if !strings.Contains(problems[0].Error(), "disk full") || !strings.Contains(stderr.String(), "disk full") {
		t.Fatalf("problem %v, stderr %q", problems[0], stderr.String())
	}
}

func TestMalformedRequestIsDenied(t *testing.T) {
	path, _ := serve(t, Deps{Judge: levels, Stderr: &syncBuf{}})
	for _, line := range []string{"garbage\n", `{"v":9,"host":"zcode","event":{},"budget_ms":5}` + "\n"} {
		c, err := pipe.Dial(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		c.SetDeadline(time.Now().Add(30 * time.Second))
		fmt.Fprint(c, line)
		r, err := wire.ReadResponse(c)
		c.Close()
		if err != nil || r.Decision != wire.Deny {
			t.Errorf("%q: %+v %v", line, r, err)
		}
	}
}

// Stopping the server denies what is still pending and Serve returns.
func TestShutdownDeniesPending(t *testing.T) {
	asked := make(chan struct{}, 1)
	path, stop := serve(t, Deps{Judge: levels, Asker: AskerFunc(func(ctx context.Context, p Prompt) Answer {
		asked <- struct{}{}
		<-ctx.Done()
		return Answer{Decider: audit.DeciderPolicy, Reason: "agent-guard stopped"}
	})})
	res := make(chan wire.Response, 1)
	go func() {
		r, _ := roundTrip(path, request("reset", "", time.Minute), time.Minute)
		res <- r
	}()
	<-asked
	stop()
	if r := <-res; r.Decision != wire.Deny {
		t.Fatalf("pending at shutdown: %+v", r)
	}
	if _, err := roundTrip(path, request("ls", "", time.Minute), 5*time.Second); err == nil {
		t.Fatal("server still answering after stop")
	}
}

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) { s.mu.Lock(); defer s.mu.Unlock(); return s.b.Write(p) }
func (s *syncBuf) String() string              { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

// flakyListener fails its first Accepts with a transient error.
type flakyListener struct {
	net.Listener
	fails atomic.Int32
}

func (f *flakyListener) Accept() (net.Conn, error) {
	if f.fails.Add(-1) >= 0 {
		return nil, errors.New("accept: resource temporarily unavailable")
	}
	return f.Listener.Accept()
}

// A transient Accept error does not stop the server.
func TestAcceptErrorsAreTransient(t *testing.T) {
	dir, err := os.MkdirTemp("", "ags")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := sockIn(dir)
	l, err := pipe.Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	fl := &flakyListener{Listener: l}
	fl.fails.Store(3)
	var problems atomic.Int32
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- New(Deps{Judge: levels, Stderr: &syncBuf{}, OnProblem: func(error) { problems.Add(1) }}).Serve(ctx, fl)
	}()
	r, err := roundTrip(path, request("ls", "", time.Minute), 30*time.Second)
	if err != nil || r.Decision != wire.Allow {
		t.Fatalf("%+v %v", r, err)
	}
	if problems.Load() != 3 {
		t.Errorf("%d problems reported, want 3", problems.Load())
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("Serve after cancel: %v", err)
	}
}

// sockIn names a socket in dir, or a unique named pipe on Windows.
func sockIn(dir string) string {
	if runtime.GOOS == "windows" {
		return fmt.Sprintf(`\\.\pipe\agent-guard-test-%d-%d`, os.Getpid(), time.Now().UnixNano())
	}
	return filepath.Join(dir, "s.sock")
}
