package hookbridge

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/hostproto"
	"github.com/agent-guard/agent-guard/app/peer"
	"github.com/agent-guard/agent-guard/app/pipe"
	"github.com/agent-guard/agent-guard/app/wire"
)

// isolate points every file and the pipe into temp dirs.
func isolate(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	sock, err := os.MkdirTemp("", "agh")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sock) })
	t.Setenv("AGENT_GUARD_HOME", home)
	t.Setenv("HOME", home)
	t.Setenv("TYPESAFE_API_KEY", "")
	t.Setenv(DeadlineEnv, "")
	p := filepath.Join(sock, "s.sock")
	if runtime.GOOS == "windows" {
		p = fmt.Sprintf(`\\.\pipe\agent-guard-test-%d-%d`, os.Getpid(), time.Now().UnixNano())
	}
	t.Setenv(pipe.Env, p)
	// The fake servers below run in this test process, which is not
	// agent-guard: accept them. TestImpostorIsIgnored keeps the real check,
	// and e2e/ runs it against real processes.
	real := verifyServer
	verifyServer = func(net.Conn, peer.Expect) (peer.Process, error) { return peer.Process{}, nil }
	t.Cleanup(func() { verifyServer = real })
	return p
}

func run(t *testing.T, stdin io.Reader, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Run(args, stdin, &out, &errb)
	return out.String(), errb.String(), code
}

// hostOutput is the ZCode / Claude Code decision schema (hostproto renders it).
type hostOutput struct {
	HookSpecificOutput struct {
		HookEventName            string `json:"hookEventName"`
		PermissionDecision       string `json:"permissionDecision"`
		PermissionDecisionReason string `json:"permissionDecisionReason"`
	} `json:"hookSpecificOutput"`
}

func mustDecision(t *testing.T, out string) (string, string) {
	t.Helper()
	var o hostOutput
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil || o.HookSpecificOutput.HookEventName != "PreToolUse" {
		t.Fatalf("output %q: %v", out, err)
	}
	return o.HookSpecificOutput.PermissionDecision, o.HookSpecificOutput.PermissionDecisionReason
}

const bashLS = `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`

func TestParseFlags(t *testing.T) {
	t.Setenv(DeadlineEnv, "")
	o, err := parseFlags([]string{"--host", "claude", "--deadline", "135s"})
	if err != nil || o.Host != "claude" || o.Deadline != 135*time.Second || o.DialTimeout != DefaultDialTimeout {
		t.Fatalf("%+v %v", o, err)
	}
	t.Setenv(DeadlineEnv, "20s")
	if o, _ := parseFlags(nil); o.Deadline != 20*time.Second || o.Host != "zcode" {
		t.Fatalf("env deadline: %+v", o)
	}
	for _, bad := range [][]string{{"--host", "x"}, {"--deadline", "1ms"}, {"--deadline", "2h"}, {"--nope"}, {"arg"}, {"--dial-timeout", "0s"}, {"--guard", "agent-guard"}} {
		if _, err := parseFlags(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	t.Setenv(DeadlineEnv, "soon")
	if _, err := parseFlags(nil); err == nil {
		t.Error("bad env deadline accepted")
	}
}

func TestSilentForEventsNotJudged(t *testing.T) {
	isolate(t)
	for _, in := range []string{
		`{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`,
		`{"hook_event_name":"Notification"}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{}}`,
		`{"hookEventName":"PreToolUse","toolName":"WebFetch","toolInput":{}}`,
	} {
		if out, errs, code := run(t, strings.NewReader(in)); out != "" || code != 0 {
			t.Errorf("%s: %q %q %d", in, out, errs, code)
		}
	}
}

func TestFailuresDeny(t *testing.T) {
	isolate(t)
	for name, in := range map[string]io.Reader{
		"garbage":   strings.NewReader("nope"),
		"empty":     strings.NewReader(""),
		"oversized": io.MultiReader(strings.NewReader(`{"tool_name":"Bash","x":"`), strings.NewReader(strings.Repeat("a", wire.MaxEvent))),
		"read err":  io.MultiReader(strings.NewReader(`{"a":`), errReader{}),
	} {
		out, _, code := run(t, in)
		if d, reason := mustDecision(t, out); d != wire.Deny || code != 0 || !strings.Contains(reason, "do not retry") {
			t.Errorf("%s: %s %d %s", name, d, code, reason)
		}
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("broken stdin") }

// stdin that never ends: the hook's own deadline answers deny.
func TestDeadlineWhileReadingStdin(t *testing.T) {
	isolate(t)
	pr, pw := io.Pipe()
	defer pw.Close()
	t0 := time.Now()
	out, _, code := run(t, pr, "--deadline", "300ms")
	d, reason := mustDecision(t, out)
	if d != wire.Deny || code != 0 || !strings.Contains(reason, "deadline") {
		t.Fatalf("%s %d %s", d, code, reason)
	}
	if el := time.Since(t0); el > 20*time.Second {
		t.Fatalf("took %v", el)
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("stdout closed") }

func TestUnwritableStdoutExits2(t *testing.T) {
	isolate(t)
	var errb bytes.Buffer
	code := Run(nil, strings.NewReader("garbage"), failWriter{}, &errb)
	if code != 2 || !strings.Contains(errb.String(), "could not write the decision") || !strings.Contains(errb.String(), "stdout closed") {
		t.Fatalf("%d %q", code, errb.String())
	}
}

// fakeServer answers every request with resp (raw line) after delay.
func fakeServer(t *testing.T, path string, reply func(net.Conn)) {
	t.Helper()
	l, err := pipe.Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				if _, err := wire.ReadRequest(c); err != nil {
					return
				}
				reply(c)
			}()
		}
	}()
}

// reply renders a server answer the way app/decide does.
func reply(decision, reason string) string {
	o := hostproto.ZCode.Render(decision, reason)
	b, _ := json.Marshal(wire.Response{V: wire.Version, Decision: decision, Reason: reason, Stdout: string(o.Stdout), Stderr: string(o.Stderr), Code: o.Code})
	return string(b)
}

func TestServerReplies(t *testing.T) {
	claudeAllow := hostproto.Claude.Render(wire.Allow, "x")
	foreign, _ := json.Marshal(wire.Response{V: wire.Version, Decision: wire.Allow, Reason: "x", Stdout: `{"decision":"approve"}` + "\n"})
	mismatch, _ := json.Marshal(wire.Response{V: wire.Version, Decision: wire.Deny, Reason: "x", Stdout: string(claudeAllow.Stdout)})
	cases := []struct {
		name, line, want, reasonHas string
	}{
		{"allow", reply(wire.Allow, "fine"), wire.Allow, "fine"},
		{"ask", reply(wire.Ask, "host asks"), wire.Ask, "host asks"},
		{"deny", reply(wire.Deny, "no"), wire.Deny, "no"},
		{"output not the host's format", string(foreign), wire.Deny, "broken reply"},
		{"output of another decision", string(mismatch), wire.Deny, "broken reply"},
		{"unknown decision", `{"v":2,"decision":"approve","reason":"x","stdout":"","code":0}`, wire.Deny, "broken reply"},
		{"wrong version", strings.Replace(reply(wire.Allow, "x"), `"v":2`, `"v":1`, 1), wire.Deny, "broken reply"},
		{"extra key", strings.Replace(reply(wire.Allow, "x"), `"v":2`, `"v":2,"also":1`, 1), wire.Deny, "broken reply"},
		{"garbage", `allow`, wire.Deny, "broken reply"},
		{"cut off", `{"v":2,"decision":"allow"`, wire.Deny, "broken reply"},
		{"closed", ``, wire.Deny, "stopped answering"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := isolate(t)
			fakeServer(t, path, func(conn net.Conn) {
				if c.line != "" {
					io.WriteString(conn, c.line)
					if !strings.HasSuffix(c.name, "cut off") {
						io.WriteString(conn, "\n")
					}
				}
			})
			out, _, code := run(t, strings.NewReader(bashLS), "--dial-timeout", "5s")
			d, reason := mustDecision(t, out)
			if d != c.want || code != 0 || !strings.Contains(reason, c.reasonHas) {
				t.Fatalf("%s (%q), want %s with %q", d, reason, c.want, c.reasonHas)
			}
			if c.want == wire.Allow && out != string(hostproto.ZCode.Render(wire.Allow, "fine").Stdout) {
				t.Fatalf("output not copied exactly: %q", out)
			}
		})
	}
}

func TestHungServerDeniesBeforeDeadline(t *testing.T) {
	path := isolate(t)
	hold := make(chan struct{})
	defer close(hold)
	fakeServer(t, path, func(net.Conn) { <-hold })
	t0 := time.Now()
	out, _, _ := run(t, strings.NewReader(bashLS), "--deadline", "1s", "--dial-timeout", "400ms")
	if d, reason := mustDecision(t, out); d != wire.Deny || !strings.Contains(reason, "deadline") {
		t.Fatalf("%s %s", d, reason)
	}
	if el := time.Since(t0); el > 20*time.Second {
		t.Fatalf("took %v", el)
	}
}

// The budget the hook announces leaves it time to print the answer.
func TestBudgetBelowDeadline(t *testing.T) {
	path := isolate(t)
	budgets := make(chan int64, 1)
	l, err := pipe.Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		req, err := wire.ReadRequest(c)
		if err != nil {
			budgets <- -1
			return
		}
		budgets <- req.BudgetMS
		io.WriteString(c, reply(wire.Deny, "r")+"\n")
	}()
	run(t, strings.NewReader(bashLS), "--deadline", "10s", "--dial-timeout", "2s")
	b := <-budgets
	if b <= 5000 || b > 9600 {
		t.Fatalf("budget %d ms for a 10 s deadline", b)
	}
}

// TestMain lets this test binary stand in for agent-guard's hook-fallback
// (HOOKBRIDGE_FAKE_FALLBACK=mode); the real one runs in e2e/.
func TestMain(m *testing.M) {
	if mode := os.Getenv("HOOKBRIDGE_FAKE_FALLBACK"); mode != "" {
		os.Exit(fakeFallback(mode))
	}
	os.Exit(m.Run())
}

func fakeFallback(mode string) int {
	event, _ := io.ReadAll(os.Stdin)
	args := strings.Join(os.Args[1:], " ")
	switch mode {
	case "echo": // a valid answer naming what it was given
		fmt.Println(reply(wire.Allow, "ARGS["+args+"] EVENT["+string(event)+"]"))
		return 0
	case "crash":
		fmt.Fprintln(os.Stderr, "panic: boom")
		return 3
	case "garbage":
		fmt.Println("allow")
		return 0
	case "two":
		fmt.Println(reply(wire.Allow, "a"))
		fmt.Println(reply(wire.Allow, "b"))
		return 0
	case "foreign":
		b, _ := json.Marshal(wire.Response{V: wire.Version, Decision: wire.Allow, Reason: "x", Stdout: "{}\n"})
		fmt.Println(string(b))
		return 0
	case "slow":
		time.Sleep(time.Minute)
	case "record": // notes what it was given and that it ran to the end
		os.WriteFile(os.Getenv("HOOKBRIDGE_RECORD"), append([]byte("EVENT["), append(event, ']')...), 0o600)
		time.Sleep(200 * time.Millisecond)
		os.WriteFile(os.Getenv("HOOKBRIDGE_RECORD")+".end", nil, 0o600)
		fmt.Println(reply(wire.Allow, "recorded"))
		return 0
	}
	return 1
}

// fakeGuard makes this test binary the hook's fallback judge (and the
// --guard binary it returns), answering as mode says.
func fakeGuard(t *testing.T, mode string) string {
	t.Setenv("HOOKBRIDGE_FAKE_FALLBACK", mode)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	useJudge(t, func() (string, error) { return self, nil })
	return self
}

// useJudge replaces how the hook finds its judge for one test.
func useJudge(t *testing.T, f func() (string, error)) {
	real := locateJudge
	locateJudge = f
	t.Cleanup(func() { locateJudge = real })
}

// No server: the hook execs hook-fallback with the event and its budget,
// and passes a valid answer through; every failure is a deny that says so.
func TestFallback(t *testing.T) {
	cases := []struct {
		mode, want, reasonHas string
	}{
		{"echo", wire.Allow, "ARGS[hook-fallback --host zcode --budget-ms "},
		{"crash", wire.Deny, "failed (exit status 3: panic: boom)"},
		{"garbage", wire.Deny, "broken answer"},
		{"two", wire.Deny, "more than one answer"},
		{"foreign", wire.Deny, "broken reply"},
		{"slow", wire.Deny, "did not answer within"},
		{"missing", wire.Deny, "cannot be run"},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			isolate(t)
			guard := fakeGuard(t, c.mode)
			if c.mode == "missing" {
				// The real check, on a folder with a hook and no judge.
				dir := t.TempDir()
				hook := filepath.Join(dir, "agent-guard-hook")
				if err := os.WriteFile(hook, []byte("hook"), 0o755); err != nil {
					t.Fatal(err)
				}
				useJudge(t, func() (string, error) {
					j := peer.JudgeBeside(hook)
					return j, peer.CheckJudge(j, hook)
				})
			}
			t0 := time.Now()
			out, _, code := run(t, strings.NewReader(bashLS), "--guard", guard, "--deadline", "3s")
			d, reason := mustDecision(t, out)
			if d != c.want || code != 0 || !strings.Contains(reason, c.reasonHas) {
				t.Fatalf("%s %d %s", d, code, reason)
			}
			if c.mode == "echo" && !strings.Contains(reason, "EVENT["+bashLS+"]") {
				t.Fatalf("event not passed on stdin: %s", reason)
			}
			if c.mode != "echo" && c.mode != "missing" && !strings.Contains(reason, "agent-guard is not running") {
				t.Fatalf("reason does not say why the fallback ran: %s", reason)
			}
			if el := time.Since(t0); el > 20*time.Second {
				t.Fatalf("took %v", el)
			}
		})
	}
}

// With no socket the judge is started before the event is parsed (so its
// start-up overlaps the parsing). An event the hook does not judge, or
// cannot read, never reaches it: it is killed having read nothing, and
// the hook answers as without a judge. One the hook judges reaches it.
func TestEarlyJudgeGetsOnlyJudgedEvents(t *testing.T) {
	if !earlyStart {
		t.Skip("the judge is started early on Linux only")
	}
	for _, c := range []struct {
		name, in, out string
		judged        bool
	}{
		{"not judged", `{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{}}`, "", false},
		{"unreadable", `{"hook_event_name":`, "could not be read", false},
		{"judged", bashLS, "recorded", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			sock := isolate(t)
			if !socketAbsent(sock) {
				t.Fatalf("the test's socket %s is not absent", sock)
			}
			fakeGuard(t, "record")
			rec := filepath.Join(t.TempDir(), "record")
			t.Setenv("HOOKBRIDGE_RECORD", rec)
			out, _, code := run(t, strings.NewReader(c.in))
			if code != 0 || !strings.Contains(out, c.out) || (c.out == "") != (out == "") {
				t.Fatalf("%q %d", out, code)
			}
			time.Sleep(500 * time.Millisecond) // a judge left running would finish by now
			got, _ := os.ReadFile(rec)
			_, endErr := os.Stat(rec + ".end")
			switch {
			case c.judged && string(got) != "EVENT["+c.in+"]":
				t.Fatalf("the judge got %q", got)
			case !c.judged && (len(got) > len("EVENT[]") || endErr == nil):
				t.Fatalf("the judge was not stopped, or got the event: %q, ran to the end: %v", got, endErr == nil)
			}
		})
	}
}

// "Nobody listens" must not wait for the dial timeout: no socket and a
// stale socket both fail at once, so the fallback is never delayed.
func TestDialNobodyIsImmediate(t *testing.T) {
	path := isolate(t)
	if runtime.GOOS == "windows" {
		t.Skip("unix sockets")
	}
	t0 := time.Now()
	if _, err := dial(context.Background(), path, 10*time.Second); err == nil || isTimeout(err) {
		t.Fatalf("missing socket: %v", err)
	}
	ul, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ul.SetUnlinkOnClose(false)
	ul.Close()
	if _, err := dial(context.Background(), path, 10*time.Second); err == nil || isTimeout(err) {
		t.Fatalf("stale socket: %v", err)
	}
	if el := time.Since(t0); el > 5*time.Second {
		t.Fatalf("took %v", el)
	}
}

// A server that is not the genuine agent-guard is no server: its allow is
// never used; the fallback judges, told why.
func TestImpostorIsIgnored(t *testing.T) {
	if runtime.GOOS == "windows" {
		// By design, not wine: Windows shows no other process's
		// environment, so there the hook checks the executable only
		// (README, Threat model); this impostor is the genuine binary run
		// with another AGENT_GUARD_HOME, which the judge's
		// self.guard-exec rule stops instead.
		t.Skip("Windows: the hook cannot read the server's environment; the executable check alone applies")
	}
	path := isolate(t)
	verifyServer = peer.VerifyServer
	fakeServer(t, path, func(conn net.Conn) {
		io.WriteString(conn, reply(wire.Allow, "impostor says yes")+"\n")
	})
	// The trusted binary is this test binary, so the server (this very
	// process) passes the executable check and fails the config-home one:
	// its environment at start had another AGENT_GUARD_HOME.
	guard := fakeGuard(t, "echo")
	out, _, code := run(t, strings.NewReader(bashLS), "--dial-timeout", "5s", "--guard", guard)
	d, reason := mustDecision(t, out)
	if d != wire.Allow || code != 0 || strings.Contains(reason, "impostor says yes") || !strings.Contains(reason, "--note the process serving "+path) || !strings.Contains(reason, "it was ignored") {
		t.Fatalf("%s %d %s", d, code, reason)
	}
}

// The judge runs with our runtime settings, and a user's own GOGC cannot
// come first (the runtime reads the first of duplicate names).
func TestJudgeEnvPutsOursFirst(t *testing.T) {
	t.Setenv("GOGC", "50")
	t.Setenv("GOMAXPROCS", "8")
	t.Setenv("AGENT_GUARD_HOME", "/tmp/x")
	env := judgeEnv()
	if !slices.Equal(env[:len(judgeRuntime)], judgeRuntime) {
		t.Fatalf("env starts %q, want %q", env[:len(judgeRuntime)], judgeRuntime)
	}
	for _, kv := range env[len(judgeRuntime):] {
		if kv == "GOGC=50" || kv == "GOMAXPROCS=8" {
			t.Errorf("the user's %s is passed on after ours", kv)
		}
	}
	if !slices.Contains(env, "AGENT_GUARD_HOME=/tmp/x") {
		t.Error("the guard's own variables must reach the judge")
	}
}

// The warm-up run while the judge works must do the real work: its
// answer encodes and decodes for every host (else it warms nothing).
func TestWarmUpRoundTrips(t *testing.T) {
	for _, name := range hostproto.Names() {
		h, _ := hostproto.Lookup(name)
		if err := warmUp(h); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}
