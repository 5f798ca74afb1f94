package hostproto

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// fields is a host's event as an object of raw members, read by any of a
// field's spellings: hosts name the same thing differently.
type fields map[string]json.RawMessage

func readObject(data []byte, what string) (fields, error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || data[0] != '{' {
		return nil, fmt.Errorf("event: input is not a JSON object; the host must send the %s event on stdin", what)
	}
	var f fields
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("event: not valid JSON: %v", err)
	}
	return f, nil
}

// str returns the first of keys that holds a non-empty string.
func (f fields) str(keys ...string) string {
	for _, k := range keys {
		var v string
		if raw, ok := f[k]; ok && json.Unmarshal(raw, &v) == nil && v != "" {
			return v
		}
	}
	return ""
}

// raw returns the first of keys that is present and not null.
func (f fields) raw(keys ...string) json.RawMessage {
	for _, k := range keys {
		if v, ok := f[k]; ok && string(bytes.TrimSpace(v)) != "null" {
			return v
		}
	}
	return nil
}

// object reads the first of keys as an object; a JSON string holding an
// object is read too (Copilot sends toolArgs as a string, Cursor may send
// MCP tool_input so). Missing is an empty object.
func (f fields) object(keys ...string) (fields, error) {
	key, raw := "", json.RawMessage(nil)
	for _, k := range keys {
		if v := f.raw(k); v != nil {
			key, raw = k, v
			break
		}
	}
	if raw == nil {
		return fields{}, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if strings.TrimSpace(s) == "" {
			return fields{}, nil
		}
		raw = []byte(s)
	}
	var o fields
	if err := json.Unmarshal(raw, &o); err != nil || o == nil {
		return nil, fmt.Errorf("event: %s is not a JSON object", key)
	}
	return o, nil
}

// firstString reads a string, or the first string of an array (Cursor's
// workspace_roots).
func (f fields) firstString(keys ...string) string {
	if s := f.str(keys...); s != "" {
		return s
	}
	for _, k := range keys {
		var list []string
		if raw, ok := f[k]; ok && json.Unmarshal(raw, &list) == nil && len(list) > 0 {
			return list[0]
		}
	}
	return ""
}

// command reads a shell command that may be a string or an argv array
// (older Codex sends ["bash","-lc","..."]).
func (f fields) command(keys ...string) string {
	if s := f.str(keys...); s != "" {
		return s
	}
	for _, k := range keys {
		var argv []string
		if raw, ok := f[k]; ok && json.Unmarshal(raw, &argv) == nil && len(argv) > 0 {
			return joinArgv(argv)
		}
	}
	return ""
}

// joinArgv renders argv as one shell line the judge can read; a
// "bash -lc SCRIPT" argv is the script itself.
func joinArgv(argv []string) string {
	if len(argv) == 3 && (argv[1] == "-lc" || argv[1] == "-c") {
		switch base(argv[0]) {
		case "bash", "sh", "zsh", "dash":
			return argv[2]
		}
	}
	parts := make([]string, len(argv))
	for i, a := range argv {
		parts[i] = shellQuote(a)
	}
	return strings.Join(parts, " ")
}

func base(p string) string { return p[strings.LastIndexAny(p, `/\`)+1:] }

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Key spellings of the common tool inputs across hosts.
var (
	commandKeys = []string{"command", "command_line", "commandLine", "cmd", "script"}
	cwdKeys     = []string{"cwd", "working_directory", "workdir", "dir_path", "directory", "workingDirectory"}
	pathKeys    = []string{"file_path", "filePath", "path", "absolute_path", "target_file", "targetFile", "file"}
	contentKeys = []string{"content", "file_text", "fileText", "file_content", "contents", "text", "code_edit"}
	oldKeys     = []string{"old_string", "old_str", "oldString", "old_str_1", "old_text"}
	newKeys     = []string{"new_string", "new_str", "newString", "new_str_1", "new_text"}
	patchKeys   = []string{"patch", "patchText", "input", "command", "diff"}
)

// Tool kinds: what a host's tool does, whatever it is called.
type kind int

const (
	notJudged kind = iota
	shell          // -> Bash
	write          // -> Write
	edit           // -> Edit (MultiEdit with several edits)
	patch          // an apply_patch envelope -> one part per file
	mcp            // already mcp__server__tool
)

// anyHostShell are shell and patch tool names read on every host, after
// its own table: a host that renames its shell tool to another host's
// name (Antigravity's run_command, Gemini's run_shell_command) is still
// judged rather than waved through as "not ours".
var anyHostShell = toolTable{"bash": shell, "shell": shell, "run_shell_command": shell, "run_command": shell,
	"execute": shell, "execute_bash": shell, "powershell": shell, "launch-process": shell, "apply_patch": patch}

// toolTable maps a host's tool names (lower case) to their kind.
type toolTable map[string]kind

func (t toolTable) kind(name string) kind {
	if k, ok := t[strings.ToLower(name)]; ok {
		return k
	}
	if k, ok := anyHostShell[strings.ToLower(name)]; ok {
		return k
	}
	// A namespaced name ("functions.apply_patch", "default_api:run_shell_command",
	// "container.exec"): the tool is its last segment.
	if i := strings.LastIndexAny(name, ".:"); i >= 0 && i < len(name)-1 && !strings.HasPrefix(name, "mcp__") {
		if k := t.kind(name[i+1:]); k != notJudged && k != mcp {
			return k
		}
	}
	if strings.HasPrefix(name, "mcp__") {
		return mcp
	}
	if _, _, ok := kiroMCP(name); ok {
		return mcp
	}
	return notJudged
}

// kiroMCP reads Kiro's MCP spelling "@server/tool".
func kiroMCP(name string) (server, tool string, ok bool) {
	if !strings.HasPrefix(name, "@") {
		return "", "", false
	}
	server, tool, ok = strings.Cut(name[1:], "/")
	return server, tool, ok && server != "" && tool != ""
}

func marshal(v any) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("hostproto: " + err.Error())
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// toCommon turns a host tool call into the common event's tool name and
// input (Claude's shape). ev carries the host's fields (cwd, session) and
// gets the parts of a patch.
func toCommon(ev *Event, k kind, name string, in fields) error {
	switch k {
	case shell:
		cmd := in.command(commandKeys...)
		if cmd == "" {
			return fmt.Errorf("event: %s call without a command", name)
		}
		cmd = withArgs(cmd, in)
		bash := struct {
			Command string `json:"command"`
			Cwd     string `json:"cwd,omitempty"`
		}{cmd, in.str(cwdKeys...)}
		if bash.Cwd != "" { // the command's own folder is the one that counts
			ev.Cwd = bash.Cwd
		}
		ev.ToolName, ev.ToolInput = "Bash", marshal(bash)
	case write:
		p := in.str(pathKeys...)
		if p == "" {
			return fmt.Errorf("event: %s call without a file path", name)
		}
		ev.ToolName, ev.ToolInput = "Write", marshal(writeInput{p, in.str(contentKeys...)})
	case edit:
		p := in.str(pathKeys...)
		if p == "" {
			return fmt.Errorf("event: %s call without a file path", name)
		}
		if pairs, list, ok := editPairs(in); ok {
			if len(pairs) == 1 && !list {
				ev.ToolName, ev.ToolInput = "Edit", marshal(editInput{p, pairs[0].OldString, pairs[0].NewString})
				return nil
			}
			ev.ToolName, ev.ToolInput = "MultiEdit", marshal(struct {
				FilePath string     `json:"file_path"`
				Edits    []editPair `json:"edits"`
			}{p, pairs})
			return nil
		}
		if edits := in.raw("edits"); edits != nil {
			ev.ToolName, ev.ToolInput = "MultiEdit", marshal(struct {
				FilePath string          `json:"file_path"`
				Edits    json.RawMessage `json:"edits"`
			}{p, edits})
			return nil
		}
		old, nw := in.str(oldKeys...), in.str(newKeys...)
		if old == "" && nw == "" { // a create through an edit tool
			if c := in.str(contentKeys...); c != "" {
				ev.ToolName, ev.ToolInput = "Write", marshal(writeInput{p, c})
				return nil
			}
		}
		ev.ToolName, ev.ToolInput = "Edit", marshal(editInput{p, old, nw})
	case patch:
		text := in.str(patchKeys...)
		if text == "" {
			return fmt.Errorf("event: %s call without the patch text", name)
		}
		parts, err := ParsePatch(text)
		if err != nil {
			return err
		}
		for _, p := range parts {
			pe := *ev
			pe.ToolName, pe.ToolInput, pe.Parts = p.ToolName, p.ToolInput, nil
			ev.Parts = append(ev.Parts, pe)
		}
		ev.ToolName, ev.ToolInput = parts[0].ToolName, parts[0].ToolInput
		if len(parts) == 1 {
			ev.Parts = nil
		}
	case mcp:
		if srv, t, ok := kiroMCP(name); ok {
			name = mcpName(srv, t)
		}
		if !strings.HasPrefix(name, "mcp__") {
			return fmt.Errorf("event: MCP tool %q is not named mcp__server__tool", name)
		}
		ev.ToolName, ev.ToolInput = name, marshal(map[string]json.RawMessage(in))
	default:
		return errors.New("event: tool is not judged")
	}
	return nil
}

type writeInput struct {
	FilePath string `json:"file_path"`
	Content  string `json:"content"`
}

type editInput struct {
	FilePath  string `json:"file_path"`
	OldString string `json:"old_string"`
	NewString string `json:"new_string"`
}

// mcpName is the common name of an MCP tool: mcp__server__tool.
func mcpName(server, tool string) string {
	clean := func(s string) string {
		s = strings.TrimSpace(s)
		if s == "" {
			return "unknown"
		}
		return strings.ReplaceAll(s, "__", "_")
	}
	return "mcp__" + clean(server) + "__" + clean(tool)
}

// editPair is one replacement in Claude's MultiEdit shape.
type editPair struct {
	OldString string `json:"old_string"`
	NewString string `json:"new_string"`
}

// Old and new text as the hosts spell them inside an edit list or object.
var (
	pairOldKeys = append([]string{"old", "oldText", "old_content", "search", "TargetContent"}, oldKeys...)
	pairNewKeys = append([]string{"new", "newText", "new_content", "replace", "replacement", "ReplacementContent"}, newKeys...)
)

// editPairs reads every replacement an edit call makes, whatever its
// shape, so the judge sees all the new text (a script line, a hooks-off
// switch): several top-level pairs numbered as Auggie numbers them
// (old_str_1/new_str_1, old_str_2/...), or a list or single object under
// edits, edit, changes, replacements or chunks with its items' keys in any
// host's spelling (Kimi Code's {old, new}, Droid's {old_str, new_str}).
// ok is false when the call has no second pair and no such list: the
// plain reading stands.
func editPairs(in fields) (pairs []editPair, list bool, ok bool) {
	numbered := false
	for i := 2; ; i++ {
		n := strconv.Itoa(i)
		o, nw := in.str("old_str_"+n, "old_string_"+n), in.str("new_str_"+n, "new_string_"+n)
		if o == "" && nw == "" {
			break
		}
		if !numbered {
			numbered = true
			if o1, n1 := in.str(oldKeys...), in.str(newKeys...); o1 != "" || n1 != "" {
				pairs = append(pairs, editPair{o1, n1})
			}
		}
		pairs = append(pairs, editPair{o, nw})
	}
	if numbered {
		return pairs, false, true
	}
	raw := in.raw("edits", "edit", "changes", "replacements", "chunks", "ReplacementChunks")
	if raw == nil {
		return nil, false, false
	}
	var items []fields
	list = true
	if json.Unmarshal(raw, &items) != nil {
		var one fields
		if json.Unmarshal(raw, &one) != nil || one == nil {
			return nil, false, false
		}
		items, list = []fields{one}, false
	}
	for _, item := range items {
		if item == nil {
			continue
		}
		o, nw := item.str(pairOldKeys...), item.str(pairNewKeys...)
		if o == "" && nw == "" {
			continue
		}
		pairs = append(pairs, editPair{o, nw})
	}
	return pairs, list, len(pairs) > 0
}

// withArgs appends the arguments a host or an MCP server passes beside
// the program ({"command": "rm", "args": ["-rf", "/home/dev"]}): the
// program alone would be judged as harmless as its bare name.
func withArgs(cmd string, in fields) string {
	for _, k := range []string{"args", "argv", "arguments"} {
		var list []string
		if raw, ok := in[k]; ok && json.Unmarshal(raw, &list) == nil && len(list) > 0 {
			parts := make([]string, len(list))
			for i, a := range list {
				parts[i] = shellQuote(a)
			}
			return cmd + " " + strings.Join(parts, " ")
		}
	}
	return cmd
}
