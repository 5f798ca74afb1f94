// Package decide is the one driver from a host's event to the host's
// decision and its audit line. The tray's server and the hook's fallback
// both call Decide, so a call is read, judged, asked and rendered the same
// way whichever of them answers it.
package decide

import (
	"context"
	"fmt"
	"time"

	"github.com/agent-guard/agent-guard/app/audit"
	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/internal/lazyctx"
	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/render"
	"github.com/agent-guard/agent-guard/app/wire"
)

// Judger judges one call (*judge.Judge, or the guard's judge).
type Judger interface {
	Judge(ctx context.Context, s judge.State) judge.Verdict
}

// Deps is what a decision depends on. Only Judge is required.
type Deps struct {
	Judge Judger
	// Config returns the config in force (nil: the embedded default).
	Config func() *config.Config
	// Asker shows agent-guard's approval dialog; nil when none can be
	// shown (serve --headless, the hook's fallback).
	Asker Asker
	// Fallback marks the hook's own judgment while no server runs: the
	// audit source is "fallback" and a denied confirm says to start the tray.
	Fallback bool
	// Note, when set, leads the reason and the audit line (why the
	// fallback judged although something answered on the pipe).
	Note string
	// OnProblem hears about failures that do not stop the decision (a
	// dialog that panicked).
	OnProblem func(error)
}

// Call is one request: the host's raw event and the time it has.
type Call struct {
	Host  string // a hostproto host name: "zcode", "claude", "codex", ...
	Event []byte // the host's event as the host sent it
	// Start is when the hook started (the audit's timestamp and duration).
	Start time.Time
	// Deadline is when the answer must be ready; the dialog's countdown
	// ends here too.
	Deadline time.Time
}

// Result is one judged event: the decision, the verdict behind it and its
// audit line (not yet written: the caller writes it after answering).
type Result struct {
	Out     render.Output
	Verdict judge.Verdict
	Entry   audit.Entry
}

// judgeOne decides one common event (one part of a host call). The event
// is already decoded; only its tool input is read here, once, into the
// judge's state.
func judgeOne(ctx context.Context, c Call, ev judge.Event, d Deps) (res Result) {
	var cfg *config.Config
	if d.Config != nil {
		cfg = d.Config()
	}
	if cfg == nil {
		cfg = config.Default() // parses the embedded default: not per call when Config is set
	}
	source := ""
	if d.Fallback {
		source = judge.SourceFallback
	}
	finish := func(st judge.State, r Result, wait time.Duration) Result {
		if d.Note != "" {
			r.Out.Reason = "agent-guard-hook: " + d.Note + ", so the call was judged without it. " + r.Out.Reason
		}
		r.Out.Reason = wire.CutReason(r.Out.Reason)
		r.Entry = render.Entry(c.Host, ev, st, r.Verdict, r.Out, source, c.Start, wait)
		return r
	}
	st, err := judge.StateFromEvent(ev)
	if err != nil {
		source = "" // audited as the judge's "error"
		return finish(st, unreadable(err), 0)
	}
	defer func() {
		if p := recover(); p != nil {
			v := judge.Verdict{Level: judge.Confirm, Source: judge.SourceError, Reason: fmt.Sprint("internal error: ", p)}
			out := render.Output{Decision: wire.Deny, Decider: audit.DeciderPolicy,
				Reason: fmt.Sprintf("agent-guard failed while judging this call (%v), so it is denied. Stop and tell the user.", p)}
			res = finish(st, Result{Out: out, Verdict: v}, 0)
			problem(d, fmt.Errorf("panic judging %s: %v", ev.ToolName, p))
		}
	}()

	jctx := lazyctx.WithDeadline(ctx, c.Deadline)
	defer jctx.Cancel(nil)
	v := d.Judge.Judge(jctx, st)

	in := render.Input{Verdict: v, Config: cfg, PermissionMode: ev.PermissionMode, Dialog: d.Asker != nil, Fallback: d.Fallback}
	var wait time.Duration
	if render.NeedsApproval(v, cfg, ev.PermissionMode, in.Dialog) {
		askBy := time.Now().Add(time.Duration(cfg.Approval.TimeoutSeconds) * time.Second)
		if askBy.After(c.Deadline) {
			askBy = c.Deadline
		}
		t0 := time.Now()
		a := ask(ctx, d, Prompt{Host: c.Host, Session: ev.SessionID, ToolUseID: ev.ToolUseID, State: st, Verdict: v, Deadline: askBy})
		wait = time.Since(t0)
		in.Answer = &a
	}
	return finish(st, Result{Out: render.Render(in), Verdict: v}, wait)
}

// unreadable is the deny for a call that cannot be read.
func unreadable(err error) Result {
	v := judge.Verdict{Level: judge.Confirm, Source: judge.SourceError, Reason: err.Error()}
	out := render.Output{Decision: wire.Deny, Decider: audit.DeciderPolicy,
		Reason: "agent-guard could not read this tool call (" + err.Error() + "), so it is denied. Stop and tell the user; do not retry it in another form."}
	return Result{Out: out, Verdict: v}
}

func problem(d Deps, err error) {
	if d.OnProblem != nil {
		d.OnProblem(err)
	}
}
