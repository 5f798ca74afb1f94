package judge

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/judge/corpus"
	"github.com/agent-guard/agent-guard/app/judge/disk"
	"github.com/agent-guard/agent-guard/app/judge/disk/disktest"
	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// judgeExample judges one catalog example the way its entry promises:
// by the default judge j, or, when the example carries a Setup, by a
// judge over that world, built for real (a config parsed like config.json,
// a git work tree and a home folder on disk, an injected fault). A setup
// the test cannot build fails the test: an example must never pass
// because its world was quietly left out.
func judgeExample(t *testing.T, j *Judge, ex rules.Example) Verdict {
	t.Helper()
	raw := exampleEvent(ex)
	su := ex.Setup
	if su == nil {
		v, _ := judgeEvent(t, j, raw)
		return v
	}
	cfg := config.Default()
	if su.Config != nil {
		c, err := config.Parse(su.Config)
		if err != nil {
			t.Fatalf("example %s: setup config: %v", raw, err)
		}
		cfg = c
	}
	opts := Options{Offline: true, Home: corpus.Home}
	if len(su.Home) > 0 {
		opts.Home = t.TempDir()
		for _, f := range su.Home {
			disktest.WriteFile(t, opts.Home, f, "made by the catalog test\n")
		}
	}
	if su.Repo != nil {
		dir := buildRepo(t, su.Repo)
		raw = withCwd(t, raw, dir)
		l := disk.New(2 * time.Second) // generous: the test machine is shared
		l.Temp = nil                   // the repo lives under the temp folder; do not call it scratch
		opts.Disk = l
	}
	switch su.Fault {
	case "":
	case rules.FaultRulePanic:
		defer swapBashRule(func() rules.Finding { panic("a rule panicked (injected by the catalog test)") })()
	case rules.FaultRuleSlow:
		opts.Budget = 20 * time.Millisecond
		// The rule blocks until the example is judged; the restore lets
		// the abandoned judgment finish before the rule is swapped back
		// (no race with the goroutine the budget left running).
		release, finished := make(chan struct{}), make(chan struct{})
		restore := swapBashRule(func() rules.Finding {
			defer close(finished)
			<-release
			return rules.Finding{Rule: "fake.slow"}
		})
		defer func() { close(release); <-finished; restore() }()
		raw = padCommand(t, raw, inlineBytes)
	case rules.FaultRuleSilent:
		defer swapBashRule(func() rules.Finding { return rules.Finding{} })()
	case rules.FaultDiskBudget:
		if opts.Disk == nil {
			t.Fatalf("example %s: fault %s needs a repo", raw, su.Fault)
		}
		opts.Disk = disk.New(time.Nanosecond)
		opts.Disk.Temp = nil
	case rules.FaultAboveMaxRead:
		raw = padContent(t, raw, shell.MaxInput)
	case rules.FaultNoTool:
		// An in-process caller's State with no tool: ParseEvent refuses
		// such an event, so it is built by hand.
		return New(cfg, opts).Judge(context.Background(), State{Cwd: corpus.DefaultCwd})
	default:
		t.Fatalf("example %s: unknown fault %q", raw, su.Fault)
	}
	v, _ := judgeEvent(t, New(cfg, opts), raw)
	return v
}

// swapBashRule replaces the Bash rules for one example (a fault); the
// caller restores them with the func it returns, before the next example.
func swapBashRule(f func() rules.Finding) (restore func()) {
	old := bashRule
	bashRule = func(*shell.Analysis, string, string, string) rules.Finding { return f() }
	return func() { bashRule = old }
}

// buildRepo makes the work tree a Repo describes: everything committed
// first, then the modified files changed and the untracked ones added.
func buildRepo(t *testing.T, spec *rules.Repo) string {
	r := disktest.NewRepo(t)
	for _, p := range expandPaths(spec.Committed) {
		r.Write(p, "committed "+p+"\n")
	}
	for _, p := range expandPaths(spec.Modified) {
		r.Write(p, "committed "+p+"\n")
	}
	r.Write(".keep", "")
	r.Commit("catalog example")
	for _, p := range expandPaths(spec.Modified) {
		r.Write(p, "changed by the user "+p+"\n")
	}
	for _, p := range expandPaths(spec.Untracked) {
		r.Write(p, "the user's "+p+"\n")
	}
	return r.Dir
}

// expandPaths turns "drafts/d.md x3" into drafts/d0.md, d1.md, d2.md.
func expandPaths(ps []string) []string {
	var out []string
	for _, p := range ps {
		name, count, ok := strings.Cut(p, " x")
		n, err := strconv.Atoi(count)
		if !ok || err != nil {
			out = append(out, p)
			continue
		}
		ext := filepath.Ext(name)
		for i := range n {
			out = append(out, fmt.Sprintf("%s%d%s", strings.TrimSuffix(name, ext), i, ext))
		}
	}
	return out
}

// editEvent decodes a hook event, lets edit change it, and encodes it.
func editEvent(t *testing.T, raw json.RawMessage, edit func(ev map[string]any)) json.RawMessage {
	var ev map[string]any
	if err := json.Unmarshal(raw, &ev); err != nil {
		t.Fatalf("event %s: %v", raw, err)
	}
	edit(ev)
	out, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func withCwd(t *testing.T, raw json.RawMessage, dir string) json.RawMessage {
	return editEvent(t, raw, func(ev map[string]any) { ev["cwd"] = dir })
}

// padCommand lengthens a Bash command past n bytes with a trailing comment.
func padCommand(t *testing.T, raw json.RawMessage, n int) json.RawMessage {
	return editEvent(t, raw, func(ev map[string]any) {
		in, _ := ev["tool_input"].(map[string]any)
		cmd, _ := in["command"].(string)
		in["command"] = cmd + " # " + strings.Repeat("x", n)
	})
}

// padContent lengthens a Write's content past n bytes with comment lines.
func padContent(t *testing.T, raw json.RawMessage, n int) json.RawMessage {
	return editEvent(t, raw, func(ev map[string]any) {
		in, _ := ev["tool_input"].(map[string]any)
		c, _ := in["content"].(string)
		in["content"] = c + strings.Repeat("# padding\n", n/10+1)
	})
}

// TestExpandPaths pins the " xN" shorthand of a Repo's paths.
func TestExpandPaths(t *testing.T) {
	cases := []struct {
		in   []string
		want string
	}{
		{[]string{"a.txt"}, "a.txt"},
		{[]string{"d/f.md x3"}, "d/f0.md d/f1.md d/f2.md"},
		{[]string{"Makefile x2"}, "Makefile0 Makefile1"},
		{[]string{"odd x"}, "odd x"},
	}
	for _, c := range cases {
		if got := strings.Join(expandPaths(c.in), " "); got != c.want {
			t.Errorf("expandPaths(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
