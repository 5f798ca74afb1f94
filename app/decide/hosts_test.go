package decide

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/audit"
	"github.com/agent-guard/agent-guard/app/hostproto"
	"github.com/agent-guard/agent-guard/app/wire"
)

// A confirm on every host, with the host's own prompts on ("default"
// where the host sends a mode): where the host's ask is unreliable it goes
// to agent-guard's dialog (and is a deny with no dialog), never an ask to
// that host; where ask is honoured the host asks. The answer is rendered
// in the host's own dialect, and the prompt names the host.
func TestConfirmOnEveryHost(t *testing.T) {
	for _, h := range hostproto.All() {
		var ev map[string]any
		json.Unmarshal(h.ShellEvent("git reset --hard", "/home/dev/proj", "s-"+h.Name), &ev)
		if _, ok := ev["permission_mode"]; ok {
			ev["permission_mode"] = "default"
		}
		raw, _ := json.Marshal(ev)
		now := time.Now()
		c := Call{Host: h.Name, Event: raw, Start: now, Deadline: now.Add(time.Minute)}

		var asked []Prompt
		d := realDeps()
		d.Asker = AskerFunc(func(_ context.Context, p Prompt) Answer {
			asked = append(asked, p)
			return Answer{Allow: true, Decider: audit.DeciderUser}
		})
		got := Decide(context.Background(), c, d).Response()
		want, wantAsked := wire.Allow, 1
		if h.AskHonoured() {
			want, wantAsked = wire.Ask, 0
		}
		if got.Decision != want || len(asked) != wantAsked {
			t.Errorf("%s with a dialog: %s after %d prompts, want %s after %d (%s)", h.Name, got.Decision, len(asked), want, wantAsked, got.Reason)
		}
		if len(asked) == 1 && asked[0].Host != h.Name {
			t.Errorf("%s: the prompt names host %q", h.Name, asked[0].Host)
		}
		if o := h.Render(got.Decision, got.Reason); got.Stdout != string(o.Stdout) || got.Stderr != string(o.Stderr) || got.Code != o.Code {
			t.Errorf("%s: response output %q %q %d is not the host's rendering %q %q %d", h.Name, got.Stdout, got.Stderr, got.Code, o.Stdout, o.Stderr, o.Code)
		}

		got = Decide(context.Background(), c, realDeps()).Response()
		want = wire.Deny
		if h.AskHonoured() {
			want = wire.Ask
		}
		if got.Decision != want {
			t.Errorf("%s without a dialog: %s, want %s (%s)", h.Name, got.Decision, want, got.Reason)
		}
		if hd, _, err := h.HostDecision(hostproto.Output{Stdout: []byte(got.Stdout), Stderr: []byte(got.Stderr), Code: got.Code}); err != nil || hd != want {
			t.Errorf("%s: the host reads the answer as %s (%v), want %s", h.Name, hd, err, want)
		}
	}
}
