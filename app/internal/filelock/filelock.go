// Package filelock takes exclusive advisory locks on open files, shared
// by every agent-guard process: the audit writer (so appends from several
// hooks and the tray never interleave) and config.Update (so the tray and
// a hand edit never lose each other's changes).
package filelock

import "os"

// Lock blocks until this process holds the exclusive lock on f.
func Lock(f *os.File) error { return lock(f) }

// Unlock releases it.
func Unlock(f *os.File) error { return unlock(f) }
