package doctor

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/install"
	"github.com/agent-guard/agent-guard/app/judge/typesafe"
)

// TestDoctorEveryHost: with every host's config folder present,
// `agent-guard install` (no host flag) installs into each, and doctor's
// round trip through the real hook, in each host's own dialect and read
// the way that host reads it, proves the red line is a deny the host
// honours: first with no server (the hook judges alone), then with
// `serve --headless`.
func TestDoctorEveryHost(t *testing.T) {
	if testing.Short() {
		t.Skip("builds binaries")
	}
	if runtime.GOOS == "windows" {
		t.Skip("unix socket paths in a temp dir")
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
		"CODEX_HOME=", "COPILOT_HOME=", "KIMI_CODE_HOME=",
		typesafe.KeyEnv+"=",
	)
	for _, d := range []string{".zcode", ".claude", ".codex", ".gemini", ".cursor", ".copilot", ".codeium/windsurf", ".qwen", ".kiro", ".factory", ".augment", ".kimi-code", ".config/opencode", "Documents/Cline", ".gemini/config", ".config/amp"} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) (string, int) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
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

	out, code := run("install")
	if code != 0 {
		t.Fatalf("install: exit %d\n%s", code, out)
	}
	for _, h := range install.AllHosts() {
		if !strings.Contains(out, install.Display(h)) {
			t.Errorf("install did not report %s:\n%s", h, out)
		}
	}
	for _, w := range []string{"installing into every host found here", "trust agent-guard's entry (press t)", "the hook verifies " + exe("agent-guard")} {
		if !strings.Contains(out, w) {
			t.Errorf("install output lacks %q:\n%s", w, out)
		}
	}

	check := func(stage string) {
		t.Helper()
		out, _ := run("doctor")
		for _, line := range strings.Split(out, "\n") {
			if strings.HasPrefix(line, FIX) && !strings.Contains(line, "tray: not reachable") {
				t.Errorf("%s: doctor: %s", stage, line)
			}
		}
		for _, h := range install.AllHosts() {
			d := install.Display(h)
			for _, w := range []string{
				"OK  round trip " + d + " (red line `" + redLineCommand + "`): deny honoured",
				"OK  round trip " + d + " (harmless `git status`): allow honoured",
				"NOTE " + d + ", when a hook fails: ",
			} {
				if !strings.Contains(out, w) {
					t.Errorf("%s: doctor lacks %q", stage, w)
				}
			}
		}
		if t.Failed() {
			t.Logf("%s doctor output:\n%s", stage, out)
		}
	}
	check("no server")

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
	check("server up")
	if out, _ := run("doctor"); !strings.Contains(out, "OK  tray: reachable") {
		t.Errorf("tray not reachable with serve up:\n%s", out)
	}
}
