package rules

import (
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
)

// Self-protection for MCP calls, whatever the server calls its arguments:
// the generic MCP rules know a fixed list of path keys (path, file_path,
// ...), so {"pathInProject": "../.claude/settings.json"} or a file:// URL
// in "path" slipped past them. Here every string value of a tool that may
// change something is read as a path when it looks like one, and a tool
// that kills or stops something is read for the guard's name.

// mcpTextKeys hold file content or edit text, not a target: a path
// written into a file is data.
var mcpTextKeys = words(`content contents text new_string old_string newtext oldtext new_text old_text edits body
	data value replacement needle repl pattern message description comment title`)

// mcpKillWords in a tool's name make it one that stops processes.
var mcpKillWords = words(`kill killall pkill terminate stop signal end suspend`)

// mcpSelf reports a self-protection finding for an MCP call: a mutating
// tool that names a protected path in any argument, or a tool that stops
// processes named like the guard.
func mcpSelf(server, tool, args, cwd, home string) (Finding, bool) {
	if strings.TrimSpace(args) == "" {
		return Finding{}, false
	}
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		m = partialObject(args)
	}
	kills := false
	for _, w := range splitName(tool) {
		kills = kills || mcpKillWords[w]
	}
	mutating := mcpVerb(server, tool).Risk > 0
	var out Finding
	found := false
	if kills {
		// {"pid": 1234}: the guard's process by number
		for _, k := range []string{"pid", "processId", "process_id", "id"} {
			if n, ok := m[k].(float64); ok && n > 0 && n == float64(int(n)) {
				if what, ok := setFor(cwd, home).GuardPID(int(n)); ok {
					return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.kill-guard", Marked: k,
						Reason: "the MCP tool mcp__" + server + "__" + tool + " stops process " + strconv.Itoa(int(n)) + ", which is agent-guard itself (" + what + "): an agent must not switch off its own guard; ask the user to do it"}, true
				}
			}
		}
	}
	walkStrings(m, "", 0, func(key, v string) {
		if found {
			return
		}
		k, _, _ := strings.Cut(strings.ToLower(key), "\x00")
		if kills && guardWord(v) && !mcpTextKeys[k] {
			out, found = Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.kill-guard", Marked: v,
				Reason: "the MCP tool mcp__" + server + "__" + tool + " stops " + v + ", the agent's own guard: an agent must not switch off its own guard; ask the user to do it"}, true
			return
		}
		if !mutating || mcpTextKeys[k] || cmdKeys[k] {
			return
		}
		p, ok := mcpPathLike(v)
		if !ok {
			return
		}
		if f, ok := Protected(p, cwd, home); ok {
			f.Reason = "the MCP tool mcp__" + server + "__" + tool + " names " + v + " (argument " + key + "): " + f.Reason
			f.Marked = v
			out, found = f, true
		}
	})
	return out, found
}

// mcpPathLike: the value read as a path when it looks like one (a
// file:// URL's path, a name with a separator, ~ or a variable), else
// false. One line, no spaces around, short: prose is not a path.
func mcpPathLike(v string) (string, bool) {
	v = strings.TrimSpace(v)
	if v == "" || len(v) > 1024 || strings.ContainsAny(v, "\n\r") {
		return "", false
	}
	if strings.HasPrefix(strings.ToLower(v), "file:") {
		p := strings.TrimPrefix(v[len("file:"):], "//")
		if u, err := url.PathUnescape(p); err == nil {
			p = u
		}
		if i := strings.IndexAny(p, "?#"); i >= 0 {
			p = p[:i]
		}
		if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
			p = p[1:] // file:///C:/Users/...
		}
		return p, p != ""
	}
	if strings.Contains(v, "://") || !strings.ContainsAny(v, `/\~$%`) {
		return "", false
	}
	return v, true
}
