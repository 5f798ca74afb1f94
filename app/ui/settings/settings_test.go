//go:build !nogui

package settings

import (
	"errors"
	"image/png"
	"os"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/agent-guard/agent-guard/app/config"
)

func open(t *testing.T, v Values, save func(Values) error) *View {
	t.Helper()
	a := test.NewTempApp(t)
	s := New(a, v, "configured (tsk-…9f2c)", save)
	s.Window.Show()
	return s
}

func defaults() Values { return FromConfig(config.Default()) }

func TestSliderBounds(t *testing.T) {
	s := open(t, defaults(), func(Values) error { return nil })
	tests := []struct {
		name           string
		sl             float64
		min, max       float64
		gotMin, gotMax float64
	}{
		{"block risk", 0, 0, 3, s.blockRisk.Min, s.blockRisk.Max},
		{"confirm risk", 0, 0, 3, s.confirmRisk.Min, s.confirmRisk.Max},
		{"block violation", 0, 0, 1, s.blockViol.Min, s.blockViol.Max},
		{"confirm violation", 0, 0, 1, s.confirmViol.Min, s.confirmViol.Max},
		{"timeout", 0, MinTimeout, MaxTimeout, s.timeout.Min, s.timeout.Max},
	}
	for _, tc := range tests {
		if tc.gotMin != tc.min || tc.gotMax != tc.max {
			t.Errorf("%s: bounds %v..%v, want %v..%v", tc.name, tc.gotMin, tc.gotMax, tc.min, tc.max)
		}
	}
	c := s.Current()
	d := defaults()
	if c.BlockRisk != d.BlockRisk || c.ConfirmRisk != d.ConfirmRisk || c.BlockViolation != d.BlockViolation ||
		c.ConfirmViolation != d.ConfirmViolation || c.TimeoutSeconds != d.TimeoutSeconds || c.Mode != d.Mode {
		t.Fatalf("widgets show %+v, config has %+v", c, d)
	}
}

func TestValidation(t *testing.T) {
	tests := []struct {
		name    string
		edit    func(s *View)
		wantMsg string
	}{
		{"defaults are valid", func(*View) {}, ""},
		{"confirm risk above block", func(s *View) { s.confirmRisk.SetValue(2.8) }, "Confirm risk (2.8) must be below block risk (2.5)"},
		{"confirm risk equal to block", func(s *View) { s.blockRisk.SetValue(1.5) }, "must be below block risk"},
		{"confirm red line above block", func(s *View) { s.confirmViol.SetValue(0.9) }, "red-line probability (0.90) must be below block (0.85)"},
		{"lower block below confirm", func(s *View) { s.blockViol.SetValue(0.3) }, "must be below block (0.30)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			saved := 0
			s := open(t, defaults(), func(Values) error { saved++; return nil })
			tc.edit(s)
			if !strings.Contains(s.message.Text, tc.wantMsg) || (tc.wantMsg == "") != (s.message.Text == "") {
				t.Fatalf("message %q, want %q", s.message.Text, tc.wantMsg)
			}
			if s.saveBtn.Disabled() != (tc.wantMsg != "") {
				t.Fatalf("save disabled=%v with message %q", s.saveBtn.Disabled(), s.message.Text)
			}
			s.Save()
			if want := map[bool]int{true: 1, false: 0}[tc.wantMsg == ""]; saved != want {
				t.Fatalf("saved %d times, want %d", saved, want)
			}
		})
	}
}

func TestSaveWritesEditedValues(t *testing.T) {
	var got Values
	s := open(t, defaults(), func(v Values) error { got = v; return nil })
	s.confirmRisk.SetValue(2.4)
	s.timeout.SetValue(30)
	s.degrade.SetChecked(false)
	s.mode.SetSelected(modeAgent)
	test.Tap(s.saveBtn)
	if got.ConfirmRisk != 2.4 || got.TimeoutSeconds != 30 || got.DegradeAskToDeny || got.Mode != "agent" {
		t.Fatalf("saved %+v", got)
	}
	c := config.Default()
	got.Apply(c)
	if err := c.Validate(); err != nil || c.ConfirmRisk != 2.4 || c.Approval.Mode != "agent" {
		t.Fatalf("applied config invalid or wrong: %v %+v", err, c)
	}
}

func TestSaveErrorKeepsWindow(t *testing.T) {
	s := open(t, defaults(), func(Values) error { return errors.New("disk full") })
	s.Save()
	if !strings.Contains(s.message.Text, "disk full") {
		t.Fatalf("message %q", s.message.Text)
	}
}

func TestPreview(t *testing.T) {
	out := os.Getenv("AG_PREVIEW_SETTINGS")
	if out == "" {
		t.Skip("set AG_PREVIEW_SETTINGS to write a preview PNG")
	}
	s := open(t, defaults(), func(Values) error { return nil })
	test.NewTempApp(t).Settings().SetTheme(theme.DefaultTheme())
	s.Window.Resize(s.Window.Content().MinSize())
	f, _ := os.Create(out)
	defer f.Close()
	png.Encode(f, s.Window.Canvas().Capture())
}
