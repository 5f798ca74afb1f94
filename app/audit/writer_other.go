//go:build !windows

package audit

import "os"

// openAppend opens (creating, mode 0600) the log for appending. On Unix a
// rename or delete of the open file always works: ensureOpen notices and
// reopens.
func openAppend(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
}

// deletePending: on Unix a deleted file's name is gone at once, so the
// stat of the path already tells.
func deletePending(*os.File) bool { return false }
