package hookbridge

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/agent-guard/agent-guard/app/wire"
)

// FallbackVerb is agent-guard's hidden verb that judges for the hook when
// no verified server answers (app/cli/hookfallback.go has its contract).
const FallbackVerb = "hook-fallback"

// fallback runs the full judge in `agent-guard hook-fallback` (the --guard
// binary: the same driver, config, cache and remote judge, but no
// dialog) with the event on stdin and the time left. Its answer is
// checked like a server's; a missing binary, a crash, garbage on stdout
// or running over time is a deny that says so. note, when set, says why a
// server that answered was ignored.
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
	args := []string{FallbackVerb, "--host", opts.Host, "--budget-ms", strconv.FormatInt(budget.Milliseconds(), 10)}
	if note != "" {
		args = append(args, "--note", note)
	}
	fctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	cmd := exec.CommandContext(fctx, opts.Guard, args...)
	cmd.Stdin = bytes.NewReader(event)
	var out, errb limited
	out.max, errb.max = wire.MaxResponse+1, 4<<10
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = 100 * time.Millisecond // a grandchild holding stdout cannot hold us
	err := cmd.Run()
	switch {
	case fctx.Err() != nil:
		return deny("%s, and agent-guard's fallback judge (%s) did not answer within %v.", why, opts.Guard, budget.Round(time.Millisecond))
	case errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission):
		return deny("%s, and agent-guard's fallback judge %s cannot be run (%v); reinstall agent-guard or fix the hook's --guard argument.", why, opts.Guard, err)
	case err != nil:
		return deny("%s, and agent-guard's fallback judge %s failed (%v: %s).", why, opts.Guard, err, firstLine(errb.String()))
	}
	line := bytes.TrimSuffix(out.Bytes(), []byte("\n"))
	if out.over || bytes.Contains(line, []byte("\n")) {
		return deny("%s, and agent-guard's fallback judge %s printed more than one answer.", why, opts.Guard)
	}
	resp, err := wire.DecodeResponse(line)
	if err != nil {
		return deny("%s, and agent-guard's fallback judge %s sent a broken answer (%v).", why, opts.Guard, err)
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
