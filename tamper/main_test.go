// Package tamper_test drives the routes by which an agent running as the
// same user could switch its guard off or get around it (issue 9) through
// the real binaries: `agent-guard check --batch` and a real
// `serve --headless` with the real hook, each test in its own temporary
// HOME and AGENT_GUARD_HOME, offline. The files the routes need (a stage
// folder holding .claude/settings.json, real tar and zip archives, a
// symlink, a running server's pid) are made on disk.
//
// SAFETY: the commands are strings the judge reads; nothing here runs
// them.
package tamper_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/pipe"
	"github.com/agent-guard/agent-guard/internal/testbin"
)

var (
	binDir   string // the "installed" binaries
	guardBin string
	hookBin  string
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "agent-guard-tamper-bin")
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
		binDir = dir
		guardBin = filepath.Join(dir, "agent-guard"+exe)
		hookBin = filepath.Join(dir, "agent-guard-hook"+exe)
		judge := filepath.Join(dir, "agent-guard-judge"+exe) // the hook's fallback, beside it
		for bin, pkg := range map[string]string{hookBin: "./cmd/agent-guard-hook", guardBin: "./cmd/agent-guard", judge: "./cmd/agent-guard-judge"} {
			// Prebuilt where there is no Go toolchain (under wine).
			if ok, err := testbin.Install(bin); ok {
				if err != nil {
					fmt.Fprintln(os.Stderr, "tamper:", err)
					return 1
				}
				continue
			}
			cmd := exec.Command("go", "build", "-tags", "nogui", "-o", bin, pkg)
			cmd.Dir = ".."
			cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
			if out, err := cmd.CombinedOutput(); err != nil {
				fmt.Fprintf(os.Stderr, "tamper: building %s: %v\n%s", pkg, err, out)
				return 1
			}
		}
		return m.Run()
	}()
	os.Exit(code)
}

// env is one user's machine: a home with the guard installed into Claude
// Code by the real `agent-guard install --claude`, a project folder, its
// own AGENT_GUARD_HOME and socket.
type env struct {
	home, work, guardHome, pipe string
	vars                        []string
}

func newEnv(t *testing.T) *env {
	t.Helper()
	root := t.TempDir()
	sockDir, err := os.MkdirTemp("", "agt")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(sockDir) })
	e := &env{
		home:      filepath.Join(root, "home"),
		guardHome: filepath.Join(root, "guard"),
		pipe:      filepath.Join(sockDir, "s.sock"),
	}
	if runtime.GOOS == "windows" {
		// A named pipe there, one per test (the folder's unique name).
		e.pipe = `\\.\pipe\agent-guard-tamper-` + filepath.Base(sockDir)
	}
	e.work = filepath.Join(e.home, "work")
	for _, d := range []string{e.work, filepath.Join(e.home, ".claude"), e.guardHome} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	e.vars = append(os.Environ(),
		"HOME="+e.home, "USERPROFILE="+e.home,
		"AGENT_GUARD_HOME="+e.guardHome, "AGENT_GUARD_PIPE="+e.pipe,
		"XDG_CONFIG_HOME=", "XDG_STATE_HOME=", "XDG_CACHE_HOME=",
		"TYPESAFE_API_KEY=", "AGENT_GUARD_HOOK_DEADLINE=",
	)
	if out, err := e.run(guardBin, "install", "--claude").CombinedOutput(); err != nil {
		t.Fatalf("install --claude: %v\n%s", err, out)
	}
	if b, err := os.ReadFile(filepath.Join(e.home, ".claude", "settings.json")); err != nil || !bytes.Contains(b, []byte(filepath.ToSlash(hookBin))) { // Claude Code's line has / (Git Bash on Windows)
		t.Fatalf("install did not write our hook into settings.json (%v): %s", err, b)
	}
	return e
}

func (e *env) run(bin string, args ...string) *exec.Cmd {
	cmd := exec.Command(bin, args...)
	cmd.Env = e.vars
	cmd.Dir = e.work
	return cmd
}

// file writes content at rel (under the project unless absolute).
func (e *env) file(t *testing.T, rel, content string) string {
	t.Helper()
	p := rel
	if !filepath.IsAbs(p) {
		p = filepath.Join(e.work, rel)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// verdict is one line of check --batch output.
type verdict struct {
	Level  string `json:"level"`
	Source string `json:"source"`
	Rule   string `json:"rule"`
	Reason string `json:"reason"`
	Error  string `json:"error"`
}

// call is one tool call to judge.
type call struct {
	Tool  string         `json:"tool_name"`
	Input map[string]any `json:"tool_input"`
	Cwd   string         `json:"cwd"`
}

func bash(cmd string) call { return call{Tool: "Bash", Input: map[string]any{"command": cmd}} }

// check judges calls with the real `agent-guard check --offline --batch -`.
func (e *env) check(t *testing.T, calls ...call) []verdict {
	t.Helper()
	var in bytes.Buffer
	for _, c := range calls {
		if c.Cwd == "" {
			c.Cwd = e.work
		}
		b, _ := json.Marshal(c)
		in.Write(b)
		in.WriteByte('\n')
	}
	cmd := e.run(guardBin, "check", "--offline", "--batch", "-")
	cmd.Stdin = &in
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("check --batch: %v\n%s", err, errb.String())
		}
	case <-ctx.Done():
		cmd.Process.Kill()
		t.Fatal("check --batch did not finish in 2 minutes")
	}
	var vs []verdict
	sc := bufio.NewScanner(&out)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		var v verdict
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("check output %q: %v", sc.Text(), err)
		}
		vs = append(vs, v)
	}
	if len(vs) != len(calls) {
		t.Fatalf("check answered %d of %d calls:\n%s\n%s", len(vs), len(calls), out.String(), errb.String())
	}
	return vs
}

// expect judges each call and wants the level (block: self-protection).
func (e *env) expect(t *testing.T, want string, calls ...call) {
	t.Helper()
	for i, v := range e.check(t, calls...) {
		c := calls[i]
		what := fmt.Sprint(c.Input["command"])
		if c.Tool != "Bash" {
			what = c.Tool + " " + fmt.Sprint(c.Input["file_path"])
		}
		switch want {
		case "self":
			if v.Level != "block" || v.Source != "self_protection" {
				t.Errorf("%.120s: got %s/%s %s (%s), want block by self-protection", what, v.Level, v.Source, v.Rule, v.Reason)
			}
		case "not-block":
			if v.Level == "block" {
				t.Errorf("%.120s: got block %s (%s), want everyday work not blocked", what, v.Rule, v.Reason)
			}
		default:
			if v.Level != want {
				t.Errorf("%.120s: got %s %s (%s), want %s", what, v.Level, v.Rule, v.Reason, want)
			}
		}
	}
}

// server starts a real `serve --headless` and waits until its socket answers.
func (e *env) server(t *testing.T) *exec.Cmd {
	t.Helper()
	cmd := e.run(guardBin, "serve", "--headless", "--offline")
	var logb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &logb, &logb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
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
			t.Fatalf("serve exited early:\n%s", logb.String())
		default:
		}
		if time.Now().After(end) {
			t.Fatalf("serve not reachable in 60 s: %v\n%s", err, logb.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// hook runs the real hook on one event and returns its decision, reason
// and how long it took.
func (e *env) hook(t *testing.T, c call) (string, string, time.Duration) {
	t.Helper()
	if c.Cwd == "" {
		c.Cwd = e.work
	}
	ev := map[string]any{"hook_event_name": "PreToolUse", "tool_name": c.Tool, "tool_input": c.Input, "cwd": c.Cwd,
		"session_id": "tamper", "permission_mode": "bypassPermissions"}
	b, _ := json.Marshal(ev)
	cmd := e.run(hookBin)
	cmd.Stdin = bytes.NewReader(b)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	t0 := time.Now()
	if err := cmd.Run(); err != nil {
		t.Fatalf("hook: %v\n%s", err, errb.String())
	}
	took := time.Since(t0)
	var d struct {
		H struct {
			Decision string `json:"permissionDecision"`
			Reason   string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out.Bytes(), &d); err != nil {
		t.Fatalf("hook output %q: %v", out.String(), err)
	}
	return d.H.Decision, d.H.Reason, took
}
