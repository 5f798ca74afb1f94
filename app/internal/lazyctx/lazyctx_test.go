package lazyctx

import (
	"context"
	"errors"
	"testing"
	"time"
)

type key struct{}

func waitDone(t *testing.T, c context.Context, what string) {
	t.Helper()
	select {
	case <-c.Done():
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: Done never closed", what)
	}
}

// WithDeadline behaves as context.WithDeadline: the deadline, expiry,
// values, children, and Cancel.
func TestWithDeadlineAsContext(t *testing.T) {
	base := context.WithValue(context.Background(), key{}, "v")
	c := WithDeadline(base, time.Now().Add(20*time.Millisecond))
	if d, ok := c.Deadline(); !ok || d != c.deadline {
		t.Fatalf("deadline %v %v", d, ok)
	}
	if c.Err() != nil || c.Value(key{}) != "v" {
		t.Fatalf("fresh: %v %v", c.Err(), c.Value(key{}))
	}
	child, cancelChild := context.WithCancel(c)
	defer cancelChild()
	waitDone(t, c, "deadline")
	waitDone(t, child, "child")
	if !errors.Is(c.Err(), context.DeadlineExceeded) || !errors.Is(context.Cause(c), context.DeadlineExceeded) || !errors.Is(child.Err(), context.DeadlineExceeded) {
		t.Fatalf("after the deadline: %v, cause %v, child %v", c.Err(), context.Cause(c), child.Err())
	}
	c.Cancel(nil)

	// An earlier parent deadline wins; a later one does not.
	parent, cancel := context.WithDeadline(context.Background(), time.Now().Add(time.Minute))
	defer cancel()
	pd, _ := parent.Deadline()
	if d, _ := WithDeadline(parent, time.Now().Add(time.Hour)).Deadline(); d != pd {
		t.Fatalf("deadline %v, want the parent's %v", d, pd)
	}
	mine := time.Now().Add(time.Second)
	if d, _ := WithDeadline(parent, mine).Deadline(); d != mine {
		t.Fatalf("deadline %v, want %v", d, mine)
	}
	if _, ok := WithCancelCause(context.Background()).Deadline(); ok {
		t.Fatal("a cancel context without a deadline reports one")
	}
}

// A parent's cancellation and its cause reach both kinds, whether they
// were made real before or after it.
func TestParentCancelReaches(t *testing.T) {
	gone := errors.New("hook gone")
	for _, deadline := range []bool{true, false} {
		for _, early := range []bool{true, false} {
			parent, cancel := context.WithCancelCause(context.Background())
			c := WithCancelCause(parent)
			if deadline {
				c = WithDeadline(parent, time.Now().Add(time.Hour))
			}
			if early {
				c.Done()
			}
			cancel(gone)
			waitDone(t, c, "parent cancel")
			if !errors.Is(c.Err(), context.Canceled) || !errors.Is(context.Cause(c), gone) {
				t.Fatalf("deadline %v early %v: %v, cause %v", deadline, early, c.Err(), context.Cause(c))
			}
			c.Cancel(nil)
		}
	}
}

// Cancel, before or after the context is made real: cancelled from then
// on, with the cause of the first Cancel (WithCancelCause), values kept.
func TestCancel(t *testing.T) {
	gone := errors.New("hook gone")
	base := context.WithValue(context.Background(), key{}, "v")
	for _, early := range []bool{true, false} {
		c := WithCancelCause(base)
		if early {
			c.Done()
		}
		c.Cancel(gone)
		c.Cancel(nil)
		waitDone(t, c, "cancel")
		if !errors.Is(c.Err(), context.Canceled) || !errors.Is(context.Cause(c), gone) || c.Value(key{}) != "v" {
			t.Fatalf("early %v: %v, cause %v, value %v", early, c.Err(), context.Cause(c), c.Value(key{}))
		}
		d := WithDeadline(base, time.Now().Add(time.Hour))
		if early {
			d.Err()
		}
		d.Cancel(gone)
		waitDone(t, d, "deadline cancel")
		if !errors.Is(d.Err(), context.Canceled) {
			t.Fatalf("deadline, early %v: %v", early, d.Err())
		}
	}
	// A child made before the cancel hears it.
	c := WithCancelCause(base)
	child, cancel := context.WithCancel(c)
	defer cancel()
	c.Cancel(gone)
	waitDone(t, child, "child")
	if !errors.Is(context.Cause(child), gone) {
		t.Fatalf("child's cause %v", context.Cause(child))
	}
}
