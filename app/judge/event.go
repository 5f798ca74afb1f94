package judge

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agent-guard/agent-guard/app/hostproto"
)

// Event is the host's PreToolUse input, as ZCode and Claude Code send it.
type Event struct {
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

// ParseEvent reads one event object, accepting snake_case and camelCase
// field names (snake_case wins when both are present).
func ParseEvent(data []byte) (Event, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return Event{}, errors.New("event: input is not a JSON object; the host must send the PreToolUse event on stdin")
	}
	var e Event
	if err := json.Unmarshal(data, &e); err != nil {
		return Event{}, fmt.Errorf("event: not valid JSON: %v", err)
	}
	var c camelEvent
	if err := json.Unmarshal(data, &c); err != nil {
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
	if e.ToolName == "" {
		return e, errors.New("event: tool_name is missing")
	}
	return e, nil
}

// Judged reports whether the guard judges this tool at all: Bash, Write,
// Edit (and MultiEdit/NotebookEdit) and MCP tools. The list lives in
// hostproto, which reads the hosts' events and must not import the judge;
// one list keeps the hook and the judge from disagreeing on a tool.
func Judged(tool string) bool { return hostproto.Judged(tool) }
