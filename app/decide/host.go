package decide

import (
	"context"
	"fmt"

	"github.com/agent-guard/agent-guard/app/hostproto"
	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/render"
	"github.com/agent-guard/agent-guard/app/wire"
)

// Decision is a host call's answer: the decision, the host's finished
// output for it, and one judged result (with its audit line) per part.
type Decision struct {
	Decision string // wire.Allow | wire.Ask | wire.Deny
	Reason   string
	Out      hostproto.Output
	// Parts holds every part judged, in order (one for most calls; a
	// patch over several files has one per file, up to the first deny).
	Parts []Result
	// Worst is the part that decided.
	Worst Result
}

// Response is the decision in the wire's form.
func (d Decision) Response() wire.Response {
	v := d.Worst.Verdict
	return wire.Response{V: wire.Version, Decision: d.Decision, Reason: d.Reason, Level: v.Level.String(), Source: v.Source, Rule: v.Rule,
		Stdout: string(d.Out.Stdout), Stderr: string(d.Out.Stderr), Code: d.Out.Code}
}

// Decide is the one driver: it reads the host's event once (hostproto),
// judges each part it holds (the strictest answer wins; a deny ends it),
// asks the human when a verdict needs one and a dialog exists, and renders
// the host's output. It never fails and never panics: every problem is a
// deny with its reason.
func Decide(ctx context.Context, c Call, d Deps) Decision {
	h, ok := hostproto.Lookup(c.Host)
	if !ok {
		r := unreadable(fmt.Errorf("unknown host %q", c.Host))
		return finish(hostproto.ZCode, []Result{r}, r)
	}
	ev, judged, err := h.Parse(c.Event)
	if err == nil && !judged {
		// The hook sends only calls it judges: a skew of versions.
		err = fmt.Errorf("%s's event %q is not one agent-guard judges, so the hook should not have sent it; update agent-guard-hook and agent-guard together", h.Display, ev.HookEventName)
	}
	if err != nil {
		r := unreadable(err)
		r.Out.Reason = wire.CutReason(r.Out.Reason)
		r.Entry = render.Entry(h.Name, judge.Event{ToolName: ev.ToolName, SessionID: ev.SessionID}, judge.State{}, r.Verdict, r.Out, "", c.Start, 0)
		return finish(h, []Result{r}, r)
	}
	parts := ev.Each()
	var done []Result
	var worst Result
	for i, p := range parts {
		r := judgeOne(ctx, c, judgeEvent(p), d)
		if len(parts) > 1 {
			r.Out.Reason = fmt.Sprintf("(change %d of %d) %s", i+1, len(parts), r.Out.Reason)
			r.Entry.Reason = r.Out.Reason
		}
		done = append(done, r)
		if i == 0 || strictness(r.Out.Decision) > strictness(worst.Out.Decision) {
			worst = r
		}
		if r.Out.Decision != wire.Allow && r.Out.Decision != wire.Ask {
			break // a deny decides; ask the user nothing more
		}
	}
	return finish(h, done, worst)
}

func finish(h hostproto.Host, parts []Result, worst Result) Decision {
	reason := wire.CutReason(worst.Out.Reason)
	return Decision{Decision: worst.Out.Decision, Reason: reason, Out: h.Render(worst.Out.Decision, reason), Parts: parts, Worst: worst}
}

// judgeEvent is one part as the judge sees it: the host's own event type
// (judge.Event is hostproto.Event), without the parts it may carry.
func judgeEvent(e hostproto.Event) judge.Event {
	e.Parts = nil
	return e
}

// strictness orders decisions: anything unknown counts as a deny.
func strictness(d string) int {
	switch d {
	case wire.Allow:
		return 0
	case wire.Ask:
		return 1
	}
	return 2
}
