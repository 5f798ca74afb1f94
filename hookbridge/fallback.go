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
	deadline, _ := ctx.Deadline()
	left := time.Until(deadline)
	budget := left - hookMargin(left)
	if budget < time.Millisecond {
		return deny("ran out of time before judging without agent-guard.")
	}
	why := "agent-guard is not running"
	if note != "" {
		why = note
	}
	// A missing or untrusted binary is told apart before any process is
	// started.
	judge, err := locateJudge()
	if err != nil {
		return deny("%s, and agent-guard's fallback judge %s cannot be run (%v); reinstall agent-guard, which puts %s beside agent-guard-hook.", why, judge, err, peer.JudgeName())
	}
	args := []string{FallbackVerb, "--host", opts.Host, "--budget-ms", strconv.FormatInt(budget.Milliseconds(), 10)}
	if note != "" {
		args = append(args, "--note", note)
	}
	if opts.Guard != "" {
		// The remote judge is asked through the agent-guard this hook
		// trusts (app/fallback, remote.go).
		args = append(args, "--guard", opts.Guard)
	}
	fctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	var out, errb limited
	out.max, errb.max = wire.MaxResponse+1, 4<<10
	err = spawn(fctx, judge, args, event, &out, &errb)
	switch {
	case fctx.Err() != nil:
		return deny("%s, and agent-guard's fallback judge (%s) did not answer within %v.", why, judge, budget.Round(time.Millisecond))
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
