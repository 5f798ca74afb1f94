// Package lazyctx gives the server's per-request contexts without their
// cost when nobody waits on them: context.WithDeadline and
// context.WithCancelCause whose timer, cancel state and registration with
// the parent are only made on the first Done, Err or Value. The local
// rules answer nearly every call without ever looking; only the remote
// judge and a dialog wait on a context. Making and releasing the two
// contexts was about 3 us of the server's CPU per request.
package lazyctx

import (
	"context"
	"sync"
	"time"
)

// Ctx is a context that is made real on first use. Deadline needs none
// of it.
type Ctx struct {
	parent      context.Context
	deadline    time.Time
	hasDeadline bool

	mu      sync.Mutex
	ctx     context.Context // nil until needed
	cancel  context.CancelCauseFunc
	stopped bool
	cause   error // of a Cancel before ctx was made
}

// WithDeadline is context.WithDeadline(parent, d); Cancel is its cancel.
func WithDeadline(parent context.Context, d time.Time) *Ctx {
	return &Ctx{parent: parent, deadline: d, hasDeadline: true}
}

// WithCancelCause is context.WithCancelCause(parent); Cancel is its
// cancel.
func WithCancelCause(parent context.Context) *Ctx {
	return &Ctx{parent: parent}
}

func (c *Ctx) real() context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ctx == nil {
		if c.hasDeadline {
			ctx, cancel := context.WithDeadline(c.parent, c.deadline)
			c.ctx, c.cancel = ctx, func(error) { cancel() }
		} else {
			c.ctx, c.cancel = context.WithCancelCause(c.parent)
		}
		if c.stopped {
			c.cancel(c.cause)
		}
	}
	return c.ctx
}

// Deadline is the earlier of the parent's and ours, as WithDeadline's.
func (c *Ctx) Deadline() (time.Time, bool) {
	d, ok := c.parent.Deadline()
	if c.hasDeadline && (!ok || c.deadline.Before(d)) {
		return c.deadline, true
	}
	return d, ok
}

func (c *Ctx) Done() <-chan struct{} { return c.real().Done() }
func (c *Ctx) Err() error            { return c.real().Err() }

// Value goes to the real context: context.Cause and the context package's
// own children find its cancel state there.
func (c *Ctx) Value(key any) any { return c.real().Value(key) }

// Cancel cancels the context with cause (nil: context.Canceled; a
// deadline context ignores the cause, as WithDeadline's cancel has none)
// and releases its timer. Only the first cancel counts.
func (c *Ctx) Cancel(cause error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.stopped {
		return
	}
	c.stopped, c.cause = true, cause
	if c.cancel != nil {
		c.cancel(cause)
	}
}
