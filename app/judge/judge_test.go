package judge

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

const home, cwd = "/home/dev", "/home/dev/proj"

// fakeBash replaces the shell rules so these tests pin the pipeline, not
// the rule packs (the samples and corpus tests use the real ones).
func fakeBash(t *testing.T, m map[string]rules.Finding) {
	t.Helper()
	old := bashRule
	bashRule = func(_ *shell.Analysis, script, cwd, home string) rules.Finding {
		if f, ok := m[script]; ok {
			return f
		}
		if strings.Contains(script, "PANIC") {
			panic("boom in a rule")
		}
		return rules.Finding{Rule: "fake.read", Reason: "read-only: " + script}
	}
	t.Cleanup(func() { bashRule = old })
}

type fakeRemote struct {
	mu         sync.Mutex
	calls      int
	risk, viol float64
	err        error
}

func (f *fakeRemote) Judge(ctx context.Context, s State) (float64, float64, []float64, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	return f.risk, f.viol, []float64{0.25, 0.25, 0.25, 0.25}, f.err
}

type mapCache struct {
	mu sync.Mutex
	m  map[string][2]float64
}

func (c *mapCache) Get(k string) (float64, float64, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v[0], v[1], ok
}

func (c *mapCache) Put(k string, r, v float64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = [2]float64{r, v}
}

var (
	rmRoot   = rules.Finding{Risk: 3, Violation: 0.95, RedLine: true, Rule: "fs.rm-root", Reason: "deletes /"}
	resetH   = rules.Finding{Risk: 2, Rule: "git.reset-hard", Reason: "discards work"}
	unknown1 = rules.Finding{Risk: 1, Rule: "unknown.program", Reason: "unknown program", Uncertain: true}
	unknown2 = rules.Finding{Risk: 2, Rule: "unknown.dynamic", Reason: "dynamic", Uncertain: true}
	selfBash = rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.kill", Reason: "kills agent-guard"}
)

func bash(c string) State { return State{Tool: "Bash", Command: c, Cwd: cwd} }

func TestPipeline(t *testing.T) {
	fakeBash(t, map[string]rules.Finding{
		"rm -rf /": rmRoot, "echo hi; rm -rf /": rmRoot, "git reset --hard": resetH,
		"frob": unknown1, "$X": unknown2, "pkill agent-guard": selfBash,
	})
	type tc struct {
		name   string
		cfg    func(c *config.Config)
		s      State
		level  Level
		source string
		rule   string
	}
	tests := []tc{
		{"read-only bash", nil, bash("git status"), Allow, SourceRule, "fake.read"},
		{"red line", nil, bash("rm -rf /"), Block, SourceRule, "fs.rm-root"},
		{"confirm", nil, bash("git reset --hard"), Confirm, SourceRule, "git.reset-hard"},
		{"self bash", nil, bash("pkill agent-guard"), Block, SourceSelf, "self.kill"},
		{"write sudoers", nil, State{Tool: "Write", FilePath: "/etc/sudoers", Cwd: cwd}, Block, SourceRule, "path.system"},
		{"write project", nil, State{Tool: "Write", FilePath: "src/a.go", Cwd: cwd}, Allow, SourceRule, "path.project"},
		{"edit hook config", nil, State{Tool: "Edit", FilePath: "~/.claude/settings.json", Cwd: cwd}, Block, SourceSelf, "self.agent-hook-config"},
		{"edit zcode workspace config", nil, State{Tool: "Edit", FilePath: ".zcode/config.json", Cwd: cwd}, Block, SourceSelf, "self.agent-hook-config"},
		{"mcp read", nil, State{Tool: "mcp__github__get_issue", Server: "github", MCPTool: "get_issue", Args: `{}`}, Allow, SourceRule, "mcp.read"},
		{"mcp mutate", nil, State{Tool: "mcp__github__push_files", Server: "github", MCPTool: "push_files", Args: `{}`}, Confirm, SourceRule, "mcp.mutating"},
		{"unjudged tool", nil, State{Tool: "Read", FilePath: "x"}, Allow, SourceRule, "tool.not-judged"},
		{"no tool", nil, State{}, Confirm, SourceError, "judge.no-tool"},
		{"panic", nil, bash("PANIC now"), Confirm, SourceError, "judge.internal-error"},

		// disabled
		{"disabled allows", func(c *config.Config) { c.Enabled = false }, bash("git reset --hard"), Allow, SourceDisabled, "git.reset-hard"},
		{"disabled red line", func(c *config.Config) { c.Enabled = false }, bash("rm -rf /"), Block, SourceRule, "fs.rm-root"},
		{"disabled self", func(c *config.Config) { c.Enabled = false }, State{Tool: "Write", FilePath: "~/.config/agent-guard/config.json", Cwd: cwd}, Block, SourceSelf, "self.guard-files"},
		{"disabled, red lines off", func(c *config.Config) { c.Enabled, c.RedLinesWhenDisabled = false, false }, bash("rm -rf /"), Allow, SourceDisabled, "fs.rm-root"},

		// allowlist per simple command
		{"allowlisted", func(c *config.Config) { c.Fastpath.Allowlist = []string{"echo *", "make"} }, bash("echo hi && make"), Allow, SourceFastpathAllow, "fastpath.allowlist"},
		{"allowlist whole-match", func(c *config.Config) { c.Fastpath.Allowlist = []string{"make"} }, bash("make install"), Allow, SourceRule, "fake.read"},
		{"allowlisted echo cannot carry rm", func(c *config.Config) { c.Fastpath.Allowlist = []string{"echo *"} }, bash("echo hi; rm -rf /"), Block, SourceRule, "fs.rm-root"},
		{"allowlist cannot lift a red line", func(c *config.Config) { c.Fastpath.Allowlist = []string{"*"} }, bash("rm -rf /"), Block, SourceRule, "fs.rm-root"},
		{"allowlist not under sudo", func(c *config.Config) { c.Fastpath.Allowlist = []string{"git reset*"} }, bash("sudo git reset --hard"), Allow, SourceRule, "fake.read"},
		{"allowlist not under run0", func(c *config.Config) { c.Fastpath.Allowlist = []string{"git reset*"} }, bash("run0 git reset --hard"), Allow, SourceRule, "fake.read"},
		{"allowlist not under runuser", func(c *config.Config) { c.Fastpath.Allowlist = []string{"git reset*"} }, bash("runuser -u root -- git reset --hard"), Allow, SourceRule, "fake.read"},
		{"allowlist lifts confirm", func(c *config.Config) { c.Fastpath.Allowlist = []string{"git reset*"} }, bash("git reset --hard"), Allow, SourceFastpathAllow, "fastpath.allowlist"},
		{"allowlist no risky redirect", func(c *config.Config) { c.Fastpath.Allowlist = []string{"echo *"} }, bash("echo x > ~/.bashrc"), Allow, SourceRule, "fake.read"},
		{"allowlist harmless redirect", func(c *config.Config) { c.Fastpath.Allowlist = []string{"echo *"} }, bash("echo x > out.txt 2>/dev/null"), Allow, SourceFastpathAllow, "fastpath.allowlist"},
		{"allowlist substitution", func(c *config.Config) { c.Fastpath.Allowlist = []string{"echo *"} }, bash("echo $(whoami)"), Allow, SourceRule, "fake.read"},
		{"allowlist not for self", func(c *config.Config) { c.Fastpath.Allowlist = []string{"pkill *"} }, bash("pkill agent-guard"), Block, SourceSelf, "self.kill"},

		// denylist
		{"denylisted", func(c *config.Config) { c.Fastpath.Denylist = []string{"git push*"} }, bash("git status && git push origin main"), Block, SourceFastpathBlock, "fastpath.denylist"},
		{"denylist in subshell", func(c *config.Config) { c.Fastpath.Denylist = []string{"curl *"} }, bash("x=$(curl -s example.com)"), Block, SourceFastpathBlock, "fastpath.denylist"},
		{"denylist beats allowlist", func(c *config.Config) {
			c.Fastpath.Denylist, c.Fastpath.Allowlist = []string{"npm publish*"}, []string{"npm *"}
		}, bash("npm publish"), Block, SourceFastpathBlock, "fastpath.denylist"},
		{"denylist mcp", func(c *config.Config) { c.Fastpath.Denylist = []string{"mcp__github__get_*"} }, State{Tool: "mcp__github__get_issue", Server: "github", MCPTool: "get_issue"}, Block, SourceFastpathBlock, "fastpath.denylist"},
		{"denylist no match", func(c *config.Config) { c.Fastpath.Denylist = []string{"git push*"} }, bash("git status"), Allow, SourceRule, "fake.read"},

		// mcp allowlist
		{"mcp allowlisted", func(c *config.Config) { c.Fastpath.MCPAllowlist = []string{"github"} }, State{Tool: "mcp__github__create_issue", Server: "github", MCPTool: "create_issue", Args: `{}`}, Allow, SourceFastpathMCP, "fastpath.mcp_allowlist"},
		{"mcp allowlist glob", func(c *config.Config) { c.Fastpath.MCPAllowlist = []string{"git*"} }, State{Tool: "mcp__github__create_issue", Server: "github", MCPTool: "create_issue", Args: `{}`}, Allow, SourceFastpathMCP, "fastpath.mcp_allowlist"},
		{"mcp allowlist not for self", func(c *config.Config) { c.Fastpath.MCPAllowlist = []string{"fs"} }, State{Tool: "mcp__fs__write_file", Server: "fs", MCPTool: "write_file", Args: `{"path":"~/.claude/settings.json"}`, Cwd: cwd}, Block, SourceSelf, "self.agent-hook-config"},
		{"mcp allowlist not for red line", func(c *config.Config) { c.Fastpath.MCPAllowlist = []string{"fs"} }, State{Tool: "mcp__fs__write_file", Server: "fs", MCPTool: "write_file", Args: `{"path":"/etc/passwd"}`, Cwd: cwd}, Block, SourceRule, "path.system"},
		{"mcp overrides from config", func(c *config.Config) {
			c.MCPOverrides = map[string]map[string]string{"github": {"create_*": "readonly"}}
		}, State{Tool: "mcp__github__create_issue", Server: "github", MCPTool: "create_issue", Args: `{}`}, Allow, SourceRule, "mcp.override-readonly"},

		// thresholds
		{"thresholds raise the bar", func(c *config.Config) { c.ConfirmRisk, c.BlockRisk = 2.1, 2.9 }, bash("git reset --hard"), Allow, SourceRule, "git.reset-hard"},
		{"thresholds lower the bar", func(c *config.Config) { c.ConfirmRisk, c.BlockRisk = 1, 2 }, bash("git reset --hard"), Block, SourceRule, "git.reset-hard"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := config.Default()
			if tt.cfg != nil {
				tt.cfg(c)
			}
			j := New(c, Options{Home: home})
			v := j.Judge(context.Background(), tt.s)
			if v.Level != tt.level || v.Source != tt.source || v.Rule != tt.rule {
				t.Fatalf("got %s/%s/%s (%s); want %s/%s/%s", v.Level, v.Source, v.Rule, v.Reason, tt.level, tt.source, tt.rule)
			}
			if v.Reason == "" {
				t.Fatal("empty reason")
			}
			if (tt.source == SourceSelf) != strings.HasPrefix(v.Rule, "self.") {
				t.Fatalf("self-protection source mismatch: %+v", v)
			}
		})
	}
}

func TestRemote(t *testing.T) {
	fakeBash(t, map[string]rules.Finding{"frob": unknown1, "$X": unknown2, "git reset --hard": resetH})
	tests := []struct {
		name       string
		cmd        string
		risk, viol float64
		err        error
		offline    bool
		level      Level
		source     string
		calls      int
		risk0      float64
	}{
		{"remote lower cannot lower", "frob", 0, 0, nil, false, Allow, SourceAPI, 1, 1},
		{"remote lower keeps confirm", "$X", 0, 0, nil, false, Confirm, SourceAPI, 1, 2},
		{"remote raises to block", "frob", 2.7, 0.2, nil, false, Block, SourceAPI, 1, 2.7},
		{"remote raises by violation", "frob", 0.5, 0.6, nil, false, Confirm, SourceAPI, 1, 1},
		{"remote error confirms", "frob", 0, 0, errors.New("typesafe: server error (HTTP 500)"), false, Confirm, SourceAPI, 1, 1},
		{"certain findings skip the remote", "git reset --hard", 3, 1, nil, false, Confirm, SourceRule, 0, 2},
		{"read-only skips the remote", "git status", 3, 1, nil, false, Allow, SourceRule, 0, 0},
		{"offline never calls", "frob", 3, 1, nil, true, Allow, SourceRule, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &fakeRemote{risk: tt.risk, viol: tt.viol, err: tt.err}
			j := New(config.Default(), Options{Remote: r, Offline: tt.offline, Home: home})
			v := j.Judge(context.Background(), bash(tt.cmd))
			if v.Level != tt.level || v.Source != tt.source || r.calls != tt.calls || v.Risk != tt.risk0 {
				t.Fatalf("got %s/%s risk %v calls %d (%s); want %s/%s risk %v calls %d", v.Level, v.Source, v.Risk, r.calls, v.Reason, tt.level, tt.source, tt.risk0, tt.calls)
			}
			if tt.err != nil && !strings.Contains(v.Reason, tt.err.Error()) {
				t.Fatalf("reason %q does not say what failed", v.Reason)
			}
		})
	}
}

func TestCacheHit(t *testing.T) {
	fakeBash(t, map[string]rules.Finding{"frob": unknown1})
	r := &fakeRemote{risk: 2, viol: 0.1}
	c := &mapCache{m: map[string][2]float64{}}
	j := New(config.Default(), Options{Remote: r, Cache: c, Home: home})
	v1 := j.Judge(context.Background(), bash("frob"))
	v2 := j.Judge(context.Background(), bash("frob"))
	if Key(bash("frob")) != Key(bash("  frob\n")) {
		t.Fatal("Key does not normalize surrounding space")
	}
	if v1.Source != SourceAPI || v2.Source != SourceCache || r.calls != 1 {
		t.Fatalf("sources %s, %s; remote calls %d", v1.Source, v2.Source, r.calls)
	}
	if v1.Level != Confirm || v2.Level != Confirm || v2.Risk != 2 {
		t.Fatalf("levels %s %s risk %v", v1.Level, v2.Level, v2.Risk)
	}
	// Judgments are cached, not levels: new thresholds reuse the entry.
	cfg := config.Default()
	cfg.ConfirmRisk, cfg.BlockRisk = 1, 1.9
	j.SetConfig(cfg)
	if v := j.Judge(context.Background(), bash("frob")); v.Level != Block || v.Source != SourceCache {
		t.Fatalf("after threshold change: %s/%s", v.Level, v.Source)
	}
	// Remote errors are not cached.
	r2 := &fakeRemote{err: errors.New("down")}
	c2 := &mapCache{m: map[string][2]float64{}}
	j2 := New(config.Default(), Options{Remote: r2, Cache: c2, Home: home})
	j2.Judge(context.Background(), bash("frob"))
	j2.Judge(context.Background(), bash("frob"))
	if r2.calls != 2 || len(c2.m) != 0 {
		t.Fatalf("error cached: calls %d, entries %d", r2.calls, len(c2.m))
	}
	// Different cwd, different key.
	if Key(State{Tool: "Bash", Command: "x", Cwd: "/a"}) == Key(State{Tool: "Bash", Command: "x", Cwd: "/b"}) {
		t.Fatal("cwd not in the key")
	}
}

func TestWriteScriptContent(t *testing.T) {
	fakeBash(t, map[string]rules.Finding{
		"set -e\nrm -rf /":    rmRoot,
		"rm -rf /":            rmRoot,
		"git reset --hard":    resetH,
		"frob":                unknown2,
		"make\nrm -rf /":      rmRoot,
		"npm test\nrm -rf /":  rmRoot,
		"#!/bin/sh\nrm -rf /": rmRoot,
	})
	tests := []struct {
		name  string
		s     State
		level Level
		rule  string
	}{
		{"dangerous shell script", State{Tool: "Write", FilePath: "deploy.sh", Content: "set -e\nrm -rf /", Cwd: cwd}, Confirm, "write.script-danger"},
		{"shebang", State{Tool: "Write", FilePath: "bin/run", Content: "#!/bin/sh\nrm -rf /", Cwd: cwd}, Confirm, "write.script-danger"},
		{"confirm-level script", State{Tool: "Write", FilePath: "x.sh", Content: "git reset --hard", Cwd: cwd}, Confirm, "write.script-danger"},
		{"uncertain script content stays", State{Tool: "Write", FilePath: "x.sh", Content: "frob", Cwd: cwd}, Allow, "path.project"},
		{"harmless script", State{Tool: "Write", FilePath: "build.sh", Content: "go build ./...", Cwd: cwd}, Allow, "path.project"},
		{"makefile recipe", State{Tool: "Write", FilePath: "Makefile", Content: "all:\n\t@make\n\t-rm -rf /\n", Cwd: cwd}, Confirm, "write.script-danger"},
		{"package.json", State{Tool: "Write", FilePath: "package.json", Content: `{"scripts":{"test":"rm -rf /"}}`, Cwd: cwd}, Confirm, "write.script-danger"},
		{"powershell line by line", State{Tool: "Write", FilePath: "x.ps1", Content: "# c\nrm -rf /\n", Cwd: cwd}, Confirm, "write.script-danger"},
		{"multiedit", State{Tool: "MultiEdit", FilePath: "x.sh", Content: `[{"old_string":"a","new_string":"rm -rf /"}]`, Cwd: cwd}, Confirm, "write.script-danger"},
		{"go file not a script", State{Tool: "Write", FilePath: "main.go", Content: "rm -rf /", Cwd: cwd}, Allow, "path.project"},
		{"system path still blocks", State{Tool: "Write", FilePath: "/usr/local/bin/x.sh", Content: "rm -rf /", Cwd: cwd}, Block, "path.system"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := New(config.Default(), Options{Home: home}).Judge(context.Background(), tt.s)
			if v.Level != tt.level || v.Rule != tt.rule {
				t.Fatalf("got %s %s (%s); want %s %s", v.Level, v.Rule, v.Reason, tt.level, tt.rule)
			}
		})
	}
}

func TestGlob(t *testing.T) {
	tests := []struct {
		p, s string
		want bool
	}{
		{"make", "make", true}, {"make", "make install", false}, {"make*", "make install", true},
		{"npm test*", "npm test -- --watch", true}, {"npm test*", "npm install", false},
		{"git log*", "git log --oneline", true}, {"*", "", true}, {"a*b*c", "axxbyyc", true},
		{"a*b*c", "axxbyy", false}, {"*.txt", "cat a.txt", true}, {"a?c", "abc", false}, {"a?c", "a?c", true},
		{"**x", "yyx", true}, {"a*a*a", "aa", false},
	}
	for _, tt := range tests {
		if got := Glob(tt.p, tt.s); got != tt.want {
			t.Errorf("Glob(%q, %q) = %v; want %v", tt.p, tt.s, got, tt.want)
		}
	}
	if normPattern("  Git   log* ") != "git log*" {
		t.Errorf("normPattern = %q", normPattern("  Git   log* "))
	}
}

func TestConcurrentJudgeAndSetConfig(t *testing.T) {
	fakeBash(t, map[string]rules.Finding{"git reset --hard": resetH})
	j := New(config.Default(), Options{Home: home})
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				if v := j.Judge(context.Background(), bash("git reset --hard")); v.Level == Block {
					t.Errorf("block under thresholds that never block risk 2")
				}
			}
		}()
	}
	for i := 0; i < 50; i++ {
		c := config.Default()
		c.ConfirmRisk = float64(i%2) + 1
		j.SetConfig(c)
	}
	wg.Wait()
}
