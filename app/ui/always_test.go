//go:build !nogui

package ui

import (
	"slices"
	"testing"

	"github.com/agent-guard/agent-guard/app/approval"
	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/judge"
)

func TestAlwaysRule(t *testing.T) {
	confirm := judge.Verdict{Level: judge.Confirm, Risk: 2}
	tests := []struct {
		name      string
		it        approval.Item
		ok        bool
		allowlist []string
		mcp       string // server/tool expected readonly
	}{
		{"plain command", approval.Item{Tool: "Bash", Input: "git reset --hard HEAD~1", Verdict: confirm}, true, []string{"git reset --hard HEAD~1"}, ""},
		{"compound: one entry per simple command", approval.Item{Tool: "Bash", Input: "cd /w && git clean -fd", Verdict: confirm}, true, []string{"cd /w", "git clean -fd"}, ""},
		{"glob star would widen", approval.Item{Tool: "Bash", Input: "git rm *.log", Verdict: confirm}, false, nil, ""},
		{"dynamic word would widen", approval.Item{Tool: "Bash", Input: "git reset --hard $REF", Verdict: confirm}, false, nil, ""},
		{"sudo never", approval.Item{Tool: "Bash", Input: "sudo systemctl restart nginx", Verdict: confirm}, false, nil, ""},
		{"red line never", approval.Item{Tool: "Bash", Input: "git push --force", Verdict: judge.Verdict{Level: judge.Confirm, RedLine: true}}, false, nil, ""},
		{"self-protection never", approval.Item{Tool: "Bash", Input: "x", Verdict: judge.Verdict{Level: judge.Confirm, Source: judge.SourceSelf}}, false, nil, ""},
		{"file write never", approval.Item{Tool: "Write", Input: "/w/a.sh", Verdict: confirm}, false, nil, ""},
		{"mcp tool", approval.Item{Tool: "mcp__github__merge_pr", Server: "github", MCPTool: "merge_pr", Verdict: confirm}, true, nil, "github/merge_pr"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			label, edit, ok := alwaysRule(tc.it)
			if ok != tc.ok {
				t.Fatalf("offered=%v, want %v", ok, tc.ok)
			}
			if !ok {
				return
			}
			if label == "" {
				t.Fatal("no label")
			}
			c := config.Default()
			c.Fastpath.Allowlist = []string{"cd /w"} // already there: not duplicated
			if err := edit(c); err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.allowlist {
				if !slices.Contains(c.Fastpath.Allowlist, want) {
					t.Fatalf("allowlist %q lacks %q", c.Fastpath.Allowlist, want)
				}
			}
			want := []string{"cd /w"}
			for _, p := range tc.allowlist {
				if !slices.Contains(want, p) {
					want = append(want, p)
				}
			}
			if n := len(c.Fastpath.Allowlist); n != len(want) {
				t.Fatalf("allowlist %q has duplicates or extras", c.Fastpath.Allowlist)
			}
			if tc.mcp != "" && c.MCPOverrides["github"]["merge_pr"] != config.ClassReadonly {
				t.Fatalf("mcp_overrides %v", c.MCPOverrides)
			}
			if err := c.Validate(); err != nil {
				t.Fatalf("edited config invalid: %v", err)
			}
		})
	}
}
