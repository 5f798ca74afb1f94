// Package peer tells the genuine agent-guard server from an impostor by
// what the operating system says about the process at the other end of
// the pipe, never by a secret in a file (the agent can read every file
// the user can). A same-user process can unlink the socket and bind its
// own; it cannot make the kernel report another executable for itself.
//
// The checks: the serving process's executable is the genuine agent-guard
// binary (same file: device and inode, or volume and file index), and,
// where the OS shows another process's environment and command line
// (Linux /proc, macOS KERN_PROCARGS2), it serves the config home and the
// pipe the hook expects, so the genuine binary started by the agent with
// another AGENT_GUARD_HOME is an impostor too.
package peer

import (
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Expect is what the hook expects of its server.
type Expect struct {
	// Binary is the absolute path of the genuine agent-guard executable.
	Binary string
	// Home is the config home the hook uses (HomeOf(os.Getenv)).
	Home string
	// Pipe is the socket path or pipe name the hook dialed.
	Pipe string
}

// Process is what the OS reports about the serving process. Fields the
// OS does not show are empty (HomeKnown false).
type Process struct {
	PID       int
	Exe       string // executable path as the OS reports it
	Home      string // config home from its environment
	HomeKnown bool
	Pipe      string // --pipe from its command line, else AGENT_GUARD_PIPE, else ""
}

// ErrImpostor marks a server that is not the genuine agent-guard.
var ErrImpostor = errors.New("peer: the pipe is not served by the genuine agent-guard")

// Error says which process serves the pipe and why it is not trusted.
type Error struct {
	Pipe   string
	Proc   Process
	Binary string
	Why    string // what does not match, or why it could not be checked
}

func (e *Error) Error() string {
	who := e.Proc.Exe
	if who == "" {
		who = "an unknown program"
	}
	pid := ""
	if e.Proc.PID > 0 {
		pid = fmt.Sprintf(" (pid %d)", e.Proc.PID)
	}
	return fmt.Sprintf("the process serving %s is %s%s, not the agent-guard binary %s (%s); it was ignored", e.Pipe, who, pid, e.Binary, e.Why)
}

func (e *Error) Unwrap() error { return ErrImpostor }

// VerifyServer checks that conn's other end is the genuine agent-guard
// serving want.Home and want.Pipe. It returns what it learnt about the
// process either way; a non-nil error is always an *Error (ErrImpostor).
func VerifyServer(conn net.Conn, want Expect) (Process, error) {
	fail := func(p Process, format string, a ...any) (Process, error) {
		p.Exe = exeName(p.Exe)
		return p, &Error{Pipe: want.Pipe, Proc: p, Binary: want.Binary, Why: fmt.Sprintf(format, a...)}
	}
	if !filepath.IsAbs(want.Binary) {
		return fail(Process{}, "the hook's --guard path is not absolute; the installer writes it into the hook's arguments")
	}
	genuine, err := os.Stat(want.Binary)
	if err != nil {
		return fail(Process{}, "the genuine binary cannot be read: %v", err)
	}
	p, exe, err := inspect(conn)
	if err != nil {
		return fail(p, "the OS could not tell which program it is: %v", err)
	}
	if !os.SameFile(exe, genuine) {
		return fail(p, "another executable")
	}
	if p.HomeKnown && !samePath(p.Home, want.Home) {
		return fail(p, "it serves the config home %q, the hook expects %q", p.Home, want.Home)
	}
	if p.Pipe != "" && want.Pipe != "" && !samePath(p.Pipe, want.Pipe) {
		return fail(p, "it was started for the pipe %q", p.Pipe)
	}
	return p, nil
}

// exeName turns /proc/PID/exe into the path it points at (Linux); other
// systems already report the path.
func exeName(exe string) string {
	if strings.HasPrefix(exe, "/proc/") {
		if target, err := os.Readlink(exe); err == nil {
			return target
		}
	}
	return exe
}

// DefaultBinary is agent-guard (agent-guard.exe) in the folder of the
// running executable: where the installer puts both binaries.
func DefaultBinary() string {
	self, err := SelfPath()
	if err != nil {
		return ""
	}
	name := "agent-guard"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	return filepath.Join(filepath.Dir(self), name)
}

// HomeOf resolves the config home an agent-guard process uses from its
// environment, the way app/config does: AGENT_GUARD_HOME, else the
// user config folder's agent-guard.
func HomeOf(getenv func(string) string) string {
	if h := getenv("AGENT_GUARD_HOME"); h != "" {
		return filepath.Clean(h)
	}
	switch runtime.GOOS {
	case "windows":
		if d := getenv("AppData"); d != "" {
			return filepath.Join(d, "agent-guard")
		}
	case "darwin":
		if h := getenv("HOME"); h != "" {
			return filepath.Join(h, "Library", "Application Support", "agent-guard")
		}
	default:
		if d := getenv("XDG_CONFIG_HOME"); d != "" && filepath.IsAbs(d) {
			return filepath.Join(d, "agent-guard")
		}
		if h := getenv("HOME"); h != "" {
			return filepath.Join(h, ".config", "agent-guard")
		}
	}
	return ""
}

// fromProc fills Home and Pipe from a process's environment and
// arguments (NUL-separated lists as /proc and KERN_PROCARGS2 give them).
func fromProc(p *Process, env, args []string) {
	vars := map[string]string{}
	for _, kv := range env {
		if k, v, ok := strings.Cut(kv, "="); ok {
			if _, seen := vars[k]; !seen {
				vars[k] = v
			}
		}
	}
	p.Home, p.HomeKnown = HomeOf(func(k string) string { return vars[k] }), true
	p.Pipe = vars["AGENT_GUARD_PIPE"]
	if v, ok := flagValue(args, "pipe"); ok {
		p.Pipe = v
	}
}

// flagValue finds -name V, --name V, -name=V or --name=V (the flag
// package's spellings); the last one wins, as with the flag package.
func flagValue(args []string, name string) (string, bool) {
	val, found := "", false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			break
		}
		a = strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-")
		if a == args[i] {
			continue
		}
		if a == name && i+1 < len(args) {
			val, found = args[i+1], true
			i++
		} else if v, ok := strings.CutPrefix(a, name+"="); ok {
			val, found = v, true
		}
	}
	return val, found
}

func splitNUL(b []byte) []string {
	s := strings.TrimRight(string(b), "\x00")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\x00")
}

func samePath(a, b string) bool {
	a, b = filepath.Clean(a), filepath.Clean(b)
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		return strings.EqualFold(a, b)
	}
	return a == b
}
