//go:build linux || darwin

package peer

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHelperServe is the child the tests below run as a server: it listens
// on PEER_HELPER_SOCK and holds every connection open until killed.
func TestHelperServe(t *testing.T) {
	path := os.Getenv("PEER_HELPER_SOCK")
	if path == "" {
		t.Skip("helper only")
	}
	l, err := net.Listen("unix", path)
	if err != nil {
		println("ERR", err.Error())
		os.Exit(1)
	}
	os.Stdout.WriteString("READY\n")
	for {
		c, err := l.Accept()
		if err != nil {
			os.Exit(1)
		}
		go io.Copy(io.Discard, c)
	}
}

// serveChild runs bin as a TestHelperServe child with extra env and
// returns the socket path once it listens.
func serveChild(t testing.TB, bin string, env ...string) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "agpeer")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	sock := filepath.Join(dir, "s.sock")
	cmd := exec.Command(bin, "-test.run=^TestHelperServe$")
	cmd.Env = append(append(os.Environ(), "PEER_HELPER_SOCK="+sock), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(out)
	if !sc.Scan() || sc.Text() != "READY" {
		t.Fatalf("helper did not start: %q", sc.Text())
	}
	return sock
}

func dial(t testing.TB, sock string) net.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := (&net.Dialer{}).DialContext(ctx, "unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func self(t testing.TB) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return exe
}

func copyOf(t testing.TB, bin string) string {
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	cp := filepath.Join(t.TempDir(), "agent-guard")
	if err := os.WriteFile(cp, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return cp
}

func TestVerifyServer(t *testing.T) {
	exe := self(t)
	home := t.TempDir()
	cases := []struct {
		name    string
		bin     string // the server's executable (default: this test binary)
		env     []string
		genuine string // the binary the hook trusts (default: this test binary)
		why     string // "" = verified
	}{
		{name: "genuine", env: []string{"AGENT_GUARD_HOME=" + home}},
		{name: "genuine with its pipe", env: []string{"AGENT_GUARD_HOME=" + home, "AGENT_GUARD_PIPE=SOCK"}},
		{name: "a copy of the binary", bin: "copy", env: []string{"AGENT_GUARD_HOME=" + home}, why: "another executable"},
		{name: "another binary trusted", genuine: "copy", env: []string{"AGENT_GUARD_HOME=" + home}, why: "another executable"},
		{name: "another config home", env: []string{"AGENT_GUARD_HOME=" + t.TempDir()}, why: "config home"},
		{name: "no config home", env: []string{"AGENT_GUARD_HOME="}, why: "config home"},
		{name: "another pipe", env: []string{"AGENT_GUARD_HOME=" + home, "AGENT_GUARD_PIPE=/elsewhere.sock"}, why: "started for the pipe"},
	}
	cp := copyOf(t, exe)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			bin, genuine := exe, exe
			if c.bin == "copy" {
				bin = cp
			}
			if c.genuine == "copy" {
				genuine = cp
			}
			// SOCK in the env stands for the socket's own path.
			dir, err := os.MkdirTemp("", "agpeer")
			if err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(dir)
			var env []string
			for _, kv := range c.env {
				env = append(env, strings.ReplaceAll(kv, "=SOCK", "="+filepath.Join(dir, "s.sock")))
			}
			sock := serveChildAt(t, bin, filepath.Join(dir, "s.sock"), env...)
			p, err := VerifyServer(dial(t, sock), Expect{Binary: genuine, Home: home, Pipe: sock})
			if c.why == "" {
				if err != nil || p.PID <= 0 || p.PID == os.Getpid() {
					t.Fatalf("genuine server refused: %+v %v", p, err)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, ErrImpostor) || !strings.Contains(err.Error(), c.why) || e.Proc.PID != p.PID || p.PID <= 0 {
				t.Fatalf("impostor: %+v %v, want %q", p, err, c.why)
			}
			if !strings.Contains(err.Error(), sock) || !strings.Contains(err.Error(), genuine) {
				t.Fatalf("reason does not name the socket and the genuine binary: %v", err)
			}
		})
	}
}

// serveChildAt is serveChild on a given socket path.
func serveChildAt(t testing.TB, bin, sock string, env ...string) string {
	t.Helper()
	cmd := exec.Command(bin, "-test.run=^TestHelperServe$")
	cmd.Env = append(append(os.Environ(), "PEER_HELPER_SOCK="+sock), env...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	sc := bufio.NewScanner(out)
	if !sc.Scan() || sc.Text() != "READY" {
		t.Fatalf("helper did not start: %q", sc.Text())
	}
	return sock
}

// BenchmarkVerifyServer is the identity check's cost on the hook's path:
// getsockopt, two stats and the reads of environ and cmdline.
func BenchmarkVerifyServer(b *testing.B) {
	home := b.TempDir()
	exe := self(b)
	sock := serveChild(b, exe, "AGENT_GUARD_HOME="+home)
	c := dial(b, sock)
	want := Expect{Binary: exe, Home: home, Pipe: sock}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := VerifyServer(c, want); err != nil {
			b.Fatal(err)
		}
	}
}
