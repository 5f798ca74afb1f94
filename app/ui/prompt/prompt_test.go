//go:build !nogui

package prompt

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

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
	return proto.Prompt{ID: 7, Tool: "Bash", Command: "cd /w && git reset --hard HEAD~1", Marked: "git reset --hard HEAD~1",
		Cwd: "/w", Risk: 2, Violation: 0.1, Rule: "git.reset-hard", Reason: "discards commits", Always: "Always allow this command", Queue: 1}
}

func TestButtons(t *testing.T) {
	tests := []struct {
		name   string
		press  func(v *View)
		action string
	}{
		{"deny button", func(v *View) { test.Tap(v.deny) }, proto.ActionDeny},
		{"allow once", func(v *View) { test.Tap(v.allow) }, proto.ActionAllow},
		{"always allow", func(v *View) { test.Tap(v.always) }, proto.ActionAlways},
		{"Esc on the canvas", func(v *View) { v.Window.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape}) }, proto.ActionDeny},
		{"Esc with a button focused", func(v *View) {
			v.Window.Canvas().Focus(v.allow)
			v.allow.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		}, proto.ActionDeny},
		{"Alt+A", func(v *View) {
			typeShortcut(t, v.Window.Canvas(), AllowShortcut)
		}, proto.ActionAllow},
		{"closing the window", func(v *View) { v.closeIntercept() }, proto.ActionDeny},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, _, got := newView(t, sample())
			tc.press(v)
			// A second answer must be ignored.
			test.Tap(v.allow)
			if len(*got) != 1 || (*got)[0].Action != tc.action || (*got)[0].ID != 7 {
				t.Fatalf("replies %+v, want one %s", *got, tc.action)
			}
		})
	}
}

func TestEnterNeverAllows(t *testing.T) {
	for _, focus := range []string{"none", "deny", "allow"} {
		t.Run(focus, func(t *testing.T) {
			v, _, got := newView(t, sample())
			key := &fyne.KeyEvent{Name: fyne.KeyReturn}
			switch focus {
			case "none":
				v.Window.Canvas().OnTypedKey()(key)
			case "deny":
				v.deny.TypedKey(key)
			case "allow":
				v.allow.TypedKey(key)
			}
			v.Window.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEnter})
			if len(*got) != 0 {
				t.Fatalf("Enter answered %+v", *got)
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

func TestRedLineHasNoAlwaysAllow(t *testing.T) {
	p := sample()
	p.Always = ""
	v, _, _ := newView(t, p)
	if v.always != nil {
		t.Fatal("Always allow offered without a label (red line)")
	}
}

func TestTitleAndContent(t *testing.T) {
	v, _, _ := newView(t, sample())
	if !strings.HasPrefix(v.Window.Title(), TitlePrefix) {
		t.Fatalf("title %q", v.Window.Title())
	}
	v.SetQueue(3)
	if v.queue.Text != "3 approvals waiting" {
		t.Fatalf("queue %q", v.queue.Text)
	}
}

func TestSegments(t *testing.T) {
	tests := []struct {
		cmd, mark, b, m, a string
		ok                 bool
	}{
		{"cd x && rm -r y", "rm -r y", "cd x && ", "rm -r y", "", true},
		{"echo hi", "", "echo hi", "", "", false},
		{"echo hi", "nope", "echo hi", "", "", false},
	}
	for _, tc := range tests {
		b, m, a, ok := Segments(tc.cmd, tc.mark)
		if b != tc.b || m != tc.m || a != tc.a || ok != tc.ok {
			t.Errorf("Segments(%q,%q) = %q %q %q %v", tc.cmd, tc.mark, b, m, a, ok)
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
