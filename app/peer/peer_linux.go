package peer

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// inspect reads the listener's pid with SO_PEERCRED (recorded by the
// kernel when the server called listen), then its executable, environment
// and command line under /proc (readable for the same user).
func inspect(conn net.Conn) (Process, os.FileInfo, error) {
	pid, err := peerPID(conn)
	p := Process{PID: pid}
	if err != nil {
		return p, nil, err
	}
	dir := "/proc/" + strconv.Itoa(pid)
	// Stat follows the kernel's link to the very file that was executed,
	// even if it has been renamed or deleted since.
	exe, err := os.Stat(dir + "/exe")
	if err != nil {
		return p, nil, err
	}
	p.Exe = dir + "/exe" // named in full by exeName, only when it is refused
	env, err := os.ReadFile(dir + "/environ")
	if err != nil {
		return p, nil, err
	}
	args, err := os.ReadFile(dir + "/cmdline")
	if err != nil {
		return p, nil, err
	}
	fromProc(&p, splitNUL(env), splitNUL(args))
	return p, exe, nil
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
	var cred *unix.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) { cred, cerr = unix.GetsockoptUcred(int(fd), unix.SOL_SOCKET, unix.SO_PEERCRED) }); err != nil {
		return 0, err
	}
	if cerr != nil {
		return 0, cerr
	}
	if cred.Pid <= 0 {
		return 0, fmt.Errorf("the kernel reported pid %d", cred.Pid)
	}
	return int(cred.Pid), nil
}
