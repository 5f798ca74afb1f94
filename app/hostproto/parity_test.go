package hostproto_test

import (
	"path/filepath"
	"testing"

	"github.com/agent-guard/agent-guard/app/hostproto"
	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/judge/corpus"
)

// The judge reads the event the server hands it (the dialect's normalized
// form) as the dialect read the host's: judge.ParseEvent of Normalized()
// gives back the tool, its input and the mode. Which tools are judged is
// one list, hostproto.Judged, that the judge calls too.
func TestNormalizedReadsBackThroughTheJudge(t *testing.T) {
	inputs := []string{
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"session_id":"s","cwd":"/w","permission_mode":"default","tool_use_id":"u"}`,
		`{"hookEventName":"PreToolUse","toolName":"Write","toolInput":{"file_path":"/a","content":"b"},"sessionId":"s","permissionMode":"plan","toolUseId":"u"}`,
		`{"hook_event_name":"PreToolUse","toolName":"Edit","tool_input":null,"toolInput":{"file_path":"/a"}}`,
		`{"tool_name":"mcp__a__b","tool_input":{"x":1}}`,
		`{"hook_event_name":"PreToolUse"}`, `[]`, ``, `{`, `{"tool_name":1}`,
	}
	inputs = append(inputs, loadCases(t)...)
	read := 0
	for _, in := range inputs {
		want, werr := hostproto.ReadEvent([]byte(in))
		ev, judged, perr := hostproto.Claude.Parse([]byte(in))
		if (werr == nil) != (perr == nil) {
			t.Errorf("%s: Parse says %v, ReadEvent %v", in, perr, werr)
			continue
		}
		if werr != nil || !judged {
			continue
		}
		read++
		back, err := judge.ParseEvent(ev.Normalized())
		if err != nil || back.ToolName != want.ToolName || !hostproto.JSONEqual(back.ToolInput, want.ToolInput) || back.PermissionMode != want.PermissionMode || back.Cwd != want.Cwd {
			t.Errorf("%s: normalized %s reads back as %+v, %v", in, ev.Normalized(), back, err)
		}
	}
	if read < 10 {
		t.Fatalf("only %d events were read back; the samples should give more", read)
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
