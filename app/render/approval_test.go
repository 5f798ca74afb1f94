package render

import (
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/audit"
	"github.com/agent-guard/agent-guard/app/judge"
)

// The audit line tells a human's "once" from "always" and keeps the
// approval's own words, so Recent decisions can show them.
func TestApprovalInAuditEntry(t *testing.T) {
	confirm := judge.Verdict{Level: judge.Confirm, Source: "rule", Rule: "git.reset_hard", Reason: "discards work", Risk: 2}
	user := audit.DeciderUser
	cases := []struct {
		name     string
		answer   *Answer
		approval string
		words    string
	}{
		{"once", &Answer{Allow: true, Decider: user, Reason: "allowed once in the agent-guard dialog"}, audit.ApprovalOnce, "allowed once in the agent-guard dialog"},
		{"always", &Answer{Allow: true, Decider: user, Reason: "always allowed in the agent-guard dialog (rule added to the config)"}, audit.ApprovalAlways, "always allowed in the agent-guard dialog (rule added to the config)"},
		{"always scoped", &Answer{Allow: true, Decider: user, Reason: "Always allowed by the user (this session)"}, audit.ApprovalAlways, "Always allowed by the user (this session)"},
		{"always not saved is once", &Answer{Allow: true, Decider: user, Reason: "allowed once in the agent-guard dialog; the always-allow rule could not be saved: disk full"}, audit.ApprovalOnce, "allowed once in the agent-guard dialog; the always-allow rule could not be saved: disk full"},
		{"denied", &Answer{Decider: user, Reason: "denied in the agent-guard dialog"}, "", "denied in the agent-guard dialog"},
		{"timeout", &Answer{Decider: audit.DeciderPolicy, Reason: "no one answered the approval dialog within 120 s"}, "", "no one answered the approval dialog within 120 s"},
		// A policy "allow" is a deny and never an approval.
		{"policy allow", &Answer{Allow: true, Decider: audit.DeciderPolicy, Reason: "always allowed"}, "", "always allowed"},
		{"no dialog", nil, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := Render(Input{Verdict: confirm, Config: cfgWith(nil), Dialog: c.answer != nil, Answer: c.answer})
			ev := judge.Event{ToolName: "Bash", SessionID: "s1", Cwd: "/home/u/proj"}
			st := judge.State{Tool: "Bash", Command: "git reset --hard HEAD~1", Cwd: "/home/u/proj"}
			e := Entry("zcode", ev, st, confirm, out, "", time.Now(), time.Second)
			if e.Approval != c.approval || e.Answer != c.words {
				t.Fatalf("approval %q answer %q, want %q %q", e.Approval, e.Answer, c.approval, c.words)
			}
			if e.Cwd != "/home/u/proj" || e.Session != "s1" || e.Host != "zcode" || e.Rule != "git.reset_hard" {
				t.Fatalf("entry lacks where and who: %+v", e)
			}
		})
	}
}

// The working folder comes from the event when the state has none (an
// unreadable call).
func TestEntryCwdFromEvent(t *testing.T) {
	e := Entry("claude", judge.Event{ToolName: "Bash", Cwd: "/w"}, judge.State{}, judge.Verdict{}, Output{}, "", time.Now(), 0)
	if e.Cwd != "/w" {
		t.Fatalf("cwd %q", e.Cwd)
	}
}
