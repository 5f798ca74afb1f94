//go:build !nogui

package ui

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/pipe"
)

// The control socket only opens windows: whatever a client sends (an
// approval, an allow for a pending id, a verb with extra fields, junk),
// the tray's side is at most asked to open one of windowVerbs, and a
// window acts only on a person's clicks. The agent runs as the same
// user and can reach this socket, so this is what keeps it from
// answering its own approval here.
func TestControlSocketOnlyOpensWindows(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("unix socket paths; the Windows named pipe shares the handler")
	}
	sock := filepath.Join(t.TempDir(), "p.sock")
	t.Setenv(pipe.Env, sock)
	var mu sync.Mutex
	var opened []string
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		done <- serveControl(ctx, pipe.ControlName(sock), func(verb string) error {
			mu.Lock()
			defer mu.Unlock()
			opened = append(opened, verb)
			return nil
		})
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(pipe.ControlName(sock)); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the control socket did not appear")
		}
		time.Sleep(20 * time.Millisecond)
	}

	cases := []struct {
		name, req string
		ok        bool
		opens     string
	}{
		{"a window", `{"open":"rules"}`, true, "rules"},
		{"the queue", `{"open":"pending"}`, true, "pending"},
		{"an approval", `{"id":"1","action":"allow"}`, false, ""},
		{"an always", `{"action":"always","scope":"everywhere","id":"1"}`, false, ""},
		{"a window with an answer attached", `{"open":"pending","action":"allow","id":"1"}`, true, "pending"},
		{"an unknown window", `{"open":"allow"}`, false, ""},
		{"a verb with a path", `{"open":"../rules"}`, false, ""},
		{"not JSON", `allow 1`, false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mu.Lock()
			opened = nil
			mu.Unlock()
			rep := controlRoundTrip(t, pipe.ControlName(sock), tc.req)
			mu.Lock()
			got := append([]string(nil), opened...)
			mu.Unlock()
			if rep.OK != tc.ok {
				t.Fatalf("reply %+v, want ok=%v", rep, tc.ok)
			}
			switch {
			case tc.opens == "" && len(got) != 0:
				t.Fatalf("opened %v, want nothing", got)
			case tc.opens != "" && (len(got) != 1 || got[0] != tc.opens):
				t.Fatalf("opened %v, want only %s", got, tc.opens)
			}
		})
	}
	cancel()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("serveControl did not stop with its context")
	}
}

func controlRoundTrip(t *testing.T, name, req string) controlReply {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := pipe.Dial(ctx, name)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.Write([]byte(req + "\n")); err != nil {
		t.Fatal(err)
	}
	s := bufio.NewScanner(c)
	if !s.Scan() {
		t.Fatalf("no reply: %v", s.Err())
	}
	var rep controlReply
	if err := json.Unmarshal(s.Bytes(), &rep); err != nil {
		t.Fatalf("reply %q: %v", s.Text(), err)
	}
	return rep
}
