// Package approval holds the pending approvals of confirm-level calls:
// a queue where each item resolves exactly once (first answer wins),
// identical concurrent requests share one item, a hook that gives up
// removes its share, and a timeout denies with decider "policy".
//
// It has no UI: the tray shows Pending() and calls Answer; Submit blocks
// the hook's request until then.
package approval

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"sort"
	"sync"
	"time"

	"github.com/agent-guard/agent-guard/app/judge"
)

// Deciders, the same strings as audit.DeciderUser / audit.DeciderPolicy
// (kept here so this package does not depend on the audit writer).
const (
	DeciderUser   = "user"
	DeciderPolicy = "policy"
)

// Item is one call waiting for a human.
type Item struct {
	Tool  string
	Input string // the command, or the file path / MCP arguments (may be cut for display)
	// Whole is a hash of the whole call (judge.Key): two calls whose
	// shown Input agrees but whose full content differs never share an
	// approval.
	Whole string
	Cwd   string
	Host  string // the host's id ("claude", "zcode")
	// HostName is the host's display name ("Claude Code"), for the
	// dialog, the pending list and its title.
	HostName string
	Session  string
	Verdict  judge.Verdict
	// Call is the judged state (the dialog's view, scoped approvals).
	Call judge.State
	// Server and MCPTool are set for MCP calls (for "Always allow").
	Server  string
	MCPTool string
	// Deadline, when set and earlier than the queue's timeout, is when
	// the approval times out (the server's own budget for the hook).
	Deadline time.Time
}

// Key is the coalescing key: identical tool, input, cwd and whole-call
// hash from the same host session share one approval; the same call from
// two sessions asks twice (each is a different agent run the person may
// judge differently).
func (it Item) Key() string {
	h := sha1.New()
	for _, s := range []string{it.Tool, it.Input, it.Cwd, it.Whole, it.Host, it.Session} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Result is how a Submit ended.
type Result struct {
	Allow   bool
	Decider string // DeciderUser or DeciderPolicy
	Reason  string
	Waited  time.Duration
	// TimedOut is set when nobody answered in time.
	TimedOut bool
}

// Pending is a snapshot of one waiting item.
type Pending struct {
	ID       uint64
	Item     Item
	Since    time.Time
	Deadline time.Time
	Waiters  int // hooks sharing this approval
}

// Missed is an approval denied by timeout (nobody answered in time),
// kept for the tray's "while you were away" notice.
type Missed struct {
	Item Item
	At   time.Time
}

// Options configure a Queue. Zero values are usable.
type Options struct {
	// Timeout returns the approval timeout for a new item; read at
	// submit time so a config reload applies to the next request.
	// Nil or non-positive means 120 s.
	Timeout func() time.Duration
	// OnResolve is called once per item, outside the lock, when it
	// resolves by an answer or a timeout (e.g. to notify the user). It is
	// not called for items dropped because every hook gave up.
	OnResolve func(p Pending, r Result)
	// MaxMissed bounds the missed list; default 50.
	MaxMissed int
}

// DefaultTimeout is the approval timeout when none is configured.
const DefaultTimeout = 120 * time.Second

type entry struct {
	p      Pending
	done   chan struct{} // closed when res is set
	res    Result
	timer  *time.Timer
	closed bool
}

// Queue is the set of pending approvals. Safe for concurrent use.
type Queue struct {
	opts Options

	mu     sync.Mutex
	nextID uint64
	byID   map[uint64]*entry
	byKey  map[string]*entry
	missed []Missed
	subs   map[int]chan struct{}
	nextS  int
}

// New returns an empty queue.
func New(opts Options) *Queue {
	if opts.MaxMissed <= 0 {
		opts.MaxMissed = 50
	}
	return &Queue{
		opts:  opts,
		byID:  map[uint64]*entry{},
		byKey: map[string]*entry{},
		subs:  map[int]chan struct{}{},
	}
}

func (q *Queue) timeout() time.Duration {
	if q.opts.Timeout != nil {
		if d := q.opts.Timeout(); d > 0 {
			return d
		}
	}
	return DefaultTimeout
}

// Submit queues it (or joins an identical pending item) and blocks until
// a human answers, the item times out (deny, decider policy) or ctx is
// done (deny, decider policy; the item is removed unless others share it).
func (q *Queue) Submit(ctx context.Context, it Item) Result {
	start := time.Now()
	key := it.Key()

	q.mu.Lock()
	e, shared := q.byKey[key]
	if shared {
		e.p.Waiters++
	} else {
		q.nextID++
		d := q.timeout()
		if !it.Deadline.IsZero() && it.Deadline.Sub(start) < d {
			d = max(it.Deadline.Sub(start), 0)
		}
		e = &entry{
			p:    Pending{ID: q.nextID, Item: it, Since: start, Deadline: start.Add(d), Waiters: 1},
			done: make(chan struct{}),
		}
		id := e.p.ID
		e.timer = time.AfterFunc(d, func() { q.expire(id) })
		q.byID[id] = e
		q.byKey[key] = e
	}
	q.notifyLocked()
	q.mu.Unlock()

	select {
	case <-e.done:
		r := e.res
		r.Waited = time.Since(start)
		return r
	case <-ctx.Done():
	}

	// A context that ran out at the item's deadline is a timeout: deny
	// by policy and record it as missed, as the timer would have.
	if errors.Is(ctx.Err(), context.DeadlineExceeded) && !time.Now().Before(e.p.Deadline.Add(-time.Second)) {
		q.expire(e.p.ID)
		<-e.done
		r := e.res
		r.Waited = time.Since(start)
		return r
	}

	// The hook gave up. An answer may have raced in: honour it.
	q.mu.Lock()
	if e.closed {
		q.mu.Unlock()
		r := e.res
		r.Waited = time.Since(start)
		return r
	}
	e.p.Waiters--
	if e.p.Waiters <= 0 {
		q.removeLocked(e)
		e.closed = true
		e.res = Result{Decider: DeciderPolicy, Reason: "the request was withdrawn before anyone answered"}
		close(e.done)
	}
	q.notifyLocked()
	q.mu.Unlock()
	return Result{
		Decider: DeciderPolicy,
		Reason:  "denied: the hook stopped waiting before the approval was answered (" + ctx.Err().Error() + ")",
		Waited:  time.Since(start),
	}
}

// Answer resolves the pending item id. It reports whether this answer
// won; answering an unknown or already resolved item is a no-op.
func (q *Queue) Answer(id uint64, allow bool, reason string) bool {
	if reason == "" {
		if allow {
			reason = "allowed once by the user"
		} else {
			reason = "denied by the user"
		}
	}
	return q.resolve(id, Result{Allow: allow, Decider: DeciderUser, Reason: reason}, false)
}

// Deny resolves the pending item id as denied by policy: something other
// than a human decided (the dialog crashed or could not be shown). It
// reports whether this answer won.
func (q *Queue) Deny(id uint64, reason string) bool {
	return q.resolve(id, Result{Decider: DeciderPolicy, Reason: reason}, false)
}

// DenySession denies, as the user, every pending item of one host
// session (the pending window's "Deny all from this session"). It
// returns how many it denied; an empty session denies nothing.
func (q *Queue) DenySession(host, session, reason string) int {
	if session == "" {
		return 0
	}
	n := 0
	for _, p := range q.Pending() {
		if p.Item.Session == session && p.Item.Host == host && q.Answer(p.ID, false, reason) {
			n++
		}
	}
	return n
}

func (q *Queue) expire(id uint64) {
	q.resolve(id, Result{Decider: DeciderPolicy, TimedOut: true,
		Reason: "denied: nobody answered the approval in time; the user was away"}, true)
}

func (q *Queue) resolve(id uint64, r Result, timedOut bool) bool {
	q.mu.Lock()
	e, ok := q.byID[id]
	if !ok || e.closed {
		q.mu.Unlock()
		return false
	}
	q.removeLocked(e)
	e.closed = true
	e.res = r
	close(e.done)
	if timedOut {
		q.missed = append(q.missed, Missed{Item: e.p.Item, At: time.Now()})
		if n := len(q.missed) - q.opts.MaxMissed; n > 0 {
			q.missed = append([]Missed(nil), q.missed[n:]...)
		}
	}
	p := e.p
	q.notifyLocked()
	q.mu.Unlock()
	if q.opts.OnResolve != nil {
		q.opts.OnResolve(p, r)
	}
	return true
}

func (q *Queue) removeLocked(e *entry) {
	if e.timer != nil {
		e.timer.Stop()
	}
	delete(q.byID, e.p.ID)
	if q.byKey[e.p.Item.Key()] == e {
		delete(q.byKey, e.p.Item.Key())
	}
}

// Pending returns the waiting items, oldest first (the order they are shown in).
func (q *Queue) Pending() []Pending {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := make([]Pending, 0, len(q.byID))
	for _, e := range q.byID {
		out = append(out, e.p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Get returns one pending item by id.
func (q *Queue) Get(id uint64) (Pending, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	e, ok := q.byID[id]
	if !ok {
		return Pending{}, false
	}
	return e.p, true
}

// Len is the number of pending items.
func (q *Queue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.byID)
}

// Missed returns the approvals denied by timeout since the last TakeMissed.
func (q *Queue) Missed() []Missed {
	q.mu.Lock()
	defer q.mu.Unlock()
	return append([]Missed(nil), q.missed...)
}

// TakeMissed returns and clears the missed list (the user has seen it).
func (q *Queue) TakeMissed() []Missed {
	q.mu.Lock()
	defer q.mu.Unlock()
	m := q.missed
	q.missed = nil
	if len(m) > 0 {
		q.notifyLocked()
	}
	return m
}

// Subscribe returns a channel that receives a signal after any change
// (submit, answer, timeout, withdrawal, missed cleared). Signals coalesce:
// read Pending()/Missed() for the state. Call cancel to stop.
func (q *Queue) Subscribe() (<-chan struct{}, func()) {
	q.mu.Lock()
	defer q.mu.Unlock()
	ch := make(chan struct{}, 1)
	id := q.nextS
	q.nextS++
	q.subs[id] = ch
	return ch, func() {
		q.mu.Lock()
		delete(q.subs, id)
		q.mu.Unlock()
	}
}

func (q *Queue) notifyLocked() {
	for _, ch := range q.subs {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}
