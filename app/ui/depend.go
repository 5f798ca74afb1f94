//go:build !nogui

package ui

import "sync"

// dependWatch holds what the tray found changed behind its back in the
// things the guard depends on (see watchDepends).
type dependWatch struct {
	mu       sync.Mutex
	found    []string
	canFix   bool
	restoreF func() error
}

func (d *dependWatch) problems() ([]string, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.found...), d.canFix && d.restoreF != nil
}

// restore puts the hook entries back (the Restore menu item).
func (t *controller) restore() {
	if t.watch == nil || t.watch.restoreF == nil {
		return
	}
	if err := t.watch.restoreF(); err != nil {
		t.notify("agent-guard: restore failed", err.Error())
	}
	t.refresh()
}
