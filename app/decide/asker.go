package decide

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/agent-guard/agent-guard/app/audit"
	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/render"
)

// Prompt is one call waiting for a human's approval: a confirm under full
// access, with approval.mode "dialog".
type Prompt struct {
	Host      string // "zcode" | "claude"
	Session   string // host session id, "" when not sent
	ToolUseID string // host tool_use_id, "" when not sent
	// State is what was judged: Tool, and Command (Bash), FilePath and
	// Content (Write/Edit), Server/MCPTool/Args (MCP), Cwd.
	State   judge.State
	Verdict judge.Verdict // level Confirm; Risk, Violation, Rule, Reason, Marked, RedLine
	// Deadline is when the driver stops waiting: the earlier of
	// approval.timeout_seconds and the hook's own budget minus a margin.
	// The dialog's countdown should end here.
	Deadline time.Time
}

// Answer is the approval's result. Allow is honoured only when Decider is
// audit.DeciderUser ("user"): a human clicked Allow. Anything else (timeout,
// closed window, cancelled request) must be Allow false with Decider
// audit.DeciderPolicy ("policy") and a Reason saying what happened.
type Answer = render.Answer

// Asker shows agent-guard's approval dialog (the tray implements it).
//
// Ask is called from one goroutine per request, possibly many at once: it
// must be safe for concurrent use and should queue or coalesce prompts
// itself. ctx is cancelled when the hook disconnects, the server stops, or
// Prompt.Deadline passes; Ask must then return promptly (with Allow false,
// Decider "policy"). The driver does not wait past the deadline either
// way: a late answer is ignored and the call is denied.
type Asker interface {
	Ask(ctx context.Context, p Prompt) Answer
}

// AskerFunc adapts a function to Asker.
type AskerFunc func(ctx context.Context, p Prompt) Answer

// Ask calls f.
func (f AskerFunc) Ask(ctx context.Context, p Prompt) Answer { return f(ctx, p) }

// ask runs the Asker with a deadline and never waits past it, even if the
// Asker does not honour its context. When ctx ends first, its cause (the
// server's "the hook disconnected") is the reason.
func ask(ctx context.Context, d Deps, p Prompt) Answer {
	limit := time.Until(p.Deadline)
	actx, cancel := context.WithDeadline(ctx, p.Deadline)
	defer cancel()
	ch := make(chan Answer, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				problem(d, fmt.Errorf("the approval dialog failed: %v", r))
				ch <- Answer{Decider: audit.DeciderPolicy, Reason: fmt.Sprintf("the approval dialog failed (%v)", r)}
			}
		}()
		ch <- d.Asker.Ask(actx, p)
	}()
	select {
	case a := <-ch:
		if a.Decider != audit.DeciderUser {
			a.Decider = audit.DeciderPolicy
		}
		return a
	case <-actx.Done():
	}
	// Give an Asker that answers at the very deadline its due.
	select {
	case a := <-ch:
		return a
	default:
	}
	reason := fmt.Sprintf("no one answered the approval dialog within %.0f s", limit.Seconds())
	if ctx.Err() != nil {
		reason = "agent-guard stopped before anyone answered"
		if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, context.Canceled) && !errors.Is(cause, context.DeadlineExceeded) {
			reason = cause.Error()
		}
	}
	return Answer{Decider: audit.DeciderPolicy, Reason: reason}
}
