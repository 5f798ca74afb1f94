package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"time"

	"github.com/agent-guard/agent-guard/app/audit"
	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/decide"
	"github.com/agent-guard/agent-guard/app/hostproto"
	"github.com/agent-guard/agent-guard/app/internal/lazyctx"
	"github.com/agent-guard/agent-guard/app/wire"
)

// Judger judges one call (*judge.Judge, or the guard's judge).
type Judger = decide.Judger

// AuditLog takes one line per decision (*audit.Writer).
type AuditLog interface {
	Append(e audit.Entry) error
}

// Deps is what the server works with. Only Judge is required.
type Deps struct {
	Judge Judger
	// Config returns the config in force; read once per request so a
	// hot reload applies to the next call. Nil: the judge's Config()
	// method when it has one, else the embedded default.
	Config func() *config.Config
	Audit  AuditLog // nil: decisions are not logged
	Asker  Asker    // nil: no dialog (serve --headless)
	// OnProblem hears about failures that do not stop a decision (an
	// audit line that could not be written, a broken connection); the
	// tray shows them. Called from request goroutines.
	OnProblem func(error)
	// OnDecision sees every audit entry after the answer is sent (the
	// tray's recent list). Called from request goroutines.
	OnDecision func(audit.Entry)
	// Stderr gets the problems too (default os.Stderr).
	Stderr io.Writer
}

// Timeouts. IOTimeout bounds reading a request and writing a response;
// the hook's budget bounds everything in between.
const (
	IOTimeout = 5 * time.Second
	// maxMargin is how much earlier than the hook's budget the server
	// answers, so the hook always hears the decision before it gives up.
	maxMargin = 2 * time.Second
)

// Server answers hook connections. Safe for concurrent use.
type Server struct {
	deps          Deps
	decideProblem func(error)
	wg            sync.WaitGroup
	mu            sync.Mutex // guards Stderr writes
}

// New returns a server over deps.
func New(deps Deps) *Server {
	if deps.Config == nil {
		if c, ok := deps.Judge.(interface{ Config() *config.Config }); ok {
			deps.Config = c.Config
		} else {
			deps.Config = config.Default
		}
	}
	if deps.Stderr == nil {
		deps.Stderr = os.Stderr
	}
	s := &Server{deps: deps}
	s.decideProblem = func(err error) { s.problem(fmt.Errorf("server: %w", err)) } // made once, not per call
	return s
}

// Serve accepts connections on l until ctx is done or l fails, answering
// each on its own goroutine. On return l is closed and every request in
// flight has been answered (pending approvals are cancelled and deny).
func (s *Server) Serve(ctx context.Context, l net.Listener) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stop := context.AfterFunc(ctx, func() { l.Close() })
	defer stop()
	var err error
	backoff := 5 * time.Millisecond
	idle := make(chan net.Conn) // unbuffered: only a waiting worker takes one
	for {
		c, aerr := l.Accept()
		if aerr != nil {
			if ctx.Err() != nil {
				break
			}
			if errors.Is(aerr, net.ErrClosed) {
				err = fmt.Errorf("server: listener closed: %w", aerr)
				break
			}
			// Anything else (a client that vanished mid-accept, too many
			// open files) is transient: the tray must keep serving.
			s.problem(fmt.Errorf("server: accept: %w", aerr))
			select {
			case <-ctx.Done():
			case <-time.After(backoff):
			}
			backoff = min(2*backoff, time.Second)
			continue
		}
		backoff = 5 * time.Millisecond
		s.wg.Add(1)
		select {
		case idle <- c: // a worker that finished a request takes it
		default:
			go s.worker(ctx, c, idle)
		}
	}
	cancel()
	l.Close()
	s.wg.Wait()
	return err
}

// workerIdle is how long a worker waits for the next connection before it
// ends.
const workerIdle = 10 * time.Second

// worker handles c, then the connections handed to it on idle until none
// comes for workerIdle or ctx ends. Reusing a goroutine keeps its stack,
// already grown to what judging needs: a fresh goroutine per connection
// regrew (copied) its stack on every request. Concurrency is unchanged:
// when no worker is idle, Serve starts another.
func (s *Server) worker(ctx context.Context, c net.Conn, idle chan net.Conn) {
	t := time.NewTimer(workerIdle)
	defer t.Stop()
	for {
		s.handle(ctx, c)
		s.wg.Done()
		// The timer is not reset per request (a timer update each); when
		// it fires, the worker ends only if it has been idle for
		// workerIdle, else it waits out the rest.
		idleFrom := time.Now()
		for waiting := true; waiting; {
			select {
			case c = <-idle:
				waiting = false
			case <-t.C:
				rest := workerIdle - time.Since(idleFrom)
				if rest <= 0 {
					return
				}
				t.Reset(rest)
			case <-ctx.Done():
				return
			}
		}
	}
}

// handle answers one connection: read, decide, respond, audit.
func (s *Server) handle(ctx context.Context, c net.Conn) {
	defer c.Close()
	start := time.Now()
	// One deadline for reading the request and writing the answer: one
	// timer; respond renews it when little of it is left.
	ioBy := start.Add(IOTimeout)
	c.SetDeadline(ioBy)
	req, rerr := wire.ReadRequest(c)
	if rerr != nil {
		if errors.Is(rerr, io.EOF) {
			return // a connection that sent nothing (a liveness probe)
		}
		s.problem(fmt.Errorf("server: unreadable request: %w", rerr))
		s.respond(c, ioBy, req.Host, denial("agent-guard could not read the hook's request ("+rerr.Error()+"), so the call is denied. Stop and tell the user; agent-guard-hook and agent-guard may be different versions."))
		return
	}
	// The hook sends nothing after its request: a read that returns means
	// it went away (gave up or was killed), which cancels a pending Ask.
	// Only an Ask waits on a person, so only then is the connection
	// watched (a goroutine and a poller wake-up per request otherwise),
	// and only then is the read deadline lifted. The context is made only
	// when someone waits on it (lazyctx): the local rules never do.
	hctx := lazyctx.WithCancelCause(ctx)
	ctx = hctx
	defer hctx.Cancel(nil)
	var watchHangUp func() // only where a dialog can be asked
	if s.deps.Asker != nil {
		var watch sync.Once
		watchHangUp = func() {
			watch.Do(func() {
				c.SetReadDeadline(time.Time{})
				go func() {
					var b [1]byte
					c.Read(b[:])
					hctx.Cancel(errHookGone)
				}()
			})
		}
	}

	d := s.decideWatching(ctx, req, start, watchHangUp)
	werr := s.respond(c, ioBy, req.Host, d.Response())
	took := float64(time.Since(start).Microseconds()) / 1000
	for i, p := range d.Parts {
		entry := p.Entry
		entry.DurationMS = took
		if werr != nil {
			entry.Reason += " (the answer could not be sent: " + werr.Error() + ")"
			if i == 0 && !errors.Is(context.Cause(ctx), errHookGone) { // a hook that gave up is no news
				s.problem(fmt.Errorf("server: answering the hook for %s: %w", entry.Tool, werr))
			}
		}
		s.record(entry)
	}
}

// denial is a deny the server renders itself (no judgment behind it).
func denial(reason string) wire.Response {
	return wire.Response{V: wire.Version, Decision: wire.Deny, Reason: reason}
}

var errHookGone = errors.New("the hook disconnected before anyone answered")

// respond sends r; a response without host output (denial) is rendered
// for host here, and one that cannot be encoded becomes a deny. The write
// has IOTimeout: the deadline set at ioBy if at least half of it is left
// (a call the rules answer), else a new one.
func (s *Server) respond(c net.Conn, ioBy time.Time, host string, r wire.Response) error {
	h, ok := hostproto.Lookup(host)
	if !ok {
		h = hostproto.ZCode
	}
	if r.Stdout == "" && r.Stderr == "" && r.Code == 0 {
		o := h.Render(r.Decision, r.Reason)
		r.Stdout, r.Stderr, r.Code = string(o.Stdout), string(o.Stderr), o.Code
	}
	b, err := wire.EncodeResponse(r)
	if err != nil {
		d := denial("agent-guard could not encode its answer (" + err.Error() + "), so the call is denied.")
		o := h.Render(d.Decision, d.Reason)
		d.Stdout, d.Stderr, d.Code = string(o.Stdout), string(o.Stderr), o.Code
		b, _ = wire.EncodeResponse(d)
	}
	if now := time.Now(); ioBy.Sub(now) < IOTimeout/2 {
		c.SetWriteDeadline(now.Add(IOTimeout))
	}
	_, err = c.Write(b)
	return err
}

func (s *Server) record(e audit.Entry) {
	if s.deps.Audit != nil && s.deps.Config().Log.Enabled {
		if err := s.deps.Audit.Append(e); err != nil {
			s.problem(fmt.Errorf("server: audit line for %s %s not written: %w", e.Tool, e.Decision, err))
		}
	}
	if s.deps.OnDecision != nil {
		s.deps.OnDecision(e)
	}
}

func (s *Server) problem(err error) {
	s.mu.Lock()
	fmt.Fprintln(s.deps.Stderr, "agent-guard:", err)
	s.mu.Unlock()
	if s.deps.OnProblem != nil {
		s.deps.OnProblem(err)
	}
}

// Decide judges one request and renders the host decision, asking the
// Asker when the verdict needs a human. It never fails: every problem is a
// deny with its reason. The deciding part's audit entry is returned, not
// written.
func (s *Server) Decide(ctx context.Context, req wire.Request) (wire.Response, audit.Entry) {
	d := s.decide(ctx, req, time.Now())
	return d.Response(), d.Worst.Entry
}

func (s *Server) decide(ctx context.Context, req wire.Request, start time.Time) decide.Decision {
	return s.decideWatching(ctx, req, start, nil)
}

// decideWatching is decide calling beforeAsk (when set) before the Asker
// is asked.
func (s *Server) decideWatching(ctx context.Context, req wire.Request, start time.Time, beforeAsk func()) decide.Decision {
	// Everything must finish before the hook gives up on us.
	budget := time.Duration(req.BudgetMS) * time.Millisecond
	asker := s.deps.Asker
	if asker != nil && beforeAsk != nil {
		inner := asker
		asker = decide.AskerFunc(func(ctx context.Context, p decide.Prompt) decide.Answer {
			beforeAsk()
			return inner.Ask(ctx, p)
		})
	}
	return decide.Decide(ctx, decide.Call{Host: req.Host, Event: req.Event, Start: start, Deadline: start.Add(budget - margin(budget))},
		decide.Deps{Judge: s.deps.Judge, Config: s.deps.Config, Asker: asker, OnProblem: s.decideProblem})
}

// margin is how long before the hook's budget ends the server answers:
// a quarter of a short budget, at most maxMargin.
func margin(budget time.Duration) time.Duration {
	return min(budget/4, maxMargin)
}
