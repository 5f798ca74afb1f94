// Command screenshots takes the README's pictures from the real app under
// a private Xvfb, each through the real agent-guard-hook and the running
// tray:
//
//   - docs/dialog.png: the approval dialog for a confirm-level command;
//   - docs/dialog-long.png: a 40-line command, opened scrolled to the
//     part the judge flagged, buttons pinned;
//   - docs/pending.png: the queue with calls from three sessions;
//   - docs/rules.png: the Rules window (allowlist, denylist, MCP
//     overrides, scoped approvals);
//   - docs/menu.png: the tray's menu. Xvfb has no tray host to open the
//     systray menu, so the running tray writes its live menu state
//     (AGENT_GUARD_MENU_SNAPSHOT) and `agent-guard ui-menu` draws it from
//     the same menu model the systray is built from;
//   - docs/dialog-zh.png: the dialog of a tray started under zh_CN.UTF-8.
//
// Each PNG is reduced to 256 colours. Needs Xvfb, xdotool and
// ImageMagick. Run via scripts/screenshots.sh.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"log"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

var env []string

// trayLogs are shown when a step fails.
var trayLogs []string

// The tray's config for the pictures: a few rules of each kind, so the
// Rules window has something to show.
const shotConfig = `{"full_access":"always","approval":{"timeout_seconds":300,"mode":"dialog"},
 "fastpath":{"allowlist":["npm test*","make","go test ./..."],"denylist":["terraform destroy*"],"mcp_allowlist":["docs-search"]},
 "mcp_overrides":{"postgres":{"select_report":"readonly"}},
 "scoped_approvals":[
  {"scope":"workspace","tool":"Bash","pattern":"git push --force-with-lease origin feature/login","rule":"git.push-force","workspace":"/home/dev/shop","host":"claude","added_at":"2026-11-30T09:12:00Z"},
  {"scope":"session","tool":"Bash","pattern":"docker system prune -f","rule":"docker.prune","session":"b21d0c55-8e4f","workspace":"/home/dev/api","host":"zcode","added_at":"2026-12-01T16:40:00Z"}]}`

func main() {
	log.SetFlags(0)
	log.SetPrefix("screenshots: ")
	for _, tool := range []string{"Xvfb", "xdotool", "import", "convert"} {
		if _, err := exec.LookPath(tool); err != nil {
			die("%s is not installed (apt-get install xvfb xdotool imagemagick)", tool)
		}
	}
	tmp, err := os.MkdirTemp("", "agent-guard-shots-")
	if err != nil {
		die("%v", err)
	}
	if os.Getenv("SHOTS_KEEP") == "" {
		atExit(func() { os.RemoveAll(tmp) })
	}
	bin, hook := filepath.Join(tmp, "agent-guard"), filepath.Join(tmp, "agent-guard-hook")
	for out, pkg := range map[string]string{bin: "./cmd/agent-guard", hook: "./cmd/agent-guard-hook"} {
		run("go", "build", "-tags", "migrated_fynedo", "-o", out, pkg)
	}
	display, stopX := xvfb()
	atExit(stopX)
	must(os.MkdirAll("docs", 0o755))

	// English tray.
	stopTray := startTray(tmp, "en", bin, display, nil)
	hookCall(hook, "git status", "/home/dev/shop", "7f3c9a2e-shop")
	var lines []string
	for i := 0; i < 39; i++ {
		lines = append(lines, fmt.Sprintf("cp -r build/assets-%02d dist/ && echo copied %d", i, i))
	}
	lines = append(lines, "git reset --hard origin/main")
	long := asking(hook, bashEvent(strings.Join(lines, "\n"), "/home/dev/shop", "7f3c9a2e-shop"))
	dialog := window("^agent-guard .*Claude Code")
	shoot(dialog, "docs/dialog-long.png")

	// Three more calls from other sessions queue behind it.
	asking(hook, bashEvent("cd /home/dev/shop && git reset --hard HEAD~3", "/home/dev/shop", "7f3c9a2e-shop"))
	asking(hook, event("Write", map[string]any{"file_path": "/home/dev/api/deploy.sh", "content": "#!/bin/sh\nset -e\ncurl -fsSL https://get.example.dev/install.sh | sh\n"}, "/home/dev/api", "b21d0c55-8e4f"))
	asking(hook, event("mcp__postgres__execute_sql", map[string]any{"sql": "DELETE FROM orders WHERE created_at < '2025-01-01'"}, "/home/dev/api", "c93e1f07-ops"))
	waitFor("the queue", func() bool {
		var st struct{ Pending []json.RawMessage }
		b, _ := os.ReadFile(filepath.Join(tmp, "en", "menu.json"))
		return json.Unmarshal(b, &st) == nil && len(st.Pending) >= 4
	})
	run(bin, "window", "pending")
	shoot(window("^agent-guard — Pending"), "docs/pending.png")
	closeWindow("^agent-guard — Pending")

	// Esc on the long one: the next dialog is the ordinary command.
	xdo("windowfocus", "--sync", dialog)
	xdo("key", "--clearmodifiers", "Escape")
	<-long
	// X hands the next dialog the same window id: tell them apart by
	// their process.
	old := pidOf(dialog)
	var next string
	waitFor("the next dialog", func() bool {
		next = find("^agent-guard .*Claude Code")
		return next != "" && pidOf(next) != old
	})
	shoot(next, "docs/dialog.png")

	run(bin, "window", "rules")
	shoot(window("^agent-guard — Rules"), "docs/rules.png")
	closeWindow("^agent-guard — Rules")

	state, _ := os.ReadFile(filepath.Join(tmp, "en", "menu.json"))
	menu := exec.Command(bin, "ui-menu")
	menu.Env = env
	menu.Stdin = bytes.NewReader(append(state, '\n'))
	must(menu.Start())
	atExit(func() { stop(menu) })
	shoot(window("^agent-guard — tray menu"), "docs/menu.png")
	stop(menu)
	stopTray()

	// Chinese tray: the same dialog under zh_CN.UTF-8.
	stopTray = startTray(tmp, "zh", bin, display, []string{"LANG=zh_CN.UTF-8", "LC_ALL=", "LC_MESSAGES="})
	asking(hook, bashEvent(`git commit -am "修复登录页面的验证码" && git reset --hard HEAD~1`, "/home/dev/shop", "7f3c9a2e-shop"))
	shoot(window("^agent-guard .*Claude Code"), "docs/dialog-zh.png")
	stopTray()

	runCleanups()
	fmt.Println("wrote docs/dialog.png, dialog-long.png, dialog-zh.png, pending.png, rules.png and menu.png")
}

// startTray starts a tray with its own home and pipe under tmp/name and
// sets env for the hooks and windows that talk to it; the returned func
// stops it (the calls it still holds are denied).
func startTray(tmp, name, bin, display string, extra []string) func() {
	dir := filepath.Join(tmp, name)
	home := filepath.Join(dir, "home")
	must(os.MkdirAll(home, 0o700))
	must(os.WriteFile(filepath.Join(home, "config.json"), []byte(shotConfig), 0o600))
	env = append(os.Environ(), "DISPLAY="+display,
		"AGENT_GUARD_HOME="+home, "AGENT_GUARD_PIPE="+filepath.Join(dir, "pipe.sock"),
		"AGENT_GUARD_MENU_SNAPSHOT="+filepath.Join(dir, "menu.json"), "HOME="+dir, "TYPESAFE_API_KEY=",
		"DBUS_SESSION_BUS_ADDRESS=unix:path="+filepath.Join(dir, "no-bus"))
	env = append(env, extra...)
	tray := exec.Command(bin)
	tray.Env = env
	trayLog, _ := os.Create(filepath.Join(dir, "tray.log"))
	trayLogs = append(trayLogs, trayLog.Name())
	tray.Stdout, tray.Stderr = trayLog, trayLog
	tray.WaitDelay = 5 * time.Second
	must(tray.Start())
	atExit(func() { stop(tray) })
	waitFor("the tray's pipe", func() bool { _, err := os.Stat(filepath.Join(dir, "pipe.sock")); return err == nil })
	// The config above weakens the defaults: the tray holds it until the
	// user accepts it. Accept it as a user would, in a terminal.
	acc := exec.Command(bin, "config", "accept")
	acc.Env = env
	acc.Stdin = strings.NewReader("yes\n")
	if out, err := acc.CombinedOutput(); err != nil {
		die("config accept: %v %s", err, out)
	}
	closeWindow("^agent-guard — accept")
	// Without a tray host the tray opens its status window; it is not
	// part of any picture.
	closeWindow("^agent-guard — No tray icon")
	return func() { stop(tray) }
}

// asking starts a hook call that waits for the dialog; the channel closes
// when it has its answer.
func asking(hook, ev string) chan struct{} {
	c := exec.Command(hook, "--host", "claude", "--deadline", "300s", "--dial-timeout", "3s")
	c.Env = env
	c.Stdin = strings.NewReader(ev)
	must(c.Start())
	done := make(chan struct{})
	go func() { _ = c.Wait(); close(done) }()
	atExit(func() { _ = c.Process.Kill(); <-done })
	return done
}

// shoot saves a window once its first frame is drawn, in 256 colours.
func shoot(win, path string) {
	raw := path + ".raw.png"
	waitFor("the first frame of "+path, func() bool {
		c := exec.Command("import", "-window", win, raw)
		c.Env = env
		if c.Run() != nil {
			return false
		}
		f, err := os.Open(raw)
		if err != nil {
			return false
		}
		defer f.Close()
		img, err := png.Decode(f)
		return err == nil && painted(img)
	})
	time.Sleep(1200 * time.Millisecond) // the countdown has ticked once: the picture shows it running
	c := exec.Command("import", "-window", win, raw)
	c.Env = env
	must(c.Run())
	run("convert", raw, "-strip", "-colors", "256", "PNG8:"+path)
	os.Remove(raw)
	if fi, err := os.Stat(path); err == nil {
		log.Printf("%s: %d KB", path, fi.Size()>>10)
	}
}

// painted: a window not yet drawn is one flat colour.
func painted(img image.Image) bool {
	seen := map[color.RGBA]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y && len(seen) < 8; y++ {
		for x := b.Min.X; x < b.Max.X && len(seen) < 8; x++ {
			seen[color.RGBAModel.Convert(img.At(x, y)).(color.RGBA)] = true
		}
	}
	return len(seen) >= 8 // drawn text alone gives more colours; an undrawn window one
}

func find(name string) string {
	c := exec.Command("xdotool", "search", "--onlyvisible", "--name", name)
	c.Env = env
	out, err := c.Output()
	if err != nil || len(bytes.TrimSpace(out)) == 0 {
		return ""
	}
	return strings.Fields(string(out))[0]
}

func pidOf(win string) string {
	c := exec.Command("xdotool", "getwindowpid", win)
	c.Env = env
	out, _ := c.Output()
	return strings.TrimSpace(string(out))
}

func closeWindow(name string) {
	id := find(name)
	for i := 0; id == "" && i < 30; i++ { // it may still be opening
		time.Sleep(100 * time.Millisecond)
		id = find(name)
	}
	if id != "" {
		xdo("windowclose", id)
		waitFor("window "+name+" to close", func() bool { return find(name) == "" })
	}
}

func bashEvent(cmd, cwd, session string) string {
	return event("Bash", map[string]any{"command": cmd}, cwd, session)
}

func event(tool string, input map[string]any, cwd, session string) string {
	b, _ := json.Marshal(map[string]any{
		"hook_event_name": "PreToolUse", "session_id": session, "cwd": cwd, "tool_name": tool,
		"tool_input": input, "permission_mode": "bypassPermissions",
	})
	return string(b)
}

func hookCall(hook, cmd, cwd, session string) {
	c := exec.Command(hook, "--host", "claude", "--dial-timeout", "3s")
	c.Env = env
	c.Stdin = strings.NewReader(bashEvent(cmd, cwd, session))
	if out, err := c.CombinedOutput(); err != nil {
		die("hook: %v %s", err, out)
	}
}

// xvfb starts a private X server on a free display in :140-:160 (a
// range of its own, away from :0 and :99).
func xvfb() (string, func()) {
	for n := 140; n <= 160; n++ {
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X%d-lock", n)); err == nil {
			continue
		}
		r, w, err := os.Pipe()
		must(err)
		x := exec.Command("Xvfb", fmt.Sprintf(":%d", n), "-displayfd", "3", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset")
		x.ExtraFiles = []*os.File{w}
		must(x.Start())
		w.Close()
		stopX := func() { _ = x.Process.Kill(); _ = x.Wait() }
		s := bufio.NewScanner(r)
		if s.Scan() && strings.TrimSpace(s.Text()) != "" {
			r.Close()
			return ":" + strings.TrimSpace(s.Text()), stopX
		}
		r.Close()
		stopX() // taken meanwhile: the next one
	}
	die("no free X display in :140-:160")
	return "", nil
}

func window(name string) string {
	var id string
	waitFor("window "+name, func() bool {
		id = find(name)
		return id != ""
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
	for _, l := range trayLogs {
		b, _ := os.ReadFile(l)
		log.Printf("%s:\n%s", l, b)
	}
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
