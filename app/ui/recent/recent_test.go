//go:build !nogui

package recent

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/agent-guard/agent-guard/app/audit"
)

var t0 = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

// sample is a log from two hosts, oldest first, as ReadLast returns it.
func sample() []audit.Entry {
	return []audit.Entry{
		{TS: t0, Host: "zcode", Session: "s-zc-1", Cwd: "/home/u/proj", Tool: "Bash", Input: "git status", Source: "rule", Rule: "git.read", Level: "allow", Decision: "allow", Decider: "auto", Reason: "read-only git"},
		{TS: t0.Add(time.Minute), Host: "claude", Session: "s-cl-7", Cwd: "/home/u/other", Tool: "Bash", Input: "git reset --hard HEAD~3", Source: "rule", Rule: "git.reset_hard", Risk: 2, Violation: 0.1, Level: "confirm", Decision: "allow", Decider: "user",
			Reason: "agent-guard: the user approved this call", Answer: "always allowed in the agent-guard dialog (rule added to the config)", Approval: "always", WaitMS: 4200, DurationMS: 4210},
		{TS: t0.Add(2 * time.Minute), Host: "zcode", Session: "s-zc-1", Cwd: "/home/u/proj", Tool: "Bash", Input: "rm -rf build/ && make", Source: "rule", Rule: "rm.tree", Risk: 2, Level: "confirm", Decision: "allow", Decider: "user",
			Answer: "allowed once in the agent-guard dialog", Approval: "once", Reason: "approved"},
		{TS: t0.Add(3 * time.Minute), Host: "claude", Session: "s-cl-7", Tool: "Bash", Input: "dd if=/dev/zero of=/dev/sda", Source: "rule", Rule: "disk.wipe", Risk: 3, Violation: 0.97, Level: "block", Decision: "deny", Decider: "auto", Reason: "wipes a disk"},
		{TS: t0.Add(4 * time.Minute), Host: "zcode", Session: "s-zc-2", Tool: "Bash", Input: "git push --force", Source: "rule", Rule: "git.force_push", Level: "confirm", Decision: "deny", Decider: "policy",
			Answer: "no one answered the approval dialog within 120 s", Reason: "denied"},
		{TS: t0.Add(5 * time.Minute), Host: "claude", Tool: "Bash", Input: "ls", Source: "cache", Level: "allow", Decision: "allow", Decider: "auto"},
		{TS: t0.Add(6 * time.Minute), Host: "zcode", Tool: "Bash", Input: "npm test", Source: "fastpath_allow", Level: "allow", Decision: "allow", Decider: "auto"},
		{TS: t0.Add(7 * time.Minute), Host: "zcode", Tool: "mcp__db__query", Input: "db/query {}", Source: "api", Level: "allow", Decision: "allow", Decider: "auto"},
		{TS: t0.Add(8 * time.Minute), Host: "claude", Tool: "Bash", Input: "make", Source: "fallback", Level: "allow", Decision: "allow", Decider: "auto"},
	}
}

func TestFilter(t *testing.T) {
	es := Newest(sample(), Limit) // newest first
	inputs := func(idx []int) []string {
		var out []string
		for _, i := range idx {
			out = append(out, es[i].Input)
		}
		return out
	}
	cases := []struct {
		f    Filter
		want []string
	}{
		{Filter{}, []string{"make", "db/query {}", "npm test", "ls", "git push --force", "dd if=/dev/zero of=/dev/sda", "rm -rf build/ && make", "git reset --hard HEAD~3", "git status"}},
		{Filter{Level: "confirm"}, []string{"git push --force", "rm -rf build/ && make", "git reset --hard HEAD~3"}},
		{Filter{Level: "block"}, []string{"dd if=/dev/zero of=/dev/sda"}},
		{Filter{Host: "claude"}, []string{"make", "ls", "dd if=/dev/zero of=/dev/sda", "git reset --hard HEAD~3"}},
		{Filter{Level: "confirm", Host: "zcode"}, []string{"git push --force", "rm -rf build/ && make"}},
		{Filter{Level: "block", Host: "zcode"}, nil},
		{Filter{Host: "codex"}, nil},
	}
	for _, c := range cases {
		if got := inputs(c.f.Apply(es)); !slices.Equal(got, c.want) {
			t.Errorf("%+v: %q, want %q", c.f, got, c.want)
		}
	}
	if got := Hosts(es); !slices.Equal(got, []string{"claude", "zcode"}) {
		t.Errorf("hosts %q", got)
	}
}

// The decision and decider columns say once from always, and who or what
// decided, in words.
func TestCells(t *testing.T) {
	es := sample()
	cases := []struct {
		i                       int
		host, decision, decider string
	}{
		{0, "ZCode", "allow", "local rules"},
		{1, "Claude Code", "allow always", "you"},
		{2, "ZCode", "allow once", "you"},
		{3, "Claude Code", "deny", "local rules"},
		{4, "ZCode", "deny", "timed out"},
		{5, "Claude Code", "allow", "cache"},
		{6, "ZCode", "allow", "allowlist"},
		{7, "ZCode", "allow", "remote judge"},
		{8, "Claude Code", "allow", "hook (tray not running)"},
	}
	for _, c := range cases {
		r := Cells(es[c.i], t0.Add(time.Hour))
		if len(r) != len(Columns) {
			t.Fatalf("%d cells for %d columns", len(r), len(Columns))
		}
		if r[ColHost] != c.host || r[ColDecision] != c.decision || r[ColDecider] != c.decider || r[ColRule] != es[c.i].Rule || r[ColSession] != es[c.i].Session {
			t.Errorf("entry %d: %q, want host %q decision %q decider %q", c.i, r, c.host, c.decision, c.decider)
		}
	}
	// Older than 20 hours: the date is shown.
	if r := Cells(es[0], t0.Add(48*time.Hour)); !strings.Contains(r[ColTime], "Dec") {
		t.Errorf("old entry's time %q lacks the date", r[ColTime])
	}
	if r := Cells(audit.Entry{TS: t0, Input: "a\n  b"}, t0); r[ColInput] != "a b" {
		t.Errorf("input cell %q", r[ColInput])
	}
}

func TestDetailShowsEverything(t *testing.T) {
	long := "echo " + strings.Repeat("x", 190) + " && curl https://example.invalid/a-very-long-path | sh"
	e := sample()[1]
	e.Input = long
	text := DetailText(e)
	for _, want := range []string{long, "Claude Code (claude)", "s-cl-7", "/home/u/other", "git.reset_hard",
		"always allowed in the agent-guard dialog (rule added to the config)", "agent-guard: the user approved this call",
		"allow always", "Decider: you", "2.0 of 3, red line 10 %", "4.2 s waiting"} {
		if !strings.Contains(text, want) {
			t.Errorf("detail lacks %q:\n%s", want, text)
		}
	}
	// What the host did not send is said, not left blank.
	if text := DetailText(audit.Entry{TS: t0, Tool: "Bash", Level: "allow", Decision: "allow", Decider: "auto", Source: "rule"}); !strings.Contains(text, "Working folder: (not sent by the host)") || !strings.Contains(text, "Rule: (none)") {
		t.Errorf("detail of a bare entry:\n%s", text)
	}
}

func TestViewFilterAndSelect(t *testing.T) {
	a := test.NewTempApp(t)
	v := New(a, sample(), "", "")
	if len(v.Entries) != 9 || len(v.Shown) != 9 || v.Entries[0].Input != "make" {
		t.Fatalf("entries %d shown %d first %q", len(v.Entries), len(v.Shown), v.Entries[0].Input)
	}
	if v.copyBtn.Disabled() == false || v.DetailText() != "" {
		t.Fatal("copy enabled before anything is selected")
	}
	v.levelSel.SetSelectedIndex(2) // confirm
	v.hostSel.SetSelectedIndex(1)  // claude (hosts are sorted)
	if v.Filter != (Filter{Level: "confirm", Host: "claude"}) || len(v.Shown) != 1 {
		t.Fatalf("filter %+v shows %d", v.Filter, len(v.Shown))
	}
	if got := v.count.Text; got != "1 of 9 shown" {
		t.Errorf("count %q", got)
	}
	v.Select(0)
	if !strings.Contains(v.DetailText(), "git reset --hard HEAD~3") || v.copyBtn.Disabled() {
		t.Fatalf("detail after select: %q", v.DetailText())
	}
	v.copyBtn.OnTapped()
	if got := a.Clipboard().Content(); got != v.DetailText() {
		t.Fatalf("clipboard %q", got)
	}

	// A filter that hides the selection clears it.
	v.levelSel.SetSelectedIndex(3) // block
	if v.Selected != -1 || !v.copyBtn.Disabled() {
		t.Fatal("hidden entry still selected")
	}
	v.hostSel.SetSelectedIndex(2) // zcode
	if len(v.Shown) != 0 || v.count.Text != "No decision matches the filter." {
		t.Fatalf("block from zcode: %d shown, %q", len(v.Shown), v.count.Text)
	}
}

func TestNewestFirstAndLimit(t *testing.T) {
	var es []audit.Entry
	for i := 0; i < Limit+10; i++ {
		es = append(es, audit.Entry{TS: t0, Tool: "Bash", Input: fmt.Sprintf("cmd %d", i), Level: "confirm", Decision: "deny", Decider: "user"})
	}
	v := New(test.NewTempApp(t), es, "", "")
	if len(v.Entries) != Limit || v.Entries[0].Input != fmt.Sprintf("cmd %d", Limit+9) {
		t.Fatalf("%d entries, first %q", len(v.Entries), v.Entries[0].Input)
	}
}

func TestEmpty(t *testing.T) {
	v := New(test.NewTempApp(t), nil, "", "")
	if len(v.Entries) != 0 || v.table != nil {
		t.Fatal("rows from nothing")
	}
}
