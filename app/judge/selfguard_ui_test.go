package judge

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/pipe"
)

// What the dialog work added is the guard's own too: the tray's control
// socket (<pipe>-ctl) and the scoped approvals (kept in config.json). An
// agent that could write them would open windows of its choosing or
// approve its own calls; each write blocks as self-protection, and a
// scoped approval that names such a call (written by hand, say) does not
// lift it.
func TestCtlAndApprovalsGuarded(t *testing.T) {
	home, gh := t.TempDir(), t.TempDir()
	sock := filepath.Join(t.TempDir(), "ag.sock")
	t.Setenv(config.HomeEnv, gh)
	t.Setenv(pipe.Env, sock)
	ctl := pipe.ControlName(sock)
	cfgPath := filepath.Join(gh, "config.json")
	approval := `{"scoped_approvals":[{"scope":"everywhere","tool":"Bash","pattern":"git reset --hard HEAD~1","rule":"git.reset-hard"}]}`
	calls := []State{
		{Tool: "Bash", Command: "rm " + ctl},
		{Tool: "Bash", Command: "ln -sf /tmp/fake.sock " + ctl},
		{Tool: "Bash", Command: "echo x > " + ctl},
		{Tool: "Bash", Command: "echo '" + approval + "' > " + cfgPath},
		{Tool: "Write", FilePath: cfgPath, Content: approval},
		{Tool: "Edit", FilePath: cfgPath, Content: approval},
	}
	cfg := config.Default()
	for _, s := range calls {
		cfg.AddScoped(config.ScopedApproval{Scope: config.ScopeEverywhere, Tool: "Bash", Pattern: s.Command, Rule: "self.guard-socket"})
		cfg.AddScoped(config.ScopedApproval{Scope: config.ScopeEverywhere, Tool: "Bash", Pattern: s.Command, Rule: "self.guard-files"})
	}
	j := New(cfg, Options{Home: home, Offline: true})
	for _, s := range calls {
		s.Cwd = home
		v := j.Judge(context.Background(), s)
		if v.Level != Block || v.Source != SourceSelf || !strings.HasPrefix(v.Rule, "self.") && !strings.Contains(v.Rule, "/self.") {
			t.Errorf("%s %s%s: got %v/%s/%s (%s), want a self-protection block", s.Tool, s.Command, s.FilePath, v.Level, v.Source, v.Rule, v.Reason)
		}
	}
}
