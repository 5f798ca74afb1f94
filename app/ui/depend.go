//go:build !nogui

package ui

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/depend"
)

// UnguardedFile is depend.StatusFile.
const UnguardedFile = depend.StatusFile

// dependWatch holds what the tray found changed behind its back in the
// things the guard depends on (hook entries, binaries).
type dependWatch struct {
	base depend.Baseline
	file string // UnguardedFile's path; "" writes none

	mu    sync.Mutex
	found []depend.Problem
}

func (d *dependWatch) problems() ([]string, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	fix := false
	for _, p := range d.found {
		out = append(out, p.Text)
		fix = fix || p.Entry != nil
	}
	return out, fix
}

// check re-reads everything; it returns the problems not seen before.
func (d *dependWatch) check() []depend.Problem {
	ps := d.base.Check()
	d.mu.Lock()
	var fresh []depend.Problem
	for _, p := range ps {
		if !slices.ContainsFunc(d.found, func(q depend.Problem) bool { return q.Text == p.Text }) {
			fresh = append(fresh, p)
		}
	}
	d.found = ps
	d.mu.Unlock()
	d.record(ps)
	return fresh
}

func (d *dependWatch) record(ps []depend.Problem) {
	if d.file == "" {
		return
	}
	if len(ps) == 0 {
		_ = os.Remove(d.file)
		return
	}
	var lines []string
	for _, p := range ps {
		lines = append(lines, p.Text)
	}
	if b, err := json.Marshal(map[string]any{"at": time.Now().UTC(), "problems": lines}); err == nil {
		_ = config.WriteFileAtomic(d.file, b)
	}
}

// watchDepends snapshots the hook entries and binaries at start and
// re-checks them whenever one of their folders changes (fsnotify; no
// polling, so the idle tray stays at 0 % CPU).
func (t *controller) watchDepends(ctx context.Context, exe string) {
	d := &dependWatch{base: depend.Snapshot(exe), file: filepath.Join(filepath.Dir(t.paths.Config), UnguardedFile)}
	d.check()
	t.mu.Lock()
	t.watch = d
	t.mu.Unlock()
	t.refresh()
	w, err := fsnotify.NewWatcher()
	if err != nil {
		fmt.Fprintln(os.Stderr, "agent-guard: cannot watch the hook configs and binaries:", err)
		return
	}
	// The folders are watched before this returns, and everything is read
	// once more after: a change made between the snapshot and the watch
	// (an agent racing the tray's start) would otherwise go unseen until
	// the next event.
	for _, dir := range d.base.Dirs() {
		if err := w.Add(dir); err != nil {
			fmt.Fprintf(os.Stderr, "agent-guard: cannot watch %s: %v\n", dir, err)
		}
	}
	t.dependsChanged(d.check())
	go func() {
		defer w.Close()
		timer := time.NewTimer(time.Hour)
		timer.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				if d.base.Watched(ev.Name) {
					timer.Reset(200 * time.Millisecond)
				}
			case _, ok := <-w.Errors:
				if !ok {
					return
				}
				timer.Reset(200 * time.Millisecond)
			case <-timer.C:
				t.dependsChanged(d.check())
			}
		}
	}()
}

// dependsChanged announces new problems and redraws the icon.
func (t *controller) dependsChanged(fresh []depend.Problem) {
	if len(fresh) > 0 {
		var b strings.Builder
		fix := false
		for _, p := range fresh {
			b.WriteString("• " + p.Text + "\n")
			fix = fix || p.Entry != nil
		}
		if fix {
			b.WriteString("Choose \"Restore the guard's hook entries\" in the tray menu to put them back.")
		}
		t.notify("agent-guard: UNGUARDED: something the guard depends on changed", strings.TrimSpace(b.String()))
	}
	t.refresh()
}

// restore puts the hook entries back (the Restore menu item).
func (t *controller) restore() {
	if t.watch == nil {
		return
	}
	t.watch.mu.Lock()
	ps := slices.Clone(t.watch.found)
	t.watch.mu.Unlock()
	if err := depend.Restore(ps); err != nil {
		t.notify("agent-guard: restore failed", err.Error())
	}
	t.dependsChanged(t.watch.check())
}
