package approval

import (
	"context"
	"sync"
	"testing"
	"time"
)

// waitFor polls cond with a generous deadline (CI machines are slow).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func item(cmd string) Item {
	return Item{Tool: "Bash", Input: cmd, Cwd: "/w"}
}

// submitAsync runs Submit in a goroutine and returns a channel with its result.
func submitAsync(ctx context.Context, q *Queue, it Item) <-chan Result {
	ch := make(chan Result, 1)
	go func() { ch <- q.Submit(ctx, it) }()
	return ch
}

func recv(t *testing.T, ch <-chan Result) Result {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(10 * time.Second):
		t.Fatal("Submit did not return")
	}
	return Result{}
}

func TestAnswer(t *testing.T) {
	tests := []struct {
		name        string
		allow       bool
		reason      string
		wantReason  string
		wantDecider string
	}{
		{"allow once", true, "", "allowed once by the user", DeciderUser},
		{"deny", false, "", "denied by the user", DeciderUser},
		{"deny with reason", false, "window closed", "window closed", DeciderUser},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := New(Options{})
			ch := submitAsync(context.Background(), q, item("git reset --hard"))
			waitFor(t, "pending item", func() bool { return q.Len() == 1 })
			p := q.Pending()[0]
			if !q.Answer(p.ID, tc.allow, tc.reason) {
				t.Fatal("first answer did not win")
			}
			if q.Answer(p.ID, !tc.allow, "second") {
				t.Fatal("second answer won; want no-op")
			}
			r := recv(t, ch)
			if r.Allow != tc.allow || r.Decider != tc.wantDecider || r.Reason != tc.wantReason {
				t.Fatalf("got %+v, want allow=%v decider=%s reason=%q", r, tc.allow, tc.wantDecider, tc.wantReason)
			}
			if q.Len() != 0 {
				t.Fatalf("item still pending after answer")
			}
			if len(q.Missed()) != 0 {
				t.Fatalf("an answered item was recorded as missed")
			}
		})
	}
}

func TestAnswerUnknownIsNoop(t *testing.T) {
	q := New(Options{})
	if q.Answer(42, true, "") {
		t.Fatal("answering an unknown id reported a win")
	}
}

func TestTimeoutDeniesWithPolicyAndRecordsMissed(t *testing.T) {
	var mu sync.Mutex
	var resolved []Result
	q := New(Options{
		Timeout: func() time.Duration { return 30 * time.Millisecond },
		OnResolve: func(p Pending, r Result) {
			mu.Lock()
			resolved = append(resolved, r)
			mu.Unlock()
		},
	})
	r := q.Submit(context.Background(), item("git reset --hard HEAD~1"))
	if r.Allow || r.Decider != DeciderPolicy || !r.TimedOut {
		t.Fatalf("timeout gave %+v; want deny by policy, timed out", r)
	}
	if r.Waited < 30*time.Millisecond {
		t.Fatalf("Waited %v is shorter than the timeout", r.Waited)
	}
	m := q.Missed()
	if len(m) != 1 || m[0].Item.Input != "git reset --hard HEAD~1" {
		t.Fatalf("missed = %+v; want the timed-out command", m)
	}
	// OnResolve runs after the waiter is released; wait for it.
	waitFor(t, "OnResolve", func() bool { mu.Lock(); defer mu.Unlock(); return len(resolved) > 0 })
	mu.Lock()
	if len(resolved) != 1 || resolved[0].Decider != DeciderPolicy {
		t.Fatalf("OnResolve got %+v; want one policy result", resolved)
	}
	mu.Unlock()
	if got := q.TakeMissed(); len(got) != 1 {
		t.Fatalf("TakeMissed = %d items, want 1", len(got))
	}
	if len(q.Missed()) != 0 {
		t.Fatal("TakeMissed did not clear the list")
	}
	// Answering after the timeout is a no-op.
	if q.Answer(1, true, "") {
		t.Fatal("answer after timeout won")
	}
}

func TestTimeoutReadAtSubmit(t *testing.T) {
	var mu sync.Mutex
	d := time.Hour
	q := New(Options{Timeout: func() time.Duration { mu.Lock(); defer mu.Unlock(); return d }})
	ch1 := submitAsync(context.Background(), q, item("a"))
	waitFor(t, "first item", func() bool { return q.Len() == 1 })
	mu.Lock()
	d = 20 * time.Millisecond
	mu.Unlock()
	r := recv(t, submitAsync(context.Background(), q, item("b")))
	if r.Decider != DeciderPolicy || r.Allow {
		t.Fatalf("second item: %+v, want timeout deny", r)
	}
	p := q.Pending()
	if len(p) != 1 || p[0].Item.Input != "a" {
		t.Fatalf("pending = %+v; the first item (1 h timeout) must still wait", p)
	}
	q.Answer(p[0].ID, true, "")
	if r := recv(t, ch1); !r.Allow {
		t.Fatalf("first item: %+v", r)
	}
}

func TestCoalescing(t *testing.T) {
	tests := []struct {
		name      string
		a, b      Item
		wantItems int
	}{
		{"identical share one approval", item("git reset --hard"), item("git reset --hard"), 1},
		{"different command", item("git reset --hard"), item("git clean -fd"), 2},
		{"different cwd", Item{Tool: "Bash", Input: "x", Cwd: "/a"}, Item{Tool: "Bash", Input: "x", Cwd: "/b"}, 2},
		{"different tool", Item{Tool: "Write", Input: "x"}, Item{Tool: "Edit", Input: "x"}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := New(Options{})
			ca := submitAsync(context.Background(), q, tc.a)
			waitFor(t, "first", func() bool { return q.Len() == 1 })
			cb := submitAsync(context.Background(), q, tc.b)
			if tc.wantItems == 1 {
				waitFor(t, "second waiter", func() bool { p := q.Pending(); return len(p) == 1 && p[0].Waiters == 2 })
			} else {
				waitFor(t, "second item", func() bool { return q.Len() == 2 })
			}
			p := q.Pending()
			if len(p) != tc.wantItems {
				t.Fatalf("pending = %d, want %d", len(p), tc.wantItems)
			}
			if p[0].Item.Input != tc.a.Input || p[0].Item.Cwd != tc.a.Cwd || p[0].Item.Tool != tc.a.Tool {
				t.Fatalf("oldest first: got %+v", p[0].Item)
			}
			for _, x := range p {
				q.Answer(x.ID, true, "")
			}
			if ra, rb := recv(t, ca), recv(t, cb); !ra.Allow || !rb.Allow {
				t.Fatalf("results %+v %+v; want both allowed", ra, rb)
			}
		})
	}
}

func TestHookGivesUp(t *testing.T) {
	t.Run("alone: item removed", func(t *testing.T) {
		var mu sync.Mutex
		called := false
		q := New(Options{OnResolve: func(Pending, Result) { mu.Lock(); called = true; mu.Unlock() }})
		ctx, cancel := context.WithCancel(context.Background())
		ch := submitAsync(ctx, q, item("x"))
		waitFor(t, "pending", func() bool { return q.Len() == 1 })
		id := q.Pending()[0].ID
		cancel()
		r := recv(t, ch)
		if r.Allow || r.Decider != DeciderPolicy {
			t.Fatalf("gave up: %+v, want policy deny", r)
		}
		if q.Len() != 0 {
			t.Fatal("item not removed after its only hook gave up")
		}
		if q.Answer(id, true, "") {
			t.Fatal("answering a withdrawn item won")
		}
		mu.Lock()
		defer mu.Unlock()
		if called || len(q.Missed()) != 0 {
			t.Fatal("a withdrawn item must not count as resolved or missed")
		}
	})
	t.Run("shared: item stays for the other hook", func(t *testing.T) {
		q := New(Options{})
		ctx, cancel := context.WithCancel(context.Background())
		c1 := submitAsync(ctx, q, item("x"))
		waitFor(t, "pending", func() bool { return q.Len() == 1 })
		c2 := submitAsync(context.Background(), q, item("x"))
		waitFor(t, "two waiters", func() bool { p := q.Pending(); return len(p) == 1 && p[0].Waiters == 2 })
		cancel()
		if r := recv(t, c1); r.Allow {
			t.Fatalf("cancelled hook got allow")
		}
		waitFor(t, "one waiter", func() bool { p := q.Pending(); return len(p) == 1 && p[0].Waiters == 1 })
		q.Answer(q.Pending()[0].ID, true, "")
		if r := recv(t, c2); !r.Allow || r.Decider != DeciderUser {
			t.Fatalf("remaining hook: %+v, want user allow", r)
		}
	})
}

func TestConcurrentAnswersResolveOnce(t *testing.T) {
	var mu sync.Mutex
	resolves := 0
	q := New(Options{OnResolve: func(Pending, Result) { mu.Lock(); resolves++; mu.Unlock() }})
	const hooks = 8
	var chans []<-chan Result
	for i := 0; i < hooks; i++ {
		chans = append(chans, submitAsync(context.Background(), q, item("same")))
	}
	waitFor(t, "all waiters", func() bool { p := q.Pending(); return len(p) == 1 && p[0].Waiters == hooks })
	id := q.Pending()[0].ID
	var wg sync.WaitGroup
	wins := make(chan bool, 20)
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func(i int) { defer wg.Done(); wins <- q.Answer(id, i%2 == 0, "") }(i)
	}
	wg.Wait()
	close(wins)
	n := 0
	for w := range wins {
		if w {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d answers won, want exactly 1", n)
	}
	first := recv(t, chans[0])
	for _, c := range chans[1:] {
		if r := recv(t, c); r.Allow != first.Allow {
			t.Fatalf("waiters disagree: %+v vs %+v", r, first)
		}
	}
	waitFor(t, "OnResolve", func() bool { mu.Lock(); defer mu.Unlock(); return resolves > 0 })
	time.Sleep(20 * time.Millisecond) // a second, wrong call would show up here
	mu.Lock()
	defer mu.Unlock()
	if resolves != 1 {
		t.Fatalf("OnResolve called %d times, want 1", resolves)
	}
}

func TestSubscribeSignalsChanges(t *testing.T) {
	q := New(Options{})
	ch, cancel := q.Subscribe()
	defer cancel()
	done := submitAsync(context.Background(), q, item("x"))
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatal("no signal after submit")
	}
	waitFor(t, "pending", func() bool { return q.Len() == 1 })
	q.Answer(q.Pending()[0].ID, false, "")
	recv(t, done)
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatal("no signal after answer")
	}
	if q.Len() != 0 {
		t.Fatal("pending after answer")
	}
}

func TestGet(t *testing.T) {
	q := New(Options{})
	ch := submitAsync(context.Background(), q, item("x"))
	waitFor(t, "pending", func() bool { return q.Len() == 1 })
	p := q.Pending()[0]
	got, ok := q.Get(p.ID)
	if !ok || got.Item.Input != "x" || got.Deadline.Sub(got.Since) != DefaultTimeout {
		t.Fatalf("Get = %+v %v", got, ok)
	}
	q.Answer(p.ID, false, "")
	recv(t, ch)
	if _, ok := q.Get(p.ID); ok {
		t.Fatal("Get found a resolved item")
	}
}

func TestItemDeadline(t *testing.T) {
	t.Run("earlier deadline wins over timeout", func(t *testing.T) {
		q := New(Options{})
		it := item("x")
		it.Deadline = time.Now().Add(30 * time.Millisecond)
		r := q.Submit(context.Background(), it)
		if r.Allow || r.Decider != DeciderPolicy || len(q.Missed()) != 1 {
			t.Fatalf("got %+v missed=%d; want timeout deny recorded", r, len(q.Missed()))
		}
	})
	t.Run("context deadline at item deadline counts as timeout", func(t *testing.T) {
		q := New(Options{})
		it := item("y")
		it.Deadline = time.Now().Add(40 * time.Millisecond)
		ctx, cancel := context.WithDeadline(context.Background(), it.Deadline)
		defer cancel()
		r := q.Submit(ctx, it)
		if r.Allow || r.Decider != DeciderPolicy || len(q.Missed()) != 1 || q.Len() != 0 {
			t.Fatalf("got %+v missed=%d len=%d", r, len(q.Missed()), q.Len())
		}
	})
}

func TestDenyByPolicy(t *testing.T) {
	q := New(Options{})
	ch := submitAsync(context.Background(), q, item("x"))
	waitFor(t, "pending", func() bool { return q.Len() == 1 })
	id := q.Pending()[0].ID
	if !q.Deny(id, "the approval dialog crashed") {
		t.Fatal("Deny did not win")
	}
	if q.Answer(id, true, "") {
		t.Fatal("an allow after Deny won")
	}
	r := recv(t, ch)
	if r.Allow || r.Decider != DeciderPolicy || r.Reason != "the approval dialog crashed" {
		t.Fatalf("got %+v", r)
	}
	if len(q.Missed()) != 0 {
		t.Fatal("a policy deny is not a timeout")
	}
}

func TestSessionsDoNotShareAnApproval(t *testing.T) {
	a := Item{Tool: "Bash", Input: "make deploy", Cwd: "/w", Host: "claude", Session: "s1"}
	b := a
	b.Session = "s2"
	if a.Key() == b.Key() {
		t.Fatal("identical calls from two sessions share one approval")
	}
	c := a
	if a.Key() != c.Key() {
		t.Fatal("identical calls from one session do not coalesce")
	}
}

func TestDenySession(t *testing.T) {
	q := New(Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	results := make(chan Result, 3)
	for _, it := range []Item{
		{Tool: "Bash", Input: "a", Host: "claude", Session: "s1"},
		{Tool: "Bash", Input: "b", Host: "claude", Session: "s1"},
		{Tool: "Bash", Input: "c", Host: "claude", Session: "s2"},
	} {
		go func(it Item) { results <- q.Submit(ctx, it) }(it)
	}
	for q.Len() < 3 {
		time.Sleep(time.Millisecond)
	}
	if n := q.DenySession("claude", "s1", "denied all from this session"); n != 2 {
		t.Fatalf("denied %d, want 2", n)
	}
	for i := 0; i < 2; i++ {
		if r := <-results; r.Allow || r.Decider != DeciderUser {
			t.Fatalf("result %+v, want a user deny", r)
		}
	}
	if p := q.Pending(); len(p) != 1 || p[0].Item.Session != "s2" {
		t.Fatalf("left pending %+v, want only s2", p)
	}
	if q.DenySession("claude", "", "x") != 0 {
		t.Fatal("an empty session denied something")
	}
}
