package config

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Debounce is how long Watch waits after the last change before reading
// the file: editors write in several steps (truncate, write, rename).
const Debounce = 100 * time.Millisecond

// Watch reports changes of the config file at path until ctx ends. It
// watches the folder, not the file, because editors replace files by
// renaming a temp file over them (which would end a watch on the old
// inode). After each burst of changes it reads, parses and validates the
// file and calls onChange with the new config, or onError with an error
// naming the file and the problem; on error the caller keeps its last good
// config. A rewrite with identical content is not reported. Watch returns
// an error only when the watch cannot start; it returns nil when ctx ends.
func Watch(ctx context.Context, path string, onChange func(*Config), onError func(error)) error {
	return watch(ctx, path, onChange, onError, nil)
}

// watch is Watch with a ready signal for tests (closed once the folder is
// watched, so no edit made after it can be missed).
func watch(ctx context.Context, path string, onChange func(*Config), onError func(error), ready chan<- struct{}) error {
	path = filepath.Clean(path)
	dir, name := filepath.Dir(path), filepath.Base(path)
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("config: cannot watch %s for changes: %w", path, err)
	}
	defer w.Close()
	if err := w.Add(dir); err != nil {
		return fmt.Errorf("config: cannot watch the folder %s of %s for changes: %w", dir, path, err)
	}
	last, _ := os.ReadFile(path) // what the caller loaded, as far as we can tell
	if ready != nil {
		close(ready)
	}

	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-w.Events:
			if !ok {
				return nil
			}
			if filepath.Base(ev.Name) != name || filepath.Clean(filepath.Dir(ev.Name)) != dir {
				continue // another file in the folder (our temp files, the lock, backups)
			}
			timer.Reset(Debounce)
		case err, ok := <-w.Errors:
			// Drained so the watcher never blocks; an overflow means we may
			// have missed an edit, so re-read the file to be sure.
			if !ok {
				return nil
			}
			if onError != nil {
				onError(fmt.Errorf("config: watching %s: %v", path, err))
			}
			timer.Reset(Debounce)
		case <-timer.C:
			data, err := os.ReadFile(path)
			if err != nil {
				if onError != nil {
					onError(describeReadError(path, err))
				}
				last = nil
				continue
			}
			if last != nil && bytes.Equal(data, last) {
				continue
			}
			last = data
			c, err := Parse(data)
			if err != nil {
				if onError != nil {
					onError(fmt.Errorf("%s: %w; keeping the last good config", path, err))
				}
				continue
			}
			if onChange != nil {
				onChange(c)
			}
		}
	}
}

func describeReadError(path string, err error) error {
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("config: %s was removed; keeping the last good config (restart agent-guard or save the file again to recreate it)", path)
	}
	return fmt.Errorf("config: cannot read %s: %v; keeping the last good config", path, err)
}
