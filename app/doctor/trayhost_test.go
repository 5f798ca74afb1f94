package doctor

import (
	"bytes"
	"errors"
	"runtime"
	"strings"
	"testing"
)

// Doctor reports a desktop without a tray host (the icon would never
// appear) and says how to reach the windows; a desktop with one is OK;
// no desktop at all points to the headless server.
func TestTrayHostLine(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the tray host check is Linux only (elsewhere there is always a tray)")
	}
	cases := []struct {
		name    string
		env     map[string]string
		present bool
		err     error
		want    []string // substrings of the one line
	}{
		{"no tray host", map[string]string{"DISPLAY": ":0"}, false, nil,
			[]string{NOTE, "shows no tray icons", "org.kde.StatusNotifierWatcher", "agent-guard window settings", "appindicator"}},
		{"no session bus", map[string]string{"WAYLAND_DISPLAY": "wayland-0"}, false, errors.New("no D-Bus session bus (dial: refused)"),
			[]string{NOTE, "shows no tray icons", "no D-Bus session bus"}},
		{"a tray host", map[string]string{"DISPLAY": ":0"}, true, nil, []string{OK, "has a tray host"}},
		{"no desktop", map[string]string{}, true, nil, []string{NOTE, "no desktop session", "serve --headless"}},
	}
	old := trayHost
	t.Cleanup(func() { trayHost = old })
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			asked := false
			trayHost = func() (bool, error) { asked = true; return tc.present, tc.err }
			var b bytes.Buffer
			r := &report{w: &b}
			checkTrayHost(r, func(k string) string { return tc.env[k] })
			line := b.String()
			if strings.Count(line, "\n") != 1 {
				t.Fatalf("want one line, got %q", line)
			}
			for _, w := range tc.want {
				if !strings.Contains(line, w) {
					t.Errorf("line %q lacks %q", line, w)
				}
			}
			if r.failed {
				t.Errorf("a missing tray icon is not a failure (nothing is unguarded): %q", line)
			}
			if len(tc.env) == 0 && asked {
				t.Error("asked the session bus without a desktop")
			}
		})
	}
}
