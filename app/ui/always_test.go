//go:build !nogui

package ui

import (
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/approval"
	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/judge"
)

func TestAlwaysOffer(t *testing.T) {
	confirm := judge.Verdict{Level: judge.Confirm, Risk: 2, Rule: "mcp.mutating", Marked: "merge_pr"}
	tests := []struct {
		name   string
		it     approval.Item
		lines  []string
		scopes []string
	}{
		{"plain command", approval.Item{Tool: "Bash", Input: "git reset --hard HEAD~1", Cwd: "/w", Session: "s1", Verdict: judge.Verdict{Level: judge.Confirm, Risk: 2}},
			[]string{"git reset --hard HEAD~1"}, []string{"session", "workspace", "everywhere"}},
		{"cd x && CMD: only CMD", approval.Item{Tool: "Bash", Input: "cd /w && git reset --hard HEAD~1", Cwd: "/w", Verdict: judge.Verdict{Level: judge.Confirm, Risk: 2}},
			[]string{"git reset --hard HEAD~1"}, []string{"workspace", "everywhere"}},
		{"dynamic word: none", approval.Item{Tool: "Bash", Input: "git reset --hard $REF", Verdict: judge.Verdict{Level: judge.Confirm, Risk: 2}}, nil, nil},
		{"sudo: none", approval.Item{Tool: "Bash", Input: "sudo systemctl restart nginx", Verdict: judge.Verdict{Level: judge.Confirm, Risk: 2}}, nil, nil},
		{"red line: none", approval.Item{Tool: "Bash", Input: "git push --force", Verdict: judge.Verdict{Level: judge.Confirm, RedLine: true}}, nil, nil},
		{"self-protection: none", approval.Item{Tool: "Bash", Input: "x", Verdict: judge.Verdict{Level: judge.Confirm, Source: judge.SourceSelf}}, nil, nil},
		{"file write: none", approval.Item{Tool: "Write", Input: "/w/a.sh", Verdict: judge.Verdict{Level: judge.Confirm, Risk: 2}}, nil, nil},
		{"mcp: the exact tool and arguments", approval.Item{Tool: "mcp__github__merge_pr", Server: "github", MCPTool: "merge_pr", Verdict: confirm,
			Call: judge.State{Tool: "mcp__github__merge_pr", Server: "github", MCPTool: "merge_pr", Args: `{"pr": 7}`}},
			[]string{"mcp__github__merge_pr  (mcp.mutating, these exact arguments)"}, []string{"everywhere"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := alwaysOffer(tc.it, nil)
			if len(o.lines) != len(tc.lines) || len(o.scopes) != len(tc.scopes) {
				t.Fatalf("offer %q in %q, want %q in %q", o.lines, o.scopes, tc.lines, tc.scopes)
			}
			for i := range tc.lines {
				if o.lines[i] != tc.lines[i] {
					t.Fatalf("line %q, want %q", o.lines[i], tc.lines[i])
				}
			}
			for i := range tc.scopes {
				if o.scopes[i] != tc.scopes[i] {
					t.Fatalf("scopes %q, want %q", o.scopes, tc.scopes)
				}
			}
			if len(o.keys) == 0 {
				return
			}
			for _, scope := range o.scopes {
				var added []config.ScopedApproval
				edit, ok := o.scopedEdit(tc.it, scope, time.Now(), &added)
				if !ok {
					t.Fatalf("scope %s offered but not editable", scope)
				}
				c := config.Default()
				if err := edit(c); err != nil {
					t.Fatal(err)
				}
				if err := c.Validate(); err != nil {
					t.Fatalf("%s: edited config invalid: %v", scope, err)
				}
				if len(added) != len(o.keys) || len(c.ScopedApprovals) != len(o.keys) || c.ScopedApprovals[0].Scope != scope {
					t.Fatalf("%s: added %+v", scope, c.ScopedApprovals)
				}
			}
			if _, ok := o.scopedEdit(tc.it, "forever", time.Now(), new([]config.ScopedApproval)); ok {
				t.Fatal("a scope that was not offered was accepted")
			}
		})
	}
}
