// Package hostproto is every agent host's hook dialect: it parses the
// host's pre-tool event into one common Event (Claude Code's shape) and
// renders a decision as the exact bytes and exit code that host honours.
//
// The thin hook links this package, so it imports only the standard
// library: no judge, no config, nothing that reads the disk.
package hostproto

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Decisions, as the hook and the server spell them.
const (
	Allow = "allow"
	Ask   = "ask"
	Deny  = "deny"
)

// PreToolUse is the common event name every parsed event carries.
const PreToolUse = "PreToolUse"

// Event is a host's pre-tool event in the common shape. Its JSON form is a
// Claude Code PreToolUse event, so the server and the judge read every
// host's event the same way (see Normalized).
type Event struct {
	Host           string `json:"host,omitempty"`
	HookEventName  string `json:"hook_event_name"`
	SessionID      string `json:"session_id,omitempty"`
	Cwd            string `json:"cwd,omitempty"`
	PermissionMode string `json:"permission_mode,omitempty"`
	ToolUseID      string `json:"tool_use_id,omitempty"`
	// ToolName is Bash, Write, Edit, MultiEdit, mcp__server__tool, or the
	// host's own tool name when the tool is not judged.
	ToolName string `json:"tool_name"`
	// ToolInput is in Claude's shape: Bash {"command","cwd"?}, Write
	// {"file_path","content"}, Edit {"file_path","old_string","new_string"},
	// MCP: the arguments object.
	ToolInput json.RawMessage `json:"tool_input,omitempty"`
	// Parts is set when one host call does several things (a Codex
	// apply_patch over several files): each part is judged on its own and
	// the strictest decision wins. The event itself then describes the
	// first part.
	Parts []Event `json:"-"`
}

// Normalized is the event as Claude Code would have sent it.
// HTML characters stay as they are: the judge reads MCP arguments as text.
func (e Event) Normalized() []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e); err != nil { // only a ToolInput that is not JSON; Parse never makes one
		b.Reset()
		enc.Encode(Event{Host: e.Host, HookEventName: e.HookEventName, ToolName: e.ToolName})
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// Each returns the events to judge: the parts, or the event itself.
func (e Event) Each() []Event {
	if len(e.Parts) > 0 {
		return e.Parts
	}
	return []Event{e}
}

// Output is what the hook prints and the exit code it returns.
type Output struct {
	Stdout []byte
	Stderr []byte
	Code   int
}

// Host is one agent host's dialect.
type Host struct {
	// Name is the --host value and the audit's host field: "codex".
	Name string
	// Display is the host's name for people: "Codex CLI".
	Display string
	// FailOpen says what the host does when a hook fails, times out or
	// prints something it does not understand (for doctor and the README).
	FailOpen string
	parse    func(stdin []byte) (Event, bool, error)
	render   func(decision, reason string) Output
	silent   func() Output // nil: no output
	ask      bool
}

// Parse reads the host's event from stdin. On a host that does not honour
// ask, PermissionMode is left empty (see AskHonoured). judged is false when the event
// is not ours (another event, a tool we do not judge): the hook then
// prints Silent(). When err is not nil the hook must deny.
func (h Host) Parse(stdin []byte) (ev Event, judged bool, err error) {
	ev, judged, err = h.parse(stdin)
	ev.Host = h.Name
	if !h.ask {
		// The server reads an empty mode as full access: a confirm then
		// goes to agent-guard's dialog, or is denied, never to this host.
		ev.PermissionMode = ""
	}
	for i := range ev.Parts {
		ev.Parts[i].Host, ev.Parts[i].PermissionMode = h.Name, ev.PermissionMode
	}
	if err != nil {
		return ev, true, err
	}
	return ev, judged, nil
}

// Render returns the bytes and exit code the host honours for decision.
// An unknown decision, and "ask" on a host that does not honour it, is
// rendered as a deny.
func (h Host) Render(decision, reason string) Output {
	switch decision {
	case Allow, Deny:
	case Ask:
		if !h.ask {
			decision = Deny
			reason = "agent-guard: this call needs a human's confirmation, and " + h.Display + " cannot ask for it reliably, so it is denied. " + reason
		}
	default:
		decision, reason = Deny, UnknownDecisionReason(decision)
	}
	return h.render(decision, reason)
}

// Silent is the output for an event that is not ours: nothing, exit 0,
// except where the host takes nothing as a refusal (Cursor with
// failClosed), which gets its explicit "proceed".
func (h Host) Silent() Output {
	if h.silent != nil {
		return h.silent()
	}
	return Output{}
}

// AskHonoured reports whether the host shows its own prompt for "ask" in
// a way a guard can trust. Where it does not, a confirm with no dialog of
// ours must be a deny (Render does that to any "ask").
func (h Host) AskHonoured() bool { return h.ask }

// UnknownDecisionReason is the deny reason for a decision that is not
// allow, ask or deny.
func UnknownDecisionReason(decision string) string {
	return fmt.Sprintf("agent-guard-hook: produced the unknown decision %q. The call is denied. Stop and tell the user what happened; do not retry it in another form.", decision)
}

// Emit renders decision and writes it. When stdout cannot be written, the
// reason goes to stderr with exit code 2, which most hosts take as a block.
func (h Host) Emit(stdout, stderr io.Writer, decision, reason string) int {
	return h.Render(decision, reason).Write(stdout, stderr, reason)
}

// Write prints o; see Emit for a failed stdout.
func (o Output) Write(stdout, stderr io.Writer, reason string) int {
	var err error
	if len(o.Stdout) > 0 {
		_, err = stdout.Write(o.Stdout)
	}
	if err != nil {
		fmt.Fprintf(stderr, "agent-guard-hook: could not write the decision (%v); blocking. %s\n", err, reason)
		return 2
	}
	if len(o.Stderr) > 0 {
		stderr.Write(o.Stderr)
	}
	return o.Code
}

var registry = map[string]Host{}

func register(h Host) Host {
	if _, dup := registry[h.Name]; dup {
		panic("hostproto: host registered twice: " + h.Name)
	}
	registry[h.Name] = h
	return h
}

// Lookup finds a host by its --host name.
func Lookup(name string) (Host, bool) {
	h, ok := registry[strings.ToLower(name)]
	return h, ok
}

// All lists every host, sorted by name.
func All() []Host {
	hs := make([]Host, 0, len(registry))
	for _, h := range registry {
		hs = append(hs, h)
	}
	sort.Slice(hs, func(i, j int) bool { return hs[i].Name < hs[j].Name })
	return hs
}

// Names lists every host name, sorted.
func Names() []string {
	var ns []string
	for _, h := range All() {
		ns = append(ns, h.Name)
	}
	return ns
}

// Judged reports whether the guard judges this common tool name at all:
// Bash, Write, Edit (and MultiEdit/NotebookEdit) and MCP tools.
func Judged(tool string) bool {
	switch tool {
	case "Bash", "Write", "Edit", "MultiEdit", "NotebookEdit":
		return true
	}
	return strings.HasPrefix(tool, "mcp__")
}
