package judge

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-guard/agent-guard/app/protect"
)

// A kill by pid is judged by what runs under that pid now: the guard's
// own process (found by its command line in the process table) is a red
// line in every shell's spelling, anything else is an ordinary kill. The
// table here is a fake one, so no live process decides.
func TestKillByPidReadsProcessTable(t *testing.T) {
	root := t.TempDir()
	procs := map[string]string{
		"4242": "/opt/agent-guard/agent-guard\x00serve\x00--headless\x00",
		"4343": "node\x00server.js\x00",
	}
	for pid, cmdline := range procs {
		if err := os.MkdirAll(filepath.Join(root, pid), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, pid, "cmdline"), []byte(cmdline), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old := protect.ProcRoot
	protect.ProcRoot = root
	t.Cleanup(func() { protect.ProcRoot = old })

	j := catalogJudge(t)
	cases := []struct {
		line  string
		level Level
		rule  string
	}{
		{"kill -9 4242", Block, "self.kill-guard"},
		{"kill -s TERM 4242", Block, "self.kill-guard"},
		{"taskkill /PID 4242 /F", Block, "self.kill-guard"},
		{"Stop-Process -Id 4242 -Force", Block, "self.kill-guard"},
		{"kill -9 4343", Confirm, "proc.kill"},
		{"kill 4444", Confirm, "proc.kill"}, // no such process
	}
	for _, c := range cases {
		ev, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash",
			"tool_input": map[string]string{"command": c.line}, "cwd": "/home/dev/proj"})
		v, _ := judgeEvent(t, j, ev)
		if v.Level != c.level || v.Rule != c.rule {
			t.Errorf("%s: %v %s (%s); want %v %s", c.line, v.Level, v.Rule, v.Reason, c.level, c.rule)
		}
	}
}
