package decide

import (
	"context"
	"errors"
	"testing"
	"time"
)

// lazyDeadline behaves as context.WithDeadline: the deadline, expiry, a
// parent's cancellation and its cause, values, children, and stop.
func TestLazyDeadlineAsWithDeadline(t *testing.T) {
	type key struct{}
	base := context.WithValue(context.Background(), key{}, "v")

	c := withLazyDeadline(base, time.Now().Add(20*time.Millisecond))
	if d, ok := c.Deadline(); !ok || d != c.deadline {
		t.Fatalf("deadline %v %v", d, ok)
	}
	if c.Err() != nil || c.Value(key{}) != "v" {
		t.Fatalf("fresh: %v %v", c.Err(), c.Value(key{}))
	}
	child, cancelChild := context.WithCancel(c)
	defer cancelChild()
	select {
	case <-c.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the deadline never fired")
	}
	<-child.Done()
	if !errors.Is(c.Err(), context.DeadlineExceeded) || !errors.Is(context.Cause(c), context.DeadlineExceeded) || !errors.Is(child.Err(), context.DeadlineExceeded) {
		t.Fatalf("after the deadline: %v, cause %v, child %v", c.Err(), context.Cause(c), child.Err())
	}
	c.stop()

	// A parent's cancellation and cause reach it, realised before or after.
	gone := errors.New("hook gone")
	for _, early := range []bool{true, false} {
		parent, cancel := context.WithCancelCause(context.Background())
		c := withLazyDeadline(parent, time.Now().Add(time.Hour))
		if early {
			c.Done()
		}
		cancel(gone)
		select {
		case <-c.Done():
		case <-time.After(5 * time.Second):
			t.Fatal("the parent's cancel did not arrive")
		}
		if !errors.Is(c.Err(), context.Canceled) || !errors.Is(context.Cause(c), gone) {
			t.Fatalf("early %v: %v, cause %v", early, c.Err(), context.Cause(c))
		}
		c.stop()
	}

	// An earlier parent deadline wins.
	parent, cancel := context.WithDeadline(context.Background(), time.Now().Add(time.Minute))
	defer cancel()
	pd, _ := parent.Deadline()
	if d, _ := withLazyDeadline(parent, time.Now().Add(time.Hour)).Deadline(); d != pd {
		t.Fatalf("deadline %v, want the parent's %v", d, pd)
	}

	// Stopped without ever being used: cancelled from then on.
	c = withLazyDeadline(base, time.Now().Add(time.Hour))
	c.stop()
	if !errors.Is(c.Err(), context.Canceled) || c.Value(key{}) != "v" {
		t.Fatalf("after stop: %v %v", c.Err(), c.Value(key{}))
	}
	select {
	case <-c.Done():
	default:
		t.Fatal("Done is open after stop")
	}
}
