package config

import (
	"strings"
	"testing"
)

func TestScopedApprovalValidation(t *testing.T) {
	const at = `"added_at":"2026-12-01T20:00:00Z"`
	cases := []struct {
		entry string
		err   string // "" = valid
	}{
		{`{"scope":"everywhere","tool":"Bash","pattern":"git reset --hard HEAD~3","rule":"git.reset-hard",` + at + `}`, ""},
		{`{"scope":"session","tool":"Bash","pattern":"make deploy","rule":"r","session":"abc",` + at + `}`, ""},
		{`{"scope":"workspace","tool":"mcp__pg__execute_sql","args":"{}","rule":"mcp.mutating","workspace":"/home/u/p",` + at + `}`, ""},
		{`{"scope":"session","tool":"Bash","pattern":"make deploy","rule":"r",` + at + `}`, "needs the session id"},
		{`{"scope":"workspace","tool":"Bash","pattern":"make deploy","rule":"r","workspace":"p",` + at + `}`, "absolute workspace"},
		{`{"scope":"global","tool":"Bash","pattern":"x","rule":"r",` + at + `}`, "must be \"session\""},
		{`{"scope":"everywhere","tool":"Bash","pattern":"rm *","rule":"r",` + at + `}`, "no *"},
		{`{"scope":"everywhere","tool":"Bash","pattern":"  ","rule":"r",` + at + `}`, "no *"},
		{`{"scope":"everywhere","tool":"Write","pattern":"x","rule":"r",` + at + `}`, "must be \"Bash\""},
		{`{"scope":"everywhere","tool":"mcp__pg__q","rule":"r",` + at + `}`, "argument pattern"},
		{`{"scope":"everywhere","tool":"Bash","pattern":"x",` + at + `}`, "rule id"},
		{`{"scope":"everywhere","tool":"Bash","pattern":"x","rule":"r"}`, "added_at"},
	}
	for _, tc := range cases {
		_, err := Parse([]byte(`{"scoped_approvals":[` + tc.entry + `]}`))
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.entry, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want one saying %q", tc.entry, err, tc.err)
		}
	}
}

func TestScopedApprovalCoversAndRemove(t *testing.T) {
	c := Default()
	a := c.AddScoped(ScopedApproval{Scope: ScopeWorkspace, Tool: "Bash", Pattern: "make", Rule: "r", Workspace: "/w/a"})
	if again := c.AddScoped(a); again != a || len(c.ScopedApprovals) != 1 {
		t.Fatalf("the same approval was added twice: %+v", c.ScopedApprovals)
	}
	for cwd, want := range map[string]bool{"/w/a": true, "/w/a/b": true, "/w/ab": false, "/w": false, "": false} {
		if got := a.Covers("s", cwd); got != want {
			t.Errorf("workspace /w/a covers %q = %v, want %v", cwd, got, want)
		}
	}
	if !c.RemoveScoped(a.ID()) || len(c.ScopedApprovals) != 0 || c.RemoveScoped(a.ID()) {
		t.Fatalf("remove by id failed: %+v", c.ScopedApprovals)
	}
}
