//go:build linux || darwin || freebsd || openbsd || netbsd || dragonfly

package config

import (
	"os"

	"golang.org/x/sys/unix"
)

// lockFile takes an exclusive advisory lock shared with every other
// agent-guard process editing the same config.
func lockFile(f *os.File) error {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if err != unix.EINTR {
			return err
		}
	}
}

func unlockFile(f *os.File) error { return unix.Flock(int(f.Fd()), unix.LOCK_UN) }
