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

func TestRoundTripAndInUse(t *testing.T) {
	name := testPipeName(t)
	l, err := Listen(name)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if _, err := Listen(name); err == nil {
		t.Fatal("second Listen on a live pipe succeeded")
	}
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
	c.Write([]byte("hello"))
	got := make([]byte, 5)
	if _, err := io.ReadFull(c, got); err != nil || string(got) != "hello" {
		t.Fatalf("echo %q %v", got, err)
	}
}

func TestDialNobody(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if _, err := Dial(ctx, testPipeName(t)); err == nil || errors.Is(err, ErrPeer) {
		t.Fatalf("dial to nothing: %v", err)
	}
}
