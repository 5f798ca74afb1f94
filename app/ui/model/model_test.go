package model

import (
	"strings"
	"testing"
)

func find(items []Item, id string) (Item, bool) {
	for _, it := range items {
		if it.ID == id {
			return it, true
		}
		if c, ok := find(it.Children, id); ok {
			return c, true
		}
	}
	return Item{}, false
}

func must(t *testing.T, items []Item, id string) Item {
	t.Helper()
	it, ok := find(items, id)
	if !ok {
		t.Fatalf("menu has no item %q; shape %s", id, Shape(items))
	}
	return it
}

func TestMenuItemsAndChecks(t *testing.T) {
	yes, no := true, false
	tests := []struct {
		name        string
		s           State
		enabled     bool
		redLines    bool
		dialog      bool
		autostart   *bool
		pendingText string
		pendingOff  bool
		icon        string
		status      string
	}{
		{"on, idle", State{Enabled: true, RedLinesWhenDisabled: true, ApprovalMode: "dialog"},
			true, true, true, nil, "Pending approvals (0)", true, IconOn, "Guard on"},
		{"off, red lines kept", State{Enabled: false, RedLinesWhenDisabled: true, ApprovalMode: "dialog", Autostart: &yes},
			false, true, true, &yes, "Pending approvals (0)", true, IconOff, "Guard off (red lines still blocked)"},
		{"off, nothing blocked", State{ApprovalMode: "agent", Autostart: &no},
			false, false, false, &no, "Pending approvals (0)", true, IconOff, "Guard off — everything is allowed"},
		{"two pending", State{Enabled: true, ApprovalMode: "dialog", Pending: []PendingItem{{ID: 7, Tool: "Bash", Input: "git reset --hard HEAD~1"}, {ID: 9, Tool: "Write", Input: "/etc/hosts"}}},
			true, false, true, nil, "Pending approvals (2)", false, IconPending, "Guard on · 2 pending"},
		{"missed while away", State{Enabled: true, ApprovalMode: "dialog", Missed: 3},
			true, false, true, nil, "Pending approvals (0)", true, IconOn, "Guard on · 3 denied while you were away"},
		{"config error", State{Enabled: true, ApprovalMode: "dialog", ConfigError: "confirm_risk 3 is above block_risk 2.5"},
			true, false, true, nil, "Pending approvals (0)", true, IconPending, "Guard on"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := Menu(tc.s)
			if m[0].ID != ActStatus || m[0].Label != tc.status || !m[0].Disabled {
				t.Fatalf("status line %+v, want %q", m[0], tc.status)
			}
			if got := must(t, m, ActEnabled); !got.Checkable || got.Checked != tc.enabled {
				t.Fatalf("Enabled = %+v, want checked %v", got, tc.enabled)
			}
			rl := must(t, m, ActRedLines)
			if !rl.Checkable || rl.Checked != tc.redLines || !strings.Contains(rl.Label, "red lines") || !strings.Contains(rl.Label, "off") {
				t.Fatalf("red-lines switch = %+v", rl)
			}
			if d, a := must(t, m, ActModeDialog), must(t, m, ActModeAgent); d.Checked != tc.dialog || a.Checked == tc.dialog {
				t.Fatalf("mode items dialog=%v agent=%v, want dialog=%v", d.Checked, a.Checked, tc.dialog)
			}
			p := must(t, m, ActPending)
			if p.Label != tc.pendingText || p.Disabled != tc.pendingOff {
				t.Fatalf("pending = %+v", p)
			}
			as, ok := find(m, ActAutostart)
			if (tc.autostart == nil) == ok {
				t.Fatalf("autostart item present=%v, want %v", ok, tc.autostart != nil)
			}
			if ok && as.Checked != *tc.autostart {
				t.Fatalf("autostart checked %v", as.Checked)
			}
			_, missed := find(m, ActMissed)
			if missed != (tc.s.Missed > 0) {
				t.Fatalf("missed item present=%v with Missed=%d", missed, tc.s.Missed)
			}
			_, cerr := find(m, ActConfigError)
			if cerr != (tc.s.ConfigError != "") {
				t.Fatalf("config error line present=%v", cerr)
			}
			for _, id := range []string{ActSettings, ActRules, ActRecent, ActOpenConfig, ActOpenAudit} {
				must(t, m, id)
			}
			if last := m[len(m)-1]; last.ID != ActQuit {
				t.Fatalf("last item %+v, want Quit", last)
			}
			if Icon(tc.s) != tc.icon {
				t.Fatalf("icon %s, want %s", Icon(tc.s), tc.icon)
			}
		})
	}
}

func TestPendingSubmenu(t *testing.T) {
	var s State
	for i := 1; i <= MaxPendingListed+3; i++ {
		s.Pending = append(s.Pending, PendingItem{ID: uint64(i), Tool: "Bash", Input: "git clean -fdx"})
	}
	p := must(t, Menu(s), ActPending)
	if p.Children[0].ID != ActPendingShow {
		t.Fatalf("first child %+v, want Show dialog", p.Children[0])
	}
	allow := must(t, p.Children, PendingAllowID(1))
	if allow.Label != "Allow once" {
		t.Fatalf("allow entry %+v", allow)
	}
	if _, ok := find(p.Children, PendingAllowID(MaxPendingListed+1)); ok {
		t.Fatal("listed more than MaxPendingListed items")
	}
	if last := p.Children[len(p.Children)-1]; !strings.Contains(last.Label, "3 more") {
		t.Fatalf("overflow line %+v", last)
	}
}

func TestParsePendingID(t *testing.T) {
	tests := []struct {
		in        string
		id        uint64
		allow, ok bool
	}{
		{PendingAllowID(12), 12, true, true},
		{PendingDenyID(3), 3, false, true},
		{"pending-allow-x", 0, true, false},
		{"quit", 0, false, false},
	}
	for _, tc := range tests {
		id, allow, ok := ParsePendingID(tc.in)
		if ok != tc.ok || (ok && (id != tc.id || allow != tc.allow)) {
			t.Errorf("ParsePendingID(%q) = %d %v %v", tc.in, id, allow, ok)
		}
	}
}

func TestLastLineAndShort(t *testing.T) {
	tests := []struct {
		d    *Decision
		want string
	}{
		{nil, "No decisions yet"},
		{&Decision{Decision: "deny", Decider: "user", Tool: "Bash", Input: "git  reset\n--hard"}, "Last: Denied by you: git reset --hard"},
		{&Decision{Decision: "deny", Decider: "policy", Tool: "Bash", Input: "x"}, "Last: Denied (no answer): x"},
		{&Decision{Decision: "allow", Decider: "auto", Tool: "Write", Input: "/tmp/a"}, "Last: Allowed: Write: /tmp/a"},
	}
	for _, tc := range tests {
		if got := LastLine(State{Last: tc.d}); got != tc.want {
			t.Errorf("LastLine = %q, want %q", got, tc.want)
		}
	}
	if got := Short("Bash", strings.Repeat("a", 100), 10); got != "aaaaaaaaa…" {
		t.Errorf("Short = %q", got)
	}
}

func TestShapeChangesOnlyWithStructure(t *testing.T) {
	a := Shape(Menu(State{Enabled: true}))
	b := Shape(Menu(State{Enabled: false, Last: &Decision{Decision: "allow"}}))
	if a != b {
		t.Fatal("checkbox/label changes must not change the shape")
	}
	c := Shape(Menu(State{Enabled: true, Pending: []PendingItem{{ID: 1}}}))
	if a == c {
		t.Fatal("a pending item must change the shape")
	}
}
