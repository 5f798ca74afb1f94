package judge

import (
	"github.com/agent-guard/agent-guard/app/hostproto"
)

// Event is the host's PreToolUse input in Claude's shape, as the host
// protocol reads it (hostproto.Event: one type from the hook's wire to
// the judge).
type Event = hostproto.Event

// ParseEvent reads one event object, accepting snake_case and camelCase
// field names (snake_case wins when both are present): hostproto's one
// reader, for callers that hold a raw event (check --event, tests).
func ParseEvent(data []byte) (Event, error) { return hostproto.ReadEvent(data) }

// Judged reports whether the guard judges this tool at all: Bash, Write,
// Edit (and MultiEdit/NotebookEdit) and MCP tools. The list lives in
// hostproto, which reads the hosts' events and must not import the judge;
// one list keeps the hook and the judge from disagreeing on a tool.
func Judged(tool string) bool { return hostproto.Judged(tool) }
