//go:build !nogui

package recent

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agent-guard/agent-guard/app/audit"
)

// The real-window test runs the window in a child process of this test
// binary: Fyne's GL driver must own the main thread, which only TestMain
// has.
const childEnv = "RECENT_WINDOW_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(windowChild())
	}
	os.Exit(m.Run())
}

// TestWindowUnderXvfb opens the real window on a temp audit log with
// calls from two hosts, filters it to confirm calls from Claude Code with
// real mouse clicks and keys (xdotool), selects the first row with a
// click, and checks the detail pane's text and a screenshot.
// RECENT_UPDATE_DOC=1 also writes the screenshot to docs/recent.png.
func TestWindowUnderXvfb(t *testing.T) {
	if testing.Short() {
		t.Skip("Xvfb: skipped with -short")
	}
	if runtime.GOOS != "linux" {
		t.Skip("Xvfb: Linux only")
	}
	for _, tool := range []string{"Xvfb", "xdotool", "import"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed (apt-get install xvfb xdotool imagemagick; scripts/deps.sh installs them)", tool)
		}
	}
	display := startXvfb(t)
	for _, locale := range []string{"C.UTF-8", "zh_CN.UTF-8"} {
		t.Run(locale, func(t *testing.T) { windowRun(t, display, locale) })
	}
}

// windowRun runs the window child under locale and checks what it saw.
func windowRun(t *testing.T, display, locale string) {
	dir := t.TempDir()
	log := filepath.Join(dir, "audit.jsonl")
	writeLog(t, log, liveSample(time.Now()))
	shot := filepath.Join(dir, "recent.png")

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1", "DISPLAY="+display, "RECENT_AUDIT="+log, "RECENT_SHOT="+shot,
		"HOME="+dir, "XDG_CONFIG_HOME="+filepath.Join(dir, "xdg"), "LANG="+locale, "LANGUAGE=", "LC_ALL=", "LC_MESSAGES=")
	out, err := cmd.CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte("RECENT-OK")) {
		t.Fatalf("window child: %v\n%s", err, out)
	}
	img := readPNG(t, shot)
	if b := img.Bounds(); b.Dx() < 900 || b.Dy() < 500 {
		t.Fatalf("screenshot is %v", b)
	}
	if n := colours(img); n < 8 {
		t.Fatalf("screenshot has %d colours: nothing was drawn", n)
	}
	if os.Getenv("RECENT_KEEP_SHOTS") != "" {
		data, _ := os.ReadFile(shot)
		_ = os.WriteFile(filepath.Join(os.Getenv("RECENT_KEEP_SHOTS"), "recent-"+locale+".png"), data, 0o644)
	}
	if os.Getenv("RECENT_UPDATE_DOC") == "1" && locale == "C.UTF-8" {
		data, _ := os.ReadFile(shot)
		if err := os.WriteFile(filepath.Join("..", "..", "..", "docs", "recent.png"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// liveSample is sample() moved to the last minutes, so the window shows
// times of today.
func liveSample(now time.Time) []audit.Entry {
	es := append(sample(), audit.Entry{Host: "zcode", Session: "s-zc-2", Cwd: "/home/u/proj", Tool: "Bash", Input: `git commit -m "修复：登录页面的中文提示"`,
		Source: "rule", Rule: "git.commit", Level: "allow", Decision: "allow", Decider: "auto", Reason: "records a commit; reversible"})
	sessions := map[string]string{"s-zc-1": "7f3c2a90-5be1-4c1e-9d0a-2f61c7e4b8d2", "s-cl-7": "c41d9e02-88a3-4f5b-a7e6-0b9d3f215c77", "s-zc-2": "0e5b7c14-2d9f-4a63-b8c1-93fe6a0d4e51"}
	for i := range es {
		es[i].TS = now.Add(-time.Duration(len(es)-i) * 97 * time.Second).UTC()
		if s, ok := sessions[es[i].Session]; ok {
			es[i].Session = s
		}
		if es[i].DurationMS == 0 {
			es[i].DurationMS = 0.4 + float64(i)/10
		}
	}
	return es
}

func writeLog(t *testing.T, path string, es []audit.Entry) {
	t.Helper()
	var b bytes.Buffer
	for _, e := range es {
		line, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(append(line, '\n'))
	}
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// startXvfb starts a private X server on a free display in :170-:180
// (-noreset: the server must survive moments without clients). It is
// stopped with SIGTERM, so it removes its lock file and socket.
func startXvfb(t *testing.T) string {
	t.Helper()
	for n := 170; n <= 180; n++ {
		sock := fmt.Sprintf("/tmp/.X11-unix/X%d", n)
		if displayInUse(n, sock) {
			continue
		}
		x := exec.Command("Xvfb", ":"+strconv.Itoa(n), "-screen", "0", "1280x720x24", "-nolisten", "tcp", "-noreset")
		if err := x.Start(); err != nil {
			t.Fatalf("Xvfb: %v", err)
		}
		exited := make(chan struct{})
		go func() { _ = x.Wait(); close(exited) }()
		stop := func() {
			_ = x.Process.Signal(syscall.SIGTERM)
			select {
			case <-exited:
			case <-time.After(5 * time.Second):
				_ = x.Process.Kill()
				<-exited
			}
		}
		for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			select {
			case <-exited:
				goto next // taken meanwhile: try the next one
			default:
			}
			if c, err := net.Dial("unix", sock); err == nil {
				c.Close()
				t.Cleanup(stop)
				return ":" + strconv.Itoa(n)
			}
			if time.Now().After(deadline) {
				stop()
				t.Fatalf("Xvfb :%d did not take connections in 15 s", n)
			}
		}
	next:
	}
	t.Skip("no free X display in :170-:180")
	return ""
}

// displayInUse reports whether an X server holds display n: a lock file
// (even a stale one: Xvfb was seen to start over one without a socket),
// or a socket that takes connections (Xvfb -displayfd makes no lock).
func displayInUse(n int, sock string) bool {
	if _, err := os.Stat(fmt.Sprintf("/tmp/.X%d-lock", n)); err == nil {
		return true
	}
	c, err := net.Dial("unix", sock)
	if err == nil {
		c.Close()
	}
	return err == nil
}

func readPNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return img
}

func colours(img image.Image) int {
	seen := map[[3]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 3 {
		for x := b.Min.X; x < b.Max.X; x += 3 {
			r, g, bl, _ := img.At(x, y).RGBA()
			seen[[3]uint32{r >> 8, g >> 8, bl >> 8}] = true
		}
	}
	return len(seen)
}

// windowChild runs the window on RECENT_AUDIT as the tray's child does
// (audit.ReadLast, New) and drives it from another goroutine.
func windowChild() int {
	entries, err := audit.ReadLast(os.Getenv("RECENT_AUDIT"), Limit)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	a := app.NewWithID("ai.agentguard.recent-test")
	v := New(a, entries, "", "")
	v.Window.Show()
	res := make(chan error, 1)
	go func() {
		res <- drive(v)
		fyne.Do(a.Quit)
	}()
	go func() {
		time.Sleep(90 * time.Second)
		fmt.Println("the window test did not finish in 90 s")
		os.Exit(3)
	}()
	a.Run()
	if err := <-res; err != nil {
		fmt.Println("FAIL:", err)
		return 1
	}
	fmt.Println("RECENT-OK")
	return 0
}

func xdo(args ...string) (string, error) {
	out, err := exec.Command("xdotool", args...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("xdotool %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out)), nil
}

// on runs f on Fyne's thread and waits.
func on(f func()) { fyne.DoAndWait(f) }

func drive(v *View) error {
	var wid string
	for deadline := time.Now().Add(30 * time.Second); wid == ""; time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			return fmt.Errorf("no window named %q appeared", T(sTitle))
		}
		out, _ := xdo("search", "--onlyvisible", "--name", "^agent-guard")
		wid, _, _ = strings.Cut(out, "\n")
	}
	time.Sleep(700 * time.Millisecond) // first layout and paint
	var scale float32
	on(func() { scale = v.Window.Canvas().Scale() })
	// click presses the left button at canvas position p (in Fyne units).
	click := func(p fyne.Position) error {
		x, y := strconv.Itoa(int(p.X*scale)), strconv.Itoa(int(p.Y*scale))
		_, err := xdo("mousemove", "--window", wid, x, y, "click", "1")
		time.Sleep(400 * time.Millisecond)
		return err
	}
	centre := func(o fyne.CanvasObject) (p fyne.Position) {
		on(func() {
			p = fyne.CurrentApp().Driver().AbsolutePositionForObject(o).Add(fyne.NewPos(o.Size().Width/2, o.Size().Height/2))
		})
		return p
	}
	// choose opens a Select with a click and picks option i with keys.
	choose := func(s *widget.Select, i int) error {
		if err := click(centre(s)); err != nil {
			return err
		}
		keys := []string{"key", "--delay", "120"}
		for ; i >= 0; i-- {
			keys = append(keys, "Down")
		}
		if _, err := xdo(append(keys, "Return")...); err != nil {
			return err
		}
		time.Sleep(400 * time.Millisecond)
		return nil
	}
	if err := choose(v.levelSel, 2); err != nil { // all levels, allow, confirm
		return err
	}
	if err := choose(v.hostSel, 1); err != nil { // all hosts, Claude Code
		return err
	}
	var f Filter
	var shown int
	on(func() { f, shown = v.Filter, len(v.Shown) })
	if f != (Filter{Level: "confirm", Host: "claude"}) || shown != 1 {
		return fmt.Errorf("after choosing confirm and Claude Code: filter %+v, %d shown", f, shown)
	}
	// The first row: below the header, in the command column.
	var row fyne.Position
	on(func() {
		head := widget.NewLabelWithStyle("Time", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}).MinSize().Height
		cell := widget.NewLabel("x").MinSize().Height
		sep := theme.SeparatorThicknessSize()
		x := widths[0] + widths[1] + widths[2] + widths[3] + widths[4]/2
		row = fyne.CurrentApp().Driver().AbsolutePositionForObject(v.table).Add(fyne.NewPos(x, head+sep+cell/2))
	})
	if err := click(row); err != nil {
		return err
	}
	var detail string
	var copyOn bool
	on(func() { detail, copyOn = v.DetailText(), !v.copyBtn.Disabled() })
	kv := func(k, v string) string { return T(k) + ": " + v }
	for _, want := range []string{kv(sInput, "git reset --hard HEAD~3"), kv(sHost, "Claude Code (claude)"), kv(sSession, "c41d9e02-88a3-4f5b-a7e6-0b9d3f215c77"),
		kv(sCwd, "/home/u/other"), kv(sDecision, T(sAllowAlways)), kv(sDecider, T(sByUser)), kv(sRule, "git.reset_hard"),
		kv(sAnswer, "always allowed in the agent-guard dialog (rule added to the config)")} {
		if !strings.Contains(detail, want) {
			return fmt.Errorf("detail after clicking the row lacks %q:\n%s", want, detail)
		}
	}
	if !copyOn {
		return fmt.Errorf("Copy stays disabled with a row selected")
	}
	// Ctrl+C copies the selected entry to the X clipboard.
	on(func() { fyne.CurrentApp().Clipboard().SetContent("") })
	if _, err := xdo("key", "ctrl+c"); err != nil {
		return err
	}
	time.Sleep(300 * time.Millisecond)
	var clip string
	on(func() { clip = fyne.CurrentApp().Clipboard().Content() })
	if clip != detail {
		return fmt.Errorf("clipboard after Ctrl+C: %q, want the detail", clip)
	}
	// Back to every host: the confirm calls of both, the selection kept.
	if err := choose(v.hostSel, 0); err != nil {
		return err
	}
	on(func() { shown, detail = len(v.Shown), v.DetailText() })
	if shown != 3 || !strings.Contains(detail, "git reset --hard HEAD~3") {
		return fmt.Errorf("confirm from all hosts: %d shown, detail:\n%s", shown, detail)
	}
	if shot := os.Getenv("RECENT_SHOT"); shot != "" {
		time.Sleep(300 * time.Millisecond)
		if out, err := exec.Command("import", "-window", wid, "png:"+shot).CombinedOutput(); err != nil {
			return fmt.Errorf("import: %v: %s", err, out)
		}
	}
	return nil
}
