package hookbridge

import (
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"time"

	"github.com/agent-guard/agent-guard/app/hostproto"
	"github.com/agent-guard/agent-guard/app/wire"
)

// hookMargin is how much of its own deadline the hook keeps for itself
// when telling the server its budget: enough to print the answer.
func hookMargin(left time.Duration) time.Duration {
	return min(left/10, 500*time.Millisecond)
}

// askServer sends the event and waits for the decision until ctx's
// deadline. Any failure is a deny: once connected, the hook never falls
// back, because the server may be showing a dialog for this call.
func askServer(ctx context.Context, conn net.Conn, opts Options, event []byte) result {
	deadline, _ := ctx.Deadline()
	left := time.Until(deadline)
	budget := left - hookMargin(left)
	if budget < time.Millisecond {
		return deny("ran out of time before asking agent-guard.")
	}
	req, err := wire.EncodeRequest(wire.Request{V: wire.Version, Host: opts.Host, Event: event, BudgetMS: budget.Milliseconds()})
	if err != nil {
		return deny("could not build the request to agent-guard (%v).", err)
	}
	conn.SetDeadline(deadline)
	// A deadline in the past on cancel unblocks the read below at once.
	stop := context.AfterFunc(ctx, func() { conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	if _, err := conn.Write(req); err != nil {
		return deny("could not send the call to agent-guard (%v); if agent-guard crashed, the user should restart it.", err)
	}
	resp, err := wire.ReadResponse(conn)
	if err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) || ctx.Err() != nil {
			return deny("agent-guard did not answer within the hook's deadline (it may be hung, or no one answered the approval dialog).")
		}
		return deny("agent-guard stopped answering or sent a broken reply (%v); if it crashed, the user should restart it.", err)
	}
	return accept(opts.Proto, resp, "agent-guard")
}

// accept checks a response (the server's or the fallback's) and returns
// its host output: it must be exactly what this host's protocol renders
// for its decision and reason, so nothing but a known decision in the
// host's own format is ever copied out.
func accept(h hostproto.Host, r wire.Response, who string) result {
	switch r.Decision {
	case wire.Allow, wire.Ask, wire.Deny:
	default:
		return deny("%s sent a broken reply (the unknown decision %q).", who, r.Decision)
	}
	want := h.Render(r.Decision, r.Reason)
	if !bytes.Equal(want.Stdout, []byte(r.Stdout)) || !bytes.Equal(want.Stderr, []byte(r.Stderr)) || want.Code != r.Code {
		return deny("%s sent a broken reply (its output is not %s's rendering of %q); agent-guard-hook and agent-guard may be different versions.", who, h.Display, r.Decision)
	}
	return result{out: &want, decision: r.Decision, reason: r.Reason}
}
