//go:build windows

package pipe

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

func testPipeName(t *testing.T) string {
	return fmt.Sprintf(`\\.\pipe\agent-guard-test-%d-%d`, os.Getpid(), time.Now().UnixNano())
}

func TestDefaultName(t *testing.T) {
	t.Setenv(Env, "")
	n, err := Name()
	if err != nil || !strings.HasPrefix(n, `\\.\pipe\agent-guard-`) {
		t.Fatalf("default name %q %v", n, err)
	}
	t.Setenv(Env, `\\.\pipe\other`)
	if n, _ := Name(); n != `\\.\pipe\other` {
		t.Fatalf("override: %q", n)
	}
}

func TestSDDL(t *testing.T) {
	sid, err := currentSID()
	if err != nil {
		t.Fatal(err)
	}
	got := SDDL(sid.String())
	want := "O:" + sid.String() + "D:P(A;;GA;;;" + sid.String() + ")(A;;GA;;;SY)"
	if got != want {
		t.Fatalf("SDDL %s, want %s", got, want)
	}
}

func TestBadNames(t *testing.T) {
	for _, n := range []string{"", "agent-guard", `\\server\pipe\x`, `\\.\pipe\`} {
		if _, err := Listen(n); err == nil {
			t.Errorf("Listen(%q) accepted", n)
		}
	}
}

// A second server on a live pipe name must be refused (ErrInUse): that is
// the single-instance check. Wine ignores the create-only flag, so this
// one can only pass on real Windows (scripts/wine-test.sh lists it).
func TestListenInUse(t *testing.T) {
	name := testPipeName(t)
	l, err := Listen(name)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l2, err := Listen(name)
	if err == nil {
		l2.Close()
		t.Fatal("second Listen on a live pipe succeeded")
	}
	if !errors.Is(err, ErrInUse) {
		t.Errorf("second Listen: %v; want ErrInUse", err)
	}
}

func TestRoundTrip(t *testing.T) {
	name := testPipeName(t)
	l, err := Listen(name)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		buf := make([]byte, 5)
		io.ReadFull(c, buf)
		c.Write(buf)
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := Dial(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	c.Write([]byte("hello"))
	got := make([]byte, 5)
	if _, err := io.ReadFull(c, got); err != nil || string(got) != "hello" {
		t.Fatalf("echo %q %v", got, err)
	}
}

// The first client after Listen must be served like any other: under
// wine (and on Windows 7) go-winio's placeholder first instance swallowed
// it, so the first hook after the server started hung until its deadline.
func TestFirstClientIsServed(t *testing.T) {
	name := testPipeName(t)
	l, err := Listen(name)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				buf := make([]byte, 5)
				if _, err := io.ReadFull(c, buf); err == nil {
					c.Write(buf)
				}
			}()
		}
	}()
	for i := range 3 {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		c, err := Dial(ctx, name)
		cancel()
		if err != nil {
			t.Fatalf("client %d: dial: %v", i+1, err)
		}
		c.SetDeadline(time.Now().Add(10 * time.Second))
		c.Write([]byte("hello"))
		got := make([]byte, 5)
		_, err = io.ReadFull(c, got)
		c.Close()
		if err != nil || string(got) != "hello" {
			t.Fatalf("client %d was not served: %q %v", i+1, got, err)
		}
	}
}

func TestDialNobody(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if _, err := Dial(ctx, testPipeName(t)); err == nil || errors.Is(err, ErrPeer) {
		t.Fatalf("dial to nothing: %v", err)
	}
}
