package hostproto

import (
	"strings"
	"testing"
)

// Tools a host's table does not map, and argument shapes its table does
// not spell, are read by what they carry: the judge sees the same change
// it would see from Claude Code's own tools. Each case failed before
// unmappedTool and editPairs existed (not judged, or the new text unseen).
func TestUnmappedToolsAreJudgedByWhatTheyCarry(t *testing.T) {
	tests := []struct {
		host, stdin string
		want        []string // tool: input, per part; nil: not judged
	}{
		// A tool that names a file is judged as its change to the file.
		{"auggie", `{"hook_event_name":"PreToolUse","tool_name":"remove-files","tool_input":{"file_paths":["/h/.augment/settings.json","src/a.go"]}}`,
			[]string{`Bash: {"command":"rm -- /h/.augment/settings.json src/a.go"}`}},
		{"zcode", `{"hookEventName":"PreToolUse","toolName":"MoveFile","toolInput":{"sourcePath":"/h/.zcode/cli/config.json","destinationPath":"/tmp/c.json"}}`,
			[]string{`Bash: {"command":"mv -- /h/.zcode/cli/config.json /tmp/c.json"}`}},
		{"droid", `{"hook_event_name":"PreToolUse","tool_name":"CopyFile","tool_input":{"source":"/tmp/e.json","destination":"/h/.factory/hooks.json"}}`,
			[]string{`Bash: {"command":"cp -- /tmp/e.json /h/.factory/hooks.json"}`}},
		{"cursor", `{"hook_event_name":"preToolUse","tool_name":"move_file","tool_input":{"from":"file:///h/.cursor/hooks.json","to":"file:///tmp/h.json"}}`,
			[]string{`Bash: {"command":"mv -- /h/.cursor/hooks.json /tmp/h.json"}`}},
		{"amp", `{"tool":"undo_edit","threadId":"T","cwd":"/w","input":{"path":"/h/.config/amp/settings.json"}}`,
			[]string{`Edit: {"file_path":"/h/.config/amp/settings.json","old_string":"","new_string":""}`}},
		{"cursor", `{"hook_event_name":"preToolUse","tool_name":"EditNotebook","tool_input":{"target_notebook":"/h/n.ipynb","old_string":"","new_string":"!rm -rf ~","cell_idx":0}}`,
			[]string{`Edit: {"file_path":"/h/n.ipynb","old_string":"","new_string":"!rm -rf ~"}`}},
		{"opencode", `{"tool":"filesystem_write_file","args":{"path":"/h/.config/opencode/plugins/agent-guard.js","content":"x"}}`,
			[]string{`Write: {"file_path":"/h/.config/opencode/plugins/agent-guard.js","content":"x"}`}},
		{"copilot", `{"toolName":"filesystem-write_file","toolArgs":"{\"path\":\"/h/.copilot/config.json\",\"content\":\"{}\"}"}`,
			[]string{`Write: {"file_path":"/h/.copilot/config.json","content":"{}"}`}},
		{"gemini", `{"hook_event_name":"BeforeTool","tool_name":"frobnicate","tool_input":{"q":"~/.gemini/settings.json","note":"a sentence about /etc/passwd"}}`,
			[]string{`Edit: {"file_path":"~/.gemini/settings.json","old_string":"","new_string":""}`}},
		{"cursor", `{"hook_event_name":"preToolUse","tool_name":"delete_directory","tool_input":{"path":"/h/proj"}}`,
			[]string{`Bash: {"command":"rm -r -- /h/proj"}`}},
		// A verb we cannot read is judged only where the guard lives.
		{"claude", `{"hook_event_name":"PreToolUse","tool_name":"LSP","tool_input":{"file_path":"/srv/work/a.go","operation":"hover","line":3}}`, nil},
		{"amp", `{"tool":"look_at","threadId":"T","cwd":"/w","input":{"path":"/srv/work/diagram.png","objective":"read it"}}`, nil},
		{"claude", `{"hook_event_name":"PreToolUse","tool_name":"LSP","tool_input":{"file_path":"/srv/app/settings.py","operation":"hover"}}`, nil},
		{"amp", `{"tool":"look_at","threadId":"T","cwd":"/w","input":{"path":"/h/.config/agent-guard/config.json"}}`,
			[]string{`Edit: {"file_path":"/h/.config/agent-guard/config.json","old_string":"","new_string":""}`}},
		// Read-only tools, and tools that name no file, stay not ours.
		{"gemini", `{"hook_event_name":"BeforeTool","tool_name":"read_many_files","tool_input":{"paths":["/h/.gemini/settings.json"]}}`, nil},
		{"kiro", `{"hook_event_name":"preToolUse","tool_name":"fs_read","tool_input":{"operations":[{"mode":"Line","path":"/w/a"}]}}`, nil},
		{"claude", `{"hook_event_name":"PreToolUse","tool_name":"TodoWrite","tool_input":{"todos":[{"content":"edit /w/a","status":"pending"}]}}`, nil},
		{"claude", `{"hook_event_name":"PreToolUse","tool_name":"SlashCommand","tool_input":{"command":"/review"}}`, nil},
		{"opencode", `{"tool":"github_create_issue","args":{"title":"bug","body":"see /w/a.go"}}`, nil},
		{"codex", `{"hook_event_name":"PreToolUse","tool_name":"view_image","tool_input":{"path":"a.png"}}`, nil},
		// Text typed into a running shell is the command it runs.
		{"codex", `{"hook_event_name":"PreToolUse","tool_name":"write_stdin","tool_input":{"session_id":3,"chars":"rm -rf ~\n"}}`,
			[]string{`Bash: {"command":"rm -rf ~\n"}`}},
		{"copilot", `{"toolName":"write_bash","toolArgs":"{\"sessionId\":\"b\",\"input\":\"git push -f{enter}\"}"}`,
			[]string{`Bash: {"command":"git push -f\n"}`}},
		{"auggie", `{"hook_event_name":"PreToolUse","tool_name":"write-process","tool_input":{"terminal_id":2,"input_text":"y\u0003"}}`,
			[]string{`Bash: {"command":"y\n"}`}},
		{"copilot", `{"toolName":"write_bash","toolArgs":"{\"sessionId\":\"b\",\"input\":\"{up}\"}"}`, nil},
		{"antigravity", `{"toolCall":{"name":"send_command_input","args":{"CommandId":"c1","Input":"pkill -f agent-guard\n"}}}`,
			[]string{`Bash: {"command":"pkill -f agent-guard\n"}`}},
		// A shell under another name, its command as a string or argv.
		{"codex", `{"hook_event_name":"PreToolUse","tool_name":"unified_exec","tool_input":{"input":["pkill","-f","agent-guard"]}}`,
			[]string{`Bash: {"command":"pkill -f agent-guard"}`}},
		{"codex", `{"hook_event_name":"PreToolUse","tool_name":"shell_command","tool_input":{"command":"go test ./...","workdir":"/w"}}`,
			[]string{`Bash: {"command":"go test ./...","cwd":"/w"}`}},
		// A program and its arguments passed apart are one command line.
		{"gemini", `{"hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"git","args":["push","--force","origin","main"]}}`,
			[]string{`Bash: {"command":"git push --force origin main"}`}},
		{"copilot", `{"toolName":"desktop-commander-start_process","toolArgs":"{\"command\":\"rm\",\"args\":[\"-rf\",\"/home/dev\"]}"}`,
			[]string{`Bash: {"command":"rm -rf /home/dev"}`}},
		{"codex", `{"hook_event_name":"PreToolUse","tool_name":"exec","tool_input":{"argv":["rm","-rf","/home/dev"]}}`,
			[]string{`Bash: {"command":"rm -rf /home/dev"}`}},
		// The verb may be an argument.
		{"opencode", `{"tool":"files_manage","args":{"action":"delete","path":"/home/dev"}}`,
			[]string{`Bash: {"command":"rm -r -- /home/dev"}`}},
		{"opencode", `{"tool":"files_manage","args":{"action":"read","path":"/home/dev/.claude/settings.json"}}`, nil},
		// A process tool told a program name or a pid is the pkill or kill.
		{"opencode", `{"tool":"process_kill_process","args":{"name":"agent-guard"}}`,
			[]string{`Bash: {"command":"pkill -f agent-guard"}`}},
		{"copilot", `{"toolName":"procs-terminate","toolArgs":"{\"pid\":4242}"}`,
			[]string{`Bash: {"command":"kill -9 4242"}`}},
		{"auggie", `{"hook_event_name":"PreToolUse","tool_name":"kill-process","tool_input":{"terminal_id":2}}`, nil},
		// Cline runs the command attempt_completion carries.
		{"cline", `{"hookName":"PreToolUse","workspaceRoots":["/w"],"preToolUse":{"toolName":"attempt_completion","parameters":{"result":"done","command":"rm -rf ~"}}}`,
			[]string{`Bash: {"command":"rm -rf ~"}`}},
		{"cline", `{"hookName":"PreToolUse","workspaceRoots":["/w"],"preToolUse":{"toolName":"attempt_completion","parameters":{"result":"done"}}}`, nil},
		{"cline", `{"hookName":"PreToolUse","workspaceRoots":["/w"],"preToolUse":{"toolName":"access_mcp_resource","parameters":{"server_name":"fs","uri":"file:///h/.claude/settings.json"}}}`, nil},
		// An unnamed tool with a verb that can do lasting harm is judged as
		// the MCP tool it would be on Claude Code; others stay not ours.
		{"opencode", `{"tool":"github_delete_repository","args":{"owner":"o","repo":"r"}}`,
			[]string{`mcp__github__delete_repository: {"owner":"o","repo":"r"}`}},
		{"copilot", `{"toolName":"git-git_push","toolArgs":"{\"force\":true,\"branch\":\"main\"}"}`,
			[]string{`mcp__git__git_push: {"branch":"main","force":true}`}},
		{"opencode", `{"tool":"github_list_issues","args":{"owner":"o","repo":"r"}}`, nil},
		{"claude", `{"hook_event_name":"PreToolUse","tool_name":"KillShell","tool_input":{"shell_id":"s1"}}`, nil},
		// A namespaced tool name is its last segment.
		{"codex", `{"hook_event_name":"PreToolUse","tool_name":"functions.apply_patch","tool_input":{"input":"*** Begin Patch\n*** Delete File: /h/.codex/hooks.json\n*** End Patch\n"}}`,
			[]string{`Bash: {"command":"rm -- /h/.codex/hooks.json"}`}},
		{"gemini", `{"hook_event_name":"BeforeTool","tool_name":"default_api:run_shell_command","tool_input":{"command":"rm -rf ~"}}`,
			[]string{`Bash: {"command":"rm -rf ~"}`}},
		// A file: URL's path is unescaped.
		{"cursor", `{"hook_event_name":"preToolUse","tool_name":"rename_file","tool_input":{"from":"file:///h/.cursor/hooks%2Ejson","to":"file:///tmp/x"}}`,
			[]string{`Bash: {"command":"mv -- /h/.cursor/hooks.json /tmp/x"}`}},
		// An AWS API call is the aws command line that makes it.
		{"kiro", `{"hook_event_name":"preToolUse","tool_name":"use_aws","tool_input":{"service_name":"s3","operation_name":"delete-bucket","parameters":{"bucket":"prod"},"region":"us-east-1"}}`,
			[]string{`Bash: {"command":"aws s3api delete-bucket --bucket prod --region us-east-1"}`}},
		// Every replacement of an edit, in any host's spelling.
		{"kimi", `{"hook_event_name":"PreToolUse","tool_name":"StrReplaceFile","tool_input":{"path":"/w/d.sh","edit":{"old":"echo","new":"rm -rf ~"}}}`,
			[]string{`Edit: {"file_path":"/w/d.sh","old_string":"echo","new_string":"rm -rf ~"}`}},
		{"kimi", `{"hook_event_name":"PreToolUse","tool_name":"StrReplaceFile","tool_input":{"path":"/w/d.sh","edit":[{"old":"a","new":"b"},{"old":"c","new":"rm -rf ~"}]}}`,
			[]string{`MultiEdit: {"file_path":"/w/d.sh","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"rm -rf ~"}]}`}},
		{"auggie", `{"hook_event_name":"PreToolUse","tool_name":"str-replace-editor","tool_input":{"command":"str_replace","path":"/w/d.sh","old_str_1":"a","new_str_1":"b","old_str_2":"c","new_str_2":"rm -rf ~"}}`,
			[]string{`MultiEdit: {"file_path":"/w/d.sh","edits":[{"old_string":"a","new_string":"b"},{"old_string":"c","new_string":"rm -rf ~"}]}`}},
		{"droid", `{"hook_event_name":"PreToolUse","tool_name":"MultiEdit","tool_input":{"file_path":"/w/d.sh","edits":[{"old_str":"a","new_str":"rm -rf ~"}]}}`,
			[]string{`MultiEdit: {"file_path":"/w/d.sh","edits":[{"old_string":"a","new_string":"rm -rf ~"}]}`}},
		// An editor tool's view sub-command reads; its other commands write.
		{"copilot", `{"toolName":"str_replace_editor","toolArgs":"{\"command\":\"view\",\"path\":\"/h/.copilot/config.json\"}"}`, nil},
		{"claude", `{"hook_event_name":"PreToolUse","tool_name":"str_replace_based_edit_tool","tool_input":{"command":"view","path":"/h/.claude/settings.json"}}`, nil},
		{"claude", `{"hook_event_name":"PreToolUse","tool_name":"str_replace_based_edit_tool","tool_input":{"command":"str_replace","path":"/h/.claude/settings.json","old_str":"a","new_str":"b"}}`,
			[]string{`Edit: {"file_path":"/h/.claude/settings.json","old_string":"a","new_string":"b"}`}},
		// A patch tool whose input is the patch text itself.
		{"codex", `{"hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":"*** Begin Patch\n*** Delete File: /h/.codex/hooks.json\n*** End Patch\n"}`,
			[]string{`Bash: {"command":"rm -- /h/.codex/hooks.json"}`}},
		// A patch tool given a unified diff.
		{"opencode", `{"tool":"patch","args":{"patchText":"--- a/src/m.go\n+++ b/src/m.go\n@@ -1 +1 @@\n-a := 1\n+a := 2\n--- /dev/null\n+++ b/new.sh\n@@ -0,0 +1 @@\n+rm -rf ~\n--- a/old.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\n"}}`,
			[]string{`Edit: {"file_path":"src/m.go","old_string":"a := 1","new_string":"a := 2"}`,
				`Write: {"file_path":"new.sh","content":"rm -rf ~\n"}`,
				`Bash: {"command":"rm -- old.txt"}`}},
		{"codex", `{"hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"diff --git a/x.go b/y.go\nsimilarity index 90%\nrename from x.go\nrename to y.go\n--- a/x.go\n+++ b/y.go\n@@ -1 +1 @@\n-a\n+b\n"}}`,
			[]string{`Edit: {"file_path":"y.go","old_string":"a","new_string":"b"}`, `Bash: {"command":"mv -- x.go y.go"}`}},
	}
	for _, tt := range tests {
		h, _ := Lookup(tt.host)
		ev, judged, err := h.Parse([]byte(tt.stdin))
		if err != nil {
			t.Errorf("%s %s: %v", tt.host, tt.stdin, err)
			continue
		}
		if tt.want == nil {
			if judged {
				t.Errorf("%s %s: judged as %s %s, want not ours", tt.host, tt.stdin, ev.ToolName, ev.ToolInput)
			}
			continue
		}
		if !judged {
			t.Errorf("%s %s: not judged, want %v", tt.host, tt.stdin, tt.want)
			continue
		}
		var got []string
		for _, p := range ev.Each() {
			got = append(got, p.ToolName+": "+string(p.ToolInput))
		}
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("%s %s:\n got %s\nwant %s", tt.host, tt.stdin, strings.Join(got, "\n     "), strings.Join(tt.want, "\n     "))
		}
	}
}
