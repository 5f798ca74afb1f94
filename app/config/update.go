package config

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/agent-guard/agent-guard/app/internal/filelock"
)

// Update applies edit, a person's change made in agent-guard's own UI
// (tray menu, settings window, the approval dialog's "Always allow"), as
// one read-modify-write under a lock file (path + ".lock"), so the tray,
// the CLI and the dialog never lose each other's changes. The edit starts
// from the config in force (a hand edit saved a moment ago is in it when
// it only strengthens) and its result is saved to config.json and
// recorded as accepted: it applies at once. A weakening of the file that
// was still waiting is dropped by this (the file now says what is in
// force). A file that does not parse is left untouched and reported,
// because overwriting it would throw away the user's hand edit.
func Update(path string, edit func(*Config) error) (*Config, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("config: cannot create the folder of %s: %w", path, err)
	}
	unlock, err := lockPath(path + ".lock")
	if err != nil {
		return nil, fmt.Errorf("config: cannot lock %s for editing: %w", path, err)
	}
	defer unlock()

	st, err := resolveAndRecord(path)
	if err != nil {
		return nil, fmt.Errorf("%w; fix the file first, the change was not saved", err)
	}
	c := st.InForce.Clone()
	if err := edit(c); err != nil {
		return nil, err
	}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("%w; the change was not saved", err)
	}
	if err := Save(path, c); err != nil {
		return nil, fmt.Errorf("config: cannot save %s: %w", path, err)
	}
	if err := writeRecord(path, c, ByTray); err != nil {
		return nil, fmt.Errorf("config: saved %s but cannot record it as accepted in %s: %w", path, AcceptedPath(path), err)
	}
	return c, nil
}

// lockPath takes an exclusive lock on the file at path (created if
// needed) and returns its release.
func lockPath(path string) (func(), error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := filelock.Lock(f); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		filelock.Unlock(f)
		f.Close()
	}, nil
}
