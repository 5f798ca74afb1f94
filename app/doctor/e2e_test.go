package doctor

import (
	"bytes"
	"context"
	"github.com/agent-guard/agent-guard/internal/testbin"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/judge/typesafe"
	"github.com/agent-guard/agent-guard/app/pipe"
)

// TestDoctorEndToEnd builds the real binaries (headless, no cgo), runs
// doctor on a fresh home (it must fail and say what is missing), installs
// into ZCode and Claude Code from the release layout (hook next to
// agent-guard), starts `serve --headless`, and expects doctor to pass,
// including the live round trips through the real hook.
func TestDoctorEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds binaries")
	}
	if runtime.GOOS == "windows" {
		t.Skip("unix socket paths in a temp dir; the Windows pipe is covered by app/pipe")
	}
	bin := t.TempDir()
	exe := func(name string) string { return filepath.Join(bin, name) }
	build(t, exe("agent-guard"), "-tags", "nogui", "github.com/agent-guard/agent-guard/cmd/agent-guard")
	build(t, exe("agent-guard-hook"), "github.com/agent-guard/agent-guard/cmd/agent-guard-hook")
	build(t, exe("agent-guard-judge"), "github.com/agent-guard/agent-guard/cmd/agent-guard-judge")

	home := t.TempDir()
	sock := filepath.Join(home, "guard.sock")
	env := append(os.Environ(),
		"HOME="+home, "USERPROFILE="+home,
		"AGENT_GUARD_HOME="+filepath.Join(home, "guard"),
		"AGENT_GUARD_PIPE="+sock,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_STATE_HOME="+filepath.Join(home, ".state"),
		typesafe.KeyEnv+"=",
	)
	run := func(args ...string) (string, int) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, exe("agent-guard"), args...)
		cmd.Env, cmd.Dir = env, home
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%v: %v", args, err)
		}
		return out.String(), code
	}

	// 1. Fresh home: doctor fails and names what is missing.
	out, code := run("doctor")
	if code != 1 {
		t.Fatalf("doctor on a fresh home: exit %d, want 1\n%s", code, out)
	}
	for _, w := range []string{"FIX no agent is guarded", "FIX tray: not reachable", "start agent-guard"} {
		if !strings.Contains(out, w) {
			t.Errorf("fresh doctor lacks %q:\n%s", w, out)
		}
	}

	// 2. Install into both hosts; the hook is found beside agent-guard.
	out, code = run("install", "--zcode", "--claude")
	if code != 0 {
		t.Fatalf("install: exit %d\n%s", code, out)
	}
	if !strings.Contains(out, exe("agent-guard-hook")) {
		t.Errorf("install did not use the hook beside agent-guard:\n%s", out)
	}

	// 3. Start the headless server on the temp socket.
	ctx, cancel := context.WithCancel(context.Background())
	serve := exec.CommandContext(ctx, exe("agent-guard"), "serve", "--headless")
	serve.Env, serve.Dir = env, home
	var serveLog bytes.Buffer
	serve.Stdout, serve.Stderr = &serveLog, &serveLog
	serve.Cancel = func() error { return serve.Process.Signal(os.Interrupt) }
	serve.WaitDelay = 10 * time.Second
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		serve.Wait()
		if t.Failed() {
			t.Logf("serve output:\n%s", serveLog.String())
		}
	})
	waitForPipe(t, sock)

	// 4. Everything is in place: doctor passes, round trips included.
	out, code = run("doctor")
	if code != 0 || strings.Contains(out, "FIX") {
		t.Fatalf("doctor after install + serve: exit %d\n%s", code, out)
	}
	for _, w := range []string{
		"OK  ZCode (user): hook installed", "OK  Claude Code: hook installed",
		"OK  ZCode (user): timeouts consistent: host 145s > hook deadline 135s > approval 120s",
		"OK  tray: reachable on " + sock,
		"OK  round trip ZCode (harmless `git status`): allow honoured",
		"OK  round trip Claude Code (red line `" + redLineCommand + "`): deny honoured",
		"OK  round trip ZCode (red line `" + redLineCommand + "`): deny honoured",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("doctor lacks %q:\n%s", w, out)
		}
	}

	// 5. Uninstall ZCode: doctor --zcode fails again and says how to fix it.
	if out, code := run("uninstall", "--zcode"); code != 0 {
		t.Fatalf("uninstall: exit %d\n%s", code, out)
	}
	out, code = run("doctor", "--zcode")
	if code != 1 || !strings.Contains(out, "FIX ZCode (user): the agent-guard hook is not in") {
		t.Errorf("doctor --zcode after uninstall: exit %d\n%s", code, out)
	}
}

func build(t *testing.T, out string, args ...string) {
	t.Helper()
	if ok, err := testbin.Install(out); ok {
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	cmd := exec.Command("go", append([]string{"build", "-o", out}, args...)...)
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %v: %v\n%s", args, err, b)
	}
}

func waitForPipe(t *testing.T, sock string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		c, err := pipe.Dial(ctx, sock)
		cancel()
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve --headless did not listen on %s within 60s: %v", sock, err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
