package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/pipe"
)

// guardVerb runs `agent-guard ARGS...` in e's home with stdin.
func (e *env) guardVerb(t *testing.T, stdin string, args ...string) (string, int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, guardBin, args...)
	cmd.Env = e.vars
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("agent-guard %v: %v", args, err)
	}
	return out.String(), code
}

// serveLogged is e.server with its stderr kept for the test to read.
func (e *env) serveLogged(t *testing.T) *syncBuffer {
	t.Helper()
	cmd := exec.Command(guardBin, "serve", "--headless")
	cmd.Env = e.vars
	var errb syncBuffer
	cmd.Stdout, cmd.Stderr = &errb, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		stopProcess(cmd)
		select {
		case <-exited:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
		}
		if t.Failed() {
			t.Logf("serve output:\n%s", errb.String())
		}
	})
	for end := time.Now().Add(60 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		c, err := pipe.Dial(ctx, e.pipe)
		cancel()
		if err == nil {
			c.Close()
			return &errb
		}
		select {
		case err := <-exited:
			t.Fatalf("serve exited early (%v):\n%s", err, errb.String())
		default:
		}
		if time.Now().After(end) {
			t.Fatalf("serve not reachable: %v", err)
		}
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	if !waitUntil(cond) {
		t.Fatalf("timed out waiting for %s", what)
	}
}

// Issue 9's done-when, headless: a disk edit that switches the guard off
// leaves the next confirm-level call denied, serve says why and how to
// accept, and `agent-guard config accept` (typed "yes") puts it in force.
func TestServeHoldsWeakeningUntilAccepted(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	log := e.serveLogged(t)
	confirm := withFields(t, samples(t)[4].Event, nil) // git reset --hard: confirm
	if got, reason := decision(t, e.hook(t, confirm)); got != "deny" {
		t.Fatalf("before: %s %s", got, reason)
	}
	path := filepath.Join(e.home, "config.json")
	if err := os.WriteFile(path, []byte(`{"enabled": false, "red_lines_when_disabled": false}`), 0o600); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "serve to log the held change", func() bool {
		return strings.Contains(log.String(), "config change held") && strings.Contains(log.String(), "agent-guard config accept")
	})
	if got, reason := decision(t, e.hook(t, confirm)); got != "deny" {
		t.Fatalf("after the disk edit, before accept: %s %s", got, reason)
	}
	out, code := e.guardVerb(t, "", "config", "show-pending")
	if code != 0 || !strings.Contains(out, "enabled: true -> false") || !strings.Contains(out, "red_lines_when_disabled") {
		t.Fatalf("show-pending (%d):\n%s", code, out)
	}
	// Anything but "yes" accepts nothing.
	if out, code := e.guardVerb(t, "y\n", "config", "accept"); code != 1 || !strings.Contains(out, "Nothing accepted") {
		t.Fatalf("accept without yes (%d):\n%s", code, out)
	}
	if got, _ := decision(t, e.hook(t, confirm)); got != "deny" {
		t.Fatalf("after a declined accept: %s", got)
	}
	if out, code := e.guardVerb(t, "yes\n", "config", "accept"); code != 0 || !strings.Contains(out, "Accepted") {
		t.Fatalf("accept (%d):\n%s", code, out)
	}
	waitFor(t, "the accepted config in force", func() bool {
		got, _ := decision(t, e.hook(t, confirm))
		return got == "allow"
	})
}

// With no server, the hook's in-process fallback holds the change too,
// and `config reject` puts the file back.
func TestFallbackHoldsWeakeningAndRejectRestores(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	confirm := withFields(t, samples(t)[4].Event, nil)
	if got, reason := decision(t, e.hook(t, confirm)); got != "deny" {
		t.Fatalf("before: %s %s", got, reason)
	}
	path := filepath.Join(e.home, "config.json")
	if err := os.WriteFile(path, []byte(`{"approval": {"mode": "agent", "timeout_seconds": 120}, "full_access": "never"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, reason := decision(t, e.hook(t, confirm)); got != "deny" {
		t.Fatalf("fallback after the edit: %s %s", got, reason)
	}
	if out, code := e.guardVerb(t, "", "config", "reject"); code != 0 || !strings.Contains(out, "Rejected 2 change(s)") {
		t.Fatalf("reject (%d):\n%s", code, out)
	}
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), `"agent"`) || strings.Contains(string(data), `"never"`) {
		t.Fatalf("config.json after reject:\n%s", data)
	}
	if out, _ := e.guardVerb(t, "", "config", "show-pending"); !strings.Contains(out, "No config change waits") {
		t.Fatalf("show-pending after reject:\n%s", out)
	}
}
