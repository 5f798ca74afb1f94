// Package hookbridge is agent-guard-hook, the thin client every tool call
// of the agent starts: it reads the host's event, asks the verified
// agent-guard server over the local pipe, or, when none answers, runs the
// full judge by exec'ing `agent-guard-judge hook-fallback` (beside the
// hook), and prints the
// host's decision. It links only the host protocol, the pipe, the peer
// check and the wire (no judge, no shell parser, no HTTP or TLS): see
// deps_test.go. Every failure is a deny with its reason; nothing that goes
// wrong ever becomes an allow.
package hookbridge

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-guard/agent-guard/app/hostproto"
	"github.com/agent-guard/agent-guard/app/peer"
	"github.com/agent-guard/agent-guard/app/pipe"
	"github.com/agent-guard/agent-guard/app/wire"
)

// Defaults. The installer passes --deadline (approval timeout + 15 s) and
// sets the host's timeoutMs above it, so the hook always answers first.
const (
	DefaultDeadline    = 55 * time.Second
	DefaultDialTimeout = 50 * time.Millisecond
	// DeadlineEnv sets the deadline when --deadline is not given.
	DeadlineEnv = "AGENT_GUARD_HOOK_DEADLINE"
)

// Options are the hook's flags.
type Options struct {
	Host        string
	Proto       hostproto.Host // the host's dialect, from --host
	Deadline    time.Duration
	DialTimeout time.Duration
	Pipe        string
	// Guard is the absolute path of the genuine agent-guard binary: only
	// a server running it is trusted (package peer). The fallback judge is
	// not named by a flag: it is agent-guard-judge beside the hook.
	Guard string
}

func parseFlags(args []string) (Options, error) {
	o := Options{Host: wire.HostZCode, Proto: hostproto.ZCode, Deadline: DefaultDeadline, DialTimeout: DefaultDialTimeout}
	if v := os.Getenv(DeadlineEnv); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			return o, fmt.Errorf("%s=%q is not a duration like 135s", DeadlineEnv, v)
		}
		o.Deadline = d
	}
	fs := flag.NewFlagSet("agent-guard-hook", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.Host, "host", o.Host, "host dialect: "+strings.Join(hostproto.Names(), ", "))
	fs.DurationVar(&o.Deadline, "deadline", o.Deadline, "answer deny on our own after this long (keep it below the host's timeout)")
	fs.DurationVar(&o.DialTimeout, "dial-timeout", o.DialTimeout, "how long to try reaching agent-guard before judging without it")
	fs.StringVar(&o.Pipe, "pipe", "", "pipe name or socket path (default: "+pipe.Env+" or the per-user default)")
	fs.StringVar(&o.Guard, "guard", "", "absolute path of the agent-guard binary whose server is trusted (default: agent-guard beside this hook); without a server, agent-guard-judge beside this hook judges")
	if err := fs.Parse(args); err != nil {
		return o, fmt.Errorf("bad arguments %q: %v", args, err)
	}
	if fs.NArg() > 0 {
		return o, fmt.Errorf("unexpected arguments %q", fs.Args())
	}
	h, ok := hostproto.Lookup(o.Host)
	if !ok {
		return o, fmt.Errorf("--host %q must be one of %s", o.Host, strings.Join(hostproto.Names(), ", "))
	}
	o.Host, o.Proto = h.Name, h
	if o.Deadline < 100*time.Millisecond || o.Deadline > time.Hour {
		return o, fmt.Errorf("--deadline %v is outside 100ms..1h", o.Deadline)
	}
	if o.Guard == "" {
		o.Guard = peer.DefaultBinary()
	} else if !filepath.IsAbs(o.Guard) {
		return o, fmt.Errorf("--guard %q must be an absolute path", o.Guard)
	}
	if o.DialTimeout <= 0 || o.DialTimeout > o.Deadline/2 {
		return o, fmt.Errorf("--dial-timeout %v must be positive and under half the deadline", o.DialTimeout)
	}
	return o, nil
}

// result is what the hook prints: nothing (silent), a verified host
// output (out), or a decision the hook renders itself.
type result struct {
	silent   bool
	out      *hostproto.Output
	decision string
	reason   string
}

func deny(format string, a ...any) result {
	return result{decision: wire.Deny, reason: "agent-guard-hook: " + fmt.Sprintf(format, a...) + " The call is denied. Stop and tell the user what happened; do not retry it in another form."}
}

// Run is the whole hook: it returns the process exit code (what the
// host protocol renders; 2 with the reason on stderr when stdout cannot
// be written).
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	start := time.Now()
	proto := hostproto.ZCode
	defer func() {
		if p := recover(); p != nil {
			code = emit(proto, stdout, stderr, deny("internal error (%v).", p))
		}
	}()
	opts, err := parseFlags(args)
	if err != nil {
		return emit(opts.Proto, stdout, stderr, deny("%v; fix the hook's arguments in the host's hook config.", err))
	}
	proto = opts.Proto
	ctx, cancel := context.WithDeadline(context.Background(), start.Add(opts.Deadline))
	defer cancel()
	done := make(chan result, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- deny("internal error (%v).", p)
			}
		}()
		done <- getDecision(ctx, opts, stdin)
	}()
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		r = deny("no decision within its deadline of %v (agent-guard may be hung, or no one answered the approval dialog).", opts.Deadline)
	}
	return emit(opts.Proto, stdout, stderr, r)
}

// getDecision reads the event and gets the host output from the verified
// server or, when there is none, from agent-guard-judge's hook-fallback.
func getDecision(ctx context.Context, opts Options, stdin io.Reader) result {
	data, err := io.ReadAll(io.LimitReader(stdin, wire.MaxEvent+1))
	if err != nil {
		return deny("could not read the event on stdin (%v).", err)
	}
	if len(data) > wire.MaxEvent {
		return deny("the event on stdin is over %d bytes, too large to judge.", wire.MaxEvent)
	}
	name, nameErr := opts.Pipe, error(nil)
	if name == "" {
		name, nameErr = pipe.Name()
	}
	// No server can answer when its socket is not there: the judge is
	// started now, so that its start-up (a Go process, its package inits)
	// overlaps the reading of the event below. It gets the event only if
	// the event is ours to judge, and is killed otherwise.
	var early *pendingFallback
	if earlyStart && nameErr == nil && socketAbsent(name) {
		early = startFallback(ctx, opts, "")
	}
	// Parsed here only to stay silent on what is not ours without a round
	// trip; the server (or the fallback) reads the event for judging.
	if _, judged, perr := opts.Proto.Parse(data); perr != nil || !judged {
		if early != nil {
			early.abandon()
		}
		if perr != nil {
			return deny("the event could not be read (%v).", perr)
		}
		return result{silent: true} // another event, or a tool we do not judge
	}
	if early != nil {
		return early.finish(opts, data)
	}
	if nameErr != nil {
		return fallback(ctx, opts, data, "")
	}
	conn, err := dial(ctx, name, opts.DialTimeout)
	if errors.Is(err, pipe.ErrPeer) {
		return deny("the pipe %s is served by another user account (%v); the user must find out who created it.", name, err)
	}
	if err != nil {
		return fallback(ctx, opts, data, "")
	}
	// An impostor's answer is never used: it counts as no server.
	if _, err := verifyServer(conn, peer.Expect{Binary: opts.Guard, Home: peer.HomeOf(os.Getenv), Pipe: name}); err != nil {
		conn.Close()
		return fallback(ctx, opts, data, err.Error())
	}
	// Connected: from here on never fall back, the tray may be showing a
	// dialog for this very call.
	defer conn.Close()
	return askServer(ctx, conn, opts, data)
}

// socketAbsent reports that no socket file is at name, an absolute path
// (an "@" name is Linux's abstract namespace, which has no file: never
// absent by this test), so dialing it could only fail at once.
func socketAbsent(name string) bool {
	if !filepath.IsAbs(name) {
		return false
	}
	_, err := os.Lstat(name)
	return errors.Is(err, fs.ErrNotExist)
}

// verifyServer is peer.VerifyServer; in-process unit tests, whose fake
// servers are this very test process, replace it.
var verifyServer = peer.VerifyServer

// dial reaches the server. "Nobody listens" is immediate (no socket,
// connection refused), so the timeout only bites when a server is there
// but slow to accept, or when this process was descheduled on a loaded
// machine; one retry keeps the latter from turning into a needless
// fallback (which cannot show the approval dialog).
func dial(ctx context.Context, name string, timeout time.Duration) (net.Conn, error) {
	var err error
	for try := 0; try < 2; try++ {
		dctx, cancel := context.WithTimeout(ctx, timeout)
		var c net.Conn
		c, err = pipe.Dial(dctx, name)
		cancel()
		if err == nil || !isTimeout(err) || ctx.Err() != nil {
			return c, err
		}
	}
	return nil, err
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
}

// emit prints r in the host's dialect. When stdout fails, the reason goes
// to stderr with exit code 2.
func emit(h hostproto.Host, stdout, stderr io.Writer, r result) int {
	switch {
	case r.silent:
		return h.Silent().Write(stdout, stderr, "")
	case r.out != nil:
		return r.out.Write(stdout, stderr, r.reason)
	}
	return h.Emit(stdout, stderr, r.decision, r.reason)
}
