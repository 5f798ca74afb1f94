//go:build unix

package pipe

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

func sockPath(t *testing.T) string {
	// Keep it short: t.TempDir() paths can approach the sun_path limit.
	dir, err := os.MkdirTemp("", "agp")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return filepath.Join(dir, "s.sock")
}

func dialCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// echoOnce accepts one connection and echoes one line back.
func echoOnce(l net.Listener) <-chan error {
	done := make(chan error, 1)
	go func() {
		c, err := l.Accept()
		if err != nil {
			done <- err
			return
		}
		defer c.Close()
		buf := make([]byte, 5)
		if _, err := io.ReadFull(c, buf); err != nil {
			done <- err
			return
		}
		_, err = c.Write(buf)
		done <- err
	}()
	return done
}

func TestListenDialRoundTrip(t *testing.T) {
	path := sockPath(t)
	l, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode()&os.ModeSocket == 0 || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket mode %v, want a 0600 socket", fi.Mode())
	}
	done := echoOnce(l)
	c, err := Dial(dialCtx(t), path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.Write([]byte("hello"))
	got := make([]byte, 5)
	if _, err := io.ReadFull(c, got); err != nil || string(got) != "hello" {
		t.Fatalf("echo: %q %v", got, err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	l.Close()
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("socket left behind after Close: %v", err)
	}
}

func TestDefaultFolderIsPrivate(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("XDG_RUNTIME_DIR is Linux's")
	}
	rt, err := os.MkdirTemp("", "agrt")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(rt)
	t.Setenv("XDG_RUNTIME_DIR", rt)
	t.Setenv(Env, "")
	name, err := Name()
	if err != nil {
		t.Fatal(err)
	}
	if name != filepath.Join(rt, "agent-guard", "agent-guard.sock") {
		t.Fatalf("default name %s", name)
	}
	// A folder someone left group/world-accessible is tightened to 0700.
	if err := os.Mkdir(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Dir(name), 0o755)
	l, err := Listen(name)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	fi, err := os.Stat(filepath.Dir(name))
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("folder mode %v %v, want 0700", fi.Mode(), err)
	}
	t.Setenv(Env, "/x/y.sock")
	if n, _ := Name(); n != "/x/y.sock" {
		t.Errorf("%s does not override: %s", Env, n)
	}
}

func TestStaleSocketIsReplaced(t *testing.T) {
	path := sockPath(t)
	ul, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ul.SetUnlinkOnClose(false)
	ul.Close() // leaves a socket file nobody answers on, like a crashed tray
	if _, err := os.Lstat(path); err != nil {
		t.Fatal("stale socket not left behind")
	}
	l, err := Listen(path)
	if err != nil {
		t.Fatalf("stale socket not replaced: %v", err)
	}
	defer l.Close()
	done := echoOnce(l)
	c, err := Dial(dialCtx(t), path)
	if err != nil {
		t.Fatal(err)
	}
	c.Write([]byte("hello"))
	c.Close()
	<-done
}

func TestLiveSocketIsInUse(t *testing.T) {
	path := sockPath(t)
	l, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := Listen(path); !errors.Is(err, ErrInUse) {
		t.Fatalf("second Listen: %v, want ErrInUse", err)
	}
}

func TestNonSocketIsNotRemoved(t *testing.T) {
	path := sockPath(t)
	if err := os.WriteFile(path, []byte("precious"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Listen(path); err == nil || !strings.Contains(err.Error(), "not a socket") {
		t.Fatalf("Listen over a file: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "precious" {
		t.Fatal("file was clobbered")
	}
}

func TestPathTooLong(t *testing.T) {
	long := "/tmp/" + strings.Repeat("a", 200) + ".sock"
	for _, f := range []func() error{
		func() error { _, err := Listen(long); return err },
		func() error { _, err := Dial(context.Background(), long); return err },
	} {
		if err := f(); err == nil || !strings.Contains(err.Error(), "limit") || !strings.Contains(err.Error(), Env) {
			t.Errorf("long path: %v", err)
		}
	}
}

func TestDialNobodyListening(t *testing.T) {
	if _, err := Dial(dialCtx(t), sockPath(t)); err == nil || errors.Is(err, ErrPeer) {
		t.Fatalf("dial to nothing: %v", err)
	}
}

// A listener for another uid drops our connections before Accept sees them.
func TestAcceptRejectsOtherUID(t *testing.T) {
	path := sockPath(t)
	ln, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	l := ln.(*listener)
	l.uid = os.Getuid() + 1
	rejected := make(chan error, 1)
	l.onReject = func(err error) { rejected <- err }
	accepted := make(chan net.Conn, 1)
	go func() {
		if c, err := l.Accept(); err == nil {
			accepted <- c
		}
	}()
	c, err := Dial(dialCtx(t), path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	select {
	case err := <-rejected:
		if !errors.Is(err, ErrPeer) {
			t.Fatalf("reject reason %v", err)
		}
	case <-accepted:
		t.Fatal("connection from another uid was accepted")
	case <-time.After(10 * time.Second):
		t.Fatal("no rejection")
	}
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if n, err := c.Read(make([]byte, 1)); err == nil {
		t.Fatalf("rejected connection still open (%d bytes)", n)
	}
}

// The client refuses a server running as another uid.
func TestDialRejectsOtherUID(t *testing.T) {
	path := sockPath(t)
	l, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		if c, err := l.Accept(); err == nil {
			defer c.Close()
			io.Copy(io.Discard, c)
		}
	}()
	real := selfUID
	selfUID = func() int { return real() + 1 }
	defer func() { selfUID = real }()
	if _, err := Dial(dialCtx(t), path); !errors.Is(err, ErrPeer) {
		t.Fatalf("dial to a foreign server: %v, want ErrPeer", err)
	}
}

// With root we can run a real client as another user: the socket's mode
// stops it, and with the mode opened up the peer check still does.
func TestRealOtherUserIsRejected(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root to run a client as another uid")
	}
	if os.Getenv("PIPE_HELPER_DIAL") != "" {
		t.Skip("helper")
	}
	dir, err := os.MkdirTemp("", "agu")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o755)
	path := filepath.Join(dir, "s.sock")
	ln, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	l := ln.(*listener)
	rejected := make(chan error, 4)
	l.onReject = func(err error) { rejected <- err }
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("accepted\n"))
			c.Close()
		}
	}()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "helper")
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	run := func() string {
		cmd := exec.Command(bin, "-test.run=^TestHelperDial$")
		cmd.Env = append(os.Environ(), "PIPE_HELPER_DIAL="+path)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	if out := run(); !strings.Contains(out, "DIAL-ERR") {
		t.Fatalf("0600 socket let another user in: %s", out)
	}
	os.Chmod(path, 0o666)
	out := run()
	if strings.Contains(out, "READ:accepted") {
		t.Fatalf("another user's connection was served: %s", out)
	}
	select {
	case err := <-rejected:
		if !errors.Is(err, ErrPeer) {
			t.Fatalf("reject reason %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("no rejection recorded; helper said %s", out)
	}
}

// TestHelperDial is the child of TestRealOtherUserIsRejected.
func TestHelperDial(t *testing.T) {
	path := os.Getenv("PIPE_HELPER_DIAL")
	if path == "" {
		t.Skip("helper only")
	}
	c, err := net.Dial("unix", path)
	if err != nil {
		println("DIAL-ERR", err.Error())
		return
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	b, _ := io.ReadAll(c)
	println("READ:" + strings.TrimSpace(string(b)))
}
