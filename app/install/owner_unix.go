//go:build unix

package install

import (
	"os"
	"syscall"
)

// RootOwned reports whether path is owned by root and writable by no one
// else: a process running as the user cannot replace or change it.
func RootOwned(path string) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Uid == 0 && fi.Mode().Perm()&0o022 == 0
}

// IsRoot reports whether this process runs as root.
func IsRoot() bool { return os.Geteuid() == 0 }
