//go:build !nogui

// Package prompt is the approval dialog: an always-on-top window showing
// one pending call. Layout, top to bottom: who asks (host, session,
// workspace), the summary (level, risk in words, the reason), the call in
// a scroll area capped at 40 % of the screen, and the countdown and the
// buttons, which are pinned and always visible. Keys: Deny is focused
// first; Enter and Esc deny; Alt+A allows once. "Always…" opens a second
// step that chooses the scope, so no single Tab and Space can write a
// rule. It runs in a child process; the answer goes back to the tray,
// which alone decides.
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

	"github.com/agent-guard/agent-guard/app/ui/callview"
	. "github.com/agent-guard/agent-guard/app/ui/i18n"
	"github.com/agent-guard/agent-guard/app/ui/proto"
)

// TitlePrefix starts every dialog title (tests and xdotool find it by this).
const TitlePrefix = "agent-guard"

// DefaultScreen is assumed when the screen size cannot be read.
var DefaultScreen = fyne.NewSize(1280, 720)

// View is one approval dialog.
type View struct {
	Window fyne.Window
	p      proto.Prompt
	now    func() time.Time
	answer func(proto.Reply)
	once   sync.Once
	screen fyne.Size

	deny, allow, always *keyButton
	back, save          *keyButton
	scopes              *widget.RadioGroup
	scopeOf             map[string]string // radio label -> scope
	countdown           *widget.Label
	progress            *thinBar
	queue               *widget.Label
	actions             *fyne.Container // step 1 buttons or step 2 scope chooser
	step1, step2        fyne.CanvasObject
	scroll              *container.Scroll // the call
	// CallHeight is the height given to the call's scroll area.
	CallHeight float32
}

// AllowShortcut is Alt+A, the keyboard's only way to allow.
var AllowShortcut = &desktop.CustomShortcut{KeyName: fyne.KeyA, Modifier: fyne.KeyModifierAlt}

// New builds the dialog for p in app a, sized for a screen of the given
// size (zero: DefaultScreen). answer is called exactly once: with the
// button's action, with deny when the window is closed, Enter or Esc is
// pressed, or the countdown runs out.
func New(a fyne.App, p proto.Prompt, now func() time.Time, answer func(proto.Reply), screen ...fyne.Size) *View {
	if now == nil {
		now = time.Now
	}
	v := &View{p: p, now: now, answer: answer, screen: DefaultScreen}
	if len(screen) > 0 && screen[0].Width > 0 && screen[0].Height > 0 {
		v.screen = screen[0]
	}
	w := a.NewWindow(Title(p))
	v.Window = w

	deny := func() { v.Answer(proto.ActionDeny, "denied by the user") }
	v.deny = newKeyButton(T("Deny")+"  (Enter / Esc)", theme.CancelIcon(), deny, deny)
	v.deny.Importance = widget.DangerImportance
	v.allow = newKeyButton(T("Allow once")+"  (Alt+A)", theme.ConfirmIcon(), func() {
		v.Answer(proto.ActionAllow, "allowed once by the user")
	}, deny)
	v.allow.Importance = widget.MediumImportance
	if len(p.Always) > 0 && len(p.Scopes) > 0 {
		v.always = newKeyButton(T("Always…"), theme.MoreHorizontalIcon(), v.showScopes, deny)
		v.always.Importance = widget.MediumImportance
		v.buildScopeStep(deny)
	}
	v.countdown = widget.NewLabel("")
	v.progress = newThinBar()
	v.queue = widget.NewLabel("")
	v.queue.Alignment = fyne.TextAlignTrailing

	w.SetContent(v.layout())
	w.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
		if denyKey(ev.Name) {
			deny()
		}
	})
	w.Canvas().AddShortcut(AllowShortcut, func(fyne.Shortcut) {
		v.Answer(proto.ActionAllow, "allowed once by the user (Alt+A)")
	})
	w.SetCloseIntercept(v.closeIntercept)
	if dw, ok := w.(desktop.Window); ok {
		dw.RequestAlwaysOnTop()
	}
	w.Resize(v.WindowSize())
	w.SetFixedSize(true)
	v.scrollToMark()
	v.SetQueue(p.Queue)
	v.Tick()
	return v
}

// FocusDeny puts the keyboard focus on Deny (call once the window shows).
func (v *View) FocusDeny() { v.Window.Canvas().Focus(v.deny) }

// Focused is the widget with the keyboard focus (tests).
func (v *View) Focused() fyne.Focusable { return v.Window.Canvas().Focused() }

func denyKey(k fyne.KeyName) bool {
	return k == fyne.KeyEscape || k == fyne.KeyReturn || k == fyne.KeyEnter
}

// closeIntercept runs when the user closes the window: that is a deny.
func (v *View) closeIntercept() { v.Answer(proto.ActionDeny, "denied: the dialog was closed") }

// Title is the window title: it starts with TitlePrefix and names the host.
func Title(p proto.Prompt) string {
	tool := p.Tool
	if tool == "" {
		tool = "tool"
	}
	host := p.HostName
	if host == "" {
		host = T("an agent")
	}
	return TitlePrefix + " — " + T("{{.Host}} asks to run {{.Tool}}", map[string]any{"Host": host, "Tool": tool})
}

// Answer resolves the dialog once; later calls do nothing.
func (v *View) Answer(action, reason string) { v.answerScope(action, reason, "") }

func (v *View) answerScope(action, reason, scope string) {
	v.once.Do(func() {
		v.answer(proto.Reply{ID: v.p.ID, Action: action, Reason: reason, Scope: scope})
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
	v.countdown.SetText(T("Denies automatically in {{.Time}}", map[string]any{"Time": fmt.Sprintf("%d:%02d", secs/60, secs%60)}))
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
		v.queue.SetText(T("{{.N}} approvals waiting", map[string]any{"N": n}))
	} else {
		v.queue.SetText("")
	}
}

// RiskText describes a risk on the 0-3 ladder in words.
func RiskText(r float64) string {
	var what string
	switch {
	case r >= 2.5:
		what = T("destructive, irreversible")
	case r >= 1.5:
		what = T("affects services, mass changes or history")
	case r >= 0.5:
		what = T("controlled, reversible")
	default:
		what = T("read-only")
	}
	return fmt.Sprintf("%.1f / 3 — %s", r, what)
}

// WindowSize is the dialog's size: at most the screen minus a margin, so
// CenterOnScreen keeps it wholly on the screen.
func (v *View) WindowSize() fyne.Size {
	min := v.Window.Content().MinSize()
	w := fyne.Min(max(min.Width, v.width()), v.screen.Width-16)
	h := fyne.Min(min.Height, v.screen.Height-48)
	return fyne.NewSize(w, h)
}

// width is the preferred width: 760, less on small screens.
func (v *View) width() float32 { return fyne.Min(760, v.screen.Width-32) }

func (v *View) layout() fyne.CanvasObject {
	p := v.p
	// Header: who asks.
	host := p.HostName
	if host == "" {
		host = T("An agent")
	}
	hostLabel := widget.NewLabelWithStyle(T("{{.Host}} wants to run a {{.Tool}} call", map[string]any{"Host": host, "Tool": orDash(p.Tool)}),
		fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	hostLabel.Truncation = fyne.TextTruncateEllipsis
	var who []string
	if p.Session != "" {
		who = append(who, T("session")+" "+shortID(p.Session))
	}
	if p.Workspace != "" {
		who = append(who, T("workspace")+" "+p.Workspace)
	}
	whoLabel := widget.NewLabel(strings.Join(who, "  ·  "))
	whoLabel.Truncation = fyne.TextTruncateEllipsis
	header := container.NewBorder(nil, nil, widget.NewIcon(theme.WarningIcon()), v.queue, container.NewVBox(hostLabel, whoLabel))

	// Summary: level, risk in words, the reason.
	level := strings.ToUpper(T(orDefault(p.Level, "confirm")))
	risk := widget.NewLabelWithStyle(level+"  ·  "+T("risk")+" "+RiskText(p.Risk)+redLine(p.Violation), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	risk.Wrapping = fyne.TextWrapWord
	reason := widget.NewLabel(p.Reason)
	reason.Wrapping = fyne.TextWrapWord
	summary := container.NewVBox(risk, reason)
	if p.Rule != "" {
		rule := widget.NewLabelWithStyle(T("rule")+" "+p.Rule, fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
		summary.Add(rule)
	}

	// The call, scrollable, capped at 40 % of the screen.
	call, callNote := v.callBox()
	scroll := container.NewVScroll(call)
	v.scroll = scroll
	v.CallHeight = fyne.Min(v.estimateCallHeight(), v.screen.Height*0.4)
	scroll.SetMinSize(fyne.NewSize(v.width()-40, v.CallHeight))
	middle := container.NewBorder(callNote, nil, nil, nil, scroll)

	// Pinned bottom: countdown and buttons.
	row := []fyne.CanvasObject{layout.NewSpacer()}
	if v.always != nil {
		row = append(row, v.always)
	}
	row = append(row, v.allow, focusRing(v.deny))
	v.step1 = container.NewHBox(row...)
	v.actions = container.NewStack(v.step1)
	bottom := container.NewVBox(
		container.NewBorder(nil, nil, nil, v.countdown, v.progress.box),
		widget.NewSeparator(),
		v.actions,
	)
	accent := canvas.NewRectangle(color.NRGBA{0xf0, 0x9a, 0x1a, 0xff})
	accent.SetMinSize(fyne.NewSize(4, 4))
	top := container.NewVBox(header, widget.NewSeparator(), summary)
	body := container.NewBorder(top, bottom, nil, nil, middle)
	return container.NewBorder(accent, nil, nil, nil, container.NewPadded(body))
}

// scrollToMark scrolls the call so the marked span shows: a 40-line
// command flagged on its last line opens there, not at line 1. Lines are
// taken as equally tall (wrapping makes this approximate; the marked
// line lands in the upper third rather than exactly at it).
func (v *View) scrollToMark() {
	c := v.p.Call
	if c.MarkEnd <= c.MarkStart || c.MarkStart > len(c.Text) || v.scroll == nil {
		return
	}
	h := v.scroll.Content.Size().Height
	if h <= v.CallHeight {
		return // it all shows
	}
	before := strings.Count(c.Text[:c.MarkStart], "\n")
	lines := strings.Count(c.Text, "\n") + 1
	y := h*float32(before)/float32(lines) - v.CallHeight/3
	if y > 0 {
		v.scroll.ScrollToOffset(fyne.NewPos(0, fyne.Min(y, h-v.CallHeight)))
	}
}

// ScrollOffset is how far the call is scrolled down (tests).
func (v *View) ScrollOffset() float32 { return v.scroll.Offset.Y }

// callBox is the call's text with the judged span marked, and a note
// above it (file path, "first N of M KB", MCP tool).
func (v *View) callBox() (fyne.CanvasObject, fyne.CanvasObject) {
	c := v.p.Call
	var notes []string
	switch c.Kind {
	case callview.KindWrite, callview.KindEdit:
		notes = append(notes, T("file")+" "+c.Path)
	case callview.KindMCP:
		notes = append(notes, T("MCP tool")+" "+c.Target)
	}
	if c.Total > c.Shown && c.Shown > 0 {
		notes = append(notes, T("showing the first {{.N}} of {{.M}} KB", map[string]any{"N": callview.KB(c.Shown), "M": callview.KB(c.Total)}))
	}
	if c.MarkEnd > c.MarkStart {
		notes = append(notes, T("the marked part is what the judge flagged"))
	}
	var note fyne.CanvasObject = layout.NewSpacer()
	if len(notes) > 0 {
		l := widget.NewLabelWithStyle(strings.Join(notes, "  ·  "), fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
		l.Wrapping = fyne.TextWrapWord
		note = l
	}
	rt := widget.NewRichText(Segments(c)...)
	rt.Wrapping = fyne.TextWrapWord
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	bg.CornerRadius = theme.InputRadiusSize()
	bg.StrokeColor = theme.Color(theme.ColorNameInputBorder)
	bg.StrokeWidth = 1
	return container.NewStack(bg, container.NewPadded(rt)), note
}

// Segments splits the call's text into monospace segments, one
// paragraph per line (inline segments across a newline wrap badly): the
// marked span in the error colour; for a diff, removed lines in the error
// and added lines in the success colour.
func Segments(c callview.View) []widget.RichTextSegment {
	mono := widget.RichTextStyle{Inline: true, TextStyle: fyne.TextStyle{Monospace: true}, ColorName: theme.ColorNameForeground}
	text := c.Text
	ms, me := c.MarkStart, c.MarkEnd
	if me > len(text) || ms < 0 || ms >= me {
		ms, me = 0, 0
	}
	var segs []widget.RichTextSegment
	off := 0
	for _, line := range strings.Split(text, "\n") {
		base := mono
		if c.Kind == callview.KindEdit {
			switch {
			case strings.HasPrefix(line, "- "):
				base.ColorName = theme.ColorNameError
			case strings.HasPrefix(line, "+ "):
				base.ColorName = theme.ColorNameSuccess
			}
		}
		hot := base
		hot.ColorName = theme.ColorNameError
		start := len(segs)
		a, b := max(ms-off, 0), min(me-off, len(line))
		if a >= b {
			a, b = len(line), len(line)
		}
		for _, part := range []struct {
			s  string
			st widget.RichTextStyle
		}{{line[:a], base}, {line[a:b], hot}, {line[b:], base}} {
			if part.s != "" {
				segs = append(segs, &widget.TextSegment{Text: part.s, Style: part.st})
			}
		}
		if len(segs) == start {
			segs = append(segs, &widget.TextSegment{Text: " ", Style: base})
		}
		end := segs[len(segs)-1].(*widget.TextSegment)
		end.Style.Inline = false // the line ends here
		off += len(line) + 1
	}
	return segs
}

// estimateCallHeight guesses the wrapped text's height at the dialog's
// width (monospace: about 0.6 em per character).
func (v *View) estimateCallHeight() float32 {
	size := theme.TextSize()
	perLine := int((v.width() - 60) / (size * 0.62))
	lines := 0
	for _, l := range strings.Split(v.p.Call.Text, "\n") {
		lines += 1 + len([]rune(l))/max(perLine, 20)
	}
	return float32(lines)*(size*1.5) + 4*theme.Padding() + 12
}

// buildScopeStep is the second step of "Always…": what would be
// allowed, the scope (narrowest first, preselected), Back and Save.
// Back has the focus, so Space there only goes back.
func (v *View) buildScopeStep(deny func()) {
	v.scopeOf = map[string]string{}
	var labels []string
	for _, s := range v.p.Scopes {
		l := scopeLabel(s, v.p)
		v.scopeOf[l] = s
		labels = append(labels, l)
	}
	v.scopes = widget.NewRadioGroup(labels, nil)
	v.scopes.Required = true
	if len(labels) > 0 {
		v.scopes.SetSelected(labels[0])
	}
	shown := v.p.Always
	if len(shown) > 4 {
		shown = append(shown[:3:3], T("… and {{.N}} more", map[string]any{"N": len(v.p.Always) - 3}))
	}
	what := widget.NewLabel(T("Always allow, without asking:") + "\n" + strings.Join(shown, "\n"))
	what.Wrapping = fyne.TextWrapWord
	v.back = newKeyButton(T("Back"), theme.NavigateBackIcon(), v.showButtons, deny)
	v.save = newKeyButton(T("Always allow in this scope"), theme.ConfirmIcon(), func() {
		if s := v.scopeOf[v.scopes.Selected]; s != "" {
			v.answerScope(proto.ActionAlways, "always allowed by the user ("+s+")", s)
		}
	}, deny)
	v.save.Importance = widget.WarningImportance
	v.step2 = container.NewVBox(what, v.scopes, container.NewHBox(layout.NewSpacer(), v.save, focusRing(v.back)))
}

func scopeLabel(scope string, p proto.Prompt) string {
	switch scope {
	case proto.ScopeSession:
		return T("this session only ({{.ID}})", map[string]any{"ID": shortID(p.Session)})
	case proto.ScopeWorkspace:
		return T("this workspace ({{.Dir}})", map[string]any{"Dir": p.Workspace})
	}
	return T("everywhere (every session and folder)")
}

// showScopes opens the second step (the Always… button).
func (v *View) showScopes() {
	if v.step2 == nil {
		return
	}
	v.actions.Objects = []fyne.CanvasObject{v.step2}
	v.actions.Refresh()
	v.Window.Resize(v.WindowSize())
	v.Window.CenterOnScreen() // taller now: keep it on the screen
	v.Window.Canvas().Focus(v.back)
}

// InScopeStep reports whether the scope chooser is showing (tests).
func (v *View) InScopeStep() bool {
	return len(v.actions.Objects) == 1 && v.actions.Objects[0] == v.step2
}

func (v *View) showButtons() {
	v.actions.Objects = []fyne.CanvasObject{v.step1}
	v.actions.Refresh()
	v.Window.Canvas().Focus(v.deny)
}

func redLine(p float64) string {
	if p < 0.05 {
		return ""
	}
	return "  ·  " + T("red line {{.P}} %", map[string]any{"P": fmt.Sprintf("%.0f", p*100)})
}

func shortID(s string) string {
	if r := []rune(s); len(r) > 12 {
		return string(r[:8]) + "…"
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
