package judge

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agent-guard/agent-guard/app/hostproto"
	"github.com/agent-guard/agent-guard/app/judge/session"
)

// MaxPrefix caps the Write content and MCP arguments the remote judge is
// sent (ForRemote). The local rules always see the whole input, up to the
// hook's 1 MiB event: a 2 KB cut would let "SELECT 1 -- <3 KB>\n; DROP
// DATABASE prod" through.
const MaxPrefix = 2048

// State is what the judge looks at for one call (DESIGN.md step 1).
type State struct {
	Tool     string `json:"tool"`
	Command  string `json:"command,omitempty"`   // Bash
	Cwd      string `json:"cwd,omitempty"`       // event cwd
	FilePath string `json:"file_path,omitempty"` // Write/Edit
	Content  string `json:"content,omitempty"`   // Write content / Edit new text, whole
	Server   string `json:"server,omitempty"`    // mcp__server__tool
	MCPTool  string `json:"mcp_tool,omitempty"`
	Args     string `json:"args,omitempty"` // MCP arguments JSON, whole
	// Total is the byte size of the whole Content or Args; a State cut by
	// ForRemote keeps it, so whoever shows it can say "first N of M KB".
	Total int `json:"total_bytes,omitempty"`
	// PermissionMode is the host's permission_mode ("" when not sent).
	PermissionMode string `json:"permission_mode,omitempty"`
	// Session is the host's session id: the judge's session memory is
	// kept per session (app/judge/session), and scoped approvals name it.
	Session string `json:"session,omitempty"`
	// ContentHash is the sha256 of a Write's whole content, so the
	// session memory can tell later whether the file still holds what the
	// agent wrote without keeping the content (a State cut by ForRemote
	// keeps only the first MaxPrefix bytes of Content).
	ContentHash string `json:"content_hash,omitempty"`
	// Old is an Edit's old_string, first 2 KB, for the dialog's diff; it
	// is not judged.
	Old string `json:"old,omitempty"`
}

// StateFromEvent builds the State for an event's tool call.
func StateFromEvent(e Event) (State, error) {
	s := State{Tool: e.ToolName, Cwd: e.Cwd, PermissionMode: e.PermissionMode, Session: e.SessionID}
	var in toolInput
	if len(e.ToolInput) > 0 && string(e.ToolInput) != "null" {
		if !hostproto.ScanObject(e.ToolInput, in.add) {
			in = toolInput{json: map[string]json.RawMessage{}}
			if err := json.Unmarshal(e.ToolInput, &in.json); err != nil {
				return s, fmt.Errorf("event: tool_input of %s is not a JSON object: %v", e.ToolName, err)
			}
		}
	}
	str := func(keys ...string) string {
		for _, k := range keys {
			if raw, ok := in.get(k); ok {
				if v, ok := hostproto.StringValue(raw); ok && v != "" {
					return v
				}
			}
		}
		return ""
	}
	switch {
	case e.ToolName == "Bash":
		s.Command = str("command", "cmd")
		if s.Command == "" {
			return s, fmt.Errorf("event: Bash call without tool_input.command")
		}
	case strings.HasPrefix(e.ToolName, "mcp__"):
		rest := strings.TrimPrefix(e.ToolName, "mcp__")
		server, tool, ok := strings.Cut(rest, "__")
		if !ok {
			server, tool = rest, ""
		}
		s.Server, s.MCPTool = server, tool
		s.Args = string(e.ToolInput)
		s.Total = len(s.Args)
	default: // Write, Edit, MultiEdit, NotebookEdit and anything with a path
		s.FilePath = str("file_path", "filePath", "path", "notebook_path", "notebookPath")
		full := str("content", "new_string", "newString", "new_source", "newSource")
		if e.ToolName == "Write" {
			if _, ok := in.get("content"); ok {
				s.ContentHash = session.HashString(full)
			}
		}
		s.Content = full
		s.Old = truncate(str("old_string", "oldString"), MaxPrefix)
		if s.Content == "" {
			if raw, ok := in.get("edits"); ok {
				s.Content = string(raw)
			}
		}
		s.Total = len(s.Content)
		if s.FilePath == "" && (e.ToolName == "Write" || e.ToolName == "Edit") {
			return s, fmt.Errorf("event: %s call without tool_input.file_path", e.ToolName)
		}
	}
	return s, nil
}

// toolInput is a tool_input object's members, read as encoding/json reads
// it into a map[string]json.RawMessage (names exact, the last of a name
// winning; TestToolInputAsMap). The scan reads it without reflection and
// without the map (the server reads one per call); json holds what
// encoding/json read when the scan left the input to it.
type toolInput struct {
	members []hostproto.Member
	names   []string // unquoted, for members whose name has escapes
	json    map[string]json.RawMessage
}

func (t *toolInput) add(m hostproto.Member) bool {
	if m.Slow {
		for len(t.names) < len(t.members) {
			t.names = append(t.names, "")
		}
		t.names = append(t.names, m.Name())
	}
	t.members = append(t.members, m)
	return true
}

func (t *toolInput) get(name string) (json.RawMessage, bool) {
	if t.json != nil {
		v, ok := t.json[name]
		return v, ok
	}
	for i := len(t.members) - 1; i >= 0; i-- {
		m := t.members[i]
		if m.Slow && t.names[i] == name || !m.Slow && string(m.Key[1:len(m.Key)-1]) == name {
			return m.Value, true
		}
	}
	return nil, false
}

// ForRemote is s as the remote judge gets it: Content and Args cut to
// their first MaxPrefix bytes (Total still says how big they were).
func (s State) ForRemote() State {
	s.Content = truncate(s.Content, MaxPrefix)
	s.Args = truncate(s.Args, MaxPrefix)
	return s
}

// Shown is how many bytes of Content or Args a MaxPrefix view shows, and
// Total how many there are (shown < total: say "first N of M KB").
func (s State) Shown() (shown, total int) {
	total = max(s.Total, len(s.Content)+len(s.Args))
	return min(total, MaxPrefix), total
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
