//go:build !nogui

// Package prompt is the approval dialog: a small always-on-top window
// showing one pending call with Deny (default, Esc), Allow once (Alt+A)
// and, when offered, Always allow. It runs in a child process; the
// answer goes back to the tray, which alone decides.
package prompt

import (
	"fmt"
	"image/color"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agent-guard/agent-guard/app/ui/proto"
)

// TitlePrefix starts every dialog title (tests and xdotool find it by this).
const TitlePrefix = "agent-guard"

// View is one approval dialog.
type View struct {
	Window fyne.Window
	p      proto.Prompt
	now    func() time.Time
	answer func(proto.Reply)
	once   sync.Once

	deny, allow, always *keyButton
	countdown           *widget.Label
	progress            *thinBar
	queue               *widget.Label
}

// keyButton is a button that denies on Esc even while it has focus
// (a focused widget gets keys before the canvas does).
type keyButton struct {
	widget.Button
	onEsc func()
}

func newKeyButton(label string, icon fyne.Resource, tapped, onEsc func()) *keyButton {
	b := &keyButton{onEsc: onEsc}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

func (b *keyButton) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape {
		b.onEsc()
		return
	}
	b.Button.TypedKey(ev)
}

// AllowShortcut is Alt+A, the keyboard's only way to allow.
var AllowShortcut = &desktop.CustomShortcut{KeyName: fyne.KeyA, Modifier: fyne.KeyModifierAlt}

// New builds the dialog for p in app a. answer is called exactly once:
// with the button's action, with deny when the window is closed or Esc is
// pressed, or with deny when the countdown runs out.
func New(a fyne.App, p proto.Prompt, now func() time.Time, answer func(proto.Reply)) *View {
	if now == nil {
		now = time.Now
	}
	v := &View{p: p, now: now, answer: answer}
	w := a.NewWindow(Title(p))
	v.Window = w

	denyEsc := func() { v.Answer(proto.ActionDeny, "denied by the user") }
	v.deny = newKeyButton("Deny  (Esc)", theme.CancelIcon(), denyEsc, denyEsc)
	v.deny.Importance = widget.HighImportance
	v.allow = newKeyButton("Allow once  (Alt+A)", theme.ConfirmIcon(), func() {
		v.Answer(proto.ActionAllow, "allowed once by the user")
	}, denyEsc)
	v.allow.Importance = widget.MediumImportance
	if p.Always != "" {
		v.always = newKeyButton(p.Always, nil, func() {
			v.Answer(proto.ActionAlways, "always allowed by the user")
		}, denyEsc)
		v.always.Importance = widget.LowImportance
	}

	v.countdown = widget.NewLabel("")
	v.progress = newThinBar()
	v.queue = widget.NewLabel("")
	v.queue.Alignment = fyne.TextAlignTrailing

	w.SetContent(v.layout())
	w.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if ev.Name == fyne.KeyEscape {
			denyEsc()
		}
	})
	w.Canvas().AddShortcut(AllowShortcut, func(fyne.Shortcut) {
		v.Answer(proto.ActionAllow, "allowed once by the user (Alt+A)")
	})
	w.SetCloseIntercept(v.closeIntercept)
	if dw, ok := w.(desktop.Window); ok {
		dw.RequestAlwaysOnTop()
	}
	w.SetFixedSize(true)
	v.SetQueue(p.Queue)
	v.Tick()
	return v
}

// closeIntercept runs when the user closes the window: that is a deny.
func (v *View) closeIntercept() { v.Answer(proto.ActionDeny, "denied: the dialog was closed") }

// Title is the window title: it starts with TitlePrefix.
func Title(p proto.Prompt) string {
	tool := p.Tool
	if tool == "" {
		tool = "tool"
	}
	return fmt.Sprintf("%s — approve this %s call?", TitlePrefix, tool)
}

// Answer resolves the dialog once; later calls do nothing.
func (v *View) Answer(action, reason string) {
	v.once.Do(func() {
		v.answer(proto.Reply{ID: v.p.ID, Action: action, Reason: reason})
		v.Window.Close()
	})
}

// Remaining is the time left before the tray denies by timeout.
func (v *View) Remaining() time.Duration {
	d := v.p.Deadline.Sub(v.now())
	if d < 0 {
		return 0
	}
	return d
}

// Tick updates the countdown; call it about once a second (on the UI
// thread). At zero the dialog denies: the tray has timed out already.
func (v *View) Tick() {
	left := v.Remaining()
	secs := int((left + time.Second - 1) / time.Second)
	v.countdown.SetText(fmt.Sprintf("Denies automatically in %d:%02d", secs/60, secs%60))
	total := float64(v.p.Timeout)
	if total <= 0 {
		total = 120
	}
	v.progress.set(min(1, left.Seconds()/total))
	if left <= 0 {
		v.Answer(proto.ActionDeny, "denied: nobody answered in time")
	}
}

// SetQueue shows how many approvals are waiting.
func (v *View) SetQueue(n int) {
	if n > 1 {
		v.queue.SetText(fmt.Sprintf("%d approvals waiting", n))
	} else {
		v.queue.SetText("")
	}
}

// RiskText describes a risk on the 0-3 ladder.
func RiskText(r float64) string {
	var what string
	switch {
	case r >= 2.5:
		what = "destructive, irreversible"
	case r >= 1.5:
		what = "affects services, mass changes or history"
	case r >= 0.5:
		what = "controlled, reversible"
	default:
		what = "read-only"
	}
	return fmt.Sprintf("%.1f of 3 — %s", r, what)
}

// Segments splits cmd around the first occurrence of marked, so the risky
// part can be drawn apart. ok is false when marked is empty or absent.
func Segments(cmd, marked string) (before, mark, after string, ok bool) {
	if marked == "" {
		return cmd, "", "", false
	}
	i := strings.Index(cmd, marked)
	if i < 0 {
		return cmd, "", "", false
	}
	return cmd[:i], marked, cmd[i+len(marked):], true
}

func (v *View) commandBox() fyne.CanvasObject {
	before, mark, after, ok := Segments(v.p.Command, v.p.Marked)
	mono := widget.RichTextStyle{Inline: true, TextStyle: fyne.TextStyle{Monospace: true}, ColorName: theme.ColorNameForeground}
	var segs []widget.RichTextSegment
	if before != "" {
		segs = append(segs, &widget.TextSegment{Text: before, Style: mono})
	}
	if ok {
		hot := mono
		hot.ColorName = theme.ColorNameError
		segs = append(segs, &widget.TextSegment{Text: mark, Style: hot})
	}
	if after != "" {
		segs = append(segs, &widget.TextSegment{Text: after, Style: mono})
	}
	rt := widget.NewRichText(segs...)
	rt.Wrapping = fyne.TextWrapBreak
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	bg.CornerRadius = theme.InputRadiusSize()
	bg.StrokeColor = theme.Color(theme.ColorNameInputBorder)
	bg.StrokeWidth = 1
	box := container.NewStack(bg, container.NewPadded(rt))
	if !ok {
		return box
	}
	hint := canvas.NewText("The highlighted part is what raised the risk.", theme.Color(theme.ColorNamePlaceHolder))
	hint.TextSize = theme.CaptionTextSize()
	return container.NewVBox(box, hint)
}

func field(name, value string) (fyne.CanvasObject, fyne.CanvasObject) {
	k := widget.NewLabelWithStyle(name, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	val := widget.NewLabel(value)
	val.Wrapping = fyne.TextWrapWord
	return k, val
}

func (v *View) layout() fyne.CanvasObject {
	p := v.p
	warn := widget.NewIcon(theme.WarningIcon())
	head := widget.NewLabelWithStyle(fmt.Sprintf("An agent wants to run this %s call", orDash(p.Tool)), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	header := container.NewBorder(nil, nil, warn, v.queue, head)

	var rows []fyne.CanvasObject
	add := func(k, val string) {
		if val == "" {
			return
		}
		a, b := field(k, val)
		rows = append(rows, a, b)
	}
	add("Working dir", p.Cwd)
	add("Risk", RiskText(p.Risk))
	add("Red line", fmt.Sprintf("%.0f %% probability", p.Violation*100))
	add("Rule", p.Rule)
	add("Reason", p.Reason)
	grid := container.New(layout.NewFormLayout(), rows...)

	buttons := []fyne.CanvasObject{layout.NewSpacer()}
	if v.always != nil {
		buttons = append(buttons, v.always)
	}
	buttons = append(buttons, v.allow, v.deny)

	accent := canvas.NewRectangle(color.NRGBA{0xf0, 0x9a, 0x1a, 0xff})
	accent.SetMinSize(fyne.NewSize(4, 4))
	body := container.NewVBox(
		header,
		v.commandBox(),
		grid,
		container.NewBorder(nil, nil, nil, v.countdown, v.progress.box),
		widget.NewSeparator(),
		container.NewHBox(buttons...),
	)
	content := container.NewBorder(accent, nil, nil, nil, container.NewPadded(body))
	// A fixed width keeps long commands wrapping instead of widening the window.
	return container.New(&minWidth{w: 600}, content)
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// minWidth is a stack layout with a minimum width.
type minWidth struct{ w float32 }

func (m *minWidth) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Resize(size)
		o.Move(fyne.NewPos(0, 0))
	}
}

func (m *minWidth) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	s.Width = max(s.Width, m.w)
	return s
}

// thinBar is a slim countdown bar; it turns to the warning colour in the
// last fifth of the time.
type thinBar struct {
	frac        float64
	track, fill *canvas.Rectangle
	box         *fyne.Container
}

func newThinBar() *thinBar {
	b := &thinBar{
		track: canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground)),
		fill:  canvas.NewRectangle(theme.Color(theme.ColorNamePrimary)),
	}
	b.track.CornerRadius, b.fill.CornerRadius = 3, 3
	b.box = container.New(b, b.track, b.fill)
	return b
}

// Value is the fraction of time left, 0..1.
func (b *thinBar) Value() float64 { return b.frac }

func (b *thinBar) set(f float64) {
	b.frac = max(0, min(1, f))
	if b.frac < 0.2 {
		b.fill.FillColor = theme.Color(theme.ColorNameWarning)
	} else {
		b.fill.FillColor = theme.Color(theme.ColorNamePrimary)
	}
	b.box.Refresh()
}

func (b *thinBar) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	const h = 6
	y := (size.Height - h) / 2
	b.track.Resize(fyne.NewSize(size.Width, h))
	b.track.Move(fyne.NewPos(0, y))
	b.fill.Resize(fyne.NewSize(size.Width*float32(b.frac), h))
	b.fill.Move(fyne.NewPos(0, y))
}

func (b *thinBar) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(120, 6) }
