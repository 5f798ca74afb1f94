package judge

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/agent-guard/agent-guard/app/config"
)

// labelled is one line of a JSONL corpus: the expected level and a full
// PreToolUse event.
type labelled struct {
	Expect Level           `json:"expect"`
	Event  json.RawMessage `json:"event"`
}

func readCorpus(t testing.TB, path string) []labelled {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []labelled
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for n := 1; sc.Scan(); n++ {
		if len(sc.Bytes()) == 0 {
			continue
		}
		var l labelled
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		out = append(out, l)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// judgeEvent runs one event the way the hook does: parse, state, judge
// (offline, default config, home /home/dev).
func judgeEvent(t testing.TB, j *Judge, raw []byte) (Verdict, State) {
	e, err := ParseEvent(raw)
	if err != nil {
		t.Fatalf("event %s: %v", raw, err)
	}
	s, err := StateFromEvent(e)
	if err != nil {
		t.Fatalf("state %s: %v", raw, err)
	}
	return j.Judge(context.Background(), s), s
}

func runCorpus(t *testing.T, path string, min int) {
	t.Setenv(config.HomeEnv, t.TempDir())
	cases := readCorpus(t, path)
	if len(cases) < min {
		t.Fatalf("%s has %d cases; want at least %d", path, len(cases), min)
	}
	j := New(config.Default(), Options{Offline: true, Home: "/home/dev"})
	bad := 0
	for i, c := range cases {
		v, _ := judgeEvent(t, j, c.Event)
		if v.Level != c.Expect {
			bad++
			t.Errorf("%s line %d: got %s (%s %s: %s); want %s\n  %s", path, i+1, v.Level, v.Source, v.Rule, v.Reason, c.Expect, c.Event)
		}
		if v.Rule == "" || v.Reason == "" || v.Source == "" {
			t.Errorf("%s line %d: verdict without rule/reason/source: %+v", path, i+1, v)
		}
	}
	t.Logf("%s: %d/%d as expected", path, len(cases)-bad, len(cases))
}

// TestSamples: the 12 public cases of the product brief.
func TestSamples(t *testing.T) { runCorpus(t, "../../testdata/samples.jsonl", 12) }

// TestCorpus: our labelled Write/Edit/MCP/self-protection corpus.
func TestCorpus(t *testing.T) { runCorpus(t, "testdata/corpus.jsonl", 150) }

// TestTamperCorpus: self-protection of Write/Edit/MCP calls (persistent
// AGENT_GUARD_* variables, autostart, the install folder) and whole-input
// judging past the remote judge's 2 KB cut.
// TestGapsCorpus: Write/Edit/MCP cases of the classes the judgegaps
// branch closed (code a CI workflow or .envrc will run).
func TestGapsCorpus(t *testing.T) { runCorpus(t, "testdata/gaps.jsonl", 12) }

func TestTamperCorpus(t *testing.T) { runCorpus(t, "testdata/tamper.jsonl", 15) }

// FuzzJudgeEvent: any event, however broken, gets a verdict with a rule
// and a reason, and no rule panics (a recovered panic shows up as
// judge.internal-error).
func FuzzJudgeEvent(f *testing.F) {
	f.Add([]byte(`{"tool_name":"Bash","tool_input":{"command":"git status; echo $(ls ~)"},"cwd":"/home/dev/proj"}`))
	f.Add([]byte(`{"tool_name":"Write","tool_input":{"file_path":"..\\..\\x.sh","content":"#!/bin/sh\nmake"},"cwd":"C:\\p"}`))
	f.Add([]byte(`{"tool_name":"mcp__fs__write_file","tool_input":{"path":"~/.claude/settings.json","content":"{\"a`))
	f.Add([]byte(`{"toolName":"Edit","toolInput":{"filePath":"Makefile","newString":"\tgo test"}}`))
	j := New(config.Default(), Options{Offline: true, Home: "/home/dev"})
	f.Fuzz(func(t *testing.T, raw []byte) {
		e, err := ParseEvent(raw)
		if err != nil {
			return
		}
		s, _ := StateFromEvent(e)
		v := j.Judge(context.Background(), s)
		if v.Rule == "" || v.Reason == "" || v.Source == "" {
			t.Fatalf("verdict without rule/reason/source: %+v", v)
		}
		if v.Rule == "judge.internal-error" {
			t.Fatalf("a rule panicked: %s", v.Reason)
		}
	})
}

// TestSamplesMock: with the --mock remote (fixed risk 1.0, violation 0.1,
// as typesafe.Stub) the public samples keep their levels: the remote can
// only raise, and 1.0/0.1 raises nothing past allow. (Whether a sample
// reaches the remote depends on the rule packs; TestRemote pins that.)
func TestSamplesMock(t *testing.T) {
	t.Setenv(config.HomeEnv, t.TempDir())
	r := &fakeRemote{risk: 1, viol: 0.1}
	j := New(config.Default(), Options{Remote: r, Home: "/home/dev"})
	for i, c := range readCorpus(t, "../../testdata/samples.jsonl") {
		if v, _ := judgeEvent(t, j, c.Event); v.Level != c.Expect {
			t.Errorf("sample %d: got %s (%s %s); want %s", i+1, v.Level, v.Source, v.Rule, c.Expect)
		}
	}
}
