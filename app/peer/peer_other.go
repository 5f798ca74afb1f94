//go:build !linux && !darwin && !windows

package peer

import (
	"fmt"
	"net"
	"os"
	"runtime"
)

// inspect is not implemented here, so no server is trusted (fail closed:
// the hook judges through its fallback).
func inspect(net.Conn) (Process, os.FileInfo, error) {
	return Process{}, nil, fmt.Errorf("checking the server's identity is not supported on %s", runtime.GOOS)
}
