package hostproto

import (
	"fmt"
	"strings"
)

// ParsePatch reads an apply_patch envelope (Codex, opencode):
//
//	*** Begin Patch
//	*** Add File: path      (+lines: the new file)
//	*** Update File: path   (optional *** Move to: new; @@ hunks of -/+/space lines)
//	*** Delete File: path
//	*** End Patch
//
// into one event per change: Add -> Write, Update -> Edit (old and new
// text of its hunks), Delete -> Bash `rm -- path` and Move -> Bash
// `mv -- old new`, so the judge weighs a deletion or a rename as the
// command that does the same. Anything it cannot read is an error (the
// hook denies): a patch we cannot see into is not judged blind.
func ParsePatch(text string) ([]Event, error) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	i := 0
	for i < len(lines) && strings.TrimSpace(lines[i]) == "" {
		i++
	}
	// A heredoc invocation ("apply_patch <<'EOF'") carries the envelope inside.
	if i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "*** Begin Patch") {
		for i < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[i]), "*** Begin Patch") {
			i++
		}
	}
	if i >= len(lines) {
		// Some hosts' patch tools take a unified diff (git diff, diff -u).
		if out, ok := parseUnified(lines); ok {
			return out, nil
		}
		return nil, fmt.Errorf("event: apply_patch input has no \"*** Begin Patch\" line and is not a unified diff")
	}
	i++
	var out []Event
	var cur *change
	flush := func() {
		if cur != nil {
			out = append(out, cur.events()...)
			cur = nil
		}
	}
	ended := false
	for ; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "*** End Patch"):
			ended = true
		case strings.HasPrefix(l, "*** Add File: "):
			flush()
			cur = &change{op: "add", path: strings.TrimSpace(strings.TrimPrefix(l, "*** Add File: "))}
		case strings.HasPrefix(l, "*** Update File: "):
			flush()
			cur = &change{op: "update", path: strings.TrimSpace(strings.TrimPrefix(l, "*** Update File: "))}
		case strings.HasPrefix(l, "*** Delete File: "):
			flush()
			cur = &change{op: "delete", path: strings.TrimSpace(strings.TrimPrefix(l, "*** Delete File: "))}
		case strings.HasPrefix(l, "*** Move to: ") && cur != nil && cur.op == "update":
			cur.moveTo = strings.TrimSpace(strings.TrimPrefix(l, "*** Move to: "))
		case strings.HasPrefix(l, "*** End of File"), strings.HasPrefix(l, "@@"):
		case cur == nil:
			if strings.TrimSpace(l) != "" {
				return nil, fmt.Errorf("event: apply_patch line %d is outside any file: %q", i+1, cut(l, 60))
			}
		default:
			cur.line(l)
		}
		if ended {
			break
		}
	}
	flush()
	if !ended {
		return nil, fmt.Errorf("event: apply_patch input has no \"*** End Patch\" line")
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("event: apply_patch changes no file")
	}
	for _, e := range out {
		if strings.Contains(string(e.ToolInput), `"file_path":""`) {
			return nil, fmt.Errorf("event: apply_patch names a file without a path")
		}
	}
	return out, nil
}

type change struct {
	op, path, moveTo string
	old, new         []string
}

func (c *change) line(l string) {
	switch {
	case c.op == "add":
		c.new = append(c.new, strings.TrimPrefix(l, "+"))
	case strings.HasPrefix(l, "-"):
		c.old = append(c.old, l[1:])
	case strings.HasPrefix(l, "+"):
		c.new = append(c.new, l[1:])
	case strings.HasPrefix(l, " "):
		c.old, c.new = append(c.old, l[1:]), append(c.new, l[1:])
	case l == "":
		c.old, c.new = append(c.old, ""), append(c.new, "")
	}
}

func (c *change) events() []Event {
	switch c.op {
	case "add":
		return []Event{{HookEventName: PreToolUse, ToolName: "Write", ToolInput: marshal(writeInput{c.path, strings.Join(c.new, "\n") + "\n"})}}
	case "delete":
		return []Event{bashEvent("rm -- " + shellQuote(c.path))}
	}
	out := []Event{{HookEventName: PreToolUse, ToolName: "Edit", ToolInput: marshal(editInput{c.path, strings.Join(c.old, "\n"), strings.Join(c.new, "\n")})}}
	if c.moveTo != "" {
		out = append(out, bashEvent("mv -- "+shellQuote(c.path)+" "+shellQuote(c.moveTo)))
	}
	return out
}

func bashEvent(cmd string) Event {
	return Event{HookEventName: PreToolUse, ToolName: "Bash", ToolInput: marshal(struct {
		Command string `json:"command"`
	}{cmd})}
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// parseUnified reads a unified diff (git diff, diff -u) into the same
// events as an envelope: a file created from /dev/null is a Write, one
// diffed to /dev/null an rm, git's rename from/to an mv, any other file
// an Edit of its hunks' old and new text. ok is false when no file header
// ("--- old" then "+++ new") is there: a diff we cannot read is not judged
// blind.
func parseUnified(lines []string) ([]Event, bool) {
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1] // the text's final line break
	}
	var out []Event
	var cur *change
	var renameFrom, renameTo string
	flush := func() {
		if cur != nil {
			out = append(out, cur.events()...)
			cur = nil
		}
		if renameFrom != "" && renameTo != "" {
			out = append(out, bashEvent("mv -- "+shellQuote(renameFrom)+" "+shellQuote(renameTo)))
		}
		renameFrom, renameTo = "", ""
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		switch {
		case strings.HasPrefix(l, "diff --git "):
			flush()
		case strings.HasPrefix(l, "rename from "):
			renameFrom = strings.TrimSpace(strings.TrimPrefix(l, "rename from "))
		case strings.HasPrefix(l, "rename to "):
			renameTo = strings.TrimSpace(strings.TrimPrefix(l, "rename to "))
		case strings.HasPrefix(l, "--- ") && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "+++ "):
			if cur != nil {
				out = append(out, cur.events()...)
				cur = nil
			}
			from, to := diffPath(l[4:]), diffPath(lines[i+1][4:])
			// git's a/ and b/ prefixes (one side may be /dev/null)
			if (strings.HasPrefix(from, "a/") || from == "/dev/null") && (strings.HasPrefix(to, "b/") || to == "/dev/null") {
				from, to = strings.TrimPrefix(from, "a/"), strings.TrimPrefix(to, "b/")
			}
			i++
			switch {
			case from == "/dev/null":
				cur = &change{op: "add", path: to}
			case to == "/dev/null":
				cur = &change{op: "delete", path: from}
			default:
				cur = &change{op: "update", path: to}
				if from != to && renameFrom == "" {
					renameFrom, renameTo = from, to
					cur.path = from
				}
			}
		case cur == nil, strings.HasPrefix(l, "@@"), strings.HasPrefix(l, `\`):
		case cur.op == "add":
			if strings.HasPrefix(l, "+") {
				cur.new = append(cur.new, l[1:])
			}
		case cur.op == "delete":
		default:
			cur.line(l)
		}
	}
	flush()
	if len(out) == 0 {
		return nil, false
	}
	for _, e := range out {
		if strings.Contains(string(e.ToolInput), `"file_path":""`) {
			return nil, false
		}
	}
	return out, true
}

// diffPath is a diff header's path: up to a tab (diff -u adds the time),
// unquoted when git quoted it.
func diffPath(s string) string {
	if i := strings.IndexByte(s, '\t'); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSpace(s)
	if len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		s = s[1 : len(s)-1]
	}
	return s
}
