//go:build !unix

package install

import (
	"os"
	"path/filepath"
	"strings"
)

// RootOwned reports whether path lies under Program Files, which only
// administrators may change (Windows has no root-owned bit to read
// without ACL parsing; the install --system folder is there).
func RootOwned(path string) bool {
	pf := os.Getenv("ProgramFiles")
	if pf == "" {
		return false
	}
	rel, err := filepath.Rel(pf, path)
	return err == nil && !strings.HasPrefix(rel, "..")
}

// IsRoot reports whether this process may write the system folder: it
// tries to create a file in it.
func IsRoot() bool {
	pf := os.Getenv("ProgramFiles")
	if pf == "" {
		return false
	}
	f, err := os.CreateTemp(pf, ".agent-guard-probe-*")
	if err != nil {
		return false
	}
	f.Close()
	os.Remove(f.Name())
	return true
}
