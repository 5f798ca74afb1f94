package peer

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// inspect reads the server's pid with LOCAL_PEERPID, then its executable
// path, arguments and environment with sysctl KERN_PROCARGS2 (the same
// user may read them), without cgo.
func inspect(conn net.Conn) (Process, os.FileInfo, error) {
	pid, err := peerPID(conn)
	p := Process{PID: pid}
	if err != nil {
		return p, nil, err
	}
	raw, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil {
		return p, nil, fmt.Errorf("kern.procargs2: %v", err)
	}
	exe, args, env, err := parseProcArgs(raw)
	if err != nil {
		return p, nil, err
	}
	p.Exe = exe
	if !filepath.IsAbs(exe) {
		return p, nil, fmt.Errorf("it was started by the relative path %q", exe)
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return p, nil, err
	}
	fromProc(&p, env, args)
	return p, fi, nil
}

func peerPID(conn net.Conn) (int, error) {
	sc, ok := conn.(syscall.Conn)
	if !ok {
		return 0, errors.New("not a socket")
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return 0, err
	}
	pid, perr := 0, error(nil)
	if err := raw.Control(func(fd uintptr) { pid, perr = unix.GetsockoptInt(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERPID) }); err != nil {
		return 0, err
	}
	if perr != nil {
		return 0, perr
	}
	if pid <= 0 {
		return 0, fmt.Errorf("the kernel reported pid %d", pid)
	}
	return pid, nil
}
