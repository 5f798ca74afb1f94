package config

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// watched runs watch on a fresh config file and collects what it reports.
type watched struct {
	path    string
	changes chan *Config
	errs    chan error
}

func startWatch(t *testing.T) *watched {
	t.Helper()
	dir := t.TempDir()
	w := &watched{path: filepath.Join(dir, "config.json"), changes: make(chan *Config, 16), errs: make(chan error, 16)}
	if err := Save(w.path, Default()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- watch(ctx, w.path, func(c *Config) { w.changes <- c }, func(err error) { w.errs <- err }, ready)
	}()
	select {
	case <-ready:
	case err := <-done:
		t.Fatalf("watch did not start: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("watch returned %v after cancel", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("watch did not return after cancel")
		}
	})
	return w
}

// Generous: CI machines are slow; the product promise is 2 s.
const wait = 10 * time.Second

// nextChange waits for a change. Errors on the way are logged, not fatal:
// on a loaded machine the watcher may read an in-place write half done
// (truncated, not yet written); what matters is that the edit arrives.
func (w *watched) nextChange(t *testing.T) *Config {
	t.Helper()
	deadline := time.After(wait)
	for {
		select {
		case c := <-w.changes:
			return c
		case err := <-w.errs:
			t.Logf("error before the change: %v", err)
		case <-deadline:
			t.Fatal("no change reported")
			return nil
		}
	}
}

func (w *watched) nextError(t *testing.T) error {
	t.Helper()
	select {
	case c := <-w.changes:
		t.Fatalf("got change %+v, want an error", c)
	case err := <-w.errs:
		return err
	case <-time.After(wait):
		t.Fatal("no error reported")
	}
	return nil
}

func edited(t *testing.T, edit func(*Config)) []byte {
	t.Helper()
	c := Default()
	edit(c)
	data, err := c.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestWatchValidEditArrives(t *testing.T) {
	w := startWatch(t)
	start := time.Now()
	if err := os.WriteFile(w.path, edited(t, func(c *Config) { c.BlockRisk = 2.2; c.ConfirmRisk = 1.0 }), 0o600); err != nil {
		t.Fatal(err)
	}
	c := w.nextChange(t)
	if c.BlockRisk != 2.2 || c.ConfirmRisk != 1.0 {
		t.Errorf("change = block_risk %v confirm_risk %v, want 2.2/1.0", c.BlockRisk, c.ConfirmRisk)
	}
	t.Logf("edit seen after %v", time.Since(start))
}

func TestWatchGarbageReportsAndKeepsGoing(t *testing.T) {
	w := startWatch(t)
	// Atomic writes, so each error is about exactly this content.
	WriteFileAtomic(w.path, []byte(`{"confirm_risk": 2.8}`))
	err := w.nextError(t)
	if !strings.Contains(err.Error(), w.path) || !strings.Contains(err.Error(), "confirm_risk 2.8 is above block_risk 2.5") {
		t.Errorf("error = %q; want the file and the problem", err)
	}
	WriteFileAtomic(w.path, []byte("{not json"))
	if err := w.nextError(t); !strings.Contains(err.Error(), "not valid JSON") {
		t.Errorf("error = %q; want not valid JSON", err)
	}
	// Still watching: a good edit afterwards is reported.
	os.WriteFile(w.path, edited(t, func(c *Config) { c.Fastpath.Denylist = []string{"make deploy"} }), 0o600)
	if c := w.nextChange(t); len(c.Fastpath.Denylist) != 1 {
		t.Error("the good edit after garbage was not applied")
	}
}

func TestWatchSeesRenameReplace(t *testing.T) {
	w := startWatch(t)
	// What editors do: write a temp file beside it, rename it over.
	tmp := filepath.Join(filepath.Dir(w.path), ".config.json.swp")
	os.WriteFile(tmp, edited(t, func(c *Config) { c.Approval.TimeoutSeconds = 42 }), 0o600)
	if err := os.Rename(tmp, w.path); err != nil {
		t.Fatal(err)
	}
	if c := w.nextChange(t); c.Approval.TimeoutSeconds != 42 {
		t.Errorf("timeout = %d, want 42", c.Approval.TimeoutSeconds)
	}
	// And a second replace: the watch survives the first one.
	os.WriteFile(tmp, edited(t, func(c *Config) { c.Approval.TimeoutSeconds = 43 }), 0o600)
	os.Rename(tmp, w.path)
	if c := w.nextChange(t); c.Approval.TimeoutSeconds != 43 {
		t.Errorf("timeout = %d, want 43", c.Approval.TimeoutSeconds)
	}
	// Save (our own atomic write) is seen the same way.
	c := Default()
	c.ConfirmRisk = 1.2
	Save(w.path, c)
	if got := w.nextChange(t); got.ConfirmRisk != 1.2 {
		t.Errorf("confirm_risk = %v after Save", got.ConfirmRisk)
	}
}

func TestWatchIgnoresOtherFilesAndSameContent(t *testing.T) {
	w := startWatch(t)
	dir := filepath.Dir(w.path)
	os.WriteFile(filepath.Join(dir, "other.json"), []byte("{garbage"), 0o600)
	os.WriteFile(filepath.Join(dir, "config.json.lock"), nil, 0o600)
	data, _ := os.ReadFile(w.path)
	os.WriteFile(w.path, data, 0o600) // touched, not changed
	select {
	case c := <-w.changes:
		t.Errorf("unexpected change %+v", c)
	case err := <-w.errs:
		t.Errorf("unexpected error %v", err)
	case <-time.After(1 * time.Second):
	}
}

func TestWatchRemovedFileReports(t *testing.T) {
	w := startWatch(t)
	os.Remove(w.path)
	err := w.nextError(t)
	if !strings.Contains(err.Error(), "was removed") || !strings.Contains(err.Error(), w.path) {
		t.Errorf("error = %q", err)
	}
	os.WriteFile(w.path, edited(t, func(c *Config) { c.BlockViolation = 0.8 }), 0o600)
	if c := w.nextChange(t); c.BlockViolation != 0.8 {
		t.Error("recreated file not applied")
	}
}

// A burst of writes is debounced into few reloads ending at the last one.
func TestWatchDebouncesBursts(t *testing.T) {
	w := startWatch(t)
	for i := 5; i <= 25; i++ {
		os.WriteFile(w.path, edited(t, func(c *Config) { c.Approval.TimeoutSeconds = i }), 0o600)
	}
	var last *Config
	n := 0
	deadline := time.After(wait)
	for last == nil || last.Approval.TimeoutSeconds != 25 {
		select {
		case c := <-w.changes:
			last = c
			n++
		case err := <-w.errs:
			// A half-written file may be read mid-burst; only the end matters.
			t.Logf("mid-burst error: %v", err)
		case <-deadline:
			t.Fatalf("final edit not seen (last %+v)", last)
		}
	}
	if n > 10 {
		t.Errorf("21 quick writes caused %d reloads; debounce is not working", n)
	}
}

func TestWatchMissingFolder(t *testing.T) {
	err := Watch(context.Background(), filepath.Join(t.TempDir(), "nope", "config.json"), nil, nil)
	if err == nil || !strings.Contains(err.Error(), "nope") {
		t.Errorf("Watch on a missing folder = %v; want an error naming it", err)
	}
}

// Update from many goroutines: no edit is lost.
func TestUpdateConcurrentEditsAllLand(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	const n = 20
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := Update(path, func(c *Config) error {
				c.Fastpath.Allowlist = append(c.Fastpath.Allowlist, "cmd"+string(rune('A'+i)))
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Fastpath.Allowlist) != n {
		t.Errorf("allowlist has %d entries after %d concurrent updates: %v", len(c.Fastpath.Allowlist), n, c.Fastpath.Allowlist)
	}
}

func TestUpdateKeepsHandEditAndRefusesBrokenFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	// A hand edit lands between the tray's load and its update; it
	// strengthens (block_risk down), so it is in force and kept.
	os.WriteFile(path, []byte(`{"block_risk": 2.2}`), 0o600)
	c, err := Update(path, func(c *Config) error { c.Enabled = false; return nil })
	if err != nil {
		t.Fatal(err)
	}
	if c.BlockRisk != 2.2 || c.Enabled {
		t.Errorf("Update lost the hand edit or its own: %+v", c)
	}
	// The tray's own edit is a person's: it is in force, also for a
	// reader that starts later.
	if got, _ := Load(path); got.BlockRisk != 2.2 || got.Enabled {
		t.Errorf("file after Update: %+v", got)
	}
	// An invalid edit is refused and the file stays.
	before, _ := os.ReadFile(path)
	if _, err := Update(path, func(c *Config) error { c.ConfirmRisk = 3; return nil }); err == nil || !strings.Contains(err.Error(), "confirm_risk 3 is above block_risk 2.2") {
		t.Errorf("invalid edit: %v", err)
	}
	if after, _ := os.ReadFile(path); string(after) != string(before) {
		t.Error("a refused edit changed the file")
	}
	// A broken file is never overwritten.
	os.WriteFile(path, []byte(`{"enabled": tru`), 0o600)
	if _, err := Update(path, func(c *Config) error { return nil }); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("Update over a broken file = %v; want an error naming it", err)
	}
	if data, _ := os.ReadFile(path); string(data) != `{"enabled": tru` {
		t.Error("Update overwrote a broken hand-edited file")
	}
}
