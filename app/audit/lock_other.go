//go:build !linux

package audit

import "os"

// needsLock: outside Linux every append takes the advisory lock
// (lock_linux.go says when Linux does not need it).
func needsLock(*os.File) bool { return true }
