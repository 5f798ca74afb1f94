package guard

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/judge/session"
)

// The server and the hook's fallback are two guard.Open over the same
// paths: what one remembers of a session, the other sees.
func TestSessionMemorySharedByServerAndFallback(t *testing.T) {
	p := paths(t)
	server, err := Open(Options{Paths: p, Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	defer server.Close()
	cwd := t.TempDir()
	ctx := context.Background()
	v := server.Judge.Judge(ctx, judge.State{Tool: "Bash", Command: "cp /bin/rm ./zap", Cwd: cwd, Session: "sess-1"})
	if v.Level == judge.Block {
		t.Fatalf("cp: %v %s", v.Level, v.Reason)
	}
	if _, err := os.Stat(filepath.Join(p.CacheDir, session.DirName)); err != nil {
		t.Fatalf("no session store beside the cache: %v", err)
	}
	fallback, err := Open(Options{Paths: p, Offline: true})
	if err != nil {
		t.Fatal(err)
	}
	defer fallback.Close()
	v = fallback.Judge.Judge(ctx, judge.State{Tool: "Bash", Command: "./zap -rf ~/", Cwd: cwd, Session: "sess-1"})
	if v.Level != judge.Block {
		t.Errorf("fallback: ./zap after cp /bin/rm ./zap: %v %s", v.Level, v.Reason)
	}
}
