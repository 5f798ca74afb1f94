package hostproto

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agent-guard/agent-guard/app/internal/jsonenc"
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
	if e, c, ok := scanBoth(data); ok {
		return e, c, nil
	}
	return decodeBothJSON(data)
}

// decodeBothJSON is decodeBoth by encoding/json: the reference, and the
// reader of every event scanBoth leaves alone.
func decodeBothJSON(data []byte) (claudeEvent, camelEvent, error) {
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

// eventField numbers decodeBoth's fields by their names in lower case
// (str's and input's index in scanBoth): a name encoding/json matches is
// one of these, ignoring ASCII case (no two fold to the same name). A
// switch, not a map: no hash per member.
func eventField(lower string) (int, bool) {
	switch lower {
	case "hook_event_name":
		return 0, true
	case "session_id":
		return 1, true
	case "cwd":
		return 2, true
	case "tool_name":
		return 3, true
	case "tool_input":
		return 4, true
	case "permission_mode":
		return 5, true
	case "tool_use_id":
		return 6, true
	case "hookeventname":
		return 7, true
	case "sessionid":
		return 8, true
	case "toolname":
		return 9, true
	case "toolinput":
		return 10, true
	case "permissionmode":
		return 11, true
	case "tooluseid":
		return 12, true
	}
	return 0, false
}

// scanBoth is decodeBoth without encoding/json's reflection, for what it
// reads exactly as encoding/json does: ASCII names (matched ignoring
// case, the last of a name winning), string or null values for the
// string fields, any value for the inputs, other names skipped. A name
// with an escape or a byte that is not ASCII (which encoding/json may fold
// onto ours: "ſession_id"), a value of the wrong type and anything not
// valid report !ok, and encoding/json decides (FuzzScanBothAsDecodeBoth).
func scanBoth(data []byte) (claudeEvent, camelEvent, bool) {
	var str [13]string // by eventField's numbers
	var input [13]json.RawMessage
	var lower [len("permission_mode")]byte
	ok := ScanObject(data, func(m Member) bool {
		if m.Slow {
			return false
		}
		name := m.Key[1 : len(m.Key)-1]
		if len(name) > len(lower) {
			return true // longer than every field's name
		}
		for i, ch := range name {
			if 'A' <= ch && ch <= 'Z' {
				ch += 'a' - 'A'
			}
			lower[i] = ch
		}
		field, known := eventField(string(lower[:len(name)]))
		switch {
		case !known:
			return true
		case field == 4 || field == 10: // tool_input, toolInput: as sent
			input[field] = append(json.RawMessage(nil), m.Value...)
			return true
		case string(m.Value) == "null":
			return true // encoding/json leaves a string as it was
		}
		v, isString := StringValue(m.Value)
		str[field] = v
		return isString
	})
	return claudeEvent{str[0], str[1], str[2], str[3], input[4], str[5], str[6]},
		camelEvent{str[7], str[8], str[2], str[9], input[10], str[11], str[12]}, ok
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
	if Judged(ev.ToolName) {
		return ev, true, nil
	}
	var in fields
	if len(ev.ToolInput) > 0 && json.Unmarshal(ev.ToolInput, &in) != nil {
		return ev, false, nil
	}
	return notMapped(&ev, ev.ToolName, in, nil)
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

// renderClaude writes what json.Marshal writes for claudeOutput
// (TestRenderClaudeAsMarshal), without its reflection: the server renders
// one per call.
func renderClaude(decision, reason string) Output {
	b := make([]byte, 0, 110+len(decision)+len(reason))
	b = append(b, `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":`...)
	b = jsonenc.AppendString(b, decision)
	b = append(b, `,"permissionDecisionReason":`...)
	b = jsonenc.AppendString(b, reason)
	return Output{Stdout: append(b, "}}\n"...)}
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
