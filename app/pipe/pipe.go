// Package pipe is the local channel between agent-guard-hook and the
// agent-guard server: a Unix socket in a private folder (peer uid checked
// on both ends) or, on Windows, a named pipe whose DACL admits only the
// current user and SYSTEM (remote clients refused, owner checked on dial).
package pipe

import (
	"errors"
	"os"
)

// Env names the pipe (Windows) or socket path (elsewhere), overriding the
// per-user default. Tests point it into a temp dir.
const Env = "AGENT_GUARD_PIPE"

// ErrPeer means the other end of a connection belongs to another user.
// The hook must not fall back on it (someone is squatting the name): it
// denies.
var ErrPeer = errors.New("pipe: the other end belongs to another user")

// ErrInUse means a live server already listens on the name.
var ErrInUse = errors.New("pipe: another agent-guard is already serving this pipe")

// Name returns AGENT_GUARD_PIPE, or the per-user default.
func Name() (string, error) {
	if v := os.Getenv(Env); v != "" {
		return v, nil
	}
	return DefaultName()
}

// ControlName is the tray's control socket (or pipe) beside the hook's:
// a terminal asks the running tray there to open one of its windows. It
// is the guard's own like the hook's socket (app/protect protects both).
func ControlName(name string) string { return name + "-ctl" }
