package config

import (
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

// Watch reports changes of the config in force for the file at path until
// ctx ends: onChange gets the new config in force (a weakening of the
// file is not in force until accepted, see Resolve). A problem (the file
// does not parse, was removed) goes to onError with an error naming the
// file; the caller keeps its last good config. Watch returns an error only
// when the watch cannot start; it returns nil when ctx ends.
func Watch(ctx context.Context, path string, onChange func(*Config), onError func(error)) error {
	return watch(ctx, path, onChange, onError, nil)
}

func watch(ctx context.Context, path string, onChange func(*Config), onError func(error), ready chan<- struct{}) error {
	var last *Config
	return watchState(ctx, path, func(st State) {
		if !Same(st.InForce, last) {
			last = st.InForce
			if onChange != nil {
				onChange(st.InForce)
			}
		}
	}, onError, func(st State) { last = st.InForce }, ready)
}

// WatchState reports the State of the config at path (what is in force
// and which weakenings wait) once the watch is set up, and then after
// every burst of changes until ctx ends (callers compare what they need); onError as in Watch. It watches config.json and the
// record beside it, so an accept made in a terminal reaches the running
// guard as well. The first report covers a change made before the watch
// began (while the guard was starting, or not running).
func WatchState(ctx context.Context, path string, onState func(State), onError func(error)) error {
	return watchState(ctx, path, onState, onError, onState, nil)
}

// watchState watches the folder, not the file, because editors replace
// files by renaming a temp file over them (which would end a watch on
// the old inode). ready (tests) is closed once the folder is watched, so
// no edit made after it can be missed.
func watchState(ctx context.Context, path string, onState func(State), onError func(error), start func(State), ready chan<- struct{}) error {
	path = filepath.Clean(path)
	dir, name, rec := filepath.Dir(path), filepath.Base(path), AcceptedFile
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("config: cannot watch %s for changes: %w", path, err)
	}
	defer w.Close()
	if err := w.Add(dir); err != nil {
		return fmt.Errorf("config: cannot watch the folder %s of %s for changes: %w", dir, path, err)
	}
	if st, err := Resolve(path); err == nil {
		if start != nil {
			start(st)
		}
	}
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
			if b := filepath.Base(ev.Name); (b != name && b != rec) || filepath.Clean(filepath.Dir(ev.Name)) != dir {
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
			if _, err := os.Stat(path); err != nil {
				if onError != nil {
					onError(describeReadError(path, err))
				}
				continue
			}
			st, err := Resolve(path)
			if err != nil {
				if onError != nil {
					onError(fmt.Errorf("%w; keeping the last good config", err))
				}
				continue
			}
			// Every settled burst is reported, even when it ends in the state
			// last reported: W -> R -> W within one burst (a change denied and
			// at once written again) must reach a caller that saw R itself.
			if onState != nil {
				onState(st)
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
