package hostproto

import (
	"encoding/json"
	"net/url"
	"strings"
)

// A host has more tools than its table names: newer ones (Codex's
// write_stdin, Copilot's write_bash, Auggie's remove-files, Amp's
// undo_edit and format_file, Cursor's EditNotebook, Kiro's use_aws), and
// MCP tools named with the host's own separator (opencode's server_tool,
// Copilot's server-tool). The agent picks whatever tool its host offers,
// so a tool the table does not know is read by what it carries, not
// waved through as "not ours":
//
//   - text typed into a running shell (stdin, write_bash, write-process)
//     is the shell command it is;
//   - a command under a shell-named tool is a shell command;
//   - an AWS call (service + operation) is the aws command line;
//   - a tool that names files is judged as the change it would make to
//     them: delete/remove -> rm, move/rename -> mv, copy -> cp, anything
//     else -> a write or edit of each file, unless the tool's name says it
//     only reads (read, view, list, grep, fetch...).
//
// A tool that only reads, or names no file and no command, stays not ours:
// nothing to judge, nothing to nag about.

// unmappedTool fills ev for a tool the host's table does not map. judged
// is false when there is nothing in it to judge.
func unmappedTool(ev *Event, tool string, in fields) (judged bool, err error) {
	low := strings.ToLower(tool)
	words := nameWords(tool)
	// The verb may sit in an argument ({"action": "delete", "path"}): a
	// one-word action, operation or sub-command counts as part of the name.
	if sub := in.str("action", "operation", "op", "mode", "command", "subcommand"); sub != "" && !strings.ContainsAny(sub, " \t\n/\\") && len(sub) <= 40 {
		low += " " + strings.ToLower(sub)
		words = append(words, nameWords(sub)...)
	}
	// Text typed into a running process: a shell line.
	if typed(low, words) {
		text := typedText(in.str("chars", "input", "input_text", "inputText", "Input", "text", "keys", "data", "stdin"))
		if strings.TrimSpace(text) == "" {
			return false, nil
		}
		return true, toCommon(ev, shell, tool, fields{"command": marshal(text)})
	}
	if shellNamed(strings.ToLower(tool), nameWords(tool)) {
		cmd := in.command(commandKeys...)
		if cmd != "" {
			cmd = withArgs(cmd, in) // "args" beside the program
		} else {
			cmd = in.command("input", "argv", "args") // or the whole argv
		}
		if cmd != "" {
			bash := fields{"command": marshal(cmd)}
			if c := in.str(cwdKeys...); c != "" {
				bash["cwd"] = marshal(c)
			}
			return true, toCommon(ev, shell, tool, bash)
		}
	}
	if svc, op := in.str("service_name", "serviceName"), in.str("operation_name", "operationName"); svc != "" && op != "" {
		return true, toCommon(ev, shell, tool, fields{"command": marshal(awsLine(svc, op, in))})
	}
	if hasAny(low, words, verbs{stems: []string{"kill", "terminat"}}) ||
		hasAny(low, words, verbs{short: []string{"stop", "end"}}) && hasAny(low, words, verbs{stems: []string{"process", "proc", "task", "pid"}}) {
		// A process tool told a pid or a program name: the kill or pkill
		// that does the same (the judge knows the guard's processes).
		// Auggie's kill-process {terminal_id} names its own terminal: not ours.
		var pids []string
		for _, k := range []string{"pid", "pids", "process_id", "processId"} {
			if raw := in.raw(k); raw != nil {
				var n json.Number
				var list []json.Number
				switch {
				case json.Unmarshal(raw, &n) == nil:
					pids = append(pids, n.String())
				case json.Unmarshal(raw, &list) == nil:
					for _, x := range list {
						pids = append(pids, x.String())
					}
				default:
					if s := in.str(k); s != "" {
						pids = append(pids, shellQuote(s))
					}
				}
			}
		}
		if len(pids) > 0 {
			return true, toCommon(ev, shell, tool, fields{"command": marshal("kill -9 " + strings.Join(pids, " "))})
		}
		if name := in.str("name", "process_name", "processName", "image", "image_name", "imageName", "program", "process"); name != "" {
			return true, toCommon(ev, shell, tool, fields{"command": marshal("pkill -f " + shellQuote(name))})
		}
		return false, nil // the agent's own terminal or session (Auggie kill-process, Claude KillShell)
	}
	if viewCommand(in) {
		return false, nil
	}
	paths := pathArgs(in)
	if len(paths) == 0 {
		return guessMCP(ev, tool, in)
	}
	mutates := hasAny(low, words, mutateWords)
	if !mutates && hasAny(low, words, readWords) {
		return false, nil
	}
	if !mutates {
		// A verb we cannot read (Claude's LSP, Amp's look_at): judged only
		// for the places an agent could switch its guard off through, so
		// that it neither slips past self-protection nor nags about every
		// file outside the project it looks at.
		var kept []string
		for _, p := range paths {
			if guardPlace(p) {
				kept = append(kept, p)
			}
		}
		if paths = kept; len(paths) == 0 {
			return false, nil
		}
	}
	quoted := make([]string, len(paths))
	for i, p := range paths {
		quoted[i] = shellQuote(p)
	}
	switch {
	case hasAny(low, words, deleteWords):
		// A tool that says it deletes files is rm; any other delete may
		// take a folder with all it holds (delete_directory, recursive:
		// true, or a verb that does not say), and is rm -r.
		rm := "rm -r -- "
		name := strings.ToLower(tool)
		fileTool := strings.Contains(name, "unlink") || strings.Contains(name, "file") && hasAny(name, nameWords(tool), deleteWords)
		var recursive bool
		if json.Unmarshal(in.raw("recursive", "recurse"), &recursive) == nil && !recursive ||
			fileTool && !hasAny(name, nil, verbs{stems: []string{"dir", "folder", "tree", "recurs"}}) && !recursive {
			rm = "rm -- "
		}
		return true, toCommon(ev, shell, tool, fields{"command": marshal(rm + strings.Join(quoted, " "))})
	case len(paths) >= 2 && hasAny(low, words, moveWords):
		return true, toCommon(ev, shell, tool, fields{"command": marshal("mv -- " + strings.Join(quoted, " "))})
	case len(paths) >= 2 && hasAny(low, words, copyWords):
		return true, toCommon(ev, shell, tool, fields{"command": marshal("cp -- " + strings.Join(quoted, " "))})
	}
	// A change to each file it names: its content, or its old and new text.
	content := in.str(contentKeys...)
	old, nw := in.str(oldKeys...), in.str(newKeys...)
	if nw == "" {
		nw = in.str("new_source", "newSource", "replacement", "code_edit")
	}
	for _, p := range paths {
		pe := *ev
		pe.Parts = nil
		if content != "" && old == "" && nw == "" {
			pe.ToolName, pe.ToolInput = "Write", marshal(writeInput{p, content})
		} else {
			pe.ToolName, pe.ToolInput = "Edit", marshal(editInput{p, old, nw})
		}
		ev.Parts = append(ev.Parts, pe)
	}
	ev.ToolName, ev.ToolInput = ev.Parts[0].ToolName, ev.Parts[0].ToolInput
	if len(ev.Parts) == 1 {
		ev.Parts = nil
	}
	return true, nil
}

// nameWords splits a tool name into lower-case words: at any character
// that is not a letter or digit, and where camelCase starts a new word.
func nameWords(name string) []string {
	var words []string
	var cur []rune
	prevLower := false
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for _, r := range name {
		switch {
		case r >= 'A' && r <= 'Z':
			if prevLower {
				flush()
			}
			cur = append(cur, r)
			prevLower = false
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			cur = append(cur, r)
			prevLower = true
		default:
			flush()
			prevLower = false
		}
	}
	flush()
	return words
}

// A verb list: a long stem matches anywhere in the name ("todowrite",
// "strreplacefile"), a short one only as a whole word ("rm", not "format").
type verbs struct{ stems, short []string }

var (
	readWords = verbs{stems: []string{"read", "view", "list", "glob", "grep", "search", "find", "fetch", "show", "stat", "open",
		"browse", "image", "lookup", "inspect", "preview", "query", "access", "resource"}, short: []string{"ls", "get", "cat", "web", "info", "diff"}}
	mutateWords = verbs{stems: []string{"write", "edit", "creat", "save", "delet", "remov", "unlink", "trash", "move", "renam",
		"copy", "patch", "replac", "insert", "append", "updat", "modif", "chang", "format", "undo", "revert", "restor", "apply",
		"chmod", "chown", "mkdir", "touch", "truncat", "overwrit", "upload", "download", "extract", "unzip", "clone"},
		short: []string{"rm", "mv", "cp", "del", "put", "set", "add", "make", "new", "str"}}
	deleteWords = verbs{stems: []string{"delet", "remov", "unlink", "trash"}, short: []string{"rm", "del", "rmdir"}}
	moveWords   = verbs{stems: []string{"move", "renam"}, short: []string{"mv", "ren"}}
	copyWords   = verbs{stems: []string{"copy", "duplicat"}, short: []string{"cp"}}
)

func hasAny(low string, words []string, v verbs) bool {
	for _, s := range v.stems {
		if strings.Contains(low, s) {
			return true
		}
	}
	for _, w := range words {
		for _, s := range v.short {
			if w == s {
				return true
			}
		}
	}
	return false
}

// typed: a tool that types into a running process (Codex write_stdin,
// Copilot write_bash, Auggie write-process, send_keys to a terminal).
func typed(low string, words []string) bool {
	if strings.Contains(low, "stdin") {
		return true
	}
	into := hasAny(low, words, verbs{stems: []string{"bash", "process", "terminal", "shell", "session", "console", "command", "tmux"}, short: []string{"pty", "tty", "sh", "pane", "repl"}})
	return into && hasAny(low, words, verbs{stems: []string{"write", "send", "input", "type", "keys"}})
}

// typedText is what typed text runs: special keys ("{enter}", Copilot's
// spelling) and control characters (Ctrl-C, Ctrl-D) as line breaks or
// nothing; a control key ends what was typed before it, so each side is
// judged as its own line.
func typedText(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\n' && r != '\t' || r == 0x7f {
			return '\n'
		}
		return r
	}, s)
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '{')
		j := strings.IndexByte(s[max(i, 0):], '}')
		if i < 0 || j < 0 {
			b.WriteString(s)
			break
		}
		key := strings.ToLower(s[i+1 : i+j])
		if strings.IndexFunc(key, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r == '-' || r == '_' || r == '+') }) >= 0 {
			b.WriteString(s[:i+1]) // not a key name: keep the brace as text
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i])
		if key == "enter" || key == "return" {
			b.WriteByte('\n')
		}
		s = s[i+j+1:]
	}
	return b.String()
}

// shellNamed: a tool whose name says it runs a command.
func shellNamed(low string, words []string) bool {
	if strings.Contains(low, "slash") {
		return false // Claude Code's SlashCommand runs "/review", not a program
	}
	return hasAny(low, words, verbs{stems: []string{"shell", "terminal", "exec", "bash", "powershell", "pwsh", "console", "command", "process"},
		short: []string{"run", "cmd", "sh", "zsh"}})
}

// awsLine is Kiro's use_aws call as the aws command line that does the
// same: aws SERVICE OPERATION --param value ... --region R.
func awsLine(svc, op string, in fields) string {
	if strings.EqualFold(svc, "s3") {
		svc = "s3api" // the API's operations (delete-bucket) are the s3api command's; aws s3 has its own verbs
	}
	parts := []string{"aws", shellQuote(svc), shellQuote(op)}
	if params, err := in.object("parameters", "params"); err == nil {
		keys := make([]string, 0, len(params))
		for k := range params {
			keys = append(keys, k)
		}
		sortStrings(keys)
		for _, k := range keys {
			flag := "--" + strings.ReplaceAll(strings.ToLower(strings.Join(nameWords(k), "-")), "_", "-")
			var s string
			if json.Unmarshal(params[k], &s) != nil {
				s = string(params[k])
			}
			parts = append(parts, flag, shellQuote(s))
		}
	}
	if r := in.str("region"); r != "" {
		parts = append(parts, "--region", shellQuote(r))
	}
	return strings.Join(parts, " ")
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// pathArgs collects the file paths a tool's arguments name: strings (or
// lists of strings) under a key that names a path, a file, a folder or a
// move's ends, and any string shaped like an absolute or home path, at
// any depth (a few levels), never content.
func pathArgs(in fields) []string {
	var out []string
	seen := map[string]bool{}
	var walk func(key string, raw json.RawMessage, depth int)
	walk = func(key string, raw json.RawMessage, depth int) {
		if depth > 4 || len(out) >= 16 {
			return
		}
		raw = json.RawMessage(strings.TrimSpace(string(raw)))
		if len(raw) == 0 {
			return
		}
		switch raw[0] {
		case '{':
			var o map[string]json.RawMessage
			if json.Unmarshal(raw, &o) == nil {
				keys := make([]string, 0, len(o))
				for k := range o {
					keys = append(keys, k)
				}
				sortStrings(keys)
				for _, k := range keys {
					walk(k, o[k], depth+1)
				}
			}
		case '[':
			var list []json.RawMessage
			if json.Unmarshal(raw, &list) == nil {
				for _, v := range list {
					walk(key, v, depth+1)
				}
			}
		case '"':
			var s string
			if json.Unmarshal(raw, &s) != nil || contentKey(key) {
				return
			}
			if p, ok := pathValue(key, s); ok && !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	keys := make([]string, 0, len(in))
	for k := range in {
		keys = append(keys, k)
	}
	// Known path keys first, in their order: the first path is a move's source.
	order := append(append([]string{}, pathKeys...), "source", "src", "from", "old_path", "oldPath", "source_path", "sourcePath",
		"destination", "dest", "to", "target", "new_path", "newPath", "destination_path", "destinationPath")
	done := map[string]bool{}
	for _, k := range order {
		if v, ok := in[k]; ok && !done[k] {
			done[k] = true
			walk(k, v, 0)
		}
	}
	sortStrings(keys)
	for _, k := range keys {
		if !done[k] {
			walk(k, in[k], 0)
		}
	}
	return out
}

// contentKey: a key that holds text, not a path (file_text, new_content).
func contentKey(key string) bool {
	k := strings.ToLower(key)
	for _, w := range []string{"content", "text", "code", "source_code", "diff", "patch", "body", "data", "string", "str", "instruction", "description", "message", "prompt", "query", "pattern", "regex", "url", "command", "cmd"} {
		if strings.Contains(k, w) && !strings.Contains(k, "path") {
			return true
		}
	}
	return false
}

// pathValue: s is a path under a key that names one, or a path by its
// shape under any key. A file: URL is its path; other URLs are not paths.
func pathValue(key, s string) (string, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 4096 || strings.ContainsAny(s, "\n\r\x00") {
		return "", false
	}
	if rest, ok := strings.CutPrefix(s, "file://"); ok {
		if u, err := url.PathUnescape(rest); err == nil {
			rest = u // file:///h/.claude/settings%2Ejson
		}
		s = rest
		if len(s) > 3 && s[0] == '/' && s[2] == ':' { // file:///C:/...
			s = s[1:]
		}
	} else if strings.Contains(s, "://") {
		return "", false
	}
	k := strings.ToLower(key)
	named := false
	for _, w := range []string{"path", "file", "dir", "folder", "notebook", "uri", "location", "filename"} {
		if strings.Contains(k, w) {
			named = true
		}
	}
	switch k {
	case "source", "src", "from", "dest", "destination", "to", "target":
		named = true
	}
	if named {
		return s, true
	}
	// By shape: /abs, ~/x, C:\x or C:/x, $HOME/x, with no spaces (a sentence
	// that mentions a path is not one).
	if strings.ContainsAny(s, " \t") || len(s) < 3 {
		return "", false
	}
	switch {
	case s[0] == '/' || strings.HasPrefix(s, "~/") || strings.HasPrefix(s, `~\`) || strings.HasPrefix(s, "$HOME") || strings.HasPrefix(s, "${HOME}") || strings.HasPrefix(s, "%USERPROFILE%"),
		len(s) > 3 && (s[0] >= 'A' && s[0] <= 'Z' || s[0] >= 'a' && s[0] <= 'z') && s[1] == ':' && (s[2] == '\\' || s[2] == '/'):
		return s, true
	}
	return "", false
}

// notMapped is a parser's answer for a tool its host's table does not
// map: judged by what it carries (unmappedTool), or not ours. Arguments
// that are not an object leave nothing to read: not ours, as before.
func notMapped(ev *Event, tool string, in fields, inErr error) (Event, bool, error) {
	if inErr != nil {
		return *ev, false, nil
	}
	judged, err := unmappedTool(ev, tool, in)
	return *ev, judged, err
}

// viewCommand: an editor tool called with a read-only sub-command
// (Anthropic's text editor tool and Copilot's str_replace_editor take
// {"command": "view", "path"}): it changes nothing.
func viewCommand(in fields) bool {
	switch strings.ToLower(in.str("command", "action", "operation", "op")) {
	case "view", "read", "list", "show", "cat", "get", "open", "search", "find":
		return true
	}
	return false
}

// guardPlaces are the folder and file names where a host keeps its hook
// config or agent-guard its files: a path through one of them is worth a
// round trip to the judge, which knows exactly what is protected.
var guardPlaces = []string{"agent-guard", "agent_guard", "agentguard", ".claude", ".zcode", ".codex", ".gemini", ".qwen",
	".cursor", ".copilot", ".github/hooks", ".codeium", ".windsurf", "/windsurf", "cline", ".kiro", ".factory", ".augment",
	".kimi", "/amp", "opencode", "antigravity", "claude-code", "gemini-cli", "qwen-code", ".agentguardrc"}

func guardPlace(p string) bool {
	low := strings.ToLower(strings.ReplaceAll(p, `\`, "/"))
	for _, g := range guardPlaces {
		if strings.Contains(low, g) {
			return true
		}
	}
	return false
}

// dangerWords are the verbs of an MCP tool that can do lasting harm
// (delete a repository, force-push, drop a table, publish). A tool the
// host's table does not name, named with one of them and a separator, is
// most likely an MCP tool under the host's own spelling (opencode's
// server_tool, Copilot's server-tool): it is judged as the MCP tool it
// would be on Claude Code, so the MCP rules reach the same verdict.
// Other unnamed tools (todo lists, plans, memories, searches) stay not
// ours: judging them as unknown MCP tools would nag on every call.
var dangerWords = verbs{stems: []string{"delet", "destroy", "drop", "purge", "wipe", "erase", "truncat", "remov", "force",
	"revoke", "push", "publish", "deploy", "shutdown", "reboot", "uninstall"}, short: []string{"rm", "del", "kill"}}

func guessMCP(ev *Event, tool string, in fields) (bool, error) {
	low := strings.ToLower(tool)
	i := strings.IndexAny(tool, "_-.:/")
	if i <= 0 || i == len(tool)-1 || !hasAny(low, nameWords(tool), dangerWords) {
		return false, nil
	}
	return true, toCommon(ev, mcp, mcpName(tool[:i], tool[i+1:]), in)
}
