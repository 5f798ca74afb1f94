package decide

import (
	"context"
	"sync"
	"time"
)

// lazyDeadline is context.WithDeadline(parent, deadline) whose timer and
// cancel context are only made when someone asks for Done, Err or a Value
// (the remote judge's request, a dialog): the local rules, which answer
// nearly every call, never do, and making and stopping the deadline's
// timer for each of them was 2 us of the server's CPU per request.
// Deadline needs none of it. After stop, it is as a cancelled
// WithDeadline.
type lazyDeadline struct {
	parent   context.Context
	deadline time.Time

	mu      sync.Mutex
	ctx     context.Context // nil until needed
	cancel  context.CancelFunc
	stopped bool
}

func withLazyDeadline(parent context.Context, deadline time.Time) *lazyDeadline {
	return &lazyDeadline{parent: parent, deadline: deadline}
}

func (c *lazyDeadline) real() context.Context {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ctx == nil {
		c.ctx, c.cancel = context.WithDeadline(c.parent, c.deadline)
		if c.stopped {
			c.cancel()
		}
	}
	return c.ctx
}

// Deadline is the earlier of the parent's and ours, as WithDeadline's.
func (c *lazyDeadline) Deadline() (time.Time, bool) {
	if d, ok := c.parent.Deadline(); ok && d.Before(c.deadline) {
		return d, true
	}
	return c.deadline, true
}

func (c *lazyDeadline) Done() <-chan struct{} { return c.real().Done() }
func (c *lazyDeadline) Err() error            { return c.real().Err() }

// Value goes to the real context: context.Cause and the context package's
// own children find its cancel state there.
func (c *lazyDeadline) Value(key any) any { return c.real().Value(key) }

// stop is WithDeadline's cancel: it releases the timer if one was made,
// and from then on Done, Err and Value see a cancelled context.
func (c *lazyDeadline) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopped = true
	if c.cancel != nil {
		c.cancel()
	}
}
