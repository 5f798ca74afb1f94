//go:build windows

package audit

import (
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// openAppend opens (creating) the log for appending with every sharing
// flag, FILE_SHARE_DELETE included. Go's os.OpenFile leaves that flag out,
// and Windows then refuses to rename or delete a file while any handle
// without it is open: the tray holds the log for hours, so a user or a log
// tool could never rotate or remove it ("sharing violation"). With the
// flag, a rename or delete succeeds and ensureOpen reopens a fresh log
// before the next line, as on Unix.
//
// Access: FILE_APPEND_DATA without FILE_WRITE_DATA makes every write go to
// the end of the file atomically (the same as Go's O_APPEND). FILE_READ_DATA
// is there only because LockFileEx wants a handle with read or write data
// access, and FILE_READ_ATTRIBUTES for Stat (os.SameFile in ensureOpen).
// The handle is not inherited by child processes.
func openAppend(path string) (*os.File, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	const access = windows.FILE_APPEND_DATA | windows.FILE_READ_DATA |
		windows.FILE_READ_ATTRIBUTES | windows.FILE_WRITE_ATTRIBUTES | windows.SYNCHRONIZE
	const share = windows.FILE_SHARE_READ | windows.FILE_SHARE_WRITE | windows.FILE_SHARE_DELETE
	h, err := windows.CreateFile(p, access, share, nil, windows.OPEN_ALWAYS, windows.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(h), path), nil
}

// fileStandardInfo is FILE_STANDARD_INFO (x/sys/windows has the class
// constant but not the struct).
type fileStandardInfo struct {
	AllocationSize int64
	EndOfFile      int64
	NumberOfLinks  uint32
	DeletePending  bool
	Directory      bool
}

// deletePending reports whether f was deleted while we hold it open.
// Where Windows deletes with the classic semantics (FAT and exFAT drives,
// network shares, older systems, wine) the name stays visible until the
// last handle closes, so a stat of the path still finds our file and the
// lines would go into a file about to vanish; closing and reopening lets
// the delete finish and starts a new log.
func deletePending(f *os.File) bool {
	var info fileStandardInfo
	err := windows.GetFileInformationByHandleEx(windows.Handle(f.Fd()), windows.FileStandardInfo, (*byte)(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)))
	return err == nil && info.DeletePending
}
