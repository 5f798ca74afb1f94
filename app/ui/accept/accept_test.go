//go:build !nogui

package accept

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

func newView(t *testing.T) (*View, *[]Reply) {
	t.Helper()
	a := test.NewTempApp(t)
	var got []Reply
	v := New(a, Request{ConfigPath: "/h/config.json", Changes: []string{"enabled: true -> false (turns the guard off)"}}, func(r Reply) { got = append(got, r) })
	v.Window.Show()
	v.FocusDeny()
	return v, &got
}

// press sends a key to the focused widget, if the window still has one.
func press(v *View, k fyne.KeyName) {
	if f := v.Window.Canvas().Focused(); f != nil {
		f.TypedKey(&fyne.KeyEvent{Name: k})
	}
}

func TestKeysDenyAndOnlyAcceptAccepts(t *testing.T) {
	for _, tc := range []struct {
		name string
		do   func(v *View)
		want string
	}{
		{"enter on focused deny", func(v *View) { press(v, fyne.KeyReturn) }, ActionDeny},
		{"esc", func(v *View) { press(v, fyne.KeyEscape) }, ActionDeny},
		{"space on focused deny", func(v *View) { press(v, fyne.KeySpace) }, ActionDeny},
		{"enter on accept still denies", func(v *View) {
			v.Window.Canvas().Focus(v.Accept)
			press(v, fyne.KeyReturn)
		}, ActionDeny},
		{"tap accept", func(v *View) { test.Tap(v.Accept) }, ActionAccept},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, got := newView(t)
			if v.Window.Canvas().Focused() != v.Deny {
				t.Fatal("Deny does not have the focus")
			}
			tc.do(v)
			tc.do(v) // a second key press is no second answer
			if len(*got) != 1 || (*got)[0].Action != tc.want {
				t.Fatalf("answers %+v, want one %s", *got, tc.want)
			}
		})
	}
}

func TestTitleAndText(t *testing.T) {
	v, _ := newView(t)
	if !strings.HasPrefix(v.Window.Title(), "agent-guard") {
		t.Errorf("title %q", v.Window.Title())
	}
}
