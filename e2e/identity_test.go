//go:build linux

package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// startChild runs cmd until the test ends and waits for its READY line.
func startChild(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(out)
	if !sc.Scan() || sc.Text() != "READY" {
		t.Fatalf("impostor did not start: %q", sc.Text())
	}
}

func (e *env) impostor(t *testing.T) {
	cmd := exec.Command(testBin(t))
	cmd.Env = append(e.vars, "E2E_IMPOSTOR="+e.pipe)
	startChild(t, cmd)
}

// genuineElsewhere runs the real agent-guard binary at bin on e's pipe,
// but with its own config home holding a switched-off config: the agent
// starting the guard for itself.
func (e *env) genuineElsewhere(t *testing.T, bin string) {
	other := t.TempDir()
	off := `{"enabled": false, "red_lines_when_disabled": false}`
	if err := os.WriteFile(filepath.Join(other, "config.json"), []byte(off), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "serve", "--headless", "--offline", "--pipe", e.pipe)
	cmd.Env = append(e.vars, "AGENT_GUARD_HOME="+other)
	var errb syncBuffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	waitListening(t, e.pipe, &errb)
}

func waitListening(t *testing.T, path string, log *syncBuffer) {
	t.Helper()
	if !waitUntil(func() bool {
		fi, err := os.Lstat(path)
		return err == nil && fi.Mode()&os.ModeSocket != 0
	}) {
		t.Fatalf("no socket at %s: %s", path, log.String())
	}
}

func copyBinary(t *testing.T, src string) string {
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(t.TempDir(), "agent-guard")
	if err := os.WriteFile(dst, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestImpostorIsNeverUsed: whoever serves the socket, only the genuine
// agent-guard (guardBin, beside the hook) serving this config home is
// believed. An impostor's allow is never printed; the hook judges through
// its fallback, says why, and audits it as the fallback.
func TestImpostorIsNeverUsed(t *testing.T) {
	ss := samples(t)
	cases := []struct {
		name  string
		setup func(t *testing.T, e *env)
		why   string
	}{
		{"beside a running server", func(t *testing.T, e *env) { e.server(t); e.impostor(t) }, "another executable"},
		{"after the server died", func(t *testing.T, e *env) {
			srv := e.server(t)
			stopProcess(srv)
			// e.server's goroutine reaps it; then the pid is gone.
			if !waitUntil(func() bool { return syscall.Kill(srv.Process.Pid, 0) != nil }) {
				t.Fatal("the server did not stop")
			}
			e.impostor(t)
		}, "another executable"},
		{"a copy of agent-guard", func(t *testing.T, e *env) { e.genuineElsewhere(t, copyBinary(t, guardBin)) }, "another executable"},
		{"agent-guard with another config home", func(t *testing.T, e *env) { e.genuineElsewhere(t, guardBin) }, "config home"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			c.setup(t, e)
			for i, s := range ss {
				r := e.hook(t, withFields(t, s.Event, map[string]any{"session_id": fmt.Sprintf("imp-%d", i)}))
				got, reason := decision(t, r)
				if strings.Contains(reason, "IMPOSTOR") || !strings.Contains(reason, "it was ignored") || !strings.Contains(reason, c.why) || !strings.Contains(reason, guardBin) {
					t.Fatalf("sample %d: the impostor's answer was used or not named: %s %s", i, got, reason)
				}
				if want := rendered(s.Expect, true); got != want {
					t.Errorf("sample %d (%s): %s, want %s: %s", i, s.Expect, got, want, reason)
				}
			}
			for _, l := range e.auditLines(t, len(ss)) {
				if l["source"] != "fallback" || !strings.Contains(fmt.Sprint(l["reason"]), "it was ignored") {
					b, _ := json.Marshal(l)
					t.Errorf("audit line not the fallback's: %s", b)
				}
			}
		})
	}
}

// The genuine server at the --guard path is believed, wherever it lives.
func TestGuardFlagNamesTheGenuineBinary(t *testing.T) {
	e := newEnv(t)
	moved := copyBinary(t, guardBin)
	e.genuineElsewhere(t, moved) // another home: still refused ...
	r := e.hook(t, withFields(t, samples(t)[0].Event, nil), "--guard", moved)
	if _, reason := decision(t, r); !strings.Contains(reason, "config home") {
		t.Fatalf("%s", reason)
	}
	e2 := newEnv(t)
	cmd := exec.Command(moved, "serve", "--headless", "--offline")
	cmd.Env = e2.vars
	var errb syncBuffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	waitListening(t, e2.pipe, &errb)
	// ... and with the right home it is the server, not the fallback.
	if _, reason := decision(t, e2.hook(t, withFields(t, samples(t)[0].Event, nil), "--guard", moved)); strings.Contains(reason, "ignored") {
		t.Fatalf("genuine server at --guard refused: %s", reason)
	}
	if l := e2.auditLines(t, 1); l[0]["source"] == "fallback" {
		t.Fatalf("answered by the fallback: %v", l[0])
	}
	// Without --guard the hook trusts only guardBin beside it.
	if _, reason := decision(t, e2.hook(t, withFields(t, samples(t)[0].Event, nil))); !strings.Contains(reason, "another executable") {
		t.Fatalf("%s", reason)
	}
}

// doctor names the impostor the hook ignores.
func TestDoctorReportsImpostor(t *testing.T) {
	e := newEnv(t)
	e.impostor(t)
	cmd := exec.Command(guardBin, "doctor")
	cmd.Env = e.vars
	out, _ := cmd.CombinedOutput()
	if !strings.Contains(string(out), "FIX tray: the process serving "+e.pipe) || !strings.Contains(string(out), "it was ignored") {
		t.Fatalf("doctor did not report the impostor:\n%s", out)
	}
}
