//go:build windows

package filelock

import (
	"os"

	"golang.org/x/sys/windows"
)

// Windows byte-range locks are mandatory, so we lock one byte far beyond
// any real end of file: lockers exclude each other while readers of the
// file's content are never blocked.
const lockOffsetLow, lockOffsetHigh = 0xFFFFFFFE, 0x7FFFFFFF

func lock(f *os.File) error {
	ol := windows.Overlapped{Offset: lockOffsetLow, OffsetHigh: lockOffsetHigh}
	return windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &ol)
}

func unlock(f *os.File) error {
	ol := windows.Overlapped{Offset: lockOffsetLow, OffsetHigh: lockOffsetHigh}
	return windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol)
}
