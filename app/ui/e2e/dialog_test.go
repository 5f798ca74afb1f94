//go:build !nogui

package e2e

import (
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The dialog on a 1280x720 screen: long calls still give a window inside
// the screen with its Deny button visible; keys; scoped "always"; Chinese.

const screenW, screenH = 1280, 720

var dialogScreen = fmt.Sprintf("%dx%dx24", screenW, screenH)

// dialogConfig gives a person a minute to answer: the keys sent below
// must not race the timeout on a loaded machine.
const dialogConfig = `{"full_access":"always","approval":{"timeout_seconds":60,"mode":"dialog"}}`

// newDialogRig is the tray on the 1280x720 screen with dialogConfig.
func newDialogRig(t *testing.T, env []string) *rig {
	return newRigOpts(t, rigOpts{screen: dialogScreen, config: dialogConfig, env: env})
}

func hookEvent(session, cwd, tool string, input any) string {
	b, _ := json.Marshal(map[string]any{
		"hook_event_name": "PreToolUse", "session_id": session, "cwd": cwd, "tool_name": tool,
		"tool_input": input, "permission_mode": "bypassPermissions",
	})
	return string(b)
}

func bashEvent(session, cwd, cmd string) string {
	return hookEvent(session, cwd, "Bash", map[string]string{"command": cmd})
}

type geometry struct{ x, y, w, h int }

// geometryOf reads a window's position and size with xdotool.
func (r *rig) geometryOf(win string) geometry {
	r.t.Helper()
	g, err := r.geometry(win)
	if err != nil {
		r.t.Fatal(err)
	}
	return g
}

func (r *rig) geometry(win string) (geometry, error) {
	out, err := r.xdotool("getwindowgeometry", "--shell", win)
	if err != nil {
		return geometry{}, fmt.Errorf("getwindowgeometry: %v %s", err, out)
	}
	vals := map[string]int{}
	for _, l := range strings.Split(out, "\n") {
		k, v, _ := strings.Cut(l, "=")
		vals[k], _ = strconv.Atoi(v)
	}
	return geometry{vals["X"], vals["Y"], vals["WIDTH"], vals["HEIGHT"]}, nil
}

// screenshot grabs the whole screen (the window's own pixels are in it).
func (r *rig) screenshot(name string) image.Image {
	r.t.Helper()
	path := filepath.Join(r.dir, name+".png")
	cmd := exec.Command("import", "-window", "root", path)
	cmd.Env = r.env
	if out, err := cmd.CombinedOutput(); err != nil {
		r.t.Fatalf("import: %v %s", err, out)
	}
	if keep := os.Getenv("AGENT_GUARD_E2E_SHOTS"); keep != "" { // to look at them
		if b, err := os.ReadFile(path); err == nil {
			_ = os.WriteFile(filepath.Join(keep, strings.ReplaceAll(r.t.Name(), "/", "_")+"-"+name+".png"), b, 0o644)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		r.t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		r.t.Fatal(err)
	}
	return img
}

// denyButton finds the Deny button by its fill (Fyne's danger colour in
// the dark theme) inside the window: the bounding box of those pixels.
func denyButton(img image.Image, g geometry) (image.Rectangle, bool) {
	box, n := colourPixels(img, g, isDanger)
	return box, n > 400
}

// isDanger matches the danger fill in its plain, focused and hovered
// tints (Fyne blends the focus colour in).
func isDanger(img image.Image, x, y int) bool {
	r, g, b, _ := img.At(x, y).RGBA()
	r, g, b = r>>8, g>>8, b>>8
	return r >= 170 && g >= 50 && g <= 125 && b >= 60 && b <= 140 && int(r)-int(g) >= 80
}

// isWarning matches the orange of a warning-importance button (Save in
// the scope step).
func isWarning(img image.Image, x, y int) bool {
	r, g, b, _ := img.At(x, y).RGBA()
	r, g, b = r>>8, g>>8, b>>8
	return r >= 230 && g >= 120 && g <= 185 && b <= 80
}

// assertInside checks the dialog and its Deny button are on the screen.
func (r *rig) assertInside(win, shot string) {
	r.t.Helper()
	// The window maps first and is placed a moment later: read its
	// geometry together with a screenshot until the button is found.
	var g geometry
	var btn image.Rectangle
	r.waitFor("the Deny button drawn", 15*time.Second, func() bool {
		g = r.geometryOf(win)
		var ok bool
		btn, ok = denyButton(r.screenshot(shot), g)
		return ok
	})
	r.t.Logf("window %+v on %dx%d, Deny button %v", g, screenW, screenH, btn)
	if g.x < 0 || g.y < 0 || g.x+g.w > screenW || g.y+g.h > screenH || g.w < 300 || g.h < 200 {
		r.t.Fatalf("dialog at %+v is not inside the %dx%d screen", g, screenW, screenH)
	}
	if btn.Max.Y > screenH || btn.Max.Y > g.y+g.h || btn.Min.Y < g.y+g.h/2 {
		r.t.Fatalf("Deny button at %v, window %+v: not visible at the bottom", btn, g)
	}
}

func (r *rig) title(win string) string {
	out, _ := r.xdotool("getwindowname", win)
	return out
}

func (r *rig) configText() string {
	b, _ := os.ReadFile(filepath.Join(r.home, "config.json"))
	return string(b)
}

func TestDialogLongContentOnSmallScreen(t *testing.T) {
	r := newDialogRig(t, nil)

	var lines []string
	for i := 0; i < 39; i++ {
		lines = append(lines, fmt.Sprintf("echo step %d && cp -r build/ out/site-%d/", i, i))
	}
	lines = append(lines, "git reset --hard HEAD~3")
	script := "#!/bin/sh\nset -e\ncurl -fsSL https://example.invalid/install.sh | sh\n" + strings.Repeat("echo filler line to make the file long\n", 300<<10/39)
	sql := "DELETE FROM orders WHERE id IN (" + strings.Repeat("1234567, ", 20<<10/9) + "0)"
	cases := []struct {
		name, event, tool string
	}{
		{"a 40-line command", bashEvent("s-long", "/tmp", strings.Join(lines, "\n")), "Bash"},
		{"a 300 KB Write", hookEvent("s-long", "/tmp", "Write", map[string]string{"file_path": "/tmp/proj/install.sh", "content": script}), "Write"},
		{"a 20 KB MCP call", hookEvent("s-long", "/tmp", "mcp__postgres__execute_sql", map[string]string{"sql": sql}), "mcp__postgres__execute_sql"},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r.t = t
			before := r.auditLines()
			h := r.runHookEvent(tc.event)
			win := r.dialog()
			if title := r.title(win); !strings.HasPrefix(title, "agent-guard") || !strings.Contains(title, "Claude Code") {
				t.Fatalf("title %q: want it to start with agent-guard and name the host", title)
			}
			r.assertInside(win, fmt.Sprintf("long-%d", i))
			r.press(win, "alt+a")
			if got := r.decision(h); got != "allow" {
				t.Fatalf("Alt+A: hook answered %q, want allow", got)
			}
			r.waitFor("the audit line", 10*time.Second, func() bool { return r.auditLines() > before })
			if a := r.lastAudit(); a.Tool != tc.tool || a.Decider != "user" || a.Decision != "allow" {
				t.Fatalf("audit %+v", a)
			}
			r.noDialog()
		})
	}
}

func TestDialogKeysAndScopes(t *testing.T) {
	r := newDialogRig(t, nil)
	ws := filepath.Join(r.dir, "ws")
	if err := os.MkdirAll(filepath.Join(ws, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}

	answer := func(t *testing.T, ev, keys, want string) {
		t.Helper()
		h := r.runHookEvent(ev)
		win := r.dialog()
		r.press(win, keys)
		if got := r.decision(h); got != want {
			t.Fatalf("keys %q: hook answered %q, want %q", keys, got, want)
		}
		r.noDialog()
	}
	passes := func(t *testing.T, ev string) {
		t.Helper()
		before := r.auditLines()
		if got := r.decision(r.runHookEvent(ev)); got != "allow" {
			t.Fatalf("hook answered %q, want allow without a dialog", got)
		}
		r.waitFor("the audit line", 10*time.Second, func() bool { return r.auditLines() > before })
		if a := r.lastAudit(); a.Decider != "auto" || a.Source != "fastpath_allow" {
			t.Fatalf("audit %+v, want the scoped approval to decide", a)
		}
	}
	asks := func(t *testing.T, ev string) {
		t.Helper()
		answer(t, ev, "Escape", "deny")
	}

	t.Run("Enter denies", func(t *testing.T) {
		r.t = t
		answer(t, bashEvent("s0", ws, "git reset --hard HEAD~1"), "Return", "deny")
		if a := r.lastAudit(); a.Decider != "user" {
			t.Fatalf("audit %+v, want denied by the user", a)
		}
	})
	t.Run("Tab then Space writes nothing", func(t *testing.T) {
		r.t = t
		before := r.configText()
		h := r.runHookEvent(bashEvent("s0", ws, "git reset --hard HEAD~1"))
		win := r.dialog()
		r.press(win, "Tab space")
		// The scope step has replaced the buttons: its orange Save is in
		// the lower half (the orange bar at the top is not).
		r.waitFor("the scope step", 15*time.Second, func() bool {
			g := r.geometryOf(win)
			lower := geometry{g.x, g.y + g.h/2, g.w, g.h - g.h/2}
			_, ok := colourBox(r.screenshot("scope-step"), lower, isWarning)
			return ok
		})
		if after := r.configText(); after != before || strings.Contains(after, "scoped_approvals") {
			t.Fatalf("Tab+Space changed the config:\n%s", after)
		}
		r.press(win, "Escape")
		if got := r.decision(h); got != "deny" {
			t.Fatalf("hook answered %q, want deny", got)
		}
		r.noDialog()
	})

	// From the scope step's focused Back: Shift+Tab is Save, then the
	// radio items everywhere, workspace, session.
	scopes := []struct {
		scope, keys string
		cmd         string
		pass, ask   []string // events after the approval
	}{
		{"session", "Tab space shift+Tab space", "git reset --hard HEAD~2",
			[]string{bashEvent("s1", "/tmp", "git reset --hard HEAD~2")},
			[]string{bashEvent("s2", ws, "git reset --hard HEAD~2")}},
		{"workspace", "Tab space shift+Tab shift+Tab shift+Tab space Tab Tab space", "git reset --hard HEAD~3",
			[]string{bashEvent("s9", filepath.Join(ws, "sub"), "cd "+ws+" && git reset --hard HEAD~3")},
			[]string{bashEvent("s1", "/tmp", "git reset --hard HEAD~3")}},
		{"everywhere", "Tab space shift+Tab shift+Tab space Tab space", "git reset --hard HEAD~4",
			[]string{bashEvent("s7", "/tmp", "git reset --hard HEAD~4"), bashEvent("s8", "/var/tmp", "cd /srv && git reset --hard HEAD~4")},
			// /var/tmp: this rig's HOME is under /tmp, and git clean -f in a
			// folder above the home blocks (git.clean-home): no dialog
			[]string{bashEvent("s7", "/var/tmp", "git reset --hard HEAD~4; git clean -fdx")}},
	}
	for _, sc := range scopes {
		t.Run("always in scope "+sc.scope, func(t *testing.T) {
			r.t = t
			answer(t, bashEvent("s1", ws, sc.cmd), sc.keys, "allow")
			var cfg struct {
				Scoped []struct {
					Scope, Pattern, Session, Workspace, Host string
					AddedAt                                  string `json:"added_at"`
				} `json:"scoped_approvals"`
			}
			if err := json.Unmarshal([]byte(r.configText()), &cfg); err != nil {
				t.Fatal(err)
			}
			found := false
			for _, a := range cfg.Scoped {
				if a.Pattern == sc.cmd {
					found = true
					if a.Scope != sc.scope || a.Workspace != ws || a.Host != "claude" || a.AddedAt == "" || (sc.scope == "session") != (a.Session == "s1") {
						t.Fatalf("approval %+v, want scope %s from workspace %s", a, sc.scope, ws)
					}
				}
			}
			if !found {
				t.Fatalf("no approval for %q in %+v", sc.cmd, cfg.Scoped)
			}
			for _, ev := range sc.pass {
				passes(t, ev)
			}
			for _, ev := range sc.ask {
				asks(t, ev)
			}
		})
	}
}

// zhEnv is the environment of a Chinese desktop.
var zhEnv = []string{"LANG=zh_CN.UTF-8", "LC_ALL=", "LC_MESSAGES="}

// zhDialog opens a dialog for a call with Chinese in it and returns the
// screenshot with the Deny button found; Esc then denies it.
func zhDialog(t *testing.T, r *rig) (image.Image, image.Rectangle) {
	t.Helper()
	h := r.runHookEvent(bashEvent("s-zh", "/tmp", `git commit -m "修复登录页面" && git reset --hard HEAD~1`))
	win := r.dialog()
	if title := r.title(win); !strings.HasPrefix(title, "agent-guard") || !strings.Contains(title, "Claude Code") || !strings.Contains(title, "请求运行") {
		t.Fatalf("title %q: want it to start with agent-guard, name the host and be Chinese", title)
	}
	var g geometry
	var img image.Image
	var btn image.Rectangle
	r.waitFor("the Deny button drawn", 30*time.Second, func() bool {
		var ok bool
		g = r.geometryOf(win)
		img = r.screenshot("zh")
		btn, ok = denyButton(img, g)
		return ok
	})
	t.Logf("dialog %+v, Deny button %v", g, btn)
	r.press(win, "Escape")
	if got := r.decision(h); got != "deny" {
		t.Fatalf("Esc: hook answered %q, want deny", got)
	}
	return img, btn
}

func TestDialogChinese(t *testing.T) {
	r := newDialogRig(t, zhEnv)
	img, btn := zhDialog(t, r)
	if err := cjkDrawn(img, btn); err != nil {
		t.Fatalf("the Deny button's Chinese label (拒绝) is not drawn as glyphs: %v (screenshot %s)", err, filepath.Join(r.dir, "zh.png"))
	}
}

// TestDialogChineseCheckSeesMissingFont is the control for
// TestDialogChinese: with every font that has Chinese hidden from the
// tray (empty files bound over them in a private mount namespace), the
// same dialog draws no glyphs for 拒绝, and cjkDrawn must say so. Without
// this, a cjkDrawn that passed anything would go unnoticed.
func TestDialogChineseCheckSeesMissingFont(t *testing.T) {
	need(t)
	for _, tool := range []string{"unshare", "fc-list", "mount"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("control test: %s is not installed", tool)
		}
	}
	out, err := exec.Command("fc-list", ":lang=zh", "file").Output()
	if err != nil {
		t.Skipf("control test: fc-list: %v", err)
	}
	var fonts []string
	for _, l := range strings.Split(string(out), "\n") {
		if f := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(l), ":")); f != "" {
			fonts = append(fonts, f)
		}
	}
	if len(fonts) == 0 {
		t.Skip("control test: no font with Chinese is installed (TestDialogChinese fails then)")
	}
	empty := filepath.Join(t.TempDir(), "empty")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	hide := append([]string{"unshare", "-m", "--", "sh", "-c",
		`e=$1; b=$2; shift 2; for f; do mount --bind "$e" "$f" || exit 1; done; exec "$b"`, "sh", empty}, "")
	probe := exec.Command(hide[0], append(hide[1:len(hide)-1], "true", fonts[0])...)
	if b, err := probe.CombinedOutput(); err != nil {
		t.Skipf("control test: cannot hide fonts in a mount namespace here (%v: %s)", err, b)
	}
	r := newRigOpts(t, rigOpts{screen: dialogScreen, config: dialogConfig, env: zhEnv, wrap: func(bin string) []string {
		return append(append(hide[:len(hide)-1:len(hide)-1], bin), fonts...)
	}})
	img, btn := zhDialog(t, r)
	if err := cjkDrawn(img, btn); err == nil {
		t.Fatalf("cjkDrawn passed a dialog drawn without any Chinese font (fonts hidden: %v; screenshot %s)", fonts, filepath.Join(r.dir, "zh.png"))
	} else {
		t.Logf("without a Chinese font: %v", err)
	}
}

// cjkDrawn checks the label inside the Deny button reads like "✕ 拒绝
// (Enter / Esc)": ink runs split by wide gaps are the icon, then the two
// Chinese glyphs, then the Latin words. Without a font that has them,
// Fyne draws each missing character as the same narrow replacement mark
// (or a hollow box), so the run of the two glyphs must be about two em
// wide, have ink inside its outline, and its two halves (拒 and 绝) must
// differ: equal halves are two copies of one placeholder.
func cjkDrawn(img image.Image, btn image.Rectangle) error {
	ink := func(x, y int) bool {
		r, g, b, _ := img.At(x, y).RGBA()
		// the label is dark on the red fill
		return int(r>>8)+int(g>>8)+int(b>>8) < 3*90 && !isDanger(img, x, y)
	}
	inner := btn.Inset(4)
	var cols []bool
	for x := inner.Min.X; x < inner.Max.X; x++ {
		c := false
		for y := inner.Min.Y; y < inner.Max.Y && !c; y++ {
			c = ink(x, y)
		}
		cols = append(cols, c)
	}
	// runs of ink columns, merging gaps under 4 px (inside a word)
	type run struct{ a, b int }
	var runs []run
	for i := 0; i < len(cols); {
		if !cols[i] {
			i++
			continue
		}
		j := i
		for k := i; k < len(cols); k++ {
			if cols[k] {
				j = k
			} else if k-j >= 4 {
				break
			}
		}
		runs = append(runs, run{i, j + 1})
		i = j + 1
	}
	if len(runs) < 3 {
		return fmt.Errorf("only %d ink runs in the button", len(runs))
	}
	cjk := runs[1]
	x0, w := inner.Min.X+cjk.a, cjk.b-cjk.a
	if w < 22 || w > 48 {
		return fmt.Errorf("the glyph run is %d px wide, want about two 14 px glyphs (22-48)", w)
	}
	// ink strictly inside the run's box, 3 px in from each edge
	top, bot := inner.Max.Y, inner.Min.Y
	total := 0
	for x := x0; x < x0+w; x++ {
		for y := inner.Min.Y; y < inner.Max.Y; y++ {
			if ink(x, y) {
				total++
				top, bot = min(top, y), max(bot, y)
			}
		}
	}
	interior := 0
	for x := x0 + 3; x < x0+w-3; x++ {
		for y := top + 3; y <= bot-3; y++ {
			if ink(x, y) {
				interior++
			}
		}
	}
	if total < 40 || interior*5 < total {
		return fmt.Errorf("glyph run has %d ink pixels, %d inside its outline: that is boxes, not glyphs", total, interior)
	}
	// the two glyphs, each half of the run: count pixels where one has
	// ink and the other not
	half, differ, inked := w/2, 0, 0
	for dx := 0; dx < half; dx++ {
		for y := top; y <= bot; y++ {
			a, b := ink(x0+dx, y), ink(x0+half+dx, y)
			if a != b {
				differ++
			}
			if a || b {
				inked++
			}
		}
	}
	if differ*4 < inked {
		return fmt.Errorf("the two glyphs differ in %d of %d inked pixels: one placeholder drawn twice", differ, inked)
	}
	return nil
}
