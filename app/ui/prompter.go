//go:build !nogui

package ui

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/agent-guard/agent-guard/app/approval"
	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/server"
	"github.com/agent-guard/agent-guard/app/ui/callview"
	"github.com/agent-guard/agent-guard/app/ui/proto"
)

// child is a running window process: the parent writes protocol lines to
// stdin and reads the reply from stdout.
type child struct {
	stdin  io.WriteCloser
	stdout io.Reader
	wait   func() error // reaps the process
	kill   func()
}

// starter launches a child window process for a hidden verb.
type starter func(verb string) (*child, error)

// prompter shows pending approvals one at a time, each in its own dialog
// process, and turns the dialog's reply into the queue's answer. Only the
// prompter answers: a dialog that crashes, hangs up or replies garbage
// denies its item (decider policy).
type prompter struct {
	q        *approval.Queue
	start    starter
	onAlways func(edit func(*config.Config) error) error
	onError  func(error) // dialog could not be shown
	// config is the config in force (thresholds for the always offer);
	// afterAlways hears of approvals just saved (the Undo notice). Both
	// optional.
	config      func() *config.Config
	afterAlways func(added []config.ScopedApproval, lines []string)

	mu   sync.Mutex
	cur  *running
	kick chan struct{}
}

type running struct {
	id      uint64
	c       *child
	mu      sync.Mutex // serializes writes to c.stdin
	closing bool       // close sent (guarded by prompter.mu)
}

func (r *running) send(v any) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return proto.Write(r.c.stdin, v)
}

func newPrompter(q *approval.Queue, start starter, onAlways func(func(*config.Config) error) error, onError func(error)) *prompter {
	return &prompter{q: q, start: start, onAlways: onAlways, onError: onError, kick: make(chan struct{}, 1)}
}

func (p *prompter) poke() {
	select {
	case p.kick <- struct{}{}:
	default:
	}
}

// run drives dialogs until ctx ends; then the open dialog is closed.
func (p *prompter) run(ctx context.Context) {
	sub, cancel := p.q.Subscribe()
	defer cancel()
	p.step()
	for {
		select {
		case <-ctx.Done():
			p.mu.Lock()
			if p.cur != nil {
				p.cur.c.kill()
			}
			p.mu.Unlock()
			return
		case <-sub:
		case <-p.kick:
		}
		p.step()
	}
}

// raise brings the open dialog to the front (tray: Pending approvals).
func (p *prompter) raise() {
	p.mu.Lock()
	cur := p.cur
	p.mu.Unlock()
	if cur != nil {
		_ = cur.send(proto.Control{Type: "raise"})
		return
	}
	p.poke()
}

func (p *prompter) step() {
	pend := p.q.Pending()
	p.mu.Lock()
	defer p.mu.Unlock()
	if cur := p.cur; cur != nil {
		for _, it := range pend {
			if it.ID == cur.id {
				_ = cur.send(proto.Control{Type: "queue", Queue: len(pend)})
				return
			}
		}
		// Answered elsewhere (tray menu), timed out or withdrawn: close
		// the dialog, and make sure a stuck one goes away.
		if !cur.closing {
			cur.closing = true
			_ = cur.send(proto.Control{Type: "close"})
			time.AfterFunc(3*time.Second, cur.c.kill)
		}
		return
	}
	if len(pend) == 0 {
		return
	}
	head := pend[0]
	c, err := p.start(proto.VerbPrompt)
	if err != nil {
		err = fmt.Errorf("agent-guard could not show the approval dialog (%v); the call was denied", err)
		// Report before answering: once denied, the caller may go on and
		// look for the report (the tray's notice, a test's count).
		if p.onError != nil {
			p.onError(err)
		}
		p.q.Deny(head.ID, err.Error())
		return
	}
	r := &running{id: head.ID, c: c}
	if err := r.send(promptFor(head, len(pend), p.cfg())); err != nil {
		c.kill()
		_ = c.wait()
		p.q.Deny(head.ID, fmt.Sprintf("agent-guard could not talk to the approval dialog (%v); the call was denied", err))
		return
	}
	p.cur = r
	go p.await(r, head)
}

// await turns the dialog's one reply into the queue's answer.
func (p *prompter) await(r *running, head approval.Pending) {
	rep, err := proto.ReadReply(r.c.stdout, head.ID)
	switch {
	case err != nil:
		// No-op when the item was already resolved (then we closed it).
		p.q.Deny(head.ID, "denied: "+err.Error())
	case rep.Action == proto.ActionAllow:
		p.q.Answer(head.ID, true, "allowed once in the agent-guard dialog")
	case rep.Action == proto.ActionAlways:
		o := alwaysOffer(head.Item, p.cfg())
		var added []config.ScopedApproval
		reason := "always allowed in the agent-guard dialog (" + rep.Scope + "; rule added to the config)"
		if edit, ok := o.scopedEdit(head.Item, rep.Scope, time.Now(), &added); !ok {
			reason = "allowed once in the agent-guard dialog (no always-allow rule fits this call in scope " + rep.Scope + ")"
		} else if err := p.onAlways(edit); err != nil {
			reason = fmt.Sprintf("allowed once in the agent-guard dialog; the always-allow rule could not be saved: %v", err)
		} else if p.afterAlways != nil {
			p.afterAlways(added, o.lines)
		}
		p.q.Answer(head.ID, true, reason)
	default:
		reason := rep.Reason
		if reason == "" || strings.HasPrefix(reason, "denied by the user") {
			reason = "denied in the agent-guard dialog"
		}
		p.q.Answer(head.ID, false, reason)
	}
	r.c.stdin.Close()
	done := make(chan struct{})
	go func() { _ = r.c.wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		r.c.kill()
		<-done
	}
	p.mu.Lock()
	if p.cur == r {
		p.cur = nil
	}
	p.mu.Unlock()
	p.poke()
}

func (p *prompter) cfg() *config.Config {
	if p.config != nil {
		if c := p.config(); c != nil {
			return c
		}
	}
	return config.Default()
}

// promptFor is what the dialog shows for a pending item.
func promptFor(pd approval.Pending, queue int, cfg *config.Config) proto.Prompt {
	it := pd.Item
	v := it.Verdict
	st := it.Call
	if st.Tool == "" {
		st = judge.State{Tool: it.Tool, Command: it.Input, Cwd: it.Cwd, Server: it.Server, MCPTool: it.MCPTool}
		if it.Tool != "Bash" && it.Server == "" {
			st.Command, st.FilePath = "", it.Input
		}
	}
	o := alwaysOffer(it, cfg)
	hostName := it.HostName
	if hostName == "" {
		hostName = approval.HostName(it.Host)
	}
	return proto.Prompt{
		ID: pd.ID, Tool: it.Tool, Host: it.Host, HostName: hostName, Session: it.Session, Workspace: it.Cwd,
		Call: callview.Of(st, v), Level: v.Level.String(),
		Risk: v.Risk, Violation: v.Violation, Rule: v.Rule, Reason: v.Reason,
		Deadline: pd.Deadline, Timeout: int(pd.Deadline.Sub(pd.Since).Round(time.Second) / time.Second),
		Always: o.lines, Scopes: o.scopes, Queue: queue,
	}
}

// asker is the server's Asker: it queues the call and waits.
type asker struct{ q *approval.Queue }

func (a asker) Ask(ctx context.Context, p server.Prompt) server.Answer {
	r := a.q.Submit(ctx, itemFor(p))
	return server.Answer{Allow: r.Allow && r.Decider == approval.DeciderUser, Decider: r.Decider, Reason: r.Reason}
}

// itemFor turns the server's prompt into a queue item. The input is what
// the user must see, and what makes two calls "identical".
func itemFor(p server.Prompt) approval.Item {
	s := p.State
	in := s.Command
	switch {
	case s.Server != "":
		in = s.Args
	case s.Tool != "Bash":
		in = s.FilePath
		if s.Content != "" {
			c := s.Content
			if len(c) > 600 {
				c = c[:600] + "…"
			}
			in += "\n\n" + c
		}
	}
	if s.Session == "" {
		s.Session = p.Session
	}
	return approval.Item{
		Tool: s.Tool, Input: in, Whole: judge.Key(s), Cwd: s.Cwd, Host: p.Host, HostName: approval.HostName(p.Host),
		Session: p.Session, Verdict: p.Verdict, Call: s, Server: s.Server, MCPTool: s.MCPTool, Deadline: p.Deadline,
	}
}
