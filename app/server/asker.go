package server

import (
	"context"
	"time"

	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/hookbridge/render"
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
	// Deadline is when the server stops waiting: the earlier of
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
// The server calls Ask from its own goroutine per request, possibly many
// at once: Ask must be safe for concurrent use and should queue or
// coalesce prompts itself. ctx is cancelled when the hook disconnects,
// the server stops, or Prompt.Deadline passes; Ask must then return
// promptly (with Allow false, Decider "policy"). The server does not
// wait past the deadline either way: a late answer is ignored and the
// call is denied.
type Asker interface {
	Ask(ctx context.Context, p Prompt) Answer
}

// AskerFunc adapts a function to Asker.
type AskerFunc func(ctx context.Context, p Prompt) Answer

// Ask calls f.
func (f AskerFunc) Ask(ctx context.Context, p Prompt) Answer { return f(ctx, p) }
