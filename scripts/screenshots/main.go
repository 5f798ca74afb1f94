// Command screenshots takes the README's pictures from the real app under
// a private Xvfb: docs/dialog.png is the approval dialog the running tray
// opens for a confirm-level call sent through the real agent-guard-hook;
// docs/menu.png is the tray's menu. Xvfb has no tray host to open the
// systray menu, so the running tray writes its live menu state
// (AGENT_GUARD_MENU_SNAPSHOT) and `agent-guard ui-menu` draws it from the
// same menu model the systray is built from. Needs Xvfb, xdotool and
// ImageMagick's import. Run via scripts/screenshots.sh.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

var env []string

func main() {
	log.SetFlags(0)
	log.SetPrefix("screenshots: ")
	for _, tool := range []string{"Xvfb", "xdotool", "import"} {
		if _, err := exec.LookPath(tool); err != nil {
			die("%s is not installed (apt-get install xvfb xdotool imagemagick)", tool)
		}
	}
	tmp, err := os.MkdirTemp("", "agent-guard-shots-")
	if err != nil {
		die("%v", err)
	}
	atExit(func() { os.RemoveAll(tmp) })
	bin, hook := filepath.Join(tmp, "agent-guard"), filepath.Join(tmp, "agent-guard-hook")
	for out, pkg := range map[string]string{bin: "./cmd/agent-guard", hook: "./cmd/agent-guard-hook"} {
		run("go", "build", "-o", out, pkg)
	}

	display, stopX := xvfb()
	atExit(stopX)
	home := filepath.Join(tmp, "home")
	must(os.MkdirAll(home, 0o700))
	must(os.WriteFile(filepath.Join(home, "config.json"),
		[]byte(`{"full_access":"always","approval":{"timeout_seconds":120,"mode":"dialog"}}`), 0o600))
	snap := filepath.Join(tmp, "menu.json")
	env = append(os.Environ(), "DISPLAY="+display,
		"AGENT_GUARD_HOME="+home, "AGENT_GUARD_PIPE="+filepath.Join(tmp, "pipe.sock"),
		"AGENT_GUARD_MENU_SNAPSHOT="+snap, "HOME="+tmp, "TYPESAFE_API_KEY=",
		"DBUS_SESSION_BUS_ADDRESS=unix:path="+filepath.Join(tmp, "no-bus"))

	tray := exec.Command(bin)
	tray.Env = env
	trayLog, _ := os.Create(filepath.Join(tmp, "tray.log"))
	tray.Stdout, tray.Stderr = trayLog, trayLog
	must(tray.Start())
	atExit(func() { stop(tray) })
	waitFor("the tray's pipe", func() bool { _, err := os.Stat(filepath.Join(tmp, "pipe.sock")); return err == nil })

	// An ordinary call first, so the menu has a last decision to show.
	hookCall(hook, "git status", "/home/dev/shop")
	// The confirm-level call the dialog is about; it waits for an answer.
	pending := exec.Command(hook, "--host", "claude", "--deadline", "135s", "--dial-timeout", "3s")
	pending.Env = env
	pending.Stdin = strings.NewReader(event("cd /home/dev/shop && git reset --hard HEAD~3", "/home/dev/shop"))
	must(pending.Start())
	atExit(func() { stop(pending) })

	dialog := window("^agent-guard — approve")
	time.Sleep(1500 * time.Millisecond) // the countdown has ticked; fonts are in
	must(os.MkdirAll("docs", 0o755))
	run("import", "-display", display, "-window", dialog, "docs/dialog.png")

	waitFor("the tray's menu state with the pending call", func() bool {
		b, err := os.ReadFile(snap)
		return err == nil && bytes.Contains(b, []byte(`"Pending":[{`))
	})
	state, _ := os.ReadFile(snap)
	menu := exec.Command(bin, "ui-menu")
	menu.Env = env
	menu.Stdin = bytes.NewReader(append(state, '\n'))
	must(menu.Start())
	atExit(func() { stop(menu) })
	mw := window("^agent-guard — tray menu")
	time.Sleep(1500 * time.Millisecond)
	run("import", "-display", display, "-window", mw, "docs/menu.png")

	// Deny the pending call with Esc, as a user would.
	xdo("windowfocus", "--sync", dialog)
	xdo("key", "--clearmodifiers", "Escape")
	runCleanups()
	fmt.Println("wrote docs/dialog.png and docs/menu.png")
}

func event(cmd, cwd string) string {
	b, _ := json.Marshal(map[string]any{
		"hook_event_name": "PreToolUse", "session_id": "screenshots", "cwd": cwd, "tool_name": "Bash",
		"tool_input": map[string]string{"command": cmd}, "permission_mode": "bypassPermissions",
	})
	return string(b)
}

func hookCall(hook, cmd, cwd string) {
	c := exec.Command(hook, "--host", "claude", "--dial-timeout", "3s")
	c.Env = env
	c.Stdin = strings.NewReader(event(cmd, cwd))
	if out, err := c.CombinedOutput(); err != nil {
		die("hook: %v %s", err, out)
	}
}

func xvfb() (string, func()) {
	r, w, err := os.Pipe()
	must(err)
	x := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp")
	x.ExtraFiles = []*os.File{w}
	must(x.Start())
	w.Close()
	stopX := func() { _ = x.Process.Kill(); _ = x.Wait() }
	s := bufio.NewScanner(r)
	if !s.Scan() {
		stopX()
		die("Xvfb did not report a display")
	}
	return ":" + strings.TrimSpace(s.Text()), stopX
}

func window(name string) string {
	var id string
	waitFor("window "+name, func() bool {
		c := exec.Command("xdotool", "search", "--name", name)
		c.Env = env
		out, err := c.Output()
		if err != nil || len(bytes.TrimSpace(out)) == 0 {
			return false
		}
		id = strings.Fields(string(out))[0]
		return true
	})
	return id
}

func xdo(args ...string) {
	c := exec.Command("xdotool", args...)
	c.Env = env
	if out, err := c.CombinedOutput(); err != nil {
		log.Printf("xdotool %v: %v %s", args, err, out)
	}
}

func run(name string, args ...string) {
	c := exec.Command(name, args...)
	if env != nil {
		c.Env = env
	}
	c.Stdout, c.Stderr = os.Stderr, os.Stderr
	if err := c.Run(); err != nil {
		die("%s %v: %v", name, args, err)
	}
}

func waitFor(what string, cond func() bool) {
	deadline := time.Now().Add(60 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			die("timed out waiting for %s", what)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func must(err error) {
	if err != nil {
		die("%v", err)
	}
}

// Cleanups run on every exit path, so a failed run leaves no X server or
// tray behind.
var cleanups []func()

func atExit(f func()) { cleanups = append(cleanups, f) }

func runCleanups() {
	for i := len(cleanups) - 1; i >= 0; i-- {
		cleanups[i]()
	}
	cleanups = nil
}

func die(format string, args ...any) {
	log.Printf(format, args...)
	runCleanups()
	os.Exit(1)
}

// stop asks a child to end and makes sure it does.
func stop(c *exec.Cmd) {
	if c.Process == nil {
		return
	}
	_ = c.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { _ = c.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = c.Process.Kill()
		<-done
	}
}
