//go:build !nogui

package e2e

import (
	"encoding/json"
	"image"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The windows the tray menu opens can be opened from a terminal too (a
// desktop without a tray host has no menu): `agent-guard window NAME`,
// and settings, recent and pending as verbs of their own. With the tray
// running, the tray opens its own window; without it, the windows that
// need no tray open by themselves and the others say why not.
func TestWindowVerbsFromATerminal(t *testing.T) {
	r := newDialogRig(t, nil)
	cases := []struct {
		args  []string
		title string
	}{
		{[]string{"window", "rules"}, "^agent-guard .*Rules"},
		{[]string{"window", "pending"}, "^agent-guard .*Pending"},
		{[]string{"settings"}, "^agent-guard .*settings"},
		{[]string{"recent"}, "^agent-guard .*[Rr]ecent"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r.t = t
			out, code := r.run(r.env, tc.args...)
			if code != 0 || !strings.Contains(out, "the running tray opens") {
				t.Fatalf("exit %d, output %q", code, out)
			}
			win := r.window("the window", tc.title)
			r.drawn(win)
			if pid := r.pidOf(win); pid == "" || r.parentOf(pid) != r.trayPID() {
				t.Fatalf("window %s belongs to pid %q, not a child of the tray (%s)", win, pid, r.trayPID())
			}
			r.xdotool("windowclose", win)
		})
	}

	t.Run("without a tray", func(t *testing.T) {
		r.t = t
		env := append(append([]string(nil), r.env...), "AGENT_GUARD_PIPE="+filepath.Join(r.dir, "no-tray.sock"))
		out, code := r.run(env, "window", "pending")
		if code != 1 || !strings.Contains(out, "not running") {
			t.Fatalf("pending without a tray: exit %d, %q", code, out)
		}
		cmd := exec.Command(r.bin, "window", "rules")
		cmd.Env = env
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		var win string
		r.waitFor("the Rules window of its own", 30*time.Second, func() bool {
			out, _ := r.xdotool("search", "--onlyvisible", "--pid", itoa(cmd.Process.Pid), "--name", "^agent-guard .*Rules")
			win = strings.TrimSpace(out)
			return win != ""
		})
	})

	t.Run("bad usage", func(t *testing.T) {
		r.t = t
		for _, args := range [][]string{{"window"}, {"window", "approve"}, {"settings", "--allow"}} {
			if out, code := r.run(r.env, args...); code != 2 || !strings.Contains(out, "usage: agent-guard window") {
				t.Errorf("%v: exit %d, %q", args, code, out)
			}
		}
	})
}

// run runs agent-guard with args and returns its output and exit code.
func (r *rig) run(env []string, args ...string) (string, int) {
	r.t.Helper()
	cmd := exec.Command(r.bin, args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out), ee.ExitCode()
	} else if err != nil {
		r.t.Fatalf("%v: %v", args, err)
	}
	return string(out), 0
}

func (r *rig) pidOf(win string) string {
	out, _ := r.xdotool("getwindowpid", win)
	return out
}

// parentOf is a process's parent pid (Linux /proc).
func (r *rig) parentOf(pid string) string {
	b, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return ""
	}
	// pid (comm) state ppid ...; comm may hold spaces: split after ')'
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if len(f) < 2 {
		return ""
	}
	return f[1]
}

func (r *rig) trayPID() string { return itoa(r.tray.Process.Pid) }

func itoa(n int) string { return strconv.Itoa(n) }

// The pending list shows who asks each queued call, and "Deny all from
// this session" denies every call of the picked row's session and no
// other: session B's call is then the one the dialog shows.
func TestPendingDenyAllFromASession(t *testing.T) {
	snap := filepath.Join(t.TempDir(), "menu.json")
	r := newDialogRig(t, []string{"AGENT_GUARD_MENU_SNAPSHOT=" + snap})
	a1 := r.runHookEvent(bashEvent("sess-A", "/tmp", "git reset --hard HEAD~1"))
	r.dialog() // a1 is shown; the others queue behind it
	a2 := r.runHookEvent(bashEvent("sess-A", "/tmp", "git reset --hard HEAD~2"))
	r.waitFor("a2 queued", 30*time.Second, func() bool { return pendingCount(snap) >= 2 })
	b1 := r.runHookEvent(bashEvent("sess-B", "/var/tmp", "git reset --hard HEAD~3"))
	r.waitFor("b1 queued", 30*time.Second, func() bool { return pendingCount(snap) >= 3 })

	if out, code := r.run(r.env, "window", "pending"); code != 0 {
		t.Fatalf("window pending: %d %s", code, out)
	}
	win := r.window("the pending list", "^agent-guard .*Pending")
	r.drawn(win)
	g := r.geometryOf(win)
	// The first row (a1, session A), then the button left of Deny.
	r.click(g.x+60, g.y+57)
	r.click(g.x+g.w-162, g.y+g.h-26)
	for name, h := range map[string]*hookRun{"a1": a1, "a2": a2} {
		if got := r.decision(h); got != "deny" {
			t.Fatalf("%s: %q, want deny", name, got)
		}
	}
	select {
	case <-b1.done:
		t.Fatalf("session B's call was answered too: %s", b1.out.String())
	default:
	}
	dlg := r.dialog()
	if title := r.title(dlg); !strings.Contains(title, "Claude Code") {
		t.Fatalf("title %q", title)
	}
	r.press(dlg, "Escape")
	if got := r.decision(b1); got != "deny" {
		t.Fatalf("b1: %q", got)
	}
	b, _ := os.ReadFile(filepath.Join(r.home, "audit.jsonl"))
	// Count lines, not mentions: a line carries the words in its reason
	// and again in its answer field.
	n := 0
	for _, line := range strings.Split(string(b), "\n") {
		if strings.Contains(line, "every call of this session") {
			n++
		}
	}
	if n != 2 {
		t.Fatalf("%d audit lines say the session was denied, want 2:\n%s", n, b)
	}
}

// pendingCount reads how many calls wait from the tray's menu snapshot.
func pendingCount(snap string) int {
	b, err := os.ReadFile(snap)
	if err != nil {
		return 0
	}
	var s struct{ Pending []json.RawMessage }
	if json.Unmarshal(b, &s) != nil {
		return 0
	}
	return len(s.Pending)
}

func (r *rig) click(x, y int) {
	r.t.Helper()
	if out, err := r.xdotool("mousemove", "--sync", itoa(x), itoa(y), "click", "1"); err != nil {
		r.t.Fatalf("click %d,%d: %v %s", x, y, err, out)
	}
}

// "Always…" is followed by a notice that offers Undo; Undo removes
// exactly the approval just added, and the same call asks again.
func TestAlwaysThenUndo(t *testing.T) {
	r := newDialogRig(t, nil)
	cmd := "git reset --hard HEAD~5"
	h := r.runHookEvent(bashEvent("s-undo", "/tmp", cmd))
	// Always… then Save with the narrowest scope (this session) preselected.
	r.press(r.dialog(), "Tab space shift+Tab space")
	if got := r.decision(h); got != "allow" {
		t.Fatalf("always: %q", got)
	}
	if !strings.Contains(r.configText(), cmd) {
		t.Fatalf("no approval saved:\n%s", r.configText())
	}
	win := r.window("the Undo notice", "^agent-guard .*Always-allow rule added")
	r.drawn(win)
	var btn image.Rectangle
	r.waitFor("the Undo button drawn", 15*time.Second, func() bool {
		var ok bool
		btn, ok = colourBox(r.screenshot("undo"), r.geometryOf(win), isPrimary)
		return ok
	})
	c := btn.Min.Add(btn.Max).Div(2)
	r.click(c.X, c.Y)
	r.waitFor("the approval removed", 15*time.Second, func() bool { return !strings.Contains(r.configText(), cmd) })
	// The tray picks the edited file up within a moment (hot reload);
	// until then the call may still pass. It must ask again soon after.
	deadline := time.Now().Add(20 * time.Second)
	for {
		h = r.runHookEvent(bashEvent("s-undo", "/tmp", cmd))
		asked := false
		r.waitFor("an answer or a dialog", 30*time.Second, func() bool {
			select {
			case <-h.done:
				return true
			default:
			}
			out, _ := r.xdotool("search", "--onlyvisible", "--name", dialogTitle)
			asked = out != ""
			return asked
		})
		if asked {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("20 s after Undo the call still passes without asking: %s", h.out.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	r.press(r.dialog(), "Escape")
	if got := r.decision(h); got != "deny" {
		t.Fatalf("after Undo: %q, want the dialog again and deny", got)
	}
}

// isPrimary matches the blue of a high-importance button (Undo).
func isPrimary(img image.Image, x, y int) bool {
	r, g, b, _ := img.At(x, y).RGBA()
	r, g, b = r>>8, g>>8, b>>8
	return b >= 200 && r <= 90 && g >= 80 && g <= 150
}

// colourBox is the bounding box of the pixels inside the window that
// match pred; ok when there are enough of them to be a button.
func colourBox(img image.Image, g geometry, pred func(image.Image, int, int) bool) (image.Rectangle, bool) {
	box, n := colourPixels(img, g, pred)
	return box, n > 300
}

// colourPixels is the bounding box and the count of the pixels inside
// the window that match pred.
func colourPixels(img image.Image, g geometry, pred func(image.Image, int, int) bool) (image.Rectangle, int) {
	box := image.Rectangle{Min: image.Pt(1<<30, 1<<30)}
	n := 0
	for y := max(g.y, 0); y < min(g.y+g.h, img.Bounds().Max.Y); y++ {
		for x := max(g.x, 0); x < min(g.x+g.w, img.Bounds().Max.X); x++ {
			if pred(img, x, y) {
				n++
				box.Min.X, box.Min.Y = min(box.Min.X, x), min(box.Min.Y, y)
				box.Max.X, box.Max.Y = max(box.Max.X, x+1), max(box.Max.Y, y+1)
			}
		}
	}
	return box, n
}
