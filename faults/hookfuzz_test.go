package faults

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/judge/corpus"
	"github.com/agent-guard/agent-guard/app/pipe"
	"github.com/agent-guard/agent-guard/hookbridge"
)

// FuzzHookRun feeds arbitrary bytes to the whole hook (hookbridge.Run, as
// agent-guard-hook runs it) with no server, so its in-process fallback
// judges. Whatever the input, the hook must not panic, must exit 0 or 2,
// must print exactly the host's JSON or nothing, and may stay silent only
// for an event it does not judge (another hook event, another tool):
// garbage is denied, never waved through.
func FuzzHookRun(f *testing.F) {
	dir := f.TempDir()
	f.Setenv(hookbridge.DeadlineEnv, "")
	f.Setenv("AGENT_GUARD_HOME", dir)
	f.Setenv("HOME", dir)
	f.Setenv("TYPESAFE_API_KEY", "")
	f.Setenv(pipe.Env, filepath.Join(dir, "nobody-listens.sock"))

	// The public samples seed the corpus; a missing or unreadable file
	// fails here instead of leaving the fuzzer without its real events.
	samples, err := corpus.LoadLenient(filepath.Join("..", "testdata", "samples.jsonl"))
	if err != nil {
		f.Fatal(err)
	}
	if len(samples) < 12 {
		f.Fatalf("samples.jsonl has %d cases; the brief has 12", len(samples))
	}
	for _, s := range samples {
		f.Add([]byte(s.EventJSON()))
	}
	for _, seed := range []string{
		``, `{`, `null`, `[]`, `"Bash"`, `{"tool_name":""}`,
		`{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"a"}}`,
		`{"hookEventName":"PreToolUse","toolName":"Bash","toolInput":{"command":"git status"}}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":"not an object"}`,
		`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":123}}`,
		`{"tool_name":"mcp__x__y","tool_input":{"a":[1,2,{"b":null}]}}`,
		"{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"echo \\u0000\"}}\x00trailing",
	} {
		f.Add([]byte(seed))
	}

	f.Fuzz(func(t *testing.T, in []byte) {
		var out, errb bytes.Buffer
		code := hookbridge.Run(nil, bytes.NewReader(in), &out, &errb)
		switch code {
		case 0, 2:
		default:
			t.Fatalf("exit %d (the host would run the tool); stdout %q stderr %q", code, out.String(), errb.String())
		}
		if code == 2 {
			if strings.TrimSpace(errb.String()) == "" {
				t.Fatalf("exit 2 without a reason on stderr")
			}
			return
		}
		if out.Len() == 0 {
			// Silent: only for events the guard does not judge.
			ev, err := judge.ParseEvent(in)
			otherEvent := ev.HookEventName != "" && ev.HookEventName != "PreToolUse"
			if !otherEvent && (err != nil || judge.Judged(ev.ToolName)) {
				t.Fatalf("silent (the host runs the tool) on input it should judge or deny: %q (parse error: %v)", in, err)
			}
			return
		}
		var o struct {
			HookSpecificOutput struct {
				HookEventName            string `json:"hookEventName"`
				PermissionDecision       string `json:"permissionDecision"`
				PermissionDecisionReason string `json:"permissionDecisionReason"`
			} `json:"hookSpecificOutput"`
		}
		dec := json.NewDecoder(&out)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&o); err != nil || dec.More() {
			t.Fatalf("stdout is not exactly the host's JSON (%v): %q", err, out.String())
		}
		h := o.HookSpecificOutput
		if h.HookEventName != "PreToolUse" {
			t.Fatalf("hookEventName %q", h.HookEventName)
		}
		if strings.Contains(h.PermissionDecisionReason, "internal error") {
			t.Fatalf("the hook recovered from a panic on %q: %s", in, h.PermissionDecisionReason)
		}
		switch h.PermissionDecision {
		case "deny", "ask":
			if h.PermissionDecisionReason == "" {
				t.Fatalf("%s without a reason", h.PermissionDecision)
			}
		case "allow":
			// Allow only for a well-formed event the judge could read.
			if _, err := judge.ParseEvent(in); err != nil {
				t.Fatalf("allowed unreadable input %q (%v)", in, err)
			}
		default:
			t.Fatalf("permissionDecision %q", h.PermissionDecision)
		}
	})
}
