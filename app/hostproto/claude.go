package hostproto

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// ZCode and Claude Code speak the same dialect: a PreToolUse event in
// snake_case (ZCode may send camelCase) and a hookSpecificOutput decision.
var (
	ZCode = register(Host{Name: "zcode", Display: "ZCode", parse: parseClaude, render: renderClaude, ask: true,
		FailOpen: "unknown: ZCode's hook failure behaviour is not documented publicly; agent-guard never relies on it"})
	Claude = register(Host{Name: "claude", Display: "Claude Code", parse: parseClaude, render: renderClaude, ask: true,
		FailOpen: "a hook that exits 1 (or any code but 0 and 2), crashes or times out is a non-blocking error: the tool runs"})
)

// claudeEvent is the PreToolUse input, snake_case.
type claudeEvent struct {
	HookEventName  string          `json:"hook_event_name"`
	SessionID      string          `json:"session_id"`
	Cwd            string          `json:"cwd"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	PermissionMode string          `json:"permission_mode"`
	ToolUseID      string          `json:"tool_use_id"`
}

// camelEvent is ZCode's camelCase spelling of the same fields.
type camelEvent struct {
	HookEventName  string          `json:"hookEventName"`
	SessionID      string          `json:"sessionId"`
	Cwd            string          `json:"cwd"`
	ToolName       string          `json:"toolName"`
	ToolInput      json.RawMessage `json:"toolInput"`
	PermissionMode string          `json:"permissionMode"`
	ToolUseID      string          `json:"toolUseId"`
}

// ReadEvent reads one event object in the shape ZCode and Claude Code
// send, accepting snake_case and camelCase field names (snake_case wins
// when both are present). It is the one reader: the Claude dialect's
// Parse and the judge's ParseEvent (check --event) both call it.
func ReadEvent(data []byte) (Event, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return Event{}, errors.New("event: input is not a JSON object; the host must send the PreToolUse event on stdin")
	}
	e, c, err := decodeBoth(data)
	if err != nil {
		return Event{}, fmt.Errorf("event: not valid JSON: %v", err)
	}
	pick := func(a *string, b string) {
		if *a == "" {
			*a = b
		}
	}
	pick(&e.HookEventName, c.HookEventName)
	pick(&e.SessionID, c.SessionID)
	pick(&e.ToolName, c.ToolName)
	pick(&e.PermissionMode, c.PermissionMode)
	pick(&e.ToolUseID, c.ToolUseID)
	if len(e.ToolInput) == 0 || string(e.ToolInput) == "null" {
		e.ToolInput = c.ToolInput
	}
	ev := Event{HookEventName: e.HookEventName, SessionID: e.SessionID, Cwd: e.Cwd, ToolName: e.ToolName,
		ToolInput: e.ToolInput, PermissionMode: e.PermissionMode, ToolUseID: e.ToolUseID}
	if e.ToolName == "" {
		return ev, errors.New("event: tool_name is missing")
	}
	return ev, nil
}

// decodeBoth reads both spellings in one pass (the server decodes every
// call's event: two passes were a tenth of its CPU per request). The
// struct is named Event so a type error reads as the judge's ("Go struct
// field Event.tool_name"). No snake_case name equals a camelCase one
// under encoding/json's case folding, so each is read as by its own
// decode (TestDecodeBothAsTwoDecodes).
func decodeBoth(data []byte) (claudeEvent, camelEvent, error) {
	type Event struct {
		HookEventName  string          `json:"hook_event_name"`
		SessionID      string          `json:"session_id"`
		Cwd            string          `json:"cwd"`
		ToolName       string          `json:"tool_name"`
		ToolInput      json.RawMessage `json:"tool_input"`
		PermissionMode string          `json:"permission_mode"`
		ToolUseID      string          `json:"tool_use_id"`

		CHookEventName  string          `json:"hookEventName"`
		CSessionID      string          `json:"sessionId"`
		CToolName       string          `json:"toolName"`
		CToolInput      json.RawMessage `json:"toolInput"`
		CPermissionMode string          `json:"permissionMode"`
		CToolUseID      string          `json:"toolUseId"`
	}
	var e Event
	if err := json.Unmarshal(data, &e); err != nil {
		return claudeEvent{}, camelEvent{}, err
	}
	return claudeEvent{e.HookEventName, e.SessionID, e.Cwd, e.ToolName, e.ToolInput, e.PermissionMode, e.ToolUseID},
		camelEvent{e.CHookEventName, e.CSessionID, e.Cwd, e.CToolName, e.CToolInput, e.CPermissionMode, e.CToolUseID}, nil
}

// parseClaude answers only PreToolUse (an event that names another is not
// ours, even when the rest of it is broken) and only the tools we judge.
func parseClaude(data []byte) (Event, bool, error) {
	ev, err := ReadEvent(data)
	if ev.HookEventName != "" && ev.HookEventName != PreToolUse {
		return ev, false, nil
	}
	if err != nil {
		return ev, true, err
	}
	ev.HookEventName = PreToolUse
	return ev, Judged(ev.ToolName), nil
}

// claudeOutput is exactly the schema ZCode and Claude Code accept.
type claudeOutput struct {
	HookSpecificOutput claudeDecision `json:"hookSpecificOutput"`
}

type claudeDecision struct {
	HookEventName            string `json:"hookEventName"`
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
}

func renderClaude(decision, reason string) Output {
	return Output{Stdout: jsonLine(claudeOutput{claudeDecision{PreToolUse, decision, reason}})}
}

// jsonLine is v as one line of JSON with its newline. Our output types
// always marshal.
func jsonLine(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("hostproto: " + err.Error())
	}
	return append(b, '\n')
}
