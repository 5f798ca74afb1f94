package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLoad(t *testing.T) {
	tests := []struct {
		name, text, err string
		n               int
	}{
		{"cmd with range", `{"cmd":"git status","min":"allow","max":"allow","rule":"git.read"}`, "", 1},
		{"event with expect", `{"event":{"tool_name":"Bash","tool_input":{"command":"ls"}},"expect":"allow"}`, "", 1},
		{"comments and blanks", "// a comment\n\n{\"cmd\":\"ls\",\"min\":\"allow\"}\n", "", 1},
		{"no cmd nor event", `{"min":"allow"}`, "exactly one of cmd and event", 0},
		{"cmd and event", `{"cmd":"ls","event":{},"min":"allow"}`, "exactly one of cmd and event", 0},
		{"cwd beside event", `{"event":{"tool_name":"Bash"},"cwd":"/x","expect":"allow"}`, "cwd belongs in the event", 0},
		{"expect and min", `{"cmd":"ls","expect":"allow","min":"allow"}`, "expect is short for min = max", 0},
		{"unknown level", `{"cmd":"ls","min":"maybe"}`, `level "maybe"`, 0},
		{"max below min", `{"cmd":"ls","min":"block","max":"allow","rule":"x"}`, "at or above min", 0},
		{"unknown field", `{"cmd":"ls","min":"allow","expected":"allow"}`, "unknown field", 0},
		{"not JSON", `{"cmd":`, "unexpected EOF", 0},
		{"empty file", "// only a comment\n", "no cases", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "c.jsonl")
			if err := os.WriteFile(p, []byte(tt.text), 0o600); err != nil {
				t.Fatal(err)
			}
			cs, err := Load(p)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err %v; want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil || len(cs) != tt.n {
				t.Fatalf("got %d cases, %v; want %d", len(cs), err, tt.n)
			}
		})
	}
}

func TestLoadMissingFails(t *testing.T) {
	if _, err := Load(filepath.Join(t.TempDir(), "gone.jsonl")); err == nil {
		t.Fatal("a missing corpus loaded without an error")
	}
	if _, err := LoadAll(filepath.Join(t.TempDir(), "*.jsonl")); err == nil {
		t.Fatal("a pattern matching no corpus loaded without an error")
	}
}

func TestCaseDefaults(t *testing.T) {
	p := filepath.Join(t.TempDir(), "c.jsonl")
	os.WriteFile(p, []byte(`{"cmd":"rm -rf /","min":"block","rule":"fs.rm-root"}`+"\n"), 0o600)
	cs, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	c := cs[0]
	if c.Cwd != DefaultCwd || c.File != "c.jsonl" || c.Line != 1 {
		t.Errorf("defaults: %+v", c)
	}
	if !c.Accepts("block") || c.Accepts("confirm") {
		t.Errorf("min block accepts confirm or refuses block")
	}
	if ev := string(c.EventJSON()); !strings.Contains(ev, `"command":"rm -rf /"`) || !strings.Contains(ev, `"cwd":"/home/dev/proj"`) {
		t.Errorf("event %s", ev)
	}
}
