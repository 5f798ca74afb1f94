package judge

import (
	"context"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/config"
)

// approve runs the dialog's "always" for call in scope, as the tray does:
// ScopedFor's keys with the scope, session and workspace filled in.
func approve(t *testing.T, j *Judge, call State, scope string) {
	t.Helper()
	v := j.Judge(context.Background(), call)
	if v.Level != Confirm {
		t.Fatalf("%+v: level %v, the case needs a confirm", call, v.Level)
	}
	keys, ok := ScopedFor(j.Config(), call, v, j.opts.Home)
	if !ok {
		t.Fatalf("%+v: no scoped approval offered", call)
	}
	cfg := j.Config().Clone()
	for _, k := range keys {
		k.Scope, k.Session, k.Workspace, k.AddedAt = scope, call.Session, call.Cwd, time.Now()
		cfg.AddScoped(k)
	}
	if err := cfg.Validate(); err != nil {
		t.Fatal(err)
	}
	j.SetConfig(cfg)
}

func TestScopedApprovals(t *testing.T) {
	bash := func(cmd, session, cwd string) State {
		return State{Tool: "Bash", Command: cmd, Session: session, Cwd: cwd}
	}
	sql := func(q, session, cwd string) State {
		return State{Tool: "mcp__postgres__execute_sql", Server: "postgres", MCPTool: "execute_sql",
			Args: `{"sql": "` + q + `"}`, Session: session, Cwd: cwd}
	}
	const reset = "git reset --hard HEAD~3"
	del := "DELETE FROM orders WHERE region = 'prod'"
	cases := []struct {
		name    string
		approve State
		scope   string
		call    State
		want    Level
	}{
		{"everywhere: the same command", bash(reset, "s1", "/w/a"), config.ScopeEverywhere, bash(reset, "s9", "/elsewhere"), Allow},
		{"everywhere: cd x && CMD matches CMD", bash(reset, "s1", "/w/a"), config.ScopeEverywhere, bash("cd /home/u/proj && "+reset, "s2", "/w/b"), Allow},
		{"everywhere: a different argument asks", bash(reset, "s1", "/w/a"), config.ScopeEverywhere, bash("git reset --hard HEAD~4", "s1", "/w/a"), Confirm},
		{"everywhere: an unapproved neighbour asks", bash(reset, "s1", "/w/a"), config.ScopeEverywhere, bash(reset+"; git clean -fdx", "s1", "/w/a"), Confirm},
		{"session: same session", bash(reset, "s1", "/w/a"), config.ScopeSession, bash(reset, "s1", "/w/other"), Allow},
		{"session: another session asks", bash(reset, "s1", "/w/a"), config.ScopeSession, bash(reset, "s2", "/w/a"), Confirm},
		{"workspace: a subfolder", bash(reset, "s1", "/w/a"), config.ScopeWorkspace, bash(reset, "s2", "/w/a/sub"), Allow},
		{"workspace: a sibling with the same prefix asks", bash(reset, "s1", "/w/a"), config.ScopeWorkspace, bash(reset, "s1", "/w/ab"), Confirm},
		// Where the command runs, not where the call came from, decides.
		{"workspace: cd elsewhere && CMD asks", bash(reset, "s1", "/w/a"), config.ScopeWorkspace, bash("cd /other && "+reset, "s1", "/w/a"), Confirm},
		{"workspace: cd up && CMD asks", bash(reset, "s1", "/w/a"), config.ScopeWorkspace, bash("cd .. && "+reset, "s1", "/w/a"), Confirm},
		{"workspace: cd into it && CMD", bash(reset, "s1", "/w/a"), config.ScopeWorkspace, bash("cd /w/a/sub && "+reset, "s1", "/tmp"), Allow},
		{"workspace: cd to a folder known at run time asks", bash(reset, "s1", "/w/a"), config.ScopeWorkspace, bash(`cd "$D" && `+reset, "s1", "/w/a"), Confirm},
		{"workspace: env -C elsewhere asks", bash(reset, "s1", "/w/a"), config.ScopeWorkspace, bash("env -C /other "+reset, "s1", "/w/a"), Confirm},
		{"mcp: the same call", sql(del, "s1", "/w/a"), config.ScopeEverywhere, sql(del, "s2", "/w/b"), Allow},
		// execute_sql is judged by its name (mcp.mutating), so the approval
		// is for these exact arguments, not for the whole tool.
		{"mcp: other arguments ask", sql(del, "s1", "/w/a"), config.ScopeEverywhere, sql("DELETE FROM users WHERE id = 7", "s1", "/w/a"), Confirm},
		{"mcp: a DROP after an approved DELETE", sql(del, "s1", "/w/a"), config.ScopeEverywhere, sql("DROP TABLE orders", "s1", "/w/a"), Block},
		{"mcp: another tool of the server", sql(del, "s1", "/w/a"), config.ScopeEverywhere,
			State{Tool: "mcp__postgres__run_query", Server: "postgres", MCPTool: "run_query", Args: `{"sql": "` + del + `"}`, Session: "s1", Cwd: "/w/a"}, Confirm},
		{"mcp: session scope, other session", sql(del, "s1", "/w/a"), config.ScopeSession, sql(del, "s2", "/w/a"), Confirm},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			j := New(nil, Options{Offline: true, Home: t.TempDir()})
			approve(t, j, tc.approve, tc.scope)
			v := j.Judge(context.Background(), tc.call)
			if v.Level != tc.want {
				t.Fatalf("level %v (%s: %s), want %v", v.Level, v.Rule, v.Reason, tc.want)
			}
			if tc.want == Allow && v.Rule != "fastpath.scoped-approval" {
				t.Fatalf("allowed by %s, not by the scoped approval", v.Rule)
			}
		})
	}
}

// Red lines are never offered, and a hand-written approval for one does
// not let it through: the judge blocks before it looks at approvals.
func TestScopedApprovalsNeverRedLines(t *testing.T) {
	j := New(nil, Options{Offline: true, Home: t.TempDir()})
	call := State{Tool: "Bash", Command: "git push --force origin main", Cwd: "/w/a", Session: "s1"}
	v := j.Judge(context.Background(), call)
	if _, ok := ScopedFor(j.Config(), call, v, j.opts.Home); ok {
		t.Fatalf("a scoped approval was offered for a red line (%+v)", v)
	}
	cfg := j.Config().Clone()
	cfg.AddScoped(config.ScopedApproval{Scope: config.ScopeEverywhere, Tool: "Bash", Pattern: "git push --force origin main", Rule: v.Rule, AddedAt: time.Now()})
	j.SetConfig(cfg)
	if v := j.Judge(context.Background(), call); v.Level != Block {
		t.Fatalf("a red line passed with a scoped approval: %+v", v)
	}
	// Elevated commands cannot be named exactly: not offered.
	sudo := State{Tool: "Bash", Command: "sudo systemctl restart nginx", Cwd: "/w/a"}
	if v := j.Judge(context.Background(), sudo); v.Level == Confirm {
		if _, ok := ScopedFor(j.Config(), sudo, v, j.opts.Home); ok {
			t.Fatal("a scoped approval was offered for a sudo command")
		}
	}
}
