package hookbridge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/agent-guard/agent-guard/app/hostproto"
	"github.com/agent-guard/agent-guard/app/peer"
	"github.com/agent-guard/agent-guard/app/wire"
)

// FallbackVerb is the judge's verb the hook runs (app/fallback has its
// contract).
const FallbackVerb = "hook-fallback"

// locateJudge finds agent-guard-judge beside this hook's own binary and
// checks it may be run (peer.CheckJudge). In-process unit tests, whose
// hook is the test binary, replace it.
var locateJudge = func() (string, error) {
	self, err := peer.SelfPath()
	if err != nil {
		return peer.JudgeName(), fmt.Errorf("this hook's own path is unknown (%v)", err)
	}
	judge := peer.JudgeBeside(self)
	return judge, peer.CheckJudge(judge, self)
}

// fallback runs the full judge, `agent-guard-judge hook-fallback` beside
// the hook (the same driver, config, cache and remote judge as the
// server, but no dialog), with the event on stdin and the time left. Its
// answer is checked like a server's; a missing or untrusted binary, a
// crash, garbage on stdout or running over time is a deny that says so.
// note, when set, says why a server that answered was ignored.
func fallback(ctx context.Context, opts Options, event []byte, note string) result {
	return startFallback(ctx, opts, note).finish(opts, event)
}

// pendingFallback is the fallback judge started and not yet given the
// event: startFallback, then finish with the event or abandon.
type pendingFallback struct {
	failed    *result // set when no judge could be started
	judge     string
	why       string
	budget    time.Duration
	fctx      context.Context
	cancel    context.CancelFunc
	proc      *judgeProc
	err       error // from starting it
	out, errb *limited
}

// startFallback finds and starts the judge for a call with ctx's
// deadline; note is as for fallback.
func startFallback(ctx context.Context, opts Options, note string) *pendingFallback {
	p := &pendingFallback{why: "agent-guard is not running"}
	deadline, _ := ctx.Deadline()
	left := time.Until(deadline)
	p.budget = left - hookMargin(left)
	if p.budget < time.Millisecond {
		r := deny("ran out of time before judging without agent-guard.")
		p.failed = &r
		return p
	}
	if note != "" {
		p.why = note
	}
	// A missing or untrusted binary is told apart before any process is
	// started.
	judge, err := locateJudge()
	p.judge = judge
	if err != nil {
		r := deny("%s, and agent-guard's fallback judge %s cannot be run (%v); reinstall agent-guard, which puts %s beside agent-guard-hook.", p.why, judge, err, peer.JudgeName())
		p.failed = &r
		return p
	}
	args := []string{FallbackVerb, "--host", opts.Host, "--budget-ms", strconv.FormatInt(p.budget.Milliseconds(), 10)}
	if note != "" {
		args = append(args, "--note", note)
	}
	if opts.Guard != "" {
		// The remote judge is asked through the agent-guard this hook
		// trusts (app/fallback, remote.go).
		args = append(args, "--guard", opts.Guard)
	}
	p.fctx, p.cancel = context.WithTimeout(ctx, p.budget)
	p.out, p.errb = &limited{max: wire.MaxResponse + 1}, &limited{max: 4 << 10}
	p.proc, p.err = startJudge(p.fctx, judge, args, p.out, p.errb)
	return p
}

// abandon stops a judge that is not to judge this call (the event is not
// ours, or could not be read): it never got the event.
func (p *pendingFallback) abandon() {
	if p.proc != nil {
		p.proc.abandon()
	}
	if p.cancel != nil {
		p.cancel()
	}
}

// finish gives the judge the event and turns what it answers into the
// hook's result.
func (p *pendingFallback) finish(opts Options, event []byte) result {
	if p.failed != nil {
		return *p.failed
	}
	defer p.cancel()
	err := p.err
	if err == nil {
		err = p.proc.finish(p.fctx, event, func() { warmUp(opts.Proto) })
	}
	why, judge, out, errb := p.why, p.judge, p.out, p.errb
	switch {
	case p.fctx.Err() != nil:
		return deny("%s, and agent-guard's fallback judge (%s) did not answer within %v.", why, judge, p.budget.Round(time.Millisecond))
	case errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission):
		return deny("%s, and agent-guard's fallback judge %s cannot be run (%v); reinstall agent-guard, which puts %s beside agent-guard-hook.", why, judge, err, peer.JudgeName())
	case err != nil:
		return deny("%s, and agent-guard's fallback judge %s failed (%v: %s).", why, judge, err, firstLine(errb.String()))
	}
	line := bytes.TrimSuffix(out.Bytes(), []byte("\n"))
	if out.over || bytes.Contains(line, []byte("\n")) {
		return deny("%s, and agent-guard's fallback judge %s printed more than one answer.", why, judge)
	}
	resp, err := wire.DecodeResponse(line)
	if err != nil {
		return deny("%s, and agent-guard's fallback judge %s sent a broken answer (%v).", why, judge, err)
	}
	return accept(opts.Proto, resp, why+", and agent-guard's fallback judge")
}

// warmUp does, while the judge works, the first-use work of checking its
// answer (the JSON decoder of wire.Response, the host's rendering: ~80 us
// in a fresh process), which would otherwise come after the answer, on the
// path of the call. Its results are dropped; the error is for tests.
func warmUp(h hostproto.Host) error {
	o := h.Render(wire.Allow, "warm-up")
	b, err := wire.EncodeResponse(wire.Response{V: wire.Version, Decision: wire.Allow, Reason: "warm-up", Stdout: string(o.Stdout), Stderr: string(o.Stderr), Code: o.Code})
	if err == nil {
		_, err = wire.DecodeResponse(bytes.TrimSuffix(b, []byte("\n")))
	}
	return err
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if s == "" {
		return "no message"
	}
	return s
}

// limited keeps at most max bytes and notes that more came.
type limited struct {
	bytes.Buffer
	max  int
	over bool
}

// Write always reports all of p taken, so the child is never blocked or
// failed by our limit.
func (l *limited) Write(p []byte) (int, error) {
	n := len(p)
	if room := l.max - l.Len(); n > room {
		l.over = true
		p = p[:max(room, 0)]
	}
	l.Buffer.Write(p)
	return n, nil
}
