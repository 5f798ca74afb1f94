package judge

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/judge/disk"
	"github.com/agent-guard/agent-guard/app/judge/disk/disktest"
	"github.com/agent-guard/agent-guard/app/judge/session"
)

func machineJudge(t *testing.T, sessions string) *Judge {
	l := disk.New(2 * time.Second)
	l.Temp = nil
	return New(nil, Options{Offline: true, Home: "/home/nobody", Disk: l, Sessions: session.Open(sessions, time.Hour)})
}

func event(t *testing.T, sess, cwd, tool string, input map[string]any) State {
	raw, _ := json.Marshal(input)
	s, err := StateFromEvent(Event{SessionID: sess, Cwd: cwd, ToolName: tool, ToolInput: raw})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A session writes a file and then runs it; defines a name and then
// calls it; the hook's fallback (another judge on the same folder) sees it.
func TestSessionMemoryAcrossCalls(t *testing.T) {
	t.Setenv("AGENT_GUARD_HOME", t.TempDir())
	r := disktest.NewRepo(t)
	r.Write("README.md", "x\n")
	r.Commit("init")
	store := filepath.Join(t.TempDir(), "cache", session.DirName)
	j := machineJudge(t, store)
	ctx := context.Background()
	judge := func(j *Judge, s State) Verdict { return j.Judge(ctx, s) }

	// 1. The agent writes a new data file; deleting it later is its own scratch.
	s := event(t, "S", r.Dir, "Write", map[string]any{"file_path": "reports/report.csv", "content": "a,b\n"})
	if v := judge(j, s); v.Level != Allow {
		t.Fatalf("Write: %v %s", v.Level, v.Reason)
	}
	r.Write("reports/report.csv", "a,b\n") // the host performs the write
	r.Write("notes.txt", "the user's own\n")
	if v := judge(j, event(t, "S", r.Dir, "Bash", map[string]any{"command": "rm reports/report.csv"})); v.Level != Allow {
		t.Errorf("rm of the agent's own file: %v %s", v.Level, v.Reason)
	}
	if v := judge(j, event(t, "S", r.Dir, "Bash", map[string]any{"command": "rm notes.txt"})); v.Level != Confirm {
		t.Errorf("rm of the user's untracked file: %v %s", v.Level, v.Reason)
	}
	// Another session did not write it.
	if v := judge(j, event(t, "T", r.Dir, "Bash", map[string]any{"command": "rm reports/report.csv"})); v.Level != Confirm {
		t.Errorf("another session: %v %s", v.Level, v.Reason)
	}

	// 2. Names defined in one call, used in the next.
	for _, c := range []struct {
		define, use string
		want        Level
	}{
		{"cp /bin/rm /tmp/tidy-" + filepath.Base(r.Dir), "/tmp/tidy-" + filepath.Base(r.Dir) + " -rf ~/", Block},
		{"ln -s /bin/rm ./zap", "./zap -rf /", Block},
		{`tidyup() { rm -rf "$1"; }`, "tidyup ~", Block},
		{"alias b='go build ./...'", "b", Allow},
	} {
		if v := judge(j, event(t, "S", r.Dir, "Bash", map[string]any{"command": c.define})); v.Level == Block {
			t.Fatalf("%q: %v %s", c.define, v.Level, v.Reason)
		}
		if v := judge(j, event(t, "S", r.Dir, "Bash", map[string]any{"command": c.use})); v.Level != c.want {
			t.Errorf("%q after %q: %v %s", c.use, c.define, v.Level, v.Reason)
		}
		// The fallback: a second judge over the same store.
		if v := judge(machineJudge(t, store), event(t, "S", r.Dir, "Bash", map[string]any{"command": c.use})); v.Level != c.want {
			t.Errorf("fallback: %q: %v %s", c.use, v.Level, v.Reason)
		}
	}

	// 3. A script written by Write and then run is judged by its content.
	s = event(t, "S", r.Dir, "Write", map[string]any{"file_path": "ci.sh", "content": "#!/bin/sh\necho ok\n"})
	judge(j, s)
	r.Write("ci.sh", "#!/bin/sh\necho ok\n")
	if v := judge(j, event(t, "S", r.Dir, "Bash", map[string]any{"command": "bash ci.sh"})); v.Level != Allow {
		t.Errorf("harmless script: %v %s", v.Level, v.Reason)
	}
	r.Write("ci.sh", "#!/bin/sh\n"+string(make([]byte, 0))+"echo ok\nrm -rf ~/\n")
	if v := judge(j, event(t, "S", r.Dir, "Bash", map[string]any{"command": "bash ci.sh"})); v.Level != Block {
		t.Errorf("script changed to a wipe: %v %s", v.Level, v.Reason)
	}
}

// A dry run (agent-guard check) reads the memory but never adds to it.
func TestDryRunRemembersNothing(t *testing.T) {
	store := filepath.Join(t.TempDir(), session.DirName)
	j := New(nil, Options{Offline: true, Home: "/home/nobody", Disk: disk.New(time.Second), Sessions: session.Open(store, time.Hour), DryRun: true})
	j.Judge(context.Background(), event(t, "S", t.TempDir(), "Bash", map[string]any{"command": "cp /bin/rm ./zap"}))
	if _, _, ok := session.Open(store, time.Hour).View("S").Defined("zap"); ok {
		t.Error("a dry run added to the session memory")
	}
}
