package shell

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// PowerShell typed straight into the Bash tool (agents on Windows do) is
// not bash: `try { ... } catch { }`, `1 | % { ... }`, `$env:CI = "true"`
// and `if ($LASTEXITCODE -ne 0) { exit 1 }` mean nothing to the bash
// parser, which either hides the script block's commands or calls a
// variable a dynamic program. A line that looks like PowerShell is split
// with the PowerShell-aware splitter instead: statements by ; newlines
// and |, script blocks by braces, each judged as a command.

// psVerbs are the approved PowerShell verbs agents use most.
var psVerbs = map[string]bool{
	"get": true, "set": true, "remove": true, "new": true, "start": true, "stop": true, "invoke": true,
	"write": true, "copy": true, "move": true, "test": true, "clear": true, "format": true, "out": true,
	"select": true, "where": true, "foreach": true, "add": true, "import": true, "export": true,
	"restart": true, "rename": true, "resolve": true, "convertto": true, "convertfrom": true,
	"measure": true, "sort": true, "wait": true, "enable": true, "disable": true, "install": true,
	"uninstall": true, "update": true, "compress": true, "expand": true, "register": true,
	"unregister": true, "mount": true, "dismount": true, "initialize": true, "split": true, "join": true,
	"read": true, "push": true, "pop": true, "tee": true, "group": true, "suspend": true, "resume": true,
	"receive": true, "send": true, "enter": true, "exit": true, "show": true, "find": true, "save": true,
	"publish": true, "grant": true, "revoke": true, "reset": true, "repair": true, "restore": true,
	"backup": true, "use": true, "compare": true, "checkpoint": true, "unblock": true, "connect": true,
	"disconnect": true, "protect": true, "unprotect": true, "lock": true, "unlock": true, "optimize": true,
}

// psKeywords start statements; their script blocks are split off and
// judged, the keyword piece itself runs nothing.
var psKeywords = map[string]bool{
	"if": true, "elseif": true, "else": true, "try": true, "catch": true, "finally": true, "foreach": true,
	"for": true, "while": true, "do": true, "until": true, "switch": true, "trap": true, "param": true,
	"begin": true, "process": true, "end": true, "return": true, "break": true, "continue": true,
	"throw": true, "%": true, "?": true, "foreach-object": true, "where-object": true, "function": true,
}

// psBlockKw mark a PowerShell line when a block follows them (bash's
// do { ...; } and { ...; } groups do not count).
var psBlockKw = map[string]bool{"if": true, "elseif": true, "try": true, "catch": true, "finally": true,
	"foreach": true, "while": true, "switch": true, "%": true, "foreach-object": true, "where-object": true}

// isCmdlet: a Verb-Noun word in PowerShell's usual TitleCase (Remove-Item).
func isCmdlet(w string) bool {
	i := strings.IndexByte(w, '-')
	if i < 2 || i+2 > len(w) || w[0] < 'A' || w[0] > 'Z' || w[i+1] < 'A' || w[i+1] > 'Z' {
		return false
	}
	for j := i + 1; j < len(w); j++ {
		c := w[j]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return psVerbs[lower(w[:i])]
}

// looksPowerShell reports a line written in PowerShell: a statement that
// starts with a cmdlet, a PowerShell keyword with a block, $env:, or a
// variable expression ($x = ..., $PSVersionTable, $files.Count).
func looksPowerShell(src string) bool {
	if !strings.ContainsAny(src, "-${") {
		return false
	}
	quote := byte(0)
	start := true // at the start of a statement
	for i := 0; i < len(src); i++ {
		c := src[i]
		if quote != 0 {
			if c == quote {
				quote = 0
			} else if c == '\\' && quote == '"' {
				i++
			}
			continue
		}
		switch c {
		case ' ', '\t', '\r':
			continue
		case ';', '|', '{', '}', '(', '\n', '&':
			start = true
			continue
		case '\'', '"':
			quote = c
			start = false
			continue
		}
		if !start {
			continue
		}
		start = false
		j := i
		for j < len(src) && strings.IndexByte(" \t\r\n;|&(){}'\"", src[j]) < 0 {
			j++
		}
		w := src[i:j]
		if w == "" {
			continue
		}
		switch {
		case isCmdlet(w):
			return true
		case psBlockKw[lower(w)] && psBlockAfter(src[j:]):
			return true
		case w[0] == '$' && psVarExpr(w, src[j:]):
			return true
		case w[0] == '$' && len(w) > 2 && w[len(w)-1] == '[' && psExpr(src[i:]):
			return true // $PSDefaultParameterValues['x'] = 'y'
		}
		i = j - 1
	}
	return false
}

// psBlockAfter: a keyword followed by (...) { or by { directly.
func psBlockAfter(rest string) bool {
	rest = strings.TrimLeft(rest, " \t")
	if strings.HasPrefix(rest, "{") {
		return true
	}
	if !strings.HasPrefix(rest, "(") {
		return false
	}
	depth := 0
	for i := 0; i < len(rest); i++ {
		switch rest[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return strings.HasPrefix(strings.TrimLeft(rest[i+1:], " \t\r\n"), "{")
			}
		}
	}
	return false
}

// psVarExpr: $name[.Prop] followed by =, the end, or a -operator; bash
// never starts a statement with a bare variable like that.
func psVarExpr(w, rest string) bool {
	name := w[1:]
	if name == "" || !(name[0] >= 'a' && name[0] <= 'z' || name[0] >= 'A' && name[0] <= 'Z' || name[0] == '_') {
		return false
	}
	for k := 0; k < len(name); k++ {
		c := name[k]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == ':' || c == '=') {
			return false
		}
	}
	env := strings.HasPrefix(lower(name), "env:")
	if strings.Contains(name, "=") {
		return env // $env:X=1 (bash's $x=1 runs a command named "<value>=1")
	}
	rest = strings.TrimLeft(rest, " \t")
	switch {
	case rest != "" && rest[0] == '=' && (len(rest) == 1 || rest[1] != '='):
		return true // $x = ...
	case len(rest) >= 2 && rest[1] == '=' && strings.IndexByte("+-*/%", rest[0]) >= 0:
		return true // $env:Path += ';C:\tools', $n -= 1
	case rest != "" && rest[0] == '-':
		op, _, _ := strings.Cut(rest[1:], " ")
		return psOps[lower(op)]
	case rest == "" || rest[0] == ';' || rest[0] == '\n' || rest[0] == '|':
		// A bare $PSVersionTable, $files.Count or $env:Path prints it;
		// a bare $X or $cmd is bash running a variable.
		return env || strings.Contains(name, ".") || mixedCase(name)
	}
	return false
}

var psOps = map[string]bool{"eq": true, "ne": true, "gt": true, "lt": true, "ge": true, "le": true, "like": true,
	"notlike": true, "match": true, "notmatch": true, "split": true, "join": true, "replace": true,
	"contains": true, "notcontains": true, "in": true, "notin": true, "is": true, "isnot": true, "and": true, "or": true}

func mixedCase(s string) bool {
	return strings.ToLower(s) != s && strings.ToUpper(s) != s
}

// psLine judges PowerShell code: the pieces the splitter finds, with
// pipelines linked (iwr | iex feeds code; a pipe after a script block
// continues the pipeline before it), redirections as writes, and
// Get-ChildItem P | Remove-Item deleting what P holds.
func (w *walker) psLine(code string) {
	if w.a.ForkBomb == "" && psEndlessSpawn(code) {
		w.a.ForkBomb = code
	}
	pieces, raws, _ := splitPieces(code, modePS)
	pos := psPositions(code, raws)
	depth := psDepths(code, pos)
	idx := make([]int, len(pieces))
	group := make([]int, len(pieces))
	prevAt := make([]int, len(pieces)) // the piece piped into this one, -1 if none
	for i, argv := range pieces {
		idx[i], prevAt[i], group[i] = -1, -1, i
		if w.stop() {
			return
		}
		if psPrevSep(code, pos[i]) == '|' {
			for k := i - 1; k >= 0; k-- {
				if depth[k] == depth[i] {
					prevAt[i], group[i] = k, group[k]
					break
				}
				if depth[k] < depth[i] {
					break
				}
			}
		}
		name := lower(argv[0])
		if (name == "where-object" || name == "?" || name == "where") && len(argv) == 1 {
			// Where-Object { $_.Name -like "x" }: the filter's words are its arguments.
			argv = append(argv, psBlockWords(code, pos[i]+len(raws[i]))...)
		} else if psKeywords[name] || psLiteral(raws[i]) {
			continue
		}
		argv, redirs := psRedirs(argv)
		if len(argv) == 0 && len(redirs) == 0 {
			continue
		}
		if prevAt[i] >= 0 && len(argv) > 0 {
			// gci P | Where-Object {...} | Sort-Object | Remove-Item: a
			// filter only narrows what the listing yields; the delete is
			// judged on the listing (at worst all of it).
			from := prevAt[i]
			where, wheres := "", 0
			for k := 0; k < 8 && from >= 0 && psFilterCmds[lower(pieces[from][0])] && prevAt[from] >= 0; k++ {
				if f, ok := psWhereFilter(code, pos[from]+len(raws[from]), pieces[from]); ok {
					where = f
					wheres++
				}
				from = prevAt[from]
			}
			if wheres == 1 {
				// Where-Object { $_.Name -like '*.log' }: only those, as -Filter *.log.
				prev := append(pieces[from][:len(pieces[from]):len(pieces[from])], "-Filter", where)
				argv = psPipeTarget(prev, argv)
			} else {
				argv = psPipeTarget(pieces[from], argv)
			}
		}
		piped := prevAt[i] >= 0 || i+1 < len(pieces) && psPrevSep(code, pos[i+1]) == '|'
		if piped {
			w.inPipe++
		}
		idx[i] = w.command(argv, redirs, raws[i], false, nil)
		if j := idx[i]; j >= 0 && j < len(w.a.Cmds) && strings.ContainsAny(w.a.Cmds[j].Name, " \t'\"()") {
			// A "program" with spaces or quotes in its name is the
			// splitter misreading an expression: what cannot be read is not allowed.
			w.setErr(fmt.Errorf("the PowerShell line cannot be read reliably (%q is not a command)", w.a.Cmds[j].Name))
		}
		if piped {
			w.inPipe--
		}
	}
	for i, j := range idx {
		if j < 0 || j >= len(w.a.Cmds) {
			continue
		}
		var from, to []string
		for k := range idx {
			if group[k] != group[i] || idx[k] < 0 || idx[k] >= len(w.a.Cmds) || k == i {
				continue
			}
			if k < i {
				from = append(from, w.a.Cmds[idx[k]].Name)
			} else {
				to = append(to, w.a.Cmds[idx[k]].Name)
			}
		}
		c := &w.a.Cmds[j]
		c.PipedFrom, c.PipedTo = nonEmpty(from), nonEmpty(to)
		if w.pending[j] {
			delete(w.pending, j)
			if p := prevAt[i]; p >= 0 && idx[p] >= 0 {
				w.feedFrom(j, idx[p])
			} else if len(from) > 0 {
				w.unknownFeed(j)
			}
		}
	}
}

// psPositions finds where each piece's raw text starts in code.
func psPositions(code string, raws []string) []int {
	pos := make([]int, len(raws))
	off := 0
	for i, r := range raws {
		k := strings.Index(code[off:], r)
		if k < 0 {
			pos[i] = off
			continue
		}
		pos[i] = off + k
		off = pos[i] + len(r)
	}
	return pos
}

// psDepths is the script-block depth at each piece start.
func psDepths(code string, pos []int) []int {
	out := make([]int, len(pos))
	d, p := 0, 0
	quote := byte(0)
	for i := 0; i < len(code) && p < len(pos); i++ {
		for p < len(pos) && pos[p] == i {
			out[p] = d
			p++
		}
		c := code[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case c == '`':
			i++
		case c == '{':
			d++
		case c == '}' && d > 0:
			d--
		}
	}
	for ; p < len(pos); p++ {
		out[p] = d
	}
	return out
}

// psPrevSep is the character before position i, spaces skipped.
func psPrevSep(code string, i int) byte {
	for i--; i >= 0; i-- {
		if c := code[i]; c != ' ' && c != '\t' && c != '\r' {
			return c
		}
	}
	return 0
}

// psBlockWords are the words of the script block right after position i.
func psBlockWords(code string, i int) []string {
	rest := strings.TrimLeft(code[i:], " \t")
	if !strings.HasPrefix(rest, "{") {
		return nil
	}
	end := strings.IndexByte(rest, '}')
	if end < 0 {
		end = len(rest)
	}
	// { $_.Name -like "agent-guard*" } gives the pattern agent-guard: the
	// property and the operator are dropped, like a grep's arguments.
	var out []string
	for _, f := range strings.Fields(rest[1:end]) {
		f = strings.Trim(f, "\"'()*")
		if f == "" || strings.HasPrefix(f, "$") || strings.HasPrefix(f, "-") {
			continue
		}
		out = append(out, f)
	}
	return out
}

// psWhereFilter reads Where-Object { $_.Name -like '*.log' } or
// { $_.Extension -eq '.log' } (one comparison, nothing else) as the
// file-name pattern it keeps; ok=false for any other filter, for a
// pattern that keeps everything (*, *.*) or that names a folder.
func psWhereFilter(code string, i int, piece []string) (string, bool) {
	if len(piece) != 1 {
		return "", false
	}
	if n := lower(piece[0]); n != "where-object" && n != "?" && n != "where" {
		return "", false
	}
	rest := strings.TrimLeft(code[i:], " \t")
	if !strings.HasPrefix(rest, "{") {
		return "", false
	}
	end := strings.IndexByte(rest, '}')
	if end < 0 {
		return "", false
	}
	f := strings.Fields(rest[1:end])
	if len(f) != 3 {
		return "", false
	}
	prop, op := lower(f[0]), lower(f[1])
	pat := f[2]
	if len(pat) < 2 || (pat[0] != '\'' && pat[0] != '"') || pat[len(pat)-1] != pat[0] {
		return "", false
	}
	pat = pat[1 : len(pat)-1]
	if pat == "" || strings.ContainsAny(pat, "\\/$`'\"[]") || strings.Trim(pat, "*?.") == "" {
		return "", false
	}
	switch {
	case prop == "$_.name" && (op == "-like" || op == "-ilike" || op == "-clike" || op == "-eq"):
		return pat, true
	case prop == "$_.extension" && (op == "-eq" || op == "-ieq") && pat[0] == '.' && !strings.ContainsAny(pat, "*?"):
		return "*" + pat, true
	}
	return "", false
}

// psLiteral: a piece that is a value, not a command (1..3, "text").
func psLiteral(raw string) bool {
	return raw != "" && (raw[0] >= '0' && raw[0] <= '9' || raw[0] == '"' || raw[0] == '\'') ||
		strings.HasPrefix(raw, "@\"\n") || strings.HasPrefix(raw, "@'\n") || strings.HasPrefix(raw, "@\"\r\n") || strings.HasPrefix(raw, "@'\r\n")
}

// psRedirs takes > >> 2> *> out of the words as redirections.
func psRedirs(argv []string) ([]string, []Redir) {
	var out []string
	var rs []Redir
	for k := 0; k < len(argv); k++ {
		t := argv[k]
		s := t
		if len(s) > 1 && (s[0] >= '0' && s[0] <= '9' || s[0] == '*') && s[1] == '>' {
			s = s[1:]
		}
		if k == 0 || !strings.HasPrefix(s, ">") {
			out = append(out, t)
			continue
		}
		op := ">"
		if strings.HasPrefix(s, ">>") {
			op = ">>"
		}
		target := s[len(op):]
		if target == "" && k+1 < len(argv) {
			k++
			target = argv[k]
		}
		if target == "" || strings.EqualFold(target, "$null") || strings.EqualFold(target, "nul") {
			continue
		}
		rs = append(rs, Redir{Op: op, Target: target})
	}
	return out, rs
}

// psHasRecurse: a Remove-Item argument list asks for -Recurse.
func psHasRecurse(args []string) bool {
	for _, a := range args {
		if l := lower(a); l == "-recurse" || l == "-r" || l == "-rec" {
			return true
		}
	}
	return false
}

// psFilterCmds pass on some of the objects piped to them, unchanged.
var psFilterCmds = map[string]bool{"where-object": true, "?": true, "where": true, "sort-object": true, "sort": true,
	"select-object": true, "select": true, "tee-object": true, "tee": true}

// psPipeTarget: Get-ChildItem P | Remove-Item deletes everything P holds,
// so Remove-Item without a path of its own gets P\*.
func psPipeTarget(prev, cur []string) []string {
	switch lower(cur[0]) {
	case "remove-item", "ri", "del", "erase", "rm", "rd", "rmdir", "rmdir.exe":
	default:
		return cur
	}
	for _, a := range cur[1:] {
		if !strings.HasPrefix(a, "-") {
			return cur
		}
	}
	switch lower(prev[0]) {
	case "get-childitem", "gci", "ls", "dir", "get-item", "gi":
	default:
		return cur
	}
	p, filter := "", ""
	recurse := false
	for k := 1; k < len(prev); k++ {
		a := lower(prev[k])
		recurse = recurse || a == "-recurse" || a == "-r" || a == "-rec"
		switch {
		case a == "-path" || a == "-literalpath" || a == "-lp":
			if k+1 < len(prev) {
				p = prev[k+1]
				k++
			}
		case (a == "-filter" || a == "-include") && k+1 < len(prev) && filter == "":
			// Only the matching items: judged like P\*.log.
			filter = prev[k+1]
			k++
		case a == "-filter" || a == "-include" || a == "-exclude" || a == "-name":
			return cur // only some of the items
		case strings.HasPrefix(a, "-depth") || a == "-attributes" || a == "-erroraction" || a == "-ea":
			k++
		case strings.HasPrefix(a, "-"):
		case p == "":
			p = prev[k]
		}
	}
	if p == "" {
		p = "."
	}
	if recurse && !psHasRecurse(cur[1:]) {
		// gci P -Recurse | ri: the listing holds every file below P.
		cur = append(cur[:len(cur):len(cur)], "-Recurse")
	}
	if strings.ContainsAny(p, "*?") {
		return append(cur, p)
	}
	if filter == "" || strings.ContainsAny(filter, "\\/") || strings.Contains(filter, Dyn) {
		filter = "*"
	}
	return append(cur, strings.TrimRight(p, "\\/")+"\\"+filter)
}

// psEndlessSpawn reports an endless PowerShell loop (while ($true),
// while (1), for (;;), do { } while ($true)) whose body starts processes
// or jobs without waiting: a process bomb.
func psEndlessSpawn(code string) bool {
	low := lower(code)
	heads := []string{"while ($true)", "while($true)", "while (1)", "while(1)", "for (;;)", "for(;;)", "while ($true -eq $true)", "while (!$false)"}
	body := ""
	for _, h := range heads {
		if i := strings.Index(low, h); i >= 0 {
			body = low[i+len(h):]
			break
		}
	}
	if body == "" {
		if i := strings.Index(low, "do {"); i >= 0 && (strings.Contains(low, "while ($true)") || strings.Contains(low, "until ($false)")) {
			body = low[i:]
		}
	}
	if body == "" {
		return false
	}
	if j := strings.Index(body, "start-sleep"); j >= 0 {
		return false
	}
	for _, s := range []string{"start-process", "saps ", "start-job", "sajb ", "start-threadjob", "invoke-item", "[diagnostics.process]::start", "start powershell", "start pwsh", "start cmd", "& powershell", "& pwsh", "& $pshome"} {
		if strings.Contains(body, s) {
			return !strings.Contains(body, "-wait") || strings.Contains(body, "start-job")
		}
	}
	return false
}

// psExprString evaluates a PowerShell string expression built from
// literals and variables ('Remove-Item -Force ' + $env:USERPROFILE), the
// way Invoke-Expression would see it; ok=false when a part is anything
// else (a call, a subexpression), which hides the code.
func psExprString(expr string) (string, bool) {
	e := strings.TrimSpace(expr)
	for len(e) >= 2 && e[0] == '(' && e[len(e)-1] == ')' {
		e = strings.TrimSpace(e[1 : len(e)-1])
	}
	var out strings.Builder
	for part := range strings.SplitSeq(e, "+") {
		p := strings.TrimSpace(part)
		switch {
		case len(p) >= 2 && (p[0] == '\'' || p[0] == '"') && p[len(p)-1] == p[0]:
			out.WriteString(p[1 : len(p)-1])
		case strings.HasPrefix(p, "$") && !strings.ContainsAny(p, "()[]"):
			out.WriteString(p)
		default:
			return "", false
		}
	}
	return out.String(), true
}

// mayStartIf is false when src's first word cannot be "if" as cmdIfBody
// reads it (strings.Fields, then lower). A non-ASCII letter answers true:
// lower folds Unicode, and U+0130 lower-cases to i.
func mayStartIf(src string) bool {
	t := strings.TrimLeftFunc(src, unicode.IsSpace)
	if len(t) < 2 {
		return false
	}
	return (t[0] >= utf8.RuneSelf || t[0]|0x20 == 'i') && (t[1] >= utf8.RuneSelf || t[1]|0x20 == 'f')
}

// cmdIfBody: cmd.exe's `if [/i] [not] exist PATH CMD`, `if [not] defined
// VAR CMD`, `if [not] errorlevel N CMD` and `if [not] A==B CMD` run CMD;
// bash cannot read them, so the command is taken out and judged.
func cmdIfBody(src string) (string, bool) {
	if !mayStartIf(src) {
		return "", false // every line and script comes here: skip the split
	}
	f := strings.Fields(src)
	if len(f) < 3 || lower(f[0]) != "if" {
		return "", false
	}
	i := 1
	if lower(f[i]) == "/i" {
		i++
	}
	if i < len(f) && lower(f[i]) == "not" {
		i++
	}
	if i >= len(f) {
		return "", false
	}
	switch lower(f[i]) {
	case "exist", "defined", "errorlevel", "cmdextversion":
		i += 2
	default:
		if !strings.Contains(f[i], "==") {
			return "", false
		}
		i++
	}
	if i >= len(f) {
		return "", false
	}
	// The rest of the line from the i-th word on.
	rest := src
	for k := 0; k < i; k++ {
		rest = strings.TrimLeft(rest, " \t")
		j := strings.IndexAny(rest, " \t")
		if j < 0 {
			return "", false
		}
		rest = rest[j:]
	}
	rest = strings.TrimSpace(rest)
	if rest == "" || strings.HasPrefix(rest, "then") {
		return "", false
	}
	return strings.Trim(rest, "()"), true
}

// psCallOp blanks PowerShell's call operator where a statement starts
// (& "path\x.exe" args, x; & .\tool a) and is followed by a space or a
// quote; the rest of src is unchanged (same length, same offsets).
func psCallOp(src string) string {
	if strings.IndexByte(src, '&') < 0 {
		return src
	}
	var b []byte
	start := true
	quote := byte(0)
	for i := 0; i < len(src); i++ {
		c := src[i]
		if quote != 0 {
			if c == quote {
				quote = 0
			}
			continue
		}
		switch c {
		case ' ', '\t', '\r':
			continue
		case ';', '|', '{', '(', '\n':
			start = true
			continue
		case '&':
			if start && i+1 < len(src) && strings.IndexByte(" \t'\"", src[i+1]) >= 0 && (i == 0 || src[i-1] != '&') {
				if b == nil {
					b = []byte(src)
				}
				b[i] = ' '
				start = true
				continue
			}
		case '\'', '"':
			quote = c
		}
		start = false
	}
	if b == nil {
		return src
	}
	return string(b)
}

// winContinuation joins lines continued with PowerShell's backtick or
// cmd.exe's caret at a line's end (dotnet build `<newline> -c Release):
// the mark and the line break become spaces (same length, same offsets).
func winContinuation(src string) string {
	if !strings.Contains(src, "`\n") && !strings.Contains(src, "^\n") && !strings.Contains(src, "`\r\n") && !strings.Contains(src, "^\r\n") {
		return src
	}
	b := []byte(src)
	for i := 0; i+1 < len(b); i++ {
		if b[i] != '`' && b[i] != '^' {
			continue
		}
		j := i + 1
		if b[j] == '\r' && j+1 < len(b) {
			j++
		}
		if b[j] == '\n' {
			for k := i; k <= j; k++ {
				b[k] = ' '
			}
			i = j
		}
	}
	return string(b)
}

// psForEachLiteral rewrites 'a','b' | ForEach-Object { BODY } (also
// @('a','b'), % and foreach) as BODY once per item, $_ and $PSItem
// replaced by the quoted item; ok=false for any other line, or when an
// item is not a plain quoted string or BODY reads a property of $_.
func psForEachLiteral(src string) (string, bool) {
	bar := strings.IndexByte(src, '|')
	if bar < 0 || !strings.Contains(src, "$") {
		return "", false
	}
	list := strings.TrimSpace(src[:bar])
	if strings.HasPrefix(list, "@(") && strings.HasSuffix(list, ")") {
		list = list[2 : len(list)-1]
	}
	rest := strings.TrimLeft(src[bar+1:], " \t")
	sp := strings.IndexAny(rest, " \t{")
	if sp < 0 {
		return "", false
	}
	if n := lower(rest[:sp]); n != "foreach-object" && n != "%" && n != "foreach" {
		return "", false
	}
	rest = strings.TrimSpace(rest[sp:])
	if len(rest) < 2 || rest[0] != '{' || rest[len(rest)-1] != '}' {
		return "", false
	}
	body := rest[1 : len(rest)-1]
	lb := lower(body)
	if strings.Contains(lb, "$_.") || strings.Contains(lb, "$psitem.") || strings.Contains(lb, "$input") {
		return "", false
	}
	var items []string
	for _, it := range strings.Split(list, ",") {
		it = strings.TrimSpace(it)
		if len(it) < 3 || (it[0] != '\'' && it[0] != '"') || it[len(it)-1] != it[0] || strings.ContainsAny(it[1:len(it)-1], "'\"$`") {
			return "", false
		}
		items = append(items, it)
	}
	if len(items) == 0 || len(items) > 16 {
		return "", false
	}
	var b strings.Builder
	for k, it := range items {
		if k > 0 {
			b.WriteString("; ")
		}
		r := strings.NewReplacer("$_", it, "$PSItem", it, "$psitem", it)
		b.WriteString(r.Replace(body))
	}
	return b.String(), true
}
