package peer

import (
	"errors"
	"net"
	"os"

	"golang.org/x/sys/windows"
)

// inspect asks the pipe for its server's pid (GetNamedPipeServerProcessId)
// and that process for its image (QueryFullProcessImageName). Windows
// shows no other process's environment without reading its memory, so
// the config home is not compared here (HomeKnown false).
func inspect(conn net.Conn) (Process, os.FileInfo, error) {
	f, ok := conn.(interface{ Fd() uintptr })
	if !ok {
		return Process{}, nil, errors.New("cannot read the pipe's handle")
	}
	var pid uint32
	if err := windows.GetNamedPipeServerProcessId(windows.Handle(f.Fd()), &pid); err != nil {
		return Process{}, nil, err
	}
	p := Process{PID: int(pid)}
	h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return p, nil, err
	}
	defer windows.CloseHandle(h)
	buf := make([]uint16, windows.MAX_LONG_PATH)
	n := uint32(len(buf))
	if err := windows.QueryFullProcessImageName(h, 0, &buf[0], &n); err != nil {
		return p, nil, err
	}
	p.Exe = windows.UTF16ToString(buf[:n])
	fi, err := os.Stat(p.Exe)
	if err != nil {
		return p, nil, err
	}
	return p, fi, nil
}
