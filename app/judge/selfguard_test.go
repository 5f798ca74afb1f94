package judge

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// No config key turns self-protection off: every combination of the
// switches the agent could write into config.json still blocks a self.*
// finding, with source self_protection.
func TestSelfProtectionNotConfigurable(t *testing.T) {
	home := t.TempDir()
	cfgs := map[string]func(*config.Config){
		"disabled, red lines off": func(c *config.Config) { c.Enabled = false; c.RedLinesWhenDisabled = false },
		"disabled":                func(c *config.Config) { c.Enabled = false },
		"allowlist *":             func(c *config.Config) { c.Fastpath.Allowlist = []string{"*", "**"} },
		"thresholds at max":       func(c *config.Config) { c.BlockRisk, c.BlockViolation, c.ConfirmRisk, c.ConfirmViolation = 3, 1, 3, 1 },
		"mcp allowlist *":         func(c *config.Config) { c.Fastpath.MCPAllowlist = []string{"*"} },
	}
	calls := []State{
		{Tool: "Bash", Command: "pkill agent-guard"},
		{Tool: "Bash", Command: "rm -rf ~/.claude"},
		{Tool: "Write", FilePath: home + "/.claude/settings.json", Content: "{}"},
		{Tool: "mcp__fs__write_file", Server: "fs", MCPTool: "write_file", Args: `{"path":"~/.config/agent-guard/config.json","content":"{}"}`},
	}
	for name, edit := range cfgs {
		cfg := config.Default()
		edit(cfg)
		j := New(cfg, Options{Home: home, Offline: true})
		for _, s := range calls {
			v := j.Judge(context.Background(), s)
			if v.Level != Block || v.Source != SourceSelf || !strings.HasPrefix(v.Rule, "self.") {
				t.Errorf("%s: %s %s%s: got %v/%s/%s (%s), want block/self_protection", name, s.Tool, s.Command, s.FilePath, v.Level, v.Source, v.Rule, v.Reason)
			}
		}
	}
}

// The rules read the whole Write content and MCP arguments; only the
// remote judge's copy is cut to MaxPrefix, and Total says how much there was.
func TestWholeInputJudged(t *testing.T) {
	sql := "SELECT 1 -- " + strings.Repeat("x", 3000) + "\n; DROP DATABASE prod"
	in, _ := json.Marshal(map[string]string{"sql": sql})
	s, err := StateFromEvent(Event{ToolName: "mcp__db__query", ToolInput: in})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Args) != len(in) || s.Total != len(in) {
		t.Fatalf("state keeps %d of %d bytes (Total %d)", len(s.Args), len(in), s.Total)
	}
	if shown, total := s.Shown(); shown != MaxPrefix || total != len(in) {
		t.Errorf("Shown() = %d, %d; want %d, %d", shown, total, MaxPrefix, len(in))
	}
	if r := s.ForRemote(); len(r.Args) != MaxPrefix || r.Total != len(in) {
		t.Errorf("ForRemote keeps %d bytes (Total %d), want %d (%d)", len(r.Args), r.Total, MaxPrefix, len(in))
	}
	j := New(nil, Options{Home: t.TempDir(), Offline: true})
	if v := j.Judge(context.Background(), s); v.Level == Allow {
		t.Errorf("DROP DATABASE after 3 KB was allowed: %s %s", v.Rule, v.Reason)
	}
	script := "#!/bin/sh\n" + strings.Repeat("echo ok\n", 600) + "rm -rf ~\n"
	in, _ = json.Marshal(map[string]string{"file_path": "/p/deploy.sh", "content": script})
	s, err = StateFromEvent(Event{ToolName: "Write", ToolInput: in, Cwd: "/p"})
	if err != nil {
		t.Fatal(err)
	}
	if v := j.Judge(context.Background(), s); v.Level == Allow {
		t.Errorf("a script with rm -rf ~ after 4 KB was allowed: %s %s", v.Rule, v.Reason)
	}
}

// A judgment over its time budget is confirm, and the answer comes at
// the budget, not when the slow rule ends.
func TestBudget(t *testing.T) {
	release, finished := make(chan struct{}), make(chan struct{})
	old := bashRule
	bashRule = func(a *shell.Analysis, script, cwd, home string) rules.Finding {
		if strings.HasPrefix(script, "SLOW") {
			<-release
			defer close(finished)
		}
		return old(a, script, cwd, home)
	}
	t.Cleanup(func() {
		// Let the abandoned judgment finish before the rule is swapped back.
		close(release)
		<-finished
		bashRule = old
	})
	j := New(nil, Options{Home: t.TempDir(), Offline: true, Budget: 50 * time.Millisecond})
	start := time.Now()
	v := j.Judge(context.Background(), State{Tool: "Bash", Command: "SLOW " + strings.Repeat("x", 2000)})
	if v.Level != Confirm || v.Rule != "judge.over-budget" {
		t.Errorf("got %v %s, want confirm judge.over-budget", v.Level, v.Rule)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("answered after %v", d)
	}
}

// A self-protection finding reached through an interpreter pack
// ("Python/self.agent-hook-config") is self-protection too.
func TestSelfRuleThroughPacks(t *testing.T) {
	for rule, want := range map[string]bool{"self.guard-files": true, "Python/self.agent-hook-config": true,
		"fs.rm": false, "guard.cli-read": false, "myself.x": false} {
		if rules.SelfRule(rule) != want {
			t.Errorf("SelfRule(%q) = %v, want %v", rule, !want, want)
		}
	}
	cfg := config.Default()
	cfg.Enabled, cfg.RedLinesWhenDisabled = false, false
	j := New(cfg, Options{Home: "/home/dev", Offline: true})
	v := j.Judge(context.Background(), State{Tool: "Bash", Command: `python3 -c "open('/home/dev/.claude/settings.json','w').write('{}')"`})
	if v.Level != Block || v.Source != SourceSelf {
		t.Errorf("disabled config: interpreter write of the hook config got %v/%s %s", v.Level, v.Source, v.Rule)
	}
}
