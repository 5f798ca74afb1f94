//go:build !nogui

package ui

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/agent-guard/agent-guard/app/approval"
	"github.com/agent-guard/agent-guard/app/audit"
	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/ui/model"
)

// controller is the tray's state and the handlers of its menu. It has no
// UI of its own: view (systray in the app, a fake in tests) shows the
// model, children show windows.
type controller struct {
	paths       config.Paths
	q           *approval.Queue
	setConfig   func(*config.Config) // the guard's hot swap
	update      func(path string, edit func(*config.Config) error) (*config.Config, error)
	view        func(items []model.Item, icon, tooltip string)
	notify      func(title, body string)
	open        func(path string) error
	window      func(verb string, payload any) error // opens a child window
	raise       func()                               // brings the approval dialog forward
	openPending func() error                         // opens the queue window (optional)
	quit        func()
	autostart   *autostartHooks
	snapshot    func(model.State) // optional: SnapshotEnv
	// ask runs a window child and returns its one reply line (the accept
	// window); nil in tests that do not need it.
	ask func(ctx context.Context, verb string, payload any) ([]byte, error)
	// watch reports what the guard depends on (hook entries, binaries);
	// nil when nothing is watched.
	watch *dependWatch

	mu        sync.Mutex
	cfg       *config.Config
	cfgErr    string
	last      *model.Decision
	notified  map[string]time.Time // call -> when its deny was announced
	held      config.State         // the last config state: what waits for the user
	asking    bool                 // the accept window is open
	cancelAsk func()               // closes it
	askedSum  string               // the DiskSum it shows
}

// announce notifies about a denied call once: a timeout is seen both by
// the queue and by the server's audit line, one notice is enough.
func (t *controller) announce(tool, input, title, body string) {
	key := tool + "\x00" + input
	now := time.Now()
	t.mu.Lock()
	if t.notified == nil {
		t.notified = map[string]time.Time{}
	}
	for k, at := range t.notified {
		if now.Sub(at) > 10*time.Second {
			delete(t.notified, k)
		}
	}
	_, dup := t.notified[key]
	t.notified[key] = now
	t.mu.Unlock()
	if !dup {
		t.notify(title, body)
	}
}

// autostartHooks is app/autostart, behind funcs so tests need no OS state.
type autostartHooks struct {
	enabled func() bool
	enable  func() error
	disable func() error
}

func (t *controller) state() model.State {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := model.State{
		Enabled: t.cfg.Enabled, RedLinesWhenDisabled: t.cfg.RedLinesWhenDisabled,
		ApprovalMode: t.cfg.Approval.Mode, ConfigError: t.cfgErr, Last: t.last,
		Missed: len(t.q.Missed()),
	}
	for _, c := range t.held.Held {
		s.ConfigHeld = append(s.ConfigHeld, c.Text)
	}
	if t.watch != nil {
		s.Unguarded, s.Restorable = t.watch.problems()
	}
	for _, p := range t.q.Pending() {
		s.Pending = append(s.Pending, model.PendingItem{ID: p.ID, Tool: p.Item.Tool, Input: p.Item.Input})
	}
	if t.autostart != nil {
		on := t.autostart.enabled()
		s.Autostart = &on
	}
	return s
}

// refresh pushes the current state to the view.
func (t *controller) refresh() {
	s := t.state()
	t.view(model.Menu(s), model.Icon(s), model.Tooltip(s))
	if t.snapshot != nil {
		t.snapshot(s)
	}
}

// config returns the config in force.
func (t *controller) config() *config.Config {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.cfg
}

// applyConfig is the watcher's onChange and the result of tray edits.
func (t *controller) applyConfig(c *config.Config) {
	t.mu.Lock()
	t.cfg = c
	hadErr := t.cfgErr != ""
	t.cfgErr = ""
	t.mu.Unlock()
	t.setConfig(c)
	if hadErr {
		t.notify("agent-guard: config fixed", "The config file is valid again and in force.")
	}
	t.refresh()
}

// configError is the watcher's onError: keep the last good config, say so.
func (t *controller) configError(err error) {
	t.mu.Lock()
	same := t.cfgErr == err.Error()
	t.cfgErr = err.Error()
	t.mu.Unlock()
	if !same {
		t.notify("agent-guard: config not applied", err.Error()+"\nThe last good config stays in force until the file is fixed.")
	}
	t.refresh()
}

// edit changes the config file (locked read-modify-write) and applies the
// result at once, without waiting for the watcher.
func (t *controller) edit(what string, fn func(*config.Config) error) {
	c, err := t.update(t.paths.Config, fn)
	if err != nil {
		t.notify("agent-guard: "+what+" not saved", err.Error())
		t.refresh()
		return
	}
	t.applyConfig(c)
}

// decided is the server's OnDecision: remember the last decision and
// never let a deny go unnoticed.
func (t *controller) decided(e audit.Entry) {
	t.mu.Lock()
	t.last = &model.Decision{TS: e.TS, Level: e.Level, Decision: e.Decision, Tool: e.Tool, Input: e.Input, Decider: e.Decider}
	t.mu.Unlock()
	// A human's own deny needs no notice; the policy's and the judge's do.
	if e.Decision == "deny" && e.Decider != audit.DeciderUser {
		title := "agent-guard blocked a call"
		if e.Decider == audit.DeciderPolicy {
			title = "agent-guard denied a call (no answer)"
		}
		t.announce(e.Tool, e.Input, title, fmt.Sprintf("%s\n%s", model.Short(e.Tool, e.Input, 120), e.Reason))
	}
	t.refresh()
}

// resolved is the queue's OnResolve: a timeout is a missed approval and
// is announced at once (the menu keeps the list for later).
func (t *controller) resolved(p approval.Pending, r approval.Result, timedOut bool) {
	if timedOut {
		t.announce(p.Item.Tool, p.Item.Input, "agent-guard denied a call: no answer in time",
			model.Short(p.Item.Tool, p.Item.Input, 120)+"\nOpen the tray menu to see what was denied while you were away.")
	}
	t.refresh()
}

// click handles a menu item.
func (t *controller) click(id string) {
	switch id {
	case model.ActEnabled:
		t.edit("Enabled", func(c *config.Config) error { c.Enabled = !c.Enabled; return nil })
	case model.ActRedLines:
		t.edit("red-line switch", func(c *config.Config) error { c.RedLinesWhenDisabled = !c.RedLinesWhenDisabled; return nil })
	case model.ActModeDialog:
		t.edit("full-access handling", func(c *config.Config) error { c.Approval.Mode = "dialog"; return nil })
	case model.ActModeAgent:
		t.edit("full-access handling", func(c *config.Config) error { c.Approval.Mode = "agent"; return nil })
	case model.ActSettings:
		t.openWindow(settingsPayload(t.paths.Config))
	case model.ActRules:
		t.openWindow(rulesPayload(t.paths.Config))
	case model.ActPendingShow:
		t.raise()
		if t.openPending != nil && t.q.Len() > 1 {
			if err := t.openPending(); err != nil {
				t.notify("agent-guard: cannot open the pending list", err.Error())
			}
		}
	case model.ActMissed:
		missed := t.q.TakeMissed()
		t.openWindow(missedPayload(missed))
		t.refresh()
	case model.ActRecent:
		t.openWindow(recentPayload(t.paths.Audit))
	case model.ActOpenConfig:
		t.openPath(t.paths.Config)
	case model.ActOpenAudit:
		t.openPath(t.paths.Audit)
	case model.ActAutostart:
		t.toggleAutostart()
	case model.ActQuit:
		t.quit()
	case model.ActConfigHeld:
		t.askAccept()
	case model.ActRestore:
		t.restore()
	default:
		if id, allow, ok := model.ParsePendingID(id); ok {
			reason := "denied from the tray menu"
			if allow {
				reason = "allowed once from the tray menu"
			}
			t.q.Answer(id, allow, reason)
		}
	}
}

func (t *controller) openWindow(verb string, payload any) {
	if err := t.window(verb, payload); err != nil {
		t.notify("agent-guard: cannot open the window", err.Error())
	}
}

func (t *controller) openPath(path string) {
	if err := t.open(path); err != nil {
		t.notify("agent-guard: cannot open "+path, err.Error())
	}
}

func (t *controller) toggleAutostart() {
	if t.autostart == nil {
		return
	}
	var err error
	if t.autostart.enabled() {
		err = t.autostart.disable()
	} else {
		err = t.autostart.enable()
	}
	if err != nil {
		t.notify("agent-guard: start at login not changed", err.Error())
	}
	t.refresh()
}

// missedNotice summarizes approvals denied while the user was away.
func missedNotice(ms []approval.Missed) string {
	var b strings.Builder
	for i, m := range ms {
		if i == 5 {
			fmt.Fprintf(&b, "… and %d more", len(ms)-i)
			break
		}
		fmt.Fprintf(&b, "%s  %s\n", m.At.Local().Format("15:04"), model.Short(m.Item.Tool, m.Item.Input, 80))
	}
	return b.String()
}
