//go:build !nogui

package ui

import (
	"encoding/json"
	"sync"

	"github.com/agent-guard/agent-guard/app/approval"
	"github.com/agent-guard/agent-guard/app/ui/model"
	"github.com/agent-guard/agent-guard/app/ui/proto"
)

// pendingWindow runs the queue window (a child of the tray) while it is
// open: it sends the list on every queue change and carries out the
// window's requests after checking them against the queue. The window
// can deny and bring a dialog forward; it cannot allow (allowing needs
// the dialog, which shows the whole call).
type pendingWindow struct {
	start starter
	q     *approval.Queue
	raise func()

	mu   sync.Mutex
	open bool
}

func pendingRows(q *approval.Queue) proto.PendingList {
	l := proto.PendingList{Items: []proto.PendingRow{}}
	for _, p := range q.Pending() {
		it := p.Item
		name := it.HostName
		if name == "" {
			name = approval.HostName(it.Host)
		}
		l.Items = append(l.Items, proto.PendingRow{ID: p.ID, Host: it.Host, HostName: name, Session: it.Session,
			Workspace: it.Cwd, Tool: it.Tool, Call: model.Short(it.Tool, it.Input, 160), Since: p.Since})
	}
	return l
}

// show opens the window, or does nothing when it is open already.
func (pw *pendingWindow) show() error {
	pw.mu.Lock()
	if pw.open {
		pw.mu.Unlock()
		return nil
	}
	pw.open = true
	pw.mu.Unlock()
	c, err := pw.start(proto.VerbPending)
	if err != nil {
		pw.mu.Lock()
		pw.open = false
		pw.mu.Unlock()
		return err
	}
	sub, stop := pw.q.Subscribe()
	done := make(chan struct{})
	go func() {
		// Feed the list until the window goes away.
		defer stop()
		if proto.Write(c.stdin, pendingRows(pw.q)) != nil {
			return
		}
		for {
			select {
			case <-done:
				return
			case <-sub:
				if proto.Write(c.stdin, pendingRows(pw.q)) != nil {
					return
				}
			}
		}
	}()
	go func() {
		s := proto.NewScanner(c.stdout)
		for s.Scan() {
			var a proto.PendingAction
			if json.Unmarshal(s.Bytes(), &a) == nil {
				pw.act(a)
			}
		}
		close(done)
		c.stdin.Close()
		_ = c.wait()
		pw.mu.Lock()
		pw.open = false
		pw.mu.Unlock()
	}()
	return nil
}

// act carries out one request of the window, for items still pending.
func (pw *pendingWindow) act(a proto.PendingAction) {
	p, ok := pw.q.Get(a.ID)
	if !ok {
		return
	}
	switch a.Action {
	case proto.PendingShow:
		if pw.raise != nil {
			pw.raise()
		}
	case proto.PendingDeny:
		pw.q.Answer(a.ID, false, "denied from the agent-guard pending list")
	case proto.PendingDenySession:
		// The session named by the item itself, not by the request.
		pw.q.DenySession(p.Item.Host, p.Item.Session, "denied in the agent-guard pending list with every call of this session")
	}
}
