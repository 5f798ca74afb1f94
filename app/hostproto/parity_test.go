package hostproto_test

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/agent-guard/agent-guard/app/hostproto"
	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/judge/corpus"
)

// The Claude dialect must read events exactly as judge.ParseEvent does
// (the server parses the normalized event with it). Which tools are
// judged is one list, hostproto.Judged, that the judge calls too.
func TestClaudeParityWithJudge(t *testing.T) {
	inputs := []string{
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"session_id":"s","cwd":"/w","permission_mode":"default","tool_use_id":"u"}`,
		`{"hookEventName":"PreToolUse","toolName":"Write","toolInput":{"file_path":"/a","content":"b"},"sessionId":"s","permissionMode":"plan","toolUseId":"u"}`,
		`{"hook_event_name":"PreToolUse","toolName":"Edit","tool_input":null,"toolInput":{"file_path":"/a"}}`,
		`{"tool_name":"mcp__a__b","tool_input":{"x":1}}`,
		`{"hook_event_name":"PreToolUse"}`, `[]`, ``, `{`, `{"tool_name":1}`,
	}
	for _, c := range loadCases(t) {
		inputs = append(inputs, c)
	}
	for _, in := range inputs {
		want, werr := judge.ParseEvent([]byte(in))
		got, gerr := hostproto.ReadClaude([]byte(in))
		if (werr == nil) != (gerr == nil) || (werr != nil && werr.Error() != gerr.Error()) {
			t.Errorf("%s: error %v, judge says %v", in, gerr, werr)
			continue
		}
		g := judge.Event{HookEventName: got.HookEventName, SessionID: got.SessionID, Cwd: got.Cwd, ToolName: got.ToolName,
			ToolInput: got.ToolInput, PermissionMode: got.PermissionMode, ToolUseID: got.ToolUseID}
		if !reflect.DeepEqual(g, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", in, g, want)
		}
		// And the normalized form reads back the same through the judge.
		if werr == nil {
			ev, _, _ := hostproto.Claude.Parse([]byte(in))
			back, err := judge.ParseEvent(ev.Normalized())
			if err != nil || back.ToolName != want.ToolName || !hostproto.JSONEqual(back.ToolInput, want.ToolInput) || back.PermissionMode != want.PermissionMode {
				t.Errorf("%s: normalized %s reads back as %+v, %v", in, ev.Normalized(), back, err)
			}
		}
	}
}

// loadCases returns the public samples' events; a missing file fails.
func loadCases(t *testing.T) []string {
	t.Helper()
	cases, err := corpus.LoadLenient(filepath.Join("..", "..", "testdata", "samples.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range cases {
		out = append(out, string(c.EventJSON()))
	}
	return out
}
