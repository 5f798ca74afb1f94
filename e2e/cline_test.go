package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/install"
)

// runShell runs a host's hook the way the host does (a file Cline
// executes; a command line Antigravity CLI hands to the shell) with the
// host's event on stdin.
func runShell(t *testing.T, e *env, stdin []byte, name string, args ...string) hookRun {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Env, cmd.Dir = e.vars, e.home
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	for i := 0; i < 50 && err != nil && strings.Contains(err.Error(), "text file busy"); i++ {
		// A file written a moment ago can still be open in a process
		// another parallel test forked meanwhile (golang/go#22315).
		time.Sleep(20 * time.Millisecond)
		cmd = exec.CommandContext(ctx, name, args...)
		cmd.Env, cmd.Dir = e.vars, e.home
		cmd.Stdin = bytes.NewReader(stdin)
		out.Reset()
		errb.Reset()
		cmd.Stdout, cmd.Stderr = &out, &errb
		err = cmd.Run()
	}
	r := hookRun{stdout: out.String(), stderr: errb.String()}
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("%s did not run: %v", name, err)
		}
		r.code = ee.ExitCode()
	}
	return r
}

// Cline: `agent-guard install --cline`'s hook file, run as Cline runs it
// (an executable file; PowerShell on Windows) with Cline's PreToolUse
// event: a red line, a write to the hook file itself and an MCP call are
// cancelled with a reason, git status and read_file proceed, and a hook
// file whose agent-guard-hook is gone cancels everything.
func TestClineHookFile(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	// The guard's own folder elsewhere, so the home is the user's alone.
	e.vars = append(e.vars, "AGENT_GUARD_HOME="+t.TempDir())
	hook := install.Hook{Path: hookBin, Guard: guardBin, Timing: install.TimingFor(30)}
	paths, err := install.ConfigPaths(e.home, install.Cline)
	if err != nil {
		t.Fatal(err)
	}
	file := paths[0]
	if _, err := install.Install(install.Cline, file, hook, install.Options{}); err != nil {
		t.Fatal(err)
	}
	run := func(file string, stdin []byte) hookRun {
		if runtime.GOOS == "windows" {
			ps, err := exec.LookPath("powershell")
			if err != nil {
				t.Skip("no powershell to run PreToolUse.ps1")
			}
			return runShell(t, e, stdin, ps, "-NoProfile", "-ExecutionPolicy", "Bypass", "-File", file)
		}
		return runShell(t, e, stdin, file)
	}
	event := func(tool string, params map[string]any) []byte {
		b, _ := json.Marshal(map[string]any{"clineVersion": "3.36.0", "hookName": "PreToolUse", "timestamp": "1767225600000",
			"taskId": "cline-e2e", "workspaceRoots": []string{filepath.Join(e.home, "proj")}, "userId": "u1",
			"preToolUse": map[string]any{"toolName": tool, "parameters": params}})
		return b
	}
	answer := func(file string, stdin []byte) (cancel bool, msg string) {
		t.Helper()
		r := run(file, stdin)
		var out struct {
			Cancel              bool   `json:"cancel"`
			ContextModification string `json:"contextModification"`
			ErrorMessage        string `json:"errorMessage"`
		}
		dec := json.NewDecoder(strings.NewReader(r.stdout))
		dec.DisallowUnknownFields()
		if r.code != 0 || dec.Decode(&out) != nil {
			t.Fatalf("Cline cannot read the answer: stdout %q stderr %q exit %d", r.stdout, r.stderr, r.code)
		}
		return out.Cancel, out.ErrorMessage
	}
	for _, c := range []struct {
		name   string
		stdin  []byte
		cancel bool
	}{
		{"red line", event("execute_command", map[string]any{"command": "rm -rf /", "requires_approval": "true"}), true},
		{"hook file overwritten", event("write_to_file", map[string]any{"path": file, "content": "#!/bin/sh\necho '{\"cancel\":false}'\n"}), true},
		{"hook file edited", event("replace_in_file", map[string]any{"path": file, "diff": "------- SEARCH\nexec\n=======\n# exec\n+++++++ REPLACE"}), true},
		{"hook file removed", event("execute_command", map[string]any{"command": "rm " + file, "requires_approval": "false"}), true},
		{"harmless", event("execute_command", map[string]any{"command": "git status", "requires_approval": "false"}), false},
		{"another file removed", event("execute_command", map[string]any{"command": "rm " + filepath.Join(filepath.Dir(file), "notes.txt"), "requires_approval": "false"}), false},
		{"not judged", event("read_file", map[string]any{"path": "README.md"}), false},
		{"unreadable", []byte(`{"hookName":"PreToolUse"}`), true},
	} {
		cancel, msg := answer(file, c.stdin)
		if cancel != c.cancel || (cancel && !strings.Contains(msg, "agent-guard")) {
			t.Errorf("%s: cancel=%v %q, want cancel=%v", c.name, cancel, msg, c.cancel)
		}
	}

	// The hook binary gone: the file still answers, with a refusal.
	gone := filepath.Join(t.TempDir(), filepath.Base(file))
	if _, err := install.Install(install.Cline, gone, install.Hook{Path: filepath.Join(t.TempDir(), "agent-guard-hook"), Guard: guardBin, Timing: install.TimingFor(30)}, install.Options{}); err != nil {
		t.Fatal(err)
	}
	if cancel, msg := answer(gone, event("execute_command", map[string]any{"command": "git status"})); !cancel || !strings.Contains(msg, "missing") {
		t.Errorf("hook binary gone: cancel=%v %q", cancel, msg)
	}
}

// Antigravity CLI: the command `agent-guard install --antigravity` puts in
// ~/.gemini/config/hooks.json, run through the shell with Antigravity's
// event: a red line and an edit of hooks.json are denied as
// {"decision":"deny","reason"}, git status gets no output (proceed).
func TestAntigravityHooksJSON(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("the command line is run through sh here")
	}
	e := newEnv(t)
	e.vars = append(e.vars, "AGENT_GUARD_HOME="+t.TempDir())
	hook := install.Hook{Path: hookBin, Guard: guardBin, Timing: install.TimingFor(30)}
	paths, err := install.ConfigPaths(e.home, install.Antigravity)
	if err != nil {
		t.Fatal(err)
	}
	cfg := paths[0]
	if err := os.MkdirAll(filepath.Dir(cfg), 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(cfg, []byte(`{"other": {"enabled": true, "PreToolUse": [{"hooks": [{"type": "command", "command": "true", "timeout": 5}]}]}}`), 0o600)
	if _, err := install.Install(install.Antigravity, cfg, hook, install.Options{}); err != nil {
		t.Fatal(err)
	}
	var sets map[string]struct {
		Enabled    bool `json:"enabled"`
		PreToolUse []struct {
			Hooks []struct{ Type, Command string }
		}
	}
	data, _ := os.ReadFile(cfg)
	if err := json.Unmarshal(data, &sets); err != nil || !sets["agent-guard"].Enabled || sets["other"].PreToolUse == nil {
		t.Fatalf("hooks.json after install: %s (%v)", data, err)
	}
	command := sets["agent-guard"].PreToolUse[0].Hooks[0].Command
	event := func(name string, args map[string]any) []byte {
		b, _ := json.Marshal(map[string]any{"conversationId": "agy-e2e", "workspacePaths": []string{filepath.Join(e.home, "proj")},
			"transcriptPath": filepath.Join(e.home, "t.jsonl"), "stepIdx": 4, "toolCall": map[string]any{"name": name, "args": args}})
		return b
	}
	for _, c := range []struct {
		name  string
		stdin []byte
		deny  bool
	}{
		{"red line", event("run_command", map[string]any{"CommandLine": "rm -rf /", "Cwd": e.home}), true},
		{"hooks.json emptied", event("run_command", map[string]any{"CommandLine": "echo '{}' > " + cfg, "Cwd": e.home}), true},
		{"hooks.json rewritten", event("write_to_file", map[string]any{"TargetFile": cfg, "CodeContent": "{}"}), true},
		{"harmless", event("run_command", map[string]any{"CommandLine": "git status", "Cwd": e.home}), false},
		{"another file emptied", event("run_command", map[string]any{"CommandLine": "echo '{}' > " + filepath.Join(filepath.Dir(cfg), "notes.json"), "Cwd": e.home}), false},
		{"not judged", event("view_file", map[string]any{"AbsolutePath": cfg}), false},
		{"unreadable", []byte(`{"conversationId":"x"}`), true},
	} {
		r := runShell(t, e, c.stdin, "sh", "-c", command)
		if r.code != 0 {
			t.Errorf("%s: exit %d (%q)", c.name, r.code, r.stderr)
			continue
		}
		if !c.deny {
			if r.stdout != "" {
				t.Errorf("%s: printed %q, want nothing (proceed)", c.name, r.stdout)
			}
			continue
		}
		var out struct{ Decision, Reason string }
		dec := json.NewDecoder(strings.NewReader(r.stdout))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&out); err != nil || out.Decision != "deny" || !strings.Contains(out.Reason, "agent-guard") {
			t.Errorf("%s: %q (%v), want a deny with a reason", c.name, r.stdout, err)
		}
	}
}
