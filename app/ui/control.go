//go:build !nogui

package ui

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"time"

	"github.com/agent-guard/agent-guard/app/pipe"
)

// The control socket lets `agent-guard pending|rules|recent|settings`,
// typed in a terminal, ask the running tray to open one of its own
// windows. It is a second socket beside the hook pipe (same folder, same
// owner checks), so the hook pipe keeps carrying only hook requests. A
// request can only name a window from windowVerbs; nothing sent here can
// answer an approval: the windows it opens are the tray's children and
// act only on a person's clicks.

// windowVerbs are the windows a terminal may ask for.
var windowVerbs = map[string]bool{"pending": true, "rules": true, "recent": true, "settings": true, "status": true}

// WindowVerb opens a window from a terminal: `agent-guard window rules`.
// Three windows also have a verb of their own (shortWindowVerbs); `rules`
// does not, because `agent-guard rules` lists the rule catalog (app/cli).
const WindowVerb = "window"

// WindowUsage is the window verb's help.
const WindowUsage = "usage: agent-guard window settings|rules|recent|pending|status\n\n" +
	"Opens one of the tray's windows (the running tray opens it; without a tray,\n" +
	"settings, rules and recent open on their own). Also: agent-guard settings,\n" +
	"agent-guard recent, agent-guard pending."

var shortWindowVerbs = map[string]bool{"pending": true, "recent": true, "settings": true}

type controlReq struct {
	Open string `json:"open"`
}

type controlReply struct {
	OK    bool   `json:"ok"`
	Error string `json:"error,omitempty"`
}

// serveControl answers control requests until ctx ends.
func serveControl(ctx context.Context, name string, open func(verb string) error) error {
	ln, err := pipe.Listen(name)
	if err != nil {
		return err
	}
	go func() { <-ctx.Done(); ln.Close() }()
	for {
		c, err := ln.Accept()
		if err != nil {
			if ctx.Err() != nil {
				return nil
			}
			if errors.Is(err, net.ErrClosed) {
				return err
			}
			continue // a rejected peer
		}
		go handleControl(c, open)
	}
}

func handleControl(c net.Conn, open func(string) error) {
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(3 * time.Second))
	s := bufio.NewScanner(c)
	s.Buffer(make([]byte, 0, 256), 1024)
	rep := controlReply{}
	var req controlReq
	switch {
	case !s.Scan():
		return
	case json.Unmarshal(s.Bytes(), &req) != nil:
		rep.Error = "not a control request"
	case !windowVerbs[req.Open]:
		rep.Error = fmt.Sprintf("unknown window %q", req.Open)
	default:
		if err := open(req.Open); err != nil {
			rep.Error = err.Error()
		} else {
			rep.OK = true
		}
	}
	b, _ := json.Marshal(rep)
	_, _ = c.Write(append(b, '\n'))
}

// askTray asks the running tray to open a window. ok is false when no
// tray answers (then the caller opens the window itself, or says so).
func askTray(verb string) (ok bool, err error) {
	name, err := pipe.Name()
	if err != nil {
		return false, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	c, err := pipe.Dial(ctx, pipe.ControlName(name))
	if err != nil {
		return false, nil
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(3 * time.Second))
	b, _ := json.Marshal(controlReq{Open: verb})
	if _, err := c.Write(append(b, '\n')); err != nil {
		return false, nil
	}
	s := bufio.NewScanner(c)
	if !s.Scan() {
		return false, nil
	}
	var rep controlReply
	if json.Unmarshal(s.Bytes(), &rep) != nil {
		return true, errors.New("the tray sent a broken reply")
	}
	if !rep.OK {
		return true, errors.New(rep.Error)
	}
	return true, nil
}
