//go:build windows

package pipe

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"

	"github.com/Microsoft/go-winio"
	"golang.org/x/sys/windows"
)

const pipePrefix = `\\.\pipe\`

// DefaultName is \\.\pipe\agent-guard-<user>.
func DefaultName() (string, error) {
	user := sanitize(os.Getenv("USERNAME"))
	if user == "" {
		sid, err := currentSID()
		if err != nil {
			return "", err
		}
		user = sid.String()
	}
	return pipePrefix + "agent-guard-" + user, nil
}

// sanitize keeps the characters a pipe name may hold.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '\\' || r == '/' || r == ':' || r < ' ' {
			return '_'
		}
		return r
	}, s)
}

func currentSID() (*windows.SID, error) {
	tu, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return nil, fmt.Errorf("pipe: cannot read the current user's SID: %v", err)
	}
	return tu.User.Sid, nil
}

// SDDL is the pipe's security descriptor: owned by the user, protected DACL
// granting full access to the user and SYSTEM only.
func SDDL(sid string) string {
	return fmt.Sprintf("O:%sD:P(A;;GA;;;%s)(A;;GA;;;SY)", sid, sid)
}

func checkName(name string) error {
	if !strings.HasPrefix(strings.ToLower(name), pipePrefix) || len(name) == len(pipePrefix) {
		return fmt.Errorf(`pipe: %q is not a local pipe name like \\.\pipe\agent-guard-you; fix %s`, name, Env)
	}
	if len(name) > 256 {
		return fmt.Errorf("pipe: name %q is over 256 characters; set %s to a shorter one", name, Env)
	}
	return nil
}

// Listen creates the named pipe for the current user. go-winio refuses
// remote clients; an existing pipe of that name is ErrInUse.
func Listen(name string) (net.Listener, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	sid, err := currentSID()
	if err != nil {
		return nil, err
	}
	l, err := winio.ListenPipe(name, &winio.PipeConfig{
		SecurityDescriptor: SDDL(sid.String()),
		InputBufferSize:    64 << 10,
		OutputBufferSize:   64 << 10,
	})
	if err != nil {
		if errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_PIPE_BUSY) {
			return nil, fmt.Errorf("%w (%s): %v", ErrInUse, name, err)
		}
		return nil, fmt.Errorf("pipe: cannot listen on %s: %v", name, err)
	}
	drainFirstInstance(name)
	return l, nil
}

// drainFirstInstance opens one client on the new pipe and closes it at
// once. go-winio creates the pipe's first instance with SYNCHRONIZE
// access only, as a placeholder that must take no clients; Windows 10 and
// later honour that, but wine (and, per go-winio issue #173, Windows 7)
// connects the first client to it and never serves it, so the first hook
// after a start hung until its deadline. Our throwaway client takes that
// dead instance instead. On current Windows this is harmless: no Accept
// has run yet, so no instance takes clients and CreateFile fails at once
// with ERROR_PIPE_BUSY (CreateFile never waits for a pipe), which is
// ignored; the SDDL grants us access, so nothing else can go wrong.
func drainFirstInstance(name string) {
	p, err := windows.UTF16PtrFromString(name)
	if err != nil {
		return
	}
	h, err := windows.CreateFile(p, windows.GENERIC_READ|windows.GENERIC_WRITE, 0, nil,
		windows.OPEN_EXISTING, windows.SECURITY_SQOS_PRESENT|windows.SECURITY_ANONYMOUS, 0)
	if err == nil {
		windows.CloseHandle(h)
	}
}

// Dial connects to the pipe and checks it is owned by the current user, so
// a pipe another account created first under our name is refused.
func Dial(ctx context.Context, name string) (net.Conn, error) {
	if err := checkName(name); err != nil {
		return nil, err
	}
	c, err := winio.DialPipeContext(ctx, name)
	if err != nil {
		return nil, err
	}
	if err := checkOwner(c); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

func checkOwner(c net.Conn) error {
	f, ok := c.(interface{ Fd() uintptr })
	if !ok {
		return fmt.Errorf("%w: cannot read the pipe's handle", ErrPeer)
	}
	sd, err := windows.GetSecurityInfo(windows.Handle(f.Fd()), windows.SE_KERNEL_OBJECT, windows.OWNER_SECURITY_INFORMATION)
	if err != nil {
		return fmt.Errorf("%w: cannot read the pipe's owner: %v", ErrPeer, err)
	}
	owner, _, err := sd.Owner()
	if err != nil {
		return fmt.Errorf("%w: %v", ErrPeer, err)
	}
	me, err := currentSID()
	if err != nil {
		return err
	}
	if !owner.Equals(me) {
		return fmt.Errorf("%w: the pipe is owned by %s", ErrPeer, owner.String())
	}
	return nil
}
