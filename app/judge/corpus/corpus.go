// Package corpus reads the labelled cases that pin the judge's behaviour:
// one JSON object a line, in one format for every corpus (app/judge/testdata,
// app/judge/rules/testdata, the product brief's samples.jsonl):
//
//	{"cmd": "git push --force", "cwd": "/home/dev/proj", "min": "confirm", "max": "block", "rule": "git.push-force", "note": "why"}
//	{"event": {"tool_name": "Write", "tool_input": {...}, "cwd": "..."}, "expect": "block", "rule": "self.config"}
//
// A case is a Bash command (cmd, with cwd, default /home/dev/proj) or a
// whole hook event. "expect" pins one level and is short for min = max;
// "min" alone means at least. "rule" names the rule id the verdict must
// carry (as the verdict names it, route prefixes included); it is required
// whenever the case expects confirm or block, so a case cannot pass for
// the wrong reason. Empty lines and lines starting with "//" are comments.
package corpus

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// DefaultCwd is the working directory of a cmd case without one.
const DefaultCwd = "/home/dev/proj"

// Home is the user's home the corpora are written against.
const Home = "/home/dev"

// Levels in order; a case's levels are among them.
var Levels = []string{"allow", "confirm", "block"}

// Case is one labelled call.
type Case struct {
	Cmd   string          `json:"cmd,omitempty"`
	Cwd   string          `json:"cwd,omitempty"`
	Event json.RawMessage `json:"event,omitempty"`
	// Host names the agent host whose own event Event is (codex, gemini,
	// cursor...): the case is read through that host's dialect
	// (app/hostproto) and every part it holds is judged, the strictest
	// verdict deciding, as the hook does. Empty: a Claude-shaped event.
	Host   string `json:"host,omitempty"`
	Expect string `json:"expect,omitempty"`
	Min    string `json:"min,omitempty"`
	Max    string `json:"max,omitempty"`
	Rule   string `json:"rule,omitempty"`
	Note   string `json:"note,omitempty"`

	File string `json:"-"` // base name of the corpus file
	Line int    `json:"-"`
}

// Rank returns a level's place in Levels, or -1.
func Rank(level string) int {
	for i, l := range Levels {
		if l == level {
			return i
		}
	}
	return -1
}

// Want returns the lowest and highest level the case accepts ("" max:
// no upper bound).
func (c Case) Want() (min, max string) {
	if c.Expect != "" {
		return c.Expect, c.Expect
	}
	return c.Min, c.Max
}

// Accepts reports whether level is within the case's range.
func (c Case) Accepts(level string) bool {
	min, max := c.Want()
	r := Rank(level)
	return r >= Rank(min) && (max == "" || r <= Rank(max))
}

// EventJSON returns the hook event of the case: its own, or a Bash event
// for cmd in cwd.
func (c Case) EventJSON() json.RawMessage {
	if c.Event != nil {
		return c.Event
	}
	b, _ := json.Marshal(map[string]any{
		"hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": map[string]any{"command": c.Cmd}, "cwd": c.Cwd,
	})
	return b
}

// Where names the case for a failure message.
func (c Case) Where() string { return fmt.Sprintf("%s:%d", c.File, c.Line) }

func (c *Case) check(strict bool) error {
	if (c.Cmd == "") == (c.Event == nil) {
		return fmt.Errorf("a case needs exactly one of cmd and event")
	}
	if c.Host != "" && c.Event == nil {
		return fmt.Errorf("a host case needs the host's own event")
	}
	if c.Event != nil && c.Cwd != "" {
		return fmt.Errorf("cwd belongs in the event of an event case")
	}
	if c.Expect != "" && (c.Min != "" || c.Max != "") {
		return fmt.Errorf("expect is short for min = max; give one or the other")
	}
	min, max := c.Want()
	if Rank(min) < 0 {
		return fmt.Errorf("level %q is not allow, confirm or block", min)
	}
	if max != "" && Rank(max) < Rank(min) {
		return fmt.Errorf("max %q is not allow, confirm or block at or above min %q", max, min)
	}
	if strict && Rank(min) > 0 && c.Rule == "" {
		return fmt.Errorf("a case that expects %s must name the rule it expects (\"rule\"; go test ./app/judge -run TestCorpusFillRules -fill-rules adds the judge's)", min)
	}
	if c.Event == nil && c.Cwd == "" {
		c.Cwd = DefaultCwd
	}
	return nil
}

// Load reads one corpus file. A missing file is an error: a corpus that
// disappears must fail the tests that rely on it, not skip them.
func Load(path string) ([]Case, error) { return load(path, true) }

// LoadLenient reads a corpus whose cases need not name their rule: the
// product brief's samples.jsonl (its format is not ours to change), and
// corpora on their way to being filled (TestCorpusFillRules).
func LoadLenient(path string) ([]Case, error) { return load(path, false) }

func load(path string, strict bool) ([]Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("corpus %s: %w", path, err)
	}
	var out []Case
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 4<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "//") {
			continue
		}
		var c Case
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		if err := c.check(strict); err != nil {
			return nil, fmt.Errorf("%s:%d: %v", path, n, err)
		}
		c.File, c.Line = filepath.Base(path), n
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("corpus %s has no cases", path)
	}
	return out, nil
}

// LoadAll reads every file the patterns match; a pattern that matches
// nothing is an error.
func LoadAll(patterns ...string) ([]Case, error) {
	var out []Case
	for _, p := range patterns {
		files, err := filepath.Glob(p)
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("no corpus matches %s", p)
		}
		for _, f := range files {
			cs, err := Load(f)
			if err != nil {
				return nil, err
			}
			out = append(out, cs...)
		}
	}
	return out, nil
}
