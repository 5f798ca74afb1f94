// Package callview turns a judged call into what the approval dialog
// shows: the text (a command, a file's first bytes, an Edit's diff, MCP
// arguments pretty-printed without escapes), the span the judge marked,
// and a note on what is not shown. Pure Go, so it is tested without a
// display.
package callview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/agent-guard/agent-guard/app/judge"
)

// Kinds of calls the dialog draws differently.
const (
	KindBash  = "bash"
	KindWrite = "write"
	KindEdit  = "edit"
	KindMCP   = "mcp"
)

// View is the call part of a dialog.
type View struct {
	Kind string `json:"kind"`
	// Text is what the scroll area shows. For KindEdit it is a line diff
	// whose lines start with "- ", "+ " or "  ".
	Text string `json:"text"`
	// MarkStart/MarkEnd index Text; equal means nothing marked.
	MarkStart int `json:"mark_start,omitempty"`
	MarkEnd   int `json:"mark_end,omitempty"`
	// Path is the file of a Write/Edit; Target names the MCP tool.
	Path   string `json:"path,omitempty"`
	Target string `json:"target,omitempty"`
	// Shown and Total are bytes of the content shown and in the call
	// (Total 0: all of it is shown).
	Shown int `json:"shown,omitempty"`
	Total int `json:"total,omitempty"`
}

// Of builds the view of a call and its verdict. The judge keeps the
// whole Content and Args (State.Total); the dialog shows the first
// judge.MaxPrefix bytes and says how much is hidden.
func Of(s judge.State, v judge.Verdict) View {
	switch {
	case s.Server != "":
		args, cut := Cut(s.Args, judge.MaxPrefix)
		text, ok := PrettyJSON(args)
		out := View{Kind: KindMCP, Text: text, Target: s.Server + " / " + s.MCPTool}
		if total := max(s.Total, len(s.Args)); cut || total > len(args) {
			out.Shown, out.Total = len(args), total
		} else if !ok && len(args) >= judge.MaxPrefix {
			out.Shown, out.Total = len(args), len(args)+1 // cut before it came: the whole size is not known
		}
		out.MarkStart, out.MarkEnd = find(text, v.Marked, s.MCPTool)
		return out
	case s.Tool == "Bash":
		out := View{Kind: KindBash, Text: s.Command}
		out.MarkStart, out.MarkEnd = span(s.Command, v)
		return out
	}
	content, _ := Cut(s.Content, judge.MaxPrefix)
	total := max(s.Total, len(s.Content))
	if s.Tool == "Edit" && s.Old != "" {
		text, ms, me := Diff(s.Old, content, v.Marked)
		out := View{Kind: KindEdit, Text: text, Path: s.FilePath, MarkStart: ms, MarkEnd: me}
		if total > len(content) {
			out.Shown, out.Total = len(content), total
		}
		return out
	}
	out := View{Kind: KindWrite, Text: content, Path: s.FilePath}
	if total > len(content) {
		out.Shown, out.Total = len(content), total
	}
	out.MarkStart, out.MarkEnd = span(content, v)
	return out
}

// Cut returns s's first n bytes or fewer, ending on a whole UTF-8
// character (Chinese text is not cut into a broken glyph); cut reports
// whether anything was left out.
func Cut(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], true
}

// span is the verdict's own offsets when they index text and read as
// the marked text; else the marked text found as a whole word.
func span(text string, v judge.Verdict) (int, int) {
	if v.MarkEnd > v.MarkStart && v.MarkEnd <= len(text) && (v.Marked == "" || text[v.MarkStart:v.MarkEnd] == v.Marked) {
		return v.MarkStart, v.MarkEnd
	}
	return find(text, v.Marked, "")
}

// find locates marked in text, preferring a match that stands alone as
// a word (so "sh" does not mark the sh of "#!/bin/sh" when " sh" exists).
func find(text, marked, skip string) (int, int) {
	if marked == "" || marked == skip {
		return 0, 0
	}
	first := -1
	for i := 0; i <= len(text)-len(marked); {
		k := strings.Index(text[i:], marked)
		if k < 0 {
			break
		}
		k += i
		if first < 0 {
			first = k
		}
		if boundary(text, k-1) && boundary(text, k+len(marked)) {
			return k, k + len(marked)
		}
		i = k + 1
	}
	if first >= 0 {
		return first, first + len(marked)
	}
	return 0, 0
}

func boundary(text string, i int) bool {
	if i < 0 || i >= len(text) {
		return true
	}
	c := text[i]
	return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '/' || c == '-' || c == '.')
}

// PrettyJSON indents JSON with HTML characters left as they are (no
// \u003c). ok is false when raw is not whole JSON (cut at 2 KB); then it
// is indented as far as it goes.
func PrettyJSON(raw string) (string, bool) {
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err == nil {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if enc.Encode(v) == nil {
			return strings.TrimRight(b.String(), "\n"), true
		}
	}
	return looseIndent(raw), false
}

// looseIndent indents a JSON prefix that does not parse: a newline after
// { [ and , outside strings, escapes in strings kept.
func looseIndent(raw string) string {
	var b strings.Builder
	depth, inStr, esc := 0, false, false
	nl := func() { b.WriteByte('\n'); b.WriteString(strings.Repeat("  ", max(depth, 0))) }
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case inStr:
			b.WriteByte(c)
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
		case c == '"':
			inStr = true
			b.WriteByte(c)
		case c == '{' || c == '[':
			depth++
			b.WriteByte(c)
			nl()
		case c == '}' || c == ']':
			depth--
			nl()
			b.WriteByte(c)
		case c == ',':
			b.WriteByte(c)
			nl()
		case c == ':':
			b.WriteString(": ")
		case c == ' ' || c == '\n' || c == '\t' || c == '\r':
		default:
			b.WriteByte(c)
		}
	}
	return b.String() + " …"
}

// Diff is a line diff of an Edit: the common first and last lines as
// context ("  "), the changed ones as "- " and "+ " lines. The marked
// text is looked for in the new lines.
func Diff(old, new, marked string) (text string, markStart, markEnd int) {
	a, b := strings.Split(old, "\n"), strings.Split(new, "\n")
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var out strings.Builder
	line := func(p, s string) { out.WriteString(p); out.WriteString(s); out.WriteByte('\n') }
	for _, l := range a[:pre] {
		line("  ", l)
	}
	for _, l := range a[pre : len(a)-suf] {
		line("- ", l)
	}
	addStart := out.Len()
	for _, l := range b[pre : len(b)-suf] {
		line("+ ", l)
	}
	addEnd := out.Len()
	for _, l := range a[len(a)-suf:] {
		line("  ", l)
	}
	text = strings.TrimSuffix(out.String(), "\n")
	if marked != "" {
		if k := strings.Index(text[addStart:min(addEnd, len(text))], marked); k >= 0 {
			return text, addStart + k, addStart + k + len(marked)
		}
	}
	return text, 0, 0
}

// KB renders a byte count in KB with one decimal ("300.0").
func KB(n int) string { return fmt.Sprintf("%.1f", float64(n)/1024) }
