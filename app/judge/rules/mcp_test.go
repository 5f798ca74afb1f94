package rules

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplitName(t *testing.T) {
	tests := map[string][]string{
		"get_issue":            {"get", "issue"},
		"createPullRequest":    {"create", "pull", "request"},
		"browser-take.shot":    {"browser", "take", "shot"},
		"HTTPGet":              {"http", "get"},
		"resolve-library-id":   {"resolve", "library", "id"},
		"":                     nil,
		"DROP_DATABASE":        {"drop", "database"},
		"listS3Buckets":        {"list", "s3", "buckets"},
		"sequentialthinking":   {"sequentialthinking"},
		"delete_file_or_dir__": {"delete", "file", "or", "dir"},
	}
	for in, want := range tests {
		if got := splitName(in); !reflect.DeepEqual(got, want) {
			t.Errorf("splitName(%q) = %q; want %q", in, got, want)
		}
	}
}

func TestMCPVerbs(t *testing.T) {
	t.Setenv("AGENT_GUARD_HOME", "")
	tests := []struct {
		server, tool, args, want, rule string
	}{
		{"github", "get_issue", `{"owner":"a","repo":"b","issue_number":1}`, "allow", "mcp.read"},
		{"github", "list_pull_requests", `{}`, "allow", "mcp.read"},
		{"github", "search_code", `{"q":"x"}`, "allow", "mcp.read"},
		{"filesystem", "read_file", `{"path":"src/a.go"}`, "allow", "mcp.read"},
		{"context7", "get-library-docs", `{}`, "allow", "mcp.read"},
		{"playwright", "browser_navigate", `{"url":"http://localhost:3000"}`, "allow", "mcp.read"},
		{"playwright", "browser_take_screenshot", `{}`, "allow", "mcp.read"},
		{"github", "create_pull_request", `{}`, "allow", "mcp.forge"}, // gh pr create (mcpforge.go)
		{"jira", "create_pull_request", `{}`, "confirm", "mcp.mutating"},
		{"github", "push_files", `{}`, "confirm", "mcp.mutating"},
		{"github", "merge_pull_request", `{}`, "confirm", "mcp.mutating"},
		{"slack", "send_message", `{}`, "confirm", "mcp.mutating"},
		{"stripe", "createPayment", `{}`, "confirm", "mcp.mutating"},
		{"github", "get_or_create_issue", `{}`, "confirm", "mcp.mutating"},
		{"playwright", "browser_click", `{}`, "confirm", "mcp.mutating"},
		{"prettier", "format_document", `{}`, "confirm", "mcp.unknown"},
		{"weird", "frobnicate", `{}`, "confirm", "mcp.unknown"},
		{"weird", "", `{}`, "confirm", "mcp.unknown"},
		{"filesystem", "delete_file", `{"path":"build/x.o"}`, "confirm", "mcp.delete"},
		{"postgres", "drop_database", `{"name":"prod"}`, "block", "mcp.destructive"},
		{"aws", "delete_bucket", `{}`, "block", "mcp.delete-big"},
		{"github", "delete_repository", `{}`, "block", "mcp.delete-big"},
		{"redis", "flush_all", `{}`, "confirm", "mcp.unknown"},
		{"db", "truncateTable", `{}`, "block", "mcp.destructive"},
		{"git", "force_push", `{}`, "block", "mcp.force-push"},
		{"disk", "format_disk", `{}`, "block", "mcp.destructive"},
		// arguments: SQL, paths, self-protection, commands
		{"postgres", "query", `{"sql":"SELECT * FROM users"}`, "allow", "mcp.read"},
		{"postgres", "query", `{"sql":"DROP TABLE users;"}`, "block", "mcp.sql-drop"},
		{"postgres", "query", `{"sql":"delete from users"}`, "block", "mcp.sql-no-where"},
		{"postgres", "query", `{"sql":"DELETE FROM users WHERE id = 3"}`, "confirm", "mcp.sql-write"},
		{"postgres", "query", `{"sql":"update users set admin = true"}`, "block", "mcp.sql-no-where"},
		// H9: keywords inside string literals and comments are data
		{"postgres", "query", `{"sql":"SELECT * FROM logs WHERE msg LIKE '%delete from%' LIMIT 20"}`, "allow", "mcp.read"},
		{"postgres", "query", `{"sql":"SELECT 'it''s a drop table users' AS t"}`, "allow", "mcp.read"},
		{"postgres", "query", `{"sql":"delete from users -- all of them"}`, "block", "mcp.sql-no-where"},
		{"postgres", "query", `{"sql":"/* cleanup */ DROP TABLE users"}`, "block", "mcp.sql-drop"},
		// H9: resolve_issue changes state; resolve-library-id looks up
		{"sentry", "resolve_issue", `{"issue_id":"123"}`, "confirm", "mcp.mutating"},
		{"context7", "resolve-library-id", `{"libraryName":"react"}`, "allow", "mcp.read"},
		// H9: an exec tool running a program nobody knows keeps its own weight
		{"internal_tools", "run", `{"cmd":"deploy"}`, "confirm", "mcp.mutating"},
		// H9: execute_sql is judged by its SQL when that only reads
		{"mysql", "execute_sql", `{"sql":"SHOW TABLES"}`, "allow", "mcp.sql-read"},
		{"supabase", "execute_sql", `{"project_id":"p","query":"select * from profiles limit 5"}`, "allow", "mcp.sql-read"},
		{"supabase", "execute_sql", `{"query":"select 1; insert into t values (1)"}`, "confirm", "mcp.mutating"},
		{"supabase", "execute_sql", `{"query":"SELECT * INTO backup FROM users"}`, "confirm", "mcp.mutating"},
		{"supabase", "execute_sql", `{"query":"with x as (delete from t returning *) select * from x"}`, "confirm", "mcp.mutating"},
		{"db", "run_query", `{"query":"update users set a=1 where id=2"}`, "confirm", "mcp.mutating"},
		{"terminal", "run_command", `{"command":"ls -la"}`, "allow", "shell.read"},
		{"filesystem", "read_file", `{"path":"~/.ssh/id_rsa"}`, "confirm", "mcp.read-secret"},
		{"filesystem", "write_file", `{"path":"/etc/sudoers","content":"x"}`, "block", "path.system"},
		{"filesystem", "write_file", `{"path":"~/.claude/settings.json","content":"{}"}`, "block", "self.agent-hook-config"},
		{"filesystem", "read_file", `{"path":"~/.config/agent-guard/config.json"}`, "allow", "mcp.read"},
		{"filesystem", "read_file", `{"path":"~/.agentguardrc"}`, "confirm", "mcp.read-secret"},
		{"filesystem", "move_file", `{"source":"a","destination":"~/.zcode/cli/config.json"}`, "block", "self.agent-hook-config"},
		{"filesystem", "write_file", `{"path":"src/x.go","content":"package x"}`, "confirm", "mcp.mutating"},
		{"terminal", "run_command", `{"command":"rm -rf /"}`, "block", "fs.rm-root"},
		{"terminal", "execute", `{"command":"rm","args":["-rf","/"]}`, "block", "fs.rm-root"},
		{"desktop", "start_process", `{"command":"rm -rf /"}`, "block", "fs.rm-root"},
		{"weird", "frobnicate", `{"nested":{"list":[{"cmd":"rm -rf /"}]}}`, "block", "fs.rm-root"},
		{"weird", "frobnicate", `{"not json`, "confirm", "mcp.unknown"},
		// cut at 2 KB: what came before the cut is still judged
		{"filesystem", "write_file", `{"path":"~/.claude/settings.json","content":"{\"hooks\": {\"PreTo`, "block", "self.agent-hook-config"},
		{"filesystem", "write_file", `{"options":{"mode":"w"},"paths":["a"],"path":"/etc/hosts","content":"127.0.0.1 x\n`, "block", "path.system"},
		{"terminal", "run_command", `{"cwd":"/","command":"rm -rf /","env":{"A":"`, "block", "fs.rm-root"},
		{"filesystem", "write_file", `{"content":"aaaa`, "confirm", "mcp.mutating"},
	}
	for _, tt := range tests {
		f := MCP(tt.server, tt.tool, tt.args, nil)
		if got := level(f); got != tt.want || f.Rule != tt.rule {
			t.Errorf("MCP(%s, %s, %s) = %s %s (%s); want %s %s", tt.server, tt.tool, tt.args, got, f.Rule, f.Reason, tt.want, tt.rule)
		}
		if f.Reason == "" {
			t.Errorf("MCP(%s, %s): empty reason", tt.server, tt.tool)
		}
	}
}

func TestMCPOverrides(t *testing.T) {
	ov := map[string]map[string]string{
		"github": {"*": "readonly", "create_*": "consequential", "create_issue": "readonly", "delete_*": "destructive", "del*": "consequential"},
		"*":      {"*": "consequential", "get_*": "destructive"},
		"db":     {"run_*": "readonly"},
	}
	tests := []struct{ server, tool, args, want, rule string }{
		{"github", "merge_pull_request", `{}`, "allow", "mcp.override-readonly"},         // "*"
		{"github", "create_pull_request", `{}`, "confirm", "mcp.override-consequential"}, // longer glob
		{"github", "create_issue", `{}`, "allow", "mcp.override-readonly"},               // exact wins
		{"github", "delete_branch", `{}`, "block", "mcp.override-destructive"},           // delete_* (7) beats del* (3)
		{"slack", "list_channels", `{}`, "confirm", "mcp.override-consequential"},        // server "*"
		{"slack", "get_user", `{}`, "block", "mcp.override-destructive"},                 // server "*" glob
		{"db", "run_query", `{"sql":"DROP TABLE x"}`, "block", "mcp.sql-drop"},           // args still judged
		{"db", "run_shell", `{"command":"rm -rf /"}`, "block", "fs.rm-root"},             // a readonly override cannot carry a red line
	}
	for _, tt := range tests {
		f := MCP(tt.server, tt.tool, tt.args, ov)
		if got := level(f); got != tt.want || f.Rule != tt.rule {
			t.Errorf("MCP(%s, %s) with overrides = %s %s (%s); want %s %s", tt.server, tt.tool, got, f.Rule, f.Reason, tt.want, tt.rule)
		}
	}
	if c, g, ok := Override("github", "create_issue", ov); !ok || c != "readonly" || g != "create_issue" {
		t.Errorf("Override exact = %q %q %v", c, g, ok)
	}
	if _, _, ok := Override("x", "y", map[string]map[string]string{"z": {"*": "readonly"}}); ok {
		t.Error("Override matched another server's entry")
	}
}

func FuzzMCP(f *testing.F) {
	f.Add("github", "get_issue", `{"path":"~/.ssh/id_rsa","command":"ls"}`)
	f.Add("x", "createDropTable", `{"sql":"drop table t","args":["a"],"command":"x"}`)
	f.Add("x", "run", `{"command":"`+strings.Repeat("$(", 2000)+`"}`)
	f.Add("x", "q", strings.Repeat(`{"a":`, 3000))
	// the tools read as shell commands (mcpfileops.go, mcpgit.go, mcpkube.go)
	f.Add("git", "git_push", `{"repo_path":"x'y","remote":"o","branch":"main","force":true,"mode":"--hard"}`)
	f.Add("fs", "move_file", `{"source":["a",1],"destination":"/etc/x","recursive":true}`)
	f.Add("k8s", "kubectl_delete", `{"resourceType":"ns","name":["a"],"namespace":"","replicas":3}`)
	f.Add("memory", "delete_entities", `{"entityNames":["x"],"cmd":["rm","-rf","~"]}`)
	f.Fuzz(func(t *testing.T, server, tool, args string) {
		r := MCP(server, tool, args, map[string]map[string]string{"*": {"*[": "readonly"}})
		if r.Rule == "" || r.Reason == "" {
			t.Fatalf("MCP(%q,%q,%q) without rule/reason: %+v", server, tool, args, r)
		}
	})
}
