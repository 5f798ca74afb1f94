//go:build !nogui

package ui

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/approval"
	"github.com/agent-guard/agent-guard/app/audit"
	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/install"
	"github.com/agent-guard/agent-guard/app/ui/model"
	"github.com/agent-guard/agent-guard/app/ui/proto"
)

type fakeTray struct {
	mu       sync.Mutex
	items    []model.Item
	icon     string
	applied  *config.Config
	notes    []string
	windows  []string
	payloads []any
	opened   []string
}

func (f *fakeTray) item(t *testing.T, id string) model.Item {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	var walk func([]model.Item) (model.Item, bool)
	walk = func(items []model.Item) (model.Item, bool) {
		for _, it := range items {
			if it.ID == id {
				return it, true
			}
			if c, ok := walk(it.Children); ok {
				return c, true
			}
		}
		return model.Item{}, false
	}
	it, ok := walk(f.items)
	if !ok {
		t.Fatalf("no menu item %q", id)
	}
	return it
}

func newController(t *testing.T) (*controller, *fakeTray) {
	t.Helper()
	dir := t.TempDir()
	paths := config.Paths{Config: filepath.Join(dir, "config.json"), Audit: filepath.Join(dir, "audit.jsonl"), CacheDir: filepath.Join(dir, "cache")}
	cfg, err := config.Load(paths.Config)
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeTray{}
	c := &controller{
		paths: paths, cfg: cfg, update: config.Update,
		setConfig: func(c *config.Config) { f.mu.Lock(); f.applied = c; f.mu.Unlock() },
		view: func(items []model.Item, icon, tip string) {
			f.mu.Lock()
			f.items, f.icon = items, icon
			f.mu.Unlock()
		},
		notify: func(title, body string) { f.mu.Lock(); f.notes = append(f.notes, title+": "+body); f.mu.Unlock() },
		open:   func(p string) error { f.mu.Lock(); f.opened = append(f.opened, p); f.mu.Unlock(); return nil },
		window: func(verb string, payload any) error {
			f.mu.Lock()
			f.windows = append(f.windows, verb)
			f.payloads = append(f.payloads, payload)
			f.mu.Unlock()
			return nil
		},
		raise: func() {},
		quit:  func() {},
	}
	c.q = approval.New(approval.Options{OnResolve: func(p approval.Pending, r approval.Result) { c.resolved(p, r, r.TimedOut) }})
	c.refresh()
	return c, f
}

func TestMenuTogglesSaveAndApply(t *testing.T) {
	tests := []struct {
		id    string
		check func(c *config.Config) bool
		item  string
		want  bool
	}{
		{model.ActEnabled, func(c *config.Config) bool { return !c.Enabled }, model.ActEnabled, false},
		{model.ActRedLines, func(c *config.Config) bool { return !c.RedLinesWhenDisabled }, model.ActRedLines, false},
		{model.ActModeAgent, func(c *config.Config) bool { return c.Approval.Mode == "agent" }, model.ActModeAgent, true},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			c, f := newController(t)
			c.click(tc.id)
			onDisk, err := config.Load(c.paths.Config)
			if err != nil {
				t.Fatal(err)
			}
			if !tc.check(onDisk) {
				t.Fatalf("file not changed: %+v", onDisk)
			}
			f.mu.Lock()
			applied := f.applied
			f.mu.Unlock()
			if applied == nil || !tc.check(applied) {
				t.Fatal("change not applied to the guard at once")
			}
			if got := f.item(t, tc.item); got.Checked != tc.want {
				t.Fatalf("menu item %s checked=%v, want %v", tc.item, got.Checked, tc.want)
			}
		})
	}
}

func TestDisabledShowsOffIcon(t *testing.T) {
	c, f := newController(t)
	c.click(model.ActEnabled)
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.icon != model.IconOff {
		t.Fatalf("icon %s", f.icon)
	}
}

func TestPendingFromMenu(t *testing.T) {
	c, f := newController(t)
	res := make(chan approval.Result, 1)
	go func() { res <- c.q.Submit(context.Background(), approval.Item{Tool: "Bash", Input: "git clean -fdx"}) }()
	waitUntil(t, func() bool { return c.q.Len() == 1 })
	c.refresh()
	id := c.q.Pending()[0].ID
	if p := f.item(t, model.ActPending); p.Label != "Pending approvals (1)" || p.Disabled {
		t.Fatalf("pending item %+v", p)
	}
	f.mu.Lock()
	icon := f.icon
	f.mu.Unlock()
	if icon != model.IconPending {
		t.Fatalf("icon %s with a pending approval", icon)
	}
	c.click(model.PendingAllowID(id))
	if r := <-res; !r.Allow || r.Decider != approval.DeciderUser {
		t.Fatalf("result %+v", r)
	}
	c.click(model.PendingDenyID(id)) // late second answer: no-op, no panic
}

func TestConfigErrorKeepsLastGoodAndSaysSo(t *testing.T) {
	c, f := newController(t)
	good := c.config()
	c.configError(errors.New("config.json: confirm_risk 3 is above block_risk 2.5"))
	c.configError(errors.New("config.json: confirm_risk 3 is above block_risk 2.5")) // same error: one notice
	if c.config() != good {
		t.Fatal("the last good config was replaced")
	}
	if it := f.item(t, model.ActConfigError); !strings.Contains(it.Label, "confirm_risk 3") {
		t.Fatalf("status line %q does not name the error", it.Label)
	}
	f.mu.Lock()
	if len(f.notes) != 1 || !strings.Contains(f.notes[0], "last good config") {
		t.Fatalf("notes %q", f.notes)
	}
	f.mu.Unlock()
	c.applyConfig(config.Default())
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.notes) != 2 || !strings.Contains(f.notes[1], "fixed") {
		t.Fatalf("notes %q", f.notes)
	}
}

func TestDenyNotifications(t *testing.T) {
	c, f := newController(t)
	now := time.Now()
	c.decided(audit.Entry{TS: now, Tool: "Bash", Input: "git reset --hard", Decision: "deny", Decider: audit.DeciderUser, Level: "confirm"})
	c.decided(audit.Entry{TS: now, Tool: "Bash", Input: "git push --force", Decision: "deny", Decider: audit.DeciderAuto, Level: "block", Reason: "red line"})
	c.decided(audit.Entry{TS: now, Tool: "Bash", Input: "git push --force", Decision: "deny", Decider: audit.DeciderAuto, Level: "block"})
	c.decided(audit.Entry{TS: now, Tool: "Bash", Input: "ls", Decision: "allow", Decider: audit.DeciderAuto, Level: "allow"})
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.notes) != 1 || !strings.Contains(f.notes[0], "blocked") || !strings.Contains(f.notes[0], "git push --force") {
		t.Fatalf("notes %q: want one block notice (user's own deny silent, duplicate folded)", f.notes)
	}
	if it := f.items[1]; !strings.Contains(it.Label, "Allowed: ls") {
		t.Fatalf("last-decision line %q", it.Label)
	}
}

func TestTimeoutIsAnnouncedAndListed(t *testing.T) {
	c, f := newController(t)
	it := approval.Item{Tool: "Bash", Input: "git reset --hard HEAD~1", Deadline: time.Now().Add(20 * time.Millisecond)}
	if r := c.q.Submit(context.Background(), it); r.Allow || !r.TimedOut {
		t.Fatalf("result %+v", r)
	}
	waitUntil(t, func() bool { f.mu.Lock(); defer f.mu.Unlock(); return len(f.notes) == 1 })
	c.refresh()
	if m := f.item(t, model.ActMissed); !strings.Contains(m.Label, "(1)") {
		t.Fatalf("missed item %+v", m)
	}
	c.click(model.ActMissed)
	f.mu.Lock()
	if len(f.windows) != 1 || f.windows[0] != proto.VerbRecent {
		t.Fatalf("windows %v", f.windows)
	}
	req := f.payloads[0].(recentReq)
	f.mu.Unlock()
	if len(req.Entries) != 1 || req.Entries[0].Decider != audit.DeciderPolicy || req.Entries[0].Input != it.Input {
		t.Fatalf("missed window entries %+v", req.Entries)
	}
	if len(c.q.Missed()) != 0 {
		t.Fatal("missed list not cleared once shown")
	}
	// Same call denied again by the server's audit line: folded into the notice above.
	c.decided(audit.Entry{Tool: "Bash", Input: it.Input, Decision: "deny", Decider: audit.DeciderPolicy})
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.notes) != 1 {
		t.Fatalf("notes %q", f.notes)
	}
}

func TestOpenAndWindows(t *testing.T) {
	c, f := newController(t)
	c.click(model.ActOpenConfig)
	c.click(model.ActOpenAudit)
	c.click(model.ActSettings)
	c.click(model.ActRecent)
	c.click(model.ActRules)
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.opened) != 2 || f.opened[0] != c.paths.Config || f.opened[1] != c.paths.Audit {
		t.Fatalf("opened %v", f.opened)
	}
	if strings.Join(f.windows, ",") != proto.VerbSettings+","+proto.VerbRecent+","+proto.VerbRules {
		t.Fatalf("windows %v", f.windows)
	}
	if s := f.payloads[0].(settingsReq); s.ConfigPath != c.paths.Config || s.KeyStatus == "" {
		t.Fatalf("settings payload %+v", s)
	}
	if r := f.payloads[2].(rulesReq); r.ConfigPath != c.paths.Config {
		t.Fatalf("rules payload %+v", r)
	}
}

func TestKeyStatusMasks(t *testing.T) {
	t.Setenv("TYPESAFE_API_KEY", "tsk_live_0123456789abcdef")
	s := keyStatus()
	if strings.Contains(s, "0123456789") || !strings.Contains(s, "configured") {
		t.Fatalf("key status %q leaks or misses the key", s)
	}
	t.Setenv("TYPESAFE_API_KEY", "")
	t.Setenv("HOME", t.TempDir())
	if s := keyStatus(); !strings.Contains(s, "not configured") {
		t.Fatalf("key status %q", s)
	}
}

// A hook entry removed behind the tray's back turns the icon to
// unguarded, says what changed, and Restore puts the entry back.
func TestUnguardedAndRestore(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	hook := filepath.Join(home, "agent-guard-hook")
	if err := os.WriteFile(hook, []byte("#!/bin/sh\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	claude := install.ClaudePath(home)
	if _, err := install.Install(install.Claude, claude, install.Hook{Path: hook, Timing: install.TimingFor(120)}, install.Options{}); err != nil {
		t.Fatal(err)
	}
	c, f := newController(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c.watchDepends(ctx, "")
	icon := func() string { f.mu.Lock(); defer f.mu.Unlock(); return f.icon }
	if got := icon(); got != model.IconOn {
		t.Fatalf("icon %q before tampering", got)
	}
	if _, err := install.Uninstall(install.Claude, claude, install.Options{}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		f.mu.Lock()
		icon := f.icon
		f.mu.Unlock()
		if icon == model.IconUnguarded {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the icon did not turn unguarded")
		}
		time.Sleep(20 * time.Millisecond)
	}
	f.mu.Lock()
	notes := strings.Join(f.notes, "\n")
	f.mu.Unlock()
	if !strings.Contains(notes, "removed from Claude Code") {
		t.Fatalf("notes: %s", notes)
	}
	if b, err := os.ReadFile(filepath.Join(filepath.Dir(c.paths.Config), UnguardedFile)); err != nil || !strings.Contains(string(b), "removed") {
		t.Fatalf("unguarded file for doctor: %s %v", b, err)
	}
	f.item(t, model.ActRestore)
	c.click(model.ActRestore)
	data, _ := os.ReadFile(claude)
	if in, _ := install.Inspect(install.Claude, data); in == nil {
		t.Fatal("Restore did not put the entry back")
	}
	if icon() == model.IconUnguarded {
		p, _ := c.watch.problems()
		t.Fatalf("still unguarded after Restore: %v", p)
	}
}
