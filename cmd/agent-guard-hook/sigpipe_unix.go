//go:build unix

package main

import (
	"os/signal"
	"syscall"
)

// ignoreSIGPIPE makes a write to a closed stdout return EPIPE instead of
// killing the process, so the hook can still exit 2 with its reason on
// stderr (the host's fallback block).
func ignoreSIGPIPE() { signal.Ignore(syscall.SIGPIPE) }
