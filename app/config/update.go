package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agent-guard/agent-guard/app/internal/filelock"
)

// Update applies edit to the config at path as one read-modify-write under
// a lock file (path + ".lock"), so the tray, the CLI and the approval
// dialog's "Always allow" never lose each other's changes. It re-reads the
// file right before editing, so a hand edit saved a moment ago is kept
// too. A missing file starts from the defaults; a file that does not parse
// is left untouched and reported, because overwriting it would throw away
// the user's hand edit. The result is validated and saved atomically.
func Update(path string, edit func(*Config) error) (*Config, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("config: cannot create the folder of %s: %w", path, err)
	}
	unlock, err := lockPath(path + ".lock")
	if err != nil {
		return nil, fmt.Errorf("config: cannot lock %s for editing: %w", path, err)
	}
	defer unlock()

	c := Default()
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, fmt.Errorf("config: cannot read %s: %w", path, err)
	default:
		if c, err = Parse(data); err != nil {
			return nil, fmt.Errorf("%s: %w; fix the file first, the change was not saved", path, err)
		}
	}
	if err := edit(c); err != nil {
		return nil, err
	}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("%w; the change was not saved", err)
	}
	if err := Save(path, c); err != nil {
		return nil, fmt.Errorf("config: cannot save %s: %w", path, err)
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
