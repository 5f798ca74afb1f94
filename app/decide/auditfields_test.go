package decide

import (
	"context"
	"testing"

	"github.com/agent-guard/agent-guard/app/audit"
)

// The audit line of a decision carries where the call ran and, when a
// human was asked, the answer's words and once/always: Recent decisions
// shows them.
func TestAuditFieldsThroughDecide(t *testing.T) {
	const ev = `{"hook_event_name":"PreToolUse","session_id":"s9","cwd":"/home/dev/proj","tool_name":"Bash","tool_input":{"command":"git reset --hard"}}`
	cases := []struct {
		name             string
		reply            *Answer // nil: no dialog
		approval, answer string
	}{
		{"once", &Answer{Allow: true, Decider: audit.DeciderUser, Reason: "allowed once in the agent-guard dialog"}, audit.ApprovalOnce, "allowed once in the agent-guard dialog"},
		{"always", &Answer{Allow: true, Decider: audit.DeciderUser, Reason: "always allowed in the agent-guard dialog (rule added to the config)"}, audit.ApprovalAlways, "always allowed in the agent-guard dialog (rule added to the config)"},
		{"denied", &Answer{Decider: audit.DeciderUser, Reason: "denied in the agent-guard dialog"}, "", "denied in the agent-guard dialog"},
		{"no dialog", nil, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := realDeps()
			if c.reply != nil {
				a := *c.reply
				d.Asker = AskerFunc(func(context.Context, Prompt) Answer { return a })
			}
			e := Decide(context.Background(), call(ev), d).Worst.Entry
			if e.Cwd != "/home/dev/proj" || e.Session != "s9" || e.Approval != c.approval || e.Answer != c.answer {
				t.Fatalf("entry %+v", e)
			}
		})
	}
}
