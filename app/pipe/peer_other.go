//go:build unix && !linux && !darwin

package pipe

import (
	"fmt"
	"runtime"
)

// fdPeerUID is not implemented here, so every peer is refused (fail closed).
func fdPeerUID(fd int) (int, error) {
	return -1, fmt.Errorf("pipe: checking a socket peer's uid is not supported on %s", runtime.GOOS)
}
