package judge

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/hostproto"
	"github.com/agent-guard/agent-guard/app/judge/corpus"
	"github.com/agent-guard/agent-guard/app/judge/rules"
)

// judgeEvent runs one event the way the hook does: parse, state, judge.
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

// judgeCase judges a corpus case: its Claude-shaped event, or its host's
// own event through that host's dialect.
func judgeCase(t testing.TB, j *Judge, c corpus.Case) Verdict {
	if c.Host != "" {
		return judgeHostEvent(t, j, c.Host, c.EventJSON())
	}
	v, _ := judgeEvent(t, j, c.EventJSON())
	return v
}

// judgeHostEvent reads a host's own event through its dialect, as the
// hook and the server do, and judges every part it holds: the strictest
// verdict decides. A call the host dialect does not judge is allow.
func judgeHostEvent(t testing.TB, j *Judge, host string, raw []byte) Verdict {
	h, ok := hostproto.Lookup(host)
	if !ok {
		t.Fatalf("unknown host %q", host)
	}
	ev, judged, err := h.Parse(raw)
	if err != nil {
		t.Fatalf("%s event %s: %v", host, raw, err)
	}
	if !judged {
		return Verdict{Level: Allow, Source: SourceRule, Rule: "tool.not-judged", Reason: "agent-guard does not judge the " + ev.ToolName + " tool"}
	}
	var worst Verdict
	for i, p := range ev.Each() {
		p.Parts = nil
		s, err := StateFromEvent(p)
		if err != nil {
			t.Fatalf("%s event %s: part %d: %v", host, raw, i+1, err)
		}
		v := j.Judge(context.Background(), s)
		if i == 0 || v.Level > worst.Level {
			worst = v
		}
	}
	return worst
}

// runCorpus judges every case of a corpus file the way the hook does
// (parse, state, judge: offline, default config, home /home/dev, an
// AGENT_GUARD_HOME that does not exist) and checks the level, the rule
// the case names, and that the rule is in the catalog. load is
// corpus.Load, or corpus.LoadLenient for the product brief's samples.
func runCorpus(t *testing.T, path string, min int, load func(string) ([]corpus.Case, error)) {
	j := catalogJudge(t)
	cases, err := load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < min {
		t.Fatalf("%s has %d cases; want at least %d", path, len(cases), min)
	}
	bad := 0
	for _, c := range cases {
		v := judgeCase(t, j, c)
		lo, hi := c.Want()
		switch {
		case !c.Accepts(v.Level.String()):
			bad++
			t.Errorf("%s: got %s (%s %s: %s); want %s..%s\n  %s", c.Where(), v.Level, v.Source, v.Rule, v.Reason, lo, hi, c.EventJSON())
		case c.Rule != "" && v.Rule != c.Rule:
			bad++
			t.Errorf("%s: %s by %s (%s); the case expects rule %s\n  %s", c.Where(), v.Level, v.Rule, v.Reason, c.Rule, c.EventJSON())
		}
		if v.Rule == "" || v.Reason == "" || v.Source == "" {
			t.Errorf("%s: verdict without rule/reason/source: %+v", c.Where(), v)
		}
		if strings.ContainsRune(v.Reason, 0) {
			t.Errorf("%s: the reason shows the walk's run-time marker (a NUL byte): %q", c.Where(), v.Reason)
		}
		if strings.Contains(v.Reason, "  ") && !strings.Contains(string(c.EventJSON()), "  ") {
			t.Errorf("%s: the reason has a doubled space (a part left empty): %q", c.Where(), v.Reason)
		}
		if _, ok := rules.Lookup(v.Rule); !ok {
			t.Errorf("%s: the verdict names %q, which the rule catalog does not declare", c.Where(), v.Rule)
		}
	}
	t.Logf("%s: %d/%d as expected", path, len(cases)-bad, len(cases))
}

// TestSamples: the 12 public cases of the product brief.
// Its format is the brief's: cases need not name a rule.
func TestSamples(t *testing.T) { runCorpus(t, samplesPath, 12, corpus.LoadLenient) }

// samplesPath is the repository's copy of the product brief's public
// samples (the brief's own file sits beside the clone, ../shared).
const samplesPath = "../../testdata/samples.jsonl"

// TestCorpus: our labelled Write/Edit/MCP/self-protection corpus.
func TestCorpus(t *testing.T) { runCorpus(t, "testdata/corpus.jsonl", 150, corpus.Load) }

// TestTamperCorpus: self-protection of Write/Edit/MCP calls (persistent
// AGENT_GUARD_* variables, autostart, the install folder) and whole-input
// judging past the remote judge's 2 KB cut.
// TestGapsCorpus: Write/Edit/MCP cases of the classes the judgegaps
// branch closed (code a CI workflow or .envrc will run).
func TestGapsCorpus(t *testing.T) { runCorpus(t, "testdata/gaps.jsonl", 12, corpus.Load) }

func TestTamperCorpus(t *testing.T) { runCorpus(t, "testdata/tamper.jsonl", 15, corpus.Load) }

// TestHostsCorpus: host-native events (each host's own tool names and
// argument shapes, tools its table does not map) read through
// app/hostproto and judged part by part: the same attack or everyday call
// must reach the same verdict on every host.
func TestHostsCorpus(t *testing.T) { runCorpus(t, "testdata/hosts.jsonl", 30, corpus.Load) }

// TestRulesCorpora: the rule packs' corpora (rules/testdata), judged
// here through the whole judge as the hook runs it; rules/corpus_test.go
// runs them through the packs alone.
func TestRulesCorpora(t *testing.T) {
	files, err := filepath.Glob("rules/testdata/*.jsonl")
	if err != nil || len(files) < 8 {
		t.Fatalf("rules/testdata has %d corpora (%v); want at least 8", len(files), err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) { runCorpus(t, f, 10, corpus.Load) })
	}
}

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
	cases, err := corpus.LoadLenient(samplesPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if v, _ := judgeEvent(t, j, c.EventJSON()); !c.Accepts(v.Level.String()) {
			t.Errorf("%s: got %s (%s %s); want %s", c.Where(), v.Level, v.Source, v.Rule, c.Expect)
		}
	}
}
