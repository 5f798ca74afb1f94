//go:build unix

package pipe

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"time"
)

// maxPath is the longest socket path the kernel takes (sun_path less its NUL).
var maxPath = map[string]int{"darwin": 103, "freebsd": 103, "netbsd": 103, "openbsd": 103}

func pathLimit() int {
	if n, ok := maxPath[runtime.GOOS]; ok {
		return n
	}
	return 107
}

// DefaultName is the socket in the per-user runtime folder:
// $XDG_RUNTIME_DIR/agent-guard/ on Linux, $TMPDIR/agent-guard/ on macOS,
// else <tmp>/agent-guard-<uid>/.
func DefaultName() (string, error) {
	return filepath.Join(defaultDir(), "agent-guard.sock"), nil
}

func defaultDir() string {
	switch runtime.GOOS {
	case "linux":
		if d := os.Getenv("XDG_RUNTIME_DIR"); d != "" {
			return filepath.Join(d, "agent-guard")
		}
	case "darwin":
		if d := os.Getenv("TMPDIR"); d != "" {
			return filepath.Join(d, "agent-guard")
		}
	}
	return filepath.Join(os.TempDir(), fmt.Sprintf("agent-guard-%d", os.Getuid()))
}

func checkPath(path string) error {
	if path == "" {
		return errors.New("pipe: empty socket path")
	}
	if n := len(path); n > pathLimit() {
		return fmt.Errorf("pipe: socket path %s is %d bytes, over the system limit of %d; set %s to a shorter path", path, n, pathLimit(), Env)
	}
	return nil
}

// privateDir makes sure dir exists, belongs to us and only we can enter it.
// Only the default folder is tightened: an AGENT_GUARD_PIPE path may sit in
// a folder we must not chmod (the socket's mode and the peer check guard it).
func privateDir(dir string, tighten bool) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("pipe: cannot create %s: %v", dir, err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("pipe: %v", err)
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !fi.IsDir() || !ok {
		return fmt.Errorf("pipe: %s is not a folder", dir)
	}
	if !tighten {
		return nil
	}
	if int(st.Uid) != os.Getuid() {
		return fmt.Errorf("pipe: %s belongs to uid %d, not to you (uid %d); someone may be squatting it: remove it or set %s", dir, st.Uid, os.Getuid(), Env)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("pipe: cannot make %s private: %v", dir, err)
		}
	}
	return nil
}

// Listen serves on the socket at path. A leftover socket nobody answers on
// is removed; a live one is ErrInUse; a non-socket file is never removed.
func Listen(path string) (net.Listener, error) {
	if err := checkPath(path); err != nil {
		return nil, err
	}
	def, _ := DefaultName()
	if err := privateDir(filepath.Dir(path), path == def); err != nil {
		return nil, err
	}
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&fs.ModeSocket == 0 {
			return nil, fmt.Errorf("pipe: %s exists and is not a socket; remove it or set %s", path, Env)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		c, err := (&net.Dialer{}).DialContext(ctx, "unix", path)
		cancel()
		if err == nil {
			c.Close()
			return nil, fmt.Errorf("%w (%s)", ErrInUse, path)
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("pipe: cannot remove the stale socket %s: %v", path, err)
		}
	}
	l, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		return nil, fmt.Errorf("pipe: cannot listen on %s: %v", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		l.Close()
		return nil, fmt.Errorf("pipe: cannot restrict %s: %v", path, err)
	}
	return &listener{UnixListener: l, uid: selfUID()}, nil
}

// listener drops connections from any other uid before Accept returns them.
type listener struct {
	*net.UnixListener
	uid int
	// OnReject, when set, hears about refused connections (tests).
	onReject func(error)
}

func (l *listener) Accept() (net.Conn, error) {
	for {
		c, err := l.AcceptUnix()
		if err != nil {
			return nil, err
		}
		uid, err := peerUID(c)
		if err == nil && uid == l.uid {
			return c, nil
		}
		c.Close()
		if err == nil {
			err = fmt.Errorf("%w: uid %d", ErrPeer, uid)
		}
		if l.onReject != nil {
			l.onReject(err)
		}
	}
}

// Dial connects to the server at path and checks that it runs as us.
func Dial(ctx context.Context, path string) (net.Conn, error) {
	if err := checkPath(path); err != nil {
		return nil, err
	}
	c, err := (&net.Dialer{}).DialContext(ctx, "unix", path)
	if err != nil {
		return nil, err
	}
	uid, err := peerUID(c.(*net.UnixConn))
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("%w: %v", ErrPeer, err)
	}
	if uid != selfUID() {
		c.Close()
		return nil, fmt.Errorf("%w: the server at %s runs as uid %d", ErrPeer, path, uid)
	}
	return c, nil
}

// selfUID is a variable so tests can pretend to be someone else.
var selfUID = os.Getuid

func peerUID(c *net.UnixConn) (int, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return -1, err
	}
	uid, cerr := -1, error(nil)
	if err := raw.Control(func(fd uintptr) { uid, cerr = fdPeerUID(int(fd)) }); err != nil {
		return -1, err
	}
	return uid, cerr
}
