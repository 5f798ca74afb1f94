package audit

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// pathWatch tells a long-running writer that its log may no longer be the
// file at its path, for the price of one read(2) that finds nothing per
// line, where a stat of the path cost three times that (a tenth of the
// audit line's CPU in the server). It is an inotify instance watching the
// open file (IN_ATTRIB: its link count changed, it was deleted or another
// file was renamed over it; IN_MOVE_SELF: it was renamed) and every folder
// above it (renamed or deleted: the path then leads elsewhere). Events are
// queued by the very rename or unlink, before that call returns, so the
// next Append sees them: the read is synchronous, nothing runs in the
// background. Any event, an overflow or an error counts as a change: the
// writer reopens, which is only ever too careful (a chmod of the log
// reopens it too).
//
// Not covered, so not watched: a path through a symbolic link (re-pointing
// the link touches nothing watched), for which the writer stats per line
// as before. A mount over a folder of the path sends no event either; it
// needs privileges the agent does not have.
type pathWatch struct{ fd int }

// watchPath starts watching path, which must still be the file fi
// describes once the watches are in place; nil when it cannot.
func watchPath(path string, fi os.FileInfo) *pathWatch {
	path = filepath.Clean(path)
	if !filepath.IsAbs(path) {
		return nil
	}
	if real, err := filepath.EvalSymlinks(path); err != nil || real != path {
		return nil
	}
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		return nil
	}
	w := &pathWatch{fd: fd}
	if _, err := unix.InotifyAddWatch(fd, path, unix.IN_ATTRIB|unix.IN_MOVE_SELF|unix.IN_DELETE_SELF|unix.IN_DONT_FOLLOW); err != nil {
		w.close()
		return nil
	}
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		if _, err := unix.InotifyAddWatch(fd, dir, unix.IN_MOVE_SELF|unix.IN_DELETE_SELF|unix.IN_ONLYDIR|unix.IN_DONT_FOLLOW); err != nil {
			w.close()
			return nil
		}
		if dir == filepath.Dir(dir) {
			break
		}
	}
	// A rename between the caller's check and the watches would go
	// unseen: check again now that they are in place.
	if onDisk, err := os.Stat(path); err != nil || !os.SameFile(fi, onDisk) {
		w.close()
		return nil
	}
	return w
}

// changed reports whether anything happened to the path since the watch
// began (and every call after that says so too).
func (w *pathWatch) changed() bool {
	var buf [unix.SizeofInotifyEvent + unix.NAME_MAX + 1]byte
	_, err := unix.Read(w.fd, buf[:])
	return err != unix.EAGAIN
}

func (w *pathWatch) close() { unix.Close(w.fd) }
