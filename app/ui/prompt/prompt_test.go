//go:build !nogui

package prompt

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agent-guard/agent-guard/app/ui/callview"
	"github.com/agent-guard/agent-guard/app/ui/proto"
)

// typeShortcut delivers a shortcut as the desktop driver does. The test
// canvas hides the software canvas's TypedShortcut behind an embedded
// interface, so reach it through that exported field.
func typeShortcut(t *testing.T, c fyne.Canvas, s fyne.Shortcut) {
	t.Helper()
	type handler interface{ TypedShortcut(fyne.Shortcut) }
	if h, ok := c.(handler); ok {
		h.TypedShortcut(s)
		return
	}
	f := reflect.ValueOf(c).Elem().FieldByName("WindowlessCanvas")
	h, ok := f.Interface().(handler)
	if !ok {
		t.Fatal("test canvas cannot take shortcuts")
	}
	h.TypedShortcut(s)
}

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newView(t *testing.T, p proto.Prompt) (*View, *clock, *[]proto.Reply) {
	t.Helper()
	a := test.NewTempApp(t)
	c := &clock{t: time.Unix(1_800_000_000, 0)}
	if p.Deadline.IsZero() {
		p.Deadline = c.t.Add(120 * time.Second)
		p.Timeout = 120
	}
	var got []proto.Reply
	v := New(a, p, c.now, func(r proto.Reply) { got = append(got, r) })
	v.Window.Show()
	return v, c, &got
}

func sample() proto.Prompt {
	cmd := "cd /w && git reset --hard HEAD~1"
	return proto.Prompt{ID: 7, Tool: "Bash", Host: "claude", HostName: "Claude Code", Session: "sess-1234567890abcdef", Workspace: "/w",
		Call:  callview.View{Kind: callview.KindBash, Text: cmd, MarkStart: strings.Index(cmd, "git"), MarkEnd: len(cmd)},
		Level: "confirm", Risk: 2, Violation: 0.1, Rule: "git.reset-hard", Reason: "discards commits",
		Always: []string{"git reset --hard HEAD~1"}, Scopes: []string{proto.ScopeSession, proto.ScopeWorkspace, proto.ScopeEverywhere}, Queue: 1}
}

func TestButtons(t *testing.T) {
	tests := []struct {
		name   string
		press  func(v *View)
		action string
		scope  string
	}{
		{"deny button", func(v *View) { test.Tap(v.deny) }, proto.ActionDeny, ""},
		{"allow once", func(v *View) { test.Tap(v.allow) }, proto.ActionAllow, ""},
		{"always: narrowest scope preselected", func(v *View) { test.Tap(v.always); test.Tap(v.save) }, proto.ActionAlways, proto.ScopeSession},
		{"always: workspace", func(v *View) {
			test.Tap(v.always)
			v.scopes.SetSelected(scopeLabel(proto.ScopeWorkspace, v.p))
			test.Tap(v.save)
		}, proto.ActionAlways, proto.ScopeWorkspace},
		{"always: everywhere", func(v *View) {
			test.Tap(v.always)
			v.scopes.SetSelected(scopeLabel(proto.ScopeEverywhere, v.p))
			test.Tap(v.save)
		}, proto.ActionAlways, proto.ScopeEverywhere},
		{"Esc on the canvas", func(v *View) { v.Window.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape}) }, proto.ActionDeny, ""},
		{"Enter on the canvas", func(v *View) { v.Window.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyReturn}) }, proto.ActionDeny, ""},
		{"Enter with Allow focused", func(v *View) {
			v.Window.Canvas().Focus(v.allow)
			v.allow.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		}, proto.ActionDeny, ""},
		{"Esc with a button focused", func(v *View) {
			v.Window.Canvas().Focus(v.allow)
			v.allow.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		}, proto.ActionDeny, ""},
		{"Enter in the scope step", func(v *View) {
			test.Tap(v.always)
			v.back.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		}, proto.ActionDeny, ""},
		{"Alt+A", func(v *View) {
			typeShortcut(t, v.Window.Canvas(), AllowShortcut)
		}, proto.ActionAllow, ""},
		{"closing the window", func(v *View) { v.closeIntercept() }, proto.ActionDeny, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, _, got := newView(t, sample())
			tc.press(v)
			// A second answer must be ignored.
			test.Tap(v.allow)
			if len(*got) != 1 || (*got)[0].Action != tc.action || (*got)[0].ID != 7 || (*got)[0].Scope != tc.scope {
				t.Fatalf("replies %+v, want one %s %s", *got, tc.action, tc.scope)
			}
		})
	}
}

// Deny has the focus first, with its ring drawn; Tab then Space never
// writes a rule: at most it opens the scope step, whose focus is on Back.
func TestFocusAndTabSpace(t *testing.T) {
	v, _, got := newView(t, sample())
	v.FocusDeny()
	if v.Focused() != v.deny || !v.deny.HasRing() {
		t.Fatalf("focused %v, ring %v: want Deny with its ring", v.Focused(), v.deny.HasRing())
	}
	for tabs := 1; tabs <= 6; tabs++ {
		v2, _, got2 := newView(t, sample())
		v2.FocusDeny()
		for i := 0; i < tabs; i++ {
			v2.Window.Canvas().FocusNext()
		}
		f := v2.Focused()
		if f == nil {
			continue
		}
		f.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
		for _, r := range *got2 {
			if r.Action == proto.ActionAlways {
				t.Fatalf("%d Tab(s) then Space answered always", tabs)
			}
		}
		if v2.InScopeStep() {
			if v2.Focused() != v2.back {
				t.Fatalf("scope step opened with focus on %v, want Back", v2.Focused())
			}
			// Space again on Back goes back, still writing nothing.
			v2.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
			if len(*got2) != 0 || v2.InScopeStep() {
				t.Fatalf("Space on Back: replies %+v, still in the scope step %v", *got2, v2.InScopeStep())
			}
		}
	}
	if len(*got) != 0 {
		t.Fatalf("focusing answered %+v", *got)
	}
}

// Long calls keep the dialog on the screen: the call area is capped at
// 40 % of the screen's height and the whole window fits.
func TestLongContentFitsTheScreen(t *testing.T) {
	screen := fyne.NewSize(1280, 720)
	var lines []string
	for i := 0; i < 40; i++ {
		lines = append(lines, fmt.Sprintf("echo step %d && rsync -a --delete build/ /srv/www/site-%d/", i, i))
	}
	long := strings.Join(lines, "\n")
	for name, c := range map[string]callview.View{
		"40-line command": {Kind: callview.KindBash, Text: long},
		"300 KB write":    {Kind: callview.KindWrite, Path: "/w/big.txt", Text: strings.Repeat("lorem ipsum dolor sit amet ", 80), Shown: 2048, Total: 300 << 10},
		"20 KB MCP":       {Kind: callview.KindMCP, Target: "pg / execute_sql", Text: strings.Repeat("{\n  \"k\": \"value value value\",\n", 600)},
	} {
		t.Run(name, func(t *testing.T) {
			p := sample()
			p.Call = c
			a := test.NewTempApp(t)
			v := New(a, p, nil, func(proto.Reply) {}, screen)
			size := v.WindowSize()
			if size.Height > screen.Height-40 || size.Width > screen.Width {
				t.Fatalf("window %v does not fit a %v screen", size, screen)
			}
			if v.CallHeight > screen.Height*0.4+0.5 || v.CallHeight < 100 {
				t.Fatalf("call area %v high, want capped at 40 %% of %v", v.CallHeight, screen.Height)
			}
			if min := v.Window.Content().MinSize(); min.Height > screen.Height-40 {
				t.Fatalf("content needs %v, more than the screen", min)
			}
		})
	}
}

// A long call marked near its end opens scrolled to the mark; one
// marked on its first line, or short enough to show whole, does not.
func TestScrollsToTheMark(t *testing.T) {
	var lines []string
	for i := 0; i < 40; i++ {
		lines = append(lines, fmt.Sprintf("echo step %d", i))
	}
	lines = append(lines, "git reset --hard HEAD~3")
	long := strings.Join(lines, "\n")
	last := strings.LastIndex(long, "git")
	cases := []struct {
		name     string
		text     string
		ms, me   int
		scrolled bool
	}{
		{"marked on the last line", long, last, len(long), true},
		{"marked on the first line", long, 0, 4, false},
		{"short", "cd /w && git reset --hard", 9, 25, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := sample()
			p.Call = callview.View{Kind: callview.KindBash, Text: tc.text, MarkStart: tc.ms, MarkEnd: tc.me}
			v := New(test.NewTempApp(t), p, nil, func(proto.Reply) {}, fyne.NewSize(1280, 720))
			if got := v.ScrollOffset() > 0; got != tc.scrolled {
				t.Fatalf("scrolled %v (offset %v), want %v", got, v.ScrollOffset(), tc.scrolled)
			}
		})
	}
}

func TestCountdown(t *testing.T) {
	v, c, got := newView(t, sample())
	if txt := v.countdown.Text; txt != "Denies automatically in 2:00" {
		t.Fatalf("countdown %q", txt)
	}
	c.t = c.t.Add(61*time.Second + 500*time.Millisecond)
	v.Tick()
	if txt := v.countdown.Text; txt != "Denies automatically in 0:59" {
		t.Fatalf("countdown %q", txt)
	}
	if f := v.progress.Value(); f <= 0.45 || f >= 0.55 {
		t.Fatalf("progress %v, want about half", f)
	}
	if len(*got) != 0 {
		t.Fatal("answered before the deadline")
	}
	c.t = c.t.Add(time.Minute)
	v.Tick()
	if len(*got) != 1 || (*got)[0].Action != proto.ActionDeny {
		t.Fatalf("at zero: %+v, want deny", *got)
	}
}

func TestRedLineHasNoAlways(t *testing.T) {
	p := sample()
	p.Always, p.Scopes = nil, nil
	v, _, _ := newView(t, p)
	if v.always != nil {
		t.Fatal("Always… offered without approvals (red line)")
	}
}

func TestTitleAndContent(t *testing.T) {
	v, _, _ := newView(t, sample())
	if title := v.Window.Title(); !strings.HasPrefix(title, TitlePrefix) || !strings.Contains(title, "Claude Code") {
		t.Fatalf("title %q: want the prefix and the host", title)
	}
	v.SetQueue(3)
	if v.queue.Text != "3 approvals waiting" {
		t.Fatalf("queue %q", v.queue.Text)
	}
}

func TestSegments(t *testing.T) {
	type seg struct {
		text   string
		colour fyne.ThemeColorName
		inline bool
	}
	get := func(segs []widget.RichTextSegment) []seg {
		var out []seg
		for _, s := range segs {
			ts := s.(*widget.TextSegment)
			out = append(out, seg{ts.Text, ts.Style.ColorName, ts.Style.Inline})
		}
		return out
	}
	fg, red, green := theme.ColorNameForeground, theme.ColorNameError, theme.ColorNameSuccess
	tests := []struct {
		name string
		c    callview.View
		want []seg
	}{
		{"one line, marked tail", sample().Call, []seg{{"cd /w && ", fg, true}, {"git reset --hard HEAD~1", red, false}}},
		{"mark on the second line only", callview.View{Text: "echo a\nrm -rf b\necho c", MarkStart: 7, MarkEnd: 15},
			[]seg{{"echo a", fg, false}, {"rm -rf b", red, false}, {"echo c", fg, false}}},
		{"mark across lines", callview.View{Text: "ab\ncd", MarkStart: 1, MarkEnd: 4},
			[]seg{{"a", fg, true}, {"b", red, false}, {"c", red, true}, {"d", fg, false}}},
		{"empty line kept", callview.View{Text: "a\n\nb"}, []seg{{"a", fg, false}, {" ", fg, false}, {"b", fg, false}}},
		{"diff colours", callview.View{Kind: callview.KindEdit, Text: "  a\n- b\n+ c"}, []seg{{"  a", fg, false}, {"- b", red, false}, {"+ c", green, false}}},
	}
	for _, tc := range tests {
		if got := get(Segments(tc.c)); fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestRiskText(t *testing.T) {
	for r, want := range map[float64]string{0: "read-only", 1: "controlled", 2: "affects services", 3: "destructive"} {
		if got := RiskText(r); !strings.Contains(got, want) {
			t.Errorf("RiskText(%v) = %q", r, got)
		}
	}
}
