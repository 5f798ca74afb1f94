//go:build !nogui

package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/ui/accept"
)

// configState is the watcher's report: the config in force and the
// weakenings of config.json that wait for the user. A new waiting change
// is announced and the accept window opens; the menu keeps an entry for
// it until it is answered.
func (t *controller) configState(st config.State) {
	t.mu.Lock()
	prev := t.held
	old := t.cfg
	t.held = st
	if t.cancelAsk != nil && st.DiskSum != t.askedSum {
		t.cancelAsk() // the open window shows what no longer waits
	}
	t.mu.Unlock()
	if !config.Same(st.InForce, old) {
		if w := config.Weakenings(old, st.InForce); len(w) > 0 && st.By != config.ByTray {
			// Accepted elsewhere (a terminal): say so, it is the user's to know.
			t.notify("agent-guard: config change accepted by "+st.By, changeList(w))
		}
		t.applyConfig(st.InForce)
	}
	if st.Pending() && st.DiskSum != prev.DiskSum {
		t.notify("agent-guard: config change waiting for you",
			changeList(st.Held)+"\nNot in force until you accept it in the tray or with 'agent-guard config accept'.")
		go t.askAccept()
	}
	t.refresh()
}

func changeList(cs []config.Change) string {
	var b strings.Builder
	for i, c := range cs {
		if i == 6 {
			fmt.Fprintf(&b, "… and %d more\n", len(cs)-i)
			break
		}
		b.WriteString("• " + c.Text + "\n")
	}
	return strings.TrimSpace(b.String())
}

// askAccept opens the accept window for what waits now and acts on its
// one answer: accept records exactly the reviewed file, deny rewrites the
// file to the config in force. No answer (window closed) leaves it
// waiting. When what waits changes while the window is open (accepted in
// a terminal, edited again), the window is closed and, if something still
// waits, opened again with the new list.
func (t *controller) askAccept() {
	t.mu.Lock()
	if t.asking || t.ask == nil {
		t.mu.Unlock()
		return
	}
	t.asking = true
	t.mu.Unlock()
	defer func() { t.mu.Lock(); t.asking, t.cancelAsk = false, nil; t.mu.Unlock() }()
	for {
		t.mu.Lock()
		st := t.held
		if !st.Pending() {
			t.mu.Unlock()
			return
		}
		ctx, cancel := context.WithCancel(context.Background())
		t.cancelAsk, t.askedSum = cancel, st.DiskSum
		t.mu.Unlock()
		answered := t.askOnce(ctx, st)
		cancel()
		t.mu.Lock()
		again := !answered && t.held.Pending() && t.held.DiskSum != st.DiskSum
		t.mu.Unlock()
		if !again {
			return
		}
	}
}

// askOnce shows one accept window; it reports whether the user answered.
func (t *controller) askOnce(ctx context.Context, st config.State) bool {
	req := accept.Request{ConfigPath: t.paths.Config}
	for _, c := range st.Held {
		req.Changes = append(req.Changes, c.Text)
	}
	line, err := t.ask(ctx, accept.Verb, req)
	if err != nil {
		t.notify("agent-guard: cannot show the config change", err.Error()+"\nIt still waits: run 'agent-guard config accept' in your terminal.")
		return false
	}
	var r accept.Reply
	if len(line) == 0 || json.Unmarshal(line, &r) != nil {
		if ctx.Err() == nil {
			fmt.Fprintln(os.Stderr, "agent-guard: the config change window closed without an answer; the change still waits")
		}
		return false
	}
	var c *config.Config
	switch r.Action {
	case accept.ActionAccept:
		c, err = config.Accept(t.paths.Config, st.DiskSum, config.ByTray)
	case accept.ActionDeny:
		c, err = config.Reject(t.paths.Config)
	default:
		return false
	}
	if err != nil {
		t.notify("agent-guard: config change not "+r.Action+"ed", err.Error())
		return true
	}
	fmt.Fprintf(os.Stderr, "agent-guard: %d config change(s) %s in the tray\n", len(st.Held), map[string]string{accept.ActionAccept: "accepted", accept.ActionDeny: "denied (config.json put back)"}[r.Action])
	if next, err := config.Resolve(t.paths.Config); err == nil {
		t.mu.Lock()
		t.held = next
		t.mu.Unlock()
		c = next.InForce
	}
	t.applyConfig(c)
	return true
}
