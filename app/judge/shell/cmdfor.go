package shell

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
)

// cmd.exe's FOR runs its command once per item, with %x (%%x in a batch
// file) standing for the item:
//
//	for %x in (a b) do CMD         each word of the set
//	for /d %x in (C:\Users\me\*) do CMD   each folder the wildcard matches
//	for /r [ROOT] %x in (*.log) do CMD    each matching file under ROOT
//	for /l %x in (1,1,5) do CMD    numbers
//	for /f "opts" %x in ('CMD2') do CMD   CMD2 runs; its output lines
//
// bash cannot read it (for /r ... is a parse error) and cmd /c's splitter
// saw a program named "for". cmdForBody rewrites the statement as the
// command per item (at most maxLoopVals), which the cmd reader then
// judges: the item is a path (a wildcard stays one), a number, or, for
// /f, a run-time value.

// cmdForStmt is compiled on first use (the hook's start pays nothing).
var cmdForStmt = lazyre.New(`(?is)^\s*@?for\s+((?:/[rdlf]\s+(?:"[^"]*"\s+)?)*)(?:([^%\s"]+|"[^"]*")\s+)?(%%?[a-z])\s+in\s*\((.*?)\)\s*do\s+(.+)$`)

// cmdForBody returns the command line(s) a cmd FOR statement runs, one
// item each, joined by " & "; ok=false when src is no FOR statement.
func cmdForBody(src string) (string, bool) {
	m := cmdForStmt.FindStringSubmatch(strings.TrimSpace(src))
	if m == nil {
		return "", false
	}
	flags, root, v, set, body := strings.ToLower(m[1]), strings.Trim(m[2], `"`), m[3], strings.TrimSpace(m[4]), strings.TrimSpace(m[5])
	body = strings.TrimPrefix(strings.TrimPrefix(body, "("), "@")
	body = strings.TrimSuffix(strings.TrimSpace(body), ")")
	var items []string
	var pre []string // commands that run besides the body (for /f's command)
	switch {
	case strings.Contains(flags, "/f"):
		if s := strings.TrimSpace(set); len(s) >= 2 && (s[0] == '\'' || s[0] == '`') {
			pre = append(pre, strings.Trim(s, "'`"))
		}
		items = []string{Dyn}
	case strings.Contains(flags, "/l"):
		items = []string{"1"}
	default:
		for _, it := range splitSet(set) {
			if strings.Contains(flags, "/r") {
				r := root
				if r == "" {
					r = "."
				}
				// Files below ROOT, judged like ROOT\*.log: a partial
				// wildcard is one file of the folder (the home's: confirm).
				it = strings.TrimRight(r, `\/`) + `\` + it
			}
			items = append(items, it)
		}
	}
	if len(items) == 0 || strings.TrimSpace(body) == "" {
		return "", false
	}
	if len(items) > maxLoopVals {
		items = []string{Dyn}
	}
	out := pre
	for _, it := range items {
		q := it
		if strings.ContainsAny(it, " \t") {
			q = `"` + it + `"`
		}
		line := strings.ReplaceAll(body, `"`+v+`"`, q)
		// %~fx, %~nxx, %~dpx: parts of the item (a path of it).
		line = replaceForVar(line, v, it)
		out = append(out, line)
	}
	return strings.Join(out, " & "), true
}

// replaceForVar puts item in place of %x and its %~modifiers x forms.
func replaceForVar(line, v, item string) string {
	letter := v[len(v)-1:]
	pct := v[:len(v)-1]
	var b strings.Builder
	for i := 0; i < len(line); {
		if strings.HasPrefix(line[i:], pct+"~") {
			j := i + len(pct) + 1
			for j < len(line) && strings.IndexByte("fdpnxsatz$", lower(line[j : j+1])[0]) >= 0 && !strings.EqualFold(line[j:j+1], letter) {
				j++
			}
			if j < len(line) && strings.EqualFold(line[j:j+1], letter) {
				b.WriteString(item)
				i = j + 1
				continue
			}
		}
		if strings.HasPrefix(line[i:], v) || strings.EqualFold(line[i:min(i+len(v), len(line))], v) {
			b.WriteString(item)
			i += len(v)
			continue
		}
		b.WriteByte(line[i])
		i++
	}
	return b.String()
}

// splitSet splits a FOR set on spaces, commas and semicolons, keeping
// quoted items whole.
func splitSet(set string) []string {
	var out []string
	var cur strings.Builder
	quoted := false
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for _, r := range set {
		switch {
		case r == '"':
			quoted = !quoted
		case !quoted && (r == ' ' || r == '\t' || r == ',' || r == ';'):
			flush()
		default:
			cur.WriteRune(r)
		}
	}
	flush()
	return out
}
