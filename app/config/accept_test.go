package config

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func resolved(t *testing.T, path string) State {
	t.Helper()
	st, err := Resolve(path)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func writeCfg(t *testing.T, path string, edit func(*Config)) {
	t.Helper()
	c := Default()
	edit(c)
	data, _ := c.Marshal()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// First install: no file, no record, nothing to accept.
func TestResolveFirstRun(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	st := resolved(t, path)
	if st.Pending() || !Same(st.InForce, Default()) {
		t.Fatalf("first run: %+v", st)
	}
	if _, err := os.Stat(AcceptedPath(path)); err != nil {
		t.Fatalf("no record after the first run: %v", err)
	}
	if st.By != ByFirstRun {
		t.Errorf("by = %q", st.By)
	}
}

// The route: a disk edit turns the guard off; it waits until
// accepted, and accepting applies exactly the file that was reviewed.
func TestDiskWeakeningWaitsForAccept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	resolved(t, path)
	writeCfg(t, path, func(c *Config) { c.Enabled = false; c.RedLinesWhenDisabled = false })
	st := resolved(t, path)
	if !st.InForce.Enabled || !st.InForce.RedLinesWhenDisabled {
		t.Fatal("a disk edit switched the guard off without acceptance")
	}
	if len(st.Held) != 2 || st.Held[0].Key != "enabled" {
		t.Fatalf("held = %+v", st.Held)
	}
	// A restart (a new reader) still holds it: nothing was accepted.
	if c, _ := Load(path); !c.Enabled {
		t.Fatal("Load after the edit has the guard off")
	}
	// Accepting a file other than the reviewed one does nothing.
	if _, err := Accept(path, strings.Repeat("0", 64), ByTerminal); err == nil || !strings.Contains(err.Error(), "changed after you reviewed") {
		t.Fatalf("Accept with a stale sum = %v", err)
	}
	if c, _ := Load(path); !c.Enabled {
		t.Fatal("a refused accept applied the change")
	}
	if _, err := Accept(path, st.DiskSum, ByTerminal); err != nil {
		t.Fatal(err)
	}
	after := resolved(t, path)
	if after.InForce.Enabled || after.Pending() || after.By != ByTerminal {
		t.Fatalf("after accept: %+v", after)
	}
}

func TestRejectRestoresTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	resolved(t, path)
	writeCfg(t, path, func(c *Config) {
		c.Fastpath.Allowlist = []string{"rm *"}
		c.Fastpath.Denylist = []string{"make deploy"}
	})
	c, err := Reject(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Fastpath.Allowlist) != 0 || len(c.Fastpath.Denylist) != 1 {
		t.Fatalf("reject kept the wrong parts: %+v", c.Fastpath)
	}
	if st := resolved(t, path); st.Pending() {
		t.Fatalf("still pending after reject: %+v", st.Held)
	}
	data, _ := os.ReadFile(path)
	if strings.Contains(string(data), "rm *") {
		t.Error("config.json still holds the rejected allowlist entry")
	}
}

// A config edited while no guard ran, or a record that was deleted: the
// baseline is the defaults, so a weakening still waits.
func TestNoRecordComparesWithDefaults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	writeCfg(t, path, func(c *Config) { c.Approval.Mode = "agent"; c.BlockRisk = 2 })
	st := resolved(t, path)
	if st.InForce.Approval.Mode != "dialog" || st.InForce.BlockRisk != 2 || len(st.Held) != 1 {
		t.Fatalf("no record: %+v held %+v", st.InForce, st.Held)
	}
	if _, err := Accept(path, st.DiskSum, ByTerminal); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(AcceptedPath(path)); err != nil {
		t.Fatal(err)
	}
	if st := resolved(t, path); st.InForce.Approval.Mode != "dialog" || !st.Pending() {
		t.Fatalf("a deleted record let the weakening through: %+v", st.InForce)
	}
}

// A strengthening is recorded at once, so undoing it later is held.
func TestStrengtheningIsRecorded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	resolved(t, path)
	writeCfg(t, path, func(c *Config) { c.Fastpath.Denylist = []string{"make deploy"} })
	if st := resolved(t, path); len(st.InForce.Fastpath.Denylist) != 1 || st.Pending() {
		t.Fatalf("strengthening: %+v", st)
	}
	writeCfg(t, path, func(c *Config) {})
	st := resolved(t, path)
	if len(st.InForce.Fastpath.Denylist) != 1 || len(st.Held) != 1 || !strings.Contains(st.Held[0].Text, `removes "make deploy"`) {
		t.Fatalf("removing the denylist entry again: %+v held %+v", st.InForce.Fastpath, st.Held)
	}
}

// The tray's own edit applies at once and starts from the config in
// force, never from a waiting weakening.
func TestUpdateWhileHeld(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	resolved(t, path)
	writeCfg(t, path, func(c *Config) { c.Enabled = false })
	c, err := Update(path, func(c *Config) error { c.Fastpath.Allowlist = []string{"make test"}; return nil })
	if err != nil {
		t.Fatal(err)
	}
	if !c.Enabled || len(c.Fastpath.Allowlist) != 1 {
		t.Fatalf("Update result %+v", c)
	}
	st := resolved(t, path)
	if st.Pending() || !st.InForce.Enabled || len(st.InForce.Fastpath.Allowlist) != 1 || st.By != ByTray {
		t.Fatalf("after Update: %+v", st)
	}
}

// A running guard learns of an accept made elsewhere (a terminal).
func TestWatchStateSeesAccept(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	resolved(t, path)
	states := make(chan State, 16)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ready := make(chan struct{})
	go watchState(ctx, path, func(s State) { states <- s }, func(error) {}, nil, ready)
	<-ready
	next := func(cond func(State) bool) State {
		t.Helper()
		deadline := time.After(wait)
		for {
			select {
			case s := <-states:
				if cond(s) {
					return s
				}
			case <-deadline:
				t.Fatal("state not reported")
			}
		}
	}
	writeCfg(t, path, func(c *Config) { c.Enabled = false })
	held := next(func(s State) bool { return s.Pending() })
	if !held.InForce.Enabled {
		t.Fatal("held change in force")
	}
	if _, err := Accept(path, held.DiskSum, ByTerminal); err != nil {
		t.Fatal(err)
	}
	next(func(s State) bool { return !s.Pending() && !s.InForce.Enabled })
}
