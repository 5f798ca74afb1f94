//go:build !nogui

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// menuState is the part of the tray's menu snapshot (model.State) this
// test reads.
type menuState struct {
	Enabled    bool
	ConfigHeld []string
}

func readMenu(path string) (menuState, bool) {
	var s menuState
	b, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(b, &s) != nil {
		return s, false
	}
	return s, true
}

// window waits for a window whose title matches the regex and returns its id.
func (r *rig) window(what, title string) string {
	r.t.Helper()
	var win string
	r.waitFor(what, 30*time.Second, func() bool {
		out, err := r.xdotool("search", "--name", title)
		if err != nil || out == "" {
			return false
		}
		win = strings.Fields(out)[0]
		return true
	})
	return win
}

const weakening = `{"enabled": false, "red_lines_when_disabled": false, "full_access": "always", "approval": {"timeout_seconds": 5, "mode": "dialog"}}`

// Issue 9's done-when, with the real tray under Xvfb: a disk edit that
// switches the guard off leaves the next confirm-level call to the guard
// (it asks, and Esc denies), the tray shows the change in a window with
// Deny focused (Enter denies and puts the file back), and accepting it
// there (Tab to Accept, Space) puts it in force: the same call is allowed.
func TestTrayHoldsWeakeningUntilAccepted(t *testing.T) {
	snap := filepath.Join(t.TempDir(), "menu.json")
	t.Setenv("AGENT_GUARD_MENU_SNAPSHOT", snap) // the tray writes its menu state here
	r := newRig(t)
	cfgPath := filepath.Join(r.home, "config.json")

	// 1. The edit waits; Enter in the window denies it and restores the file.
	r.writeConfig(weakening)
	win := r.window("the accept window", "^agent-guard — accept")
	r.waitFor("the menu to say a change waits", 10*time.Second, func() bool {
		s, ok := readMenu(snap)
		return ok && len(s.ConfigHeld) == 2 && s.Enabled
	})
	h := r.runHook()
	dlg := r.window("the approval dialog (the guard is still on)", dialogTitle)
	r.press(dlg, "Escape")
	if got := r.decision(h); got != "deny" {
		t.Fatalf("the confirm-level call after the disk edit was %q, want deny", got)
	}
	r.press(win, "Return")
	r.waitFor("the file to be put back", 15*time.Second, func() bool {
		var c struct{ Enabled, RedLinesWhenDisabled bool }
		b, _ := os.ReadFile(cfgPath)
		return json.Unmarshal(b, &struct {
			Enabled *bool `json:"enabled"`
			Red     *bool `json:"red_lines_when_disabled"`
		}{&c.Enabled, &c.RedLinesWhenDisabled}) == nil && c.Enabled && c.RedLinesWhenDisabled
	})
	if s, _ := readMenu(snap); !s.Enabled {
		t.Fatal("denying the change switched the guard off")
	}

	// 2. The same edit again; this time Accept (Tab, Space) applies it.
	r.noDialog()
	r.writeConfig(weakening)
	win = r.window("the accept window again", "^agent-guard — accept")
	r.press(win, "Tab space")
	r.waitFor("the accepted config in force", 15*time.Second, func() bool {
		s, ok := readMenu(snap)
		return ok && !s.Enabled && len(s.ConfigHeld) == 0
	})
	if got := r.decision(r.runHook()); got != "allow" {
		t.Fatalf("after accepting 'enabled: false' the call was %q, want allow", got)
	}
	rec, _ := os.ReadFile(filepath.Join(r.home, "accepted.json"))
	if !strings.Contains(string(rec), "tray") {
		t.Errorf("accepted.json does not say the tray accepted it:\n%s", rec)
	}
}
