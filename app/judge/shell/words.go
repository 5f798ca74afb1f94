package shell

import (
	"path"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/syntax"
)

// word resolves a shell word to its static value: quotes removed, escapes
// decoded, $HOME and ~ as "~", anything computed at run time as Dyn.
// Command and process substitutions inside it are walked as commands.
func (w *walker) word(wd *syntax.Word) string {
	if wd == nil {
		return ""
	}
	if len(wd.Parts) == 1 {
		if l, ok := wd.Parts[0].(*syntax.Lit); ok && strings.IndexByte(l.Value, '\\') < 0 {
			return l.Value
		}
	}
	var b strings.Builder
	win := false
	for i, p := range wd.Parts {
		// PowerShell's $env:USERPROFILE read by the bash parser.
		if envLit(wd.Parts, i) {
			w.subsIn(p)
			b.WriteString("$env")
			win = true
			continue
		}
		if l, ok := p.(*syntax.Lit); ok && win {
			b.WriteString(l.Value)
			continue
		}
		if l, ok := p.(*syntax.Lit); ok && i > 0 && strings.HasPrefix(l.Value, "\\") {
			if _, prev := wd.Parts[i-1].(*syntax.ParamExp); prev && len(l.Value) > 1 && isWordChar(l.Value[1]) {
				// $HOME\Desktop\x (PowerShell): backslashes are separators.
				b.WriteString(l.Value)
				continue
			}
		}
		w.part(&b, p, false)
	}
	if win {
		return ExpandWinVars(b.String())
	}
	return b.String()
}

// envLit: parts[i] is $env followed by a literal ":NAME" (PowerShell).
func envLit(parts []syntax.WordPart, i int) bool {
	pe, ok := parts[i].(*syntax.ParamExp)
	if !ok || !pe.Short || pe.Param == nil || lower(pe.Param.Value) != "env" || i+1 >= len(parts) {
		return false
	}
	l, ok := parts[i+1].(*syntax.Lit)
	return ok && strings.HasPrefix(l.Value, ":")
}

func (w *walker) part(b *strings.Builder, p syntax.WordPart, quoted bool) {
	switch p := p.(type) {
	case *syntax.Lit:
		if quoted {
			b.WriteString(unescapeDQ(p.Value))
		} else {
			b.WriteString(unescapeLit(p.Value))
		}
	case *syntax.SglQuoted:
		if p.Dollar {
			b.WriteString(DecodeANSI(p.Value))
		} else {
			b.WriteString(p.Value)
		}
	case *syntax.DblQuoted:
		for i := 0; i < len(p.Parts); i++ {
			q := p.Parts[i]
			if envLit(p.Parts, i) {
				// PowerShell's "$env:USERPROFILE\x" inside double quotes.
				l := p.Parts[i+1].(*syntax.Lit)
				w.subsIn(q)
				end := strings.IndexAny(l.Value, " \t;|&\"'")
				if end < 0 {
					end = len(l.Value)
				}
				b.WriteString(ExpandWinVars("$env" + l.Value[:end]))
				b.WriteString(l.Value[end:])
				i++
				continue
			}
			w.part(b, q, true)
		}
	case *syntax.ParamExp:
		if !quoted && p.Param != nil && p.Param.Value == "IFS" && p.Exp == nil && p.Index == nil && p.Slice == nil && p.Repl == nil {
			// rm${IFS}-rf${IFS}/: an unquoted $IFS splits the word there.
			b.WriteString(ifsMark)
			return
		}
		if v, ok := w.ifsSplit(p, quoted); ok {
			b.WriteString(v)
			return
		}
		b.WriteString(w.param(p))
	case *syntax.CmdSubst:
		n := len(w.a.Cmds)
		w.sub(p.Stmts)
		if out, ok := w.staticOutput(p, n); ok {
			b.WriteString(out)
			return
		}
		if w.setupOutput(p, n) {
			b.WriteString(setupMark)
			return
		}
		b.WriteString(Dyn)
	case *syntax.ProcSubst:
		n := len(w.a.Cmds)
		w.sub(p.Stmts)
		if p.Op == syntax.CmdIn && w.st.procSubs < 8 {
			// bash <(echo CODE), source <(printf ...): a static output is
			// the content of the /dev/fd file the command reads.
			if out, ok := w.staticOutput(&syntax.CmdSubst{Stmts: p.Stmts}, n); ok {
				f := "/dev/fd/" + strconv.Itoa(63-w.st.procSubs)
				w.st.procSubs++
				if w.st.files == nil {
					w.st.files = map[string]string{}
				}
				w.st.files[cleanRel(f)] = out + "\n"
				b.WriteString(f)
				return
			}
		}
		b.WriteString(Dyn)
	case *syntax.ArithmExp:
		w.subsIn(p)
		b.WriteString(Dyn)
	case *syntax.ExtGlob:
		if p.Op == syntax.GlobOne && p.Pattern != nil && p.Pattern.Value != "" && !strings.ContainsAny(p.Pattern.Value, "*?[|$`\\()") {
			// @('bin','obj') (PowerShell's array, an extglob to bash):
			// one alternative without wildcards matches its literal text.
			b.WriteString(strings.NewReplacer("'", "", "\"", "").Replace(p.Pattern.Value))
			return
		}
		b.WriteString("*")
	default:
		w.subsIn(p)
		b.WriteString(Dyn)
	}
}

// param resolves $NAME / ${NAME}: HOME is "~", PWD is ".", a variable the
// script set once to a static value is that value, anything else Dyn.
func (w *walker) param(p *syntax.ParamExp) string {
	w.subsIn(p)
	if p.Param == nil || p.Excl || p.Length || p.Width || p.Index != nil ||
		p.Slice != nil || p.Repl != nil || p.Names != 0 || p.NestedParam != nil {
		return Dyn
	}
	name := p.Param.Value
	if p.Exp != nil {
		// ${X:-default}, ${X:?msg}: X itself when X is known and set;
		// ${X:+alt}: alt. Anything else (or X unknown) is Dyn.
		base := w.paramValue(name)
		if base == Dyn && isDefaultOp(p.Exp.Op) {
			// ${TARGET:-/} with TARGET unknown: the value is TARGET's or
			// the default. The default followed by the unknown marker
			// keeps both: rules that read a prefix (rm's path) judge the
			// default's worst ("/" is the root) and nothing reads the word
			// as fully known. Only an absolute default (/, ~, C:\) is kept:
			// a relative one (${OUT:-dist}) is a folder of wherever the line
			// runs, as unknown as the variable, and stays Dyn.
			if d := w.word(p.Exp.Word); absDefault(d) && !strings.Contains(d, Dyn) {
				return d + Dyn
			}
		}
		if base == Dyn || base == "" {
			return Dyn
		}
		switch p.Exp.Op {
		case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.ErrorUnset, syntax.ErrorUnsetOrNull,
			syntax.AssignUnset, syntax.AssignUnsetOrNull:
			return base
		case syntax.AlternateUnset, syntax.AlternateUnsetOrNull:
			return w.word(p.Exp.Word)
		case syntax.RemSmallSuffix, syntax.RemLargeSuffix, syntax.RemSmallPrefix, syntax.RemLargePrefix:
			// for f in *.txt; do mv "$f" "${f%.txt}.md"; done: the trim of
			// a known value is known.
			return w.trim(base, p.Exp)
		}
		return Dyn
	}
	return w.paramValue(name)
}

// isDefaultOp: ${X:-d}, ${X-d}, ${X:=d}, ${X=d} expand to d when X is unset.
func isDefaultOp(op syntax.ParExpOperator) bool {
	switch op {
	case syntax.DefaultUnset, syntax.DefaultUnsetOrNull, syntax.AssignUnset, syntax.AssignUnsetOrNull:
		return true
	}
	return false
}

// trim computes ${X%pat}, ${X%%pat}, ${X#pat}, ${X##pat} of a known value
// as the shell does; Dyn when the value or the pattern is not fully known,
// or the pattern uses what path.Match reads otherwise ([...], escapes,
// quoted glob characters).
func (w *walker) trim(base string, e *syntax.Expansion) string {
	if strings.Contains(base, Dyn) || e.Word == nil {
		return Dyn
	}
	pat := w.word(e.Word)
	if strings.Contains(pat, Dyn) || strings.ContainsAny(pat, "[]\\") {
		return Dyn
	}
	if strings.ContainsAny(pat, "*?") {
		for _, part := range e.Word.Parts {
			if _, lit := part.(*syntax.Lit); !lit {
				return Dyn // "${f%"*"}": a quoted * is a literal star
			}
		}
	}
	// In ${...} a * matches slashes too: hide them from path.Match.
	const slash = "\x01"
	sb, sp := strings.ReplaceAll(base, "/", slash), strings.ReplaceAll(pat, "/", slash)
	match := func(s string) bool { ok, err := path.Match(sp, s); return err == nil && ok }
	n := len(sb)
	switch e.Op {
	case syntax.RemSmallSuffix:
		for i := n; i >= 0; i-- {
			if match(sb[i:]) {
				sb = sb[:i]
				break
			}
		}
	case syntax.RemLargeSuffix:
		for i := 0; i <= n; i++ {
			if match(sb[i:]) {
				sb = sb[:i]
				break
			}
		}
	case syntax.RemSmallPrefix:
		for i := 0; i <= n; i++ {
			if match(sb[:i]) {
				sb = sb[i:]
				break
			}
		}
	case syntax.RemLargePrefix:
		for i := n; i >= 0; i-- {
			if match(sb[:i]) {
				sb = sb[i:]
				break
			}
		}
	}
	if !utf8.ValidString(sb) {
		return Dyn // a ? took one byte of a multi-byte letter
	}
	return strings.ReplaceAll(sb, slash, "/")
}

// absDefault: a default value that names a place by itself (/x, ~, C:\x).
func absDefault(d string) bool {
	return strings.HasPrefix(d, "/") || d == "~" || strings.HasPrefix(d, "~/") ||
		len(d) >= 2 && d[1] == ':' && (d[0]|0x20 >= 'a' && d[0]|0x20 <= 'z')
}

// paramValue is the static value of variable name, or Dyn.
func (w *walker) paramValue(name string) string {
	if _, ifs := w.vars["IFS"]; ifs {
		return Dyn // custom word splitting: values are not what they look like
	}
	if v, ok := w.vars[name]; ok {
		return v
	}
	switch name {
	case "HOME":
		return "~"
	case "PWD":
		return "."
	case "TMPDIR", "TMP", "TEMP":
		return "/tmp"
	}
	return Dyn
}

// subsIn walks any command or process substitution nested in n (arithmetic,
// test expressions, parameter expansion operands).
func (w *walker) subsIn(n syntax.Node) {
	syntax.Walk(n, func(m syntax.Node) bool {
		switch m := m.(type) {
		case *syntax.CmdSubst:
			w.sub(m.Stmts)
			return false
		case *syntax.ProcSubst:
			w.sub(m.Stmts)
			return false
		}
		return true
	})
}

// unescapeLit removes the backslashes of an unquoted literal (\r\m -> rm,
// backslash-newline -> nothing). Windows paths (C:\x, \\host, .\x, %VAR%\x)
// keep their backslashes: there they are separators, not escapes.
func unescapeLit(s string) string {
	i := strings.IndexByte(s, '\\')
	if i < 0 {
		return s
	}
	if windowsy(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	for ; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

func windowsy(s string) bool {
	return strings.Contains(s, ":\\") || strings.HasPrefix(s, "\\\\") ||
		strings.HasPrefix(s, ".\\") || strings.HasPrefix(s, "..\\") || strings.HasPrefix(s, "~\\") ||
		strings.Contains(s, "%\\") || strings.Contains(s, "$env:")
}

// winRelPath: a bare word that is a relative Windows path to a program
// (.venv\Scripts\python, node_modules\.bin\tsc, bin\Debug\App.exe):
// backslashes only between non-empty folder names, no drive (windowsy
// covers those), nothing a shell would expand.
func winRelPath(s string) bool {
	if len(s) < 3 || s[0] == '\\' || s[0] == '-' || s[len(s)-1] == '\\' || strings.IndexByte(s, '\\') < 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\':
			if s[i-1] == '\\' {
				return false
			}
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c >= 0x80,
			c == '.', c == '_', c == '-', c == '+':
		default:
			return false
		}
	}
	return true
}

// unescapeDQ removes the backslashes double quotes honour (\$ \` \" \\ \newline).
func unescapeDQ(s string) string {
	if strings.IndexByte(s, '\\') < 0 || windowsy(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case '$', '`', '"', '\\':
				b.WriteByte(s[i+1])
				i++
				continue
			case '\n':
				i++
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// DecodeANSI decodes the body of a $'...' string (also printf escapes):
// \n \t \xHH \NNN \uHHHH \UHHHHHHHH \e \a \cX ...
func DecodeANSI(s string) string {
	if strings.IndexByte(s, '\\') < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'a':
			b.WriteByte(7)
		case 'b':
			b.WriteByte(8)
		case 'e', 'E':
			b.WriteByte(27)
		case 'f':
			b.WriteByte(12)
		case 'v':
			b.WriteByte(11)
		case 'c':
			if i+1 < len(s) {
				i++
				b.WriteByte(s[i] & 0x1f)
			}
		case 'x', 'u', 'U':
			max := 2
			if e == 'u' {
				max = 4
			} else if e == 'U' {
				max = 8
			}
			j := i + 1
			for j < len(s) && j-i-1 < max && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				b.WriteByte('\\')
				b.WriteByte(e)
				continue
			}
			n, _ := strconv.ParseUint(s[i+1:j], 16, 32)
			if e == 'x' {
				b.WriteByte(byte(n))
			} else if utf8.ValidRune(rune(n)) {
				b.WriteRune(rune(n))
			}
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j-i < 3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint(s[i:j], 8, 16)
			b.WriteByte(byte(n))
			i = j - 1
		default:
			// \\ \' \" \? and unknown escapes: the character itself
			// (unknown ones keep the backslash in bash; the letter
			// is what matters for reading the command).
			if e != '\\' && e != '\'' && e != '"' && e != '?' {
				b.WriteByte('\\')
			}
			b.WriteByte(e)
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// NormName normalizes a program name: base name of a path (/ or \), a
// leading backslash removed, lower-cased, .exe/.com/.cmd/.bat/.ps1 dropped.
func NormName(s string) string {
	for len(s) > 0 && s[0] == '\\' && !strings.HasPrefix(s, "\\\\") {
		s = s[1:]
	}
	if i := strings.LastIndexAny(s, "/\\"); i >= 0 && i < len(s)-1 {
		s = s[i+1:]
	}
	s = lower(s)
	for _, ext := range [...]string{".exe", ".com", ".cmd", ".bat", ".ps1"} {
		if len(s) > len(ext) && strings.HasSuffix(s, ext) {
			s = s[:len(s)-len(ext)]
			break
		}
	}
	return s
}

// lower is strings.ToLower without allocating for already-lower ASCII.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 'A' && c <= 'Z' || c >= 0x80 {
			return strings.ToLower(s)
		}
	}
	return s
}

// maxBrace caps the words one brace expansion may produce.
const maxBrace = 64

// words resolves a word that may hold a brace expansion ({a,b}, {1..3})
// into the words bash would pass: rm -rf {/,} is rm -rf / and "".
func (w *walker) words(wd *syntax.Word) []string {
	braces := false
	for _, p := range wd.Parts {
		if l, ok := p.(*syntax.Lit); ok && strings.IndexByte(l.Value, '{') >= 0 {
			braces = true
		}
	}
	if !braces || !syntax.SplitBraces(wd) {
		return []string{w.word(wd)}
	}
	return w.expandParts(wd.Parts, 0)
}

func (w *walker) expandParts(parts []syntax.WordPart, depth int) []string {
	out := []string{""}
	for _, p := range parts {
		be, ok := p.(*syntax.BraceExp)
		if !ok {
			var b strings.Builder
			if l, ok := p.(*syntax.Lit); ok {
				b.WriteString(unescapeLit(l.Value))
			} else {
				w.part(&b, p, false)
			}
			for i := range out {
				out[i] += b.String()
			}
			continue
		}
		var alts []string
		if be.Sequence || depth > 4 {
			// {1..9}: the ends stand for the range.
			for _, e := range be.Elems {
				alts = append(alts, w.word(e))
			}
			if be.Sequence && len(alts) > 2 {
				alts = alts[:2]
			}
		} else {
			for _, e := range be.Elems {
				alts = append(alts, w.expandParts(e.Parts, depth+1)...)
			}
		}
		if len(alts) == 0 {
			continue
		}
		if len(out)*len(alts) > maxBrace {
			for i := range out {
				out[i] += Dyn
			}
			continue
		}
		next := make([]string, 0, len(out)*len(alts))
		for _, o := range out {
			for _, a := range alts {
				next = append(next, o+a)
			}
		}
		out = next
	}
	return out
}

// staticOutput is what a substitution prints when that is known without
// running it: $(echo rm), $(printf '/'), $(which rm), $(command -v rm).
// first is the index of the substitution's first command in a.Cmds.
func (w *walker) staticOutput(cs *syntax.CmdSubst, first int) (string, bool) {
	if len(cs.Stmts) == 1 {
		if out, ok := w.decodedOutput(cs.Stmts[0], first); ok {
			return out, true
		}
	}
	if len(cs.Stmts) != 1 || len(w.a.Cmds) != first+1 {
		return "", false
	}
	st := cs.Stmts[0]
	if _, ok := st.Cmd.(*syntax.CallExpr); !ok || st.Background {
		return "", false
	}
	for _, r := range st.Redirs {
		if r.Op != syntax.Hdoc && r.Op != syntax.DashHdoc && r.Op != syntax.WordHdoc {
			return "", false
		}
	}
	c := &w.a.Cmds[first]
	if c.Dynamic() || len(c.Wrappers) > 0 {
		return "", false
	}
	switch c.Name {
	case "echo", "printf", "cat":
		out, ok := stdinCode(c, w.st.files)
		return strings.TrimRight(out, "\n"), ok
	case "which", "command", "type":
		ops := c.Operands()
		if len(ops) == 1 && (c.Name == "which" || c.Flag('v') || c.Flag('p') || c.Flag('P')) {
			return ops[0], true
		}
	case "pwd":
		if len(c.Operands()) == 0 {
			return ".", true // the folder the line is in, as $PWD is
		}
	}
	return "", false
}

func isWordChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.'
}

// ifsMark stands for an unquoted $IFS inside a word; call() splits on it.
const ifsMark = "\x00ifs\x00"

// ifsSplit: an unquoted $X after IFS=, was set to a static value splits
// X's static value at IFS's characters (IFS=,; x=rm,-rf,~; $x runs
// rm -rf ~): the value with each of them turned into ifsMark.
func (w *walker) ifsSplit(p *syntax.ParamExp, quoted bool) (string, bool) {
	if quoted || p.Param == nil || p.Exp != nil || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Length || p.Excl {
		return "", false
	}
	ifs, ok := w.vars["IFS"]
	if !ok || ifs == "" || strings.Contains(ifs, Dyn) {
		return "", false
	}
	v, ok := w.vars[p.Param.Value]
	if !ok || strings.Contains(v, Dyn) {
		return "", false
	}
	var b strings.Builder
	for _, r := range v {
		if strings.ContainsRune(ifs, r) {
			b.WriteString(ifsMark)
		} else {
			b.WriteRune(r)
		}
	}
	return b.String(), true
}

// decodedOutput is what a pipeline of a static text into decoders writes
// ($(echo B64 | base64 -d), $(base64 -d <<< B64 | rev)): the decoded text.
// It counts the decoding (shared.decodes), so the command the word goes
// to is marked Decoded: encoded to hide it, at least a question.
func (w *walker) decodedOutput(st *syntax.Stmt, first int) (string, bool) {
	var elems []*syntax.Stmt
	var flat func(s *syntax.Stmt) bool
	flat = func(s *syntax.Stmt) bool {
		if bc, ok := s.Cmd.(*syntax.BinaryCmd); ok && len(s.Redirs) == 0 && bc.Op == syntax.Pipe {
			return flat(bc.X) && flat(bc.Y)
		}
		if _, ok := s.Cmd.(*syntax.CallExpr); !ok || s.Background {
			return false
		}
		elems = append(elems, s)
		return len(elems) <= 8
	}
	if !flat(st) || len(w.a.Cmds) != first+len(elems) {
		return "", false
	}
	cmds := w.a.Cmds[first:]
	text, ok := "", false
	i := 0
	if Decodable(&cmds[0]) {
		text, ok = hereInput(&cmds[0])
	} else if len(cmds) > 1 {
		text, ok = stdinCode(&cmds[0], w.st.files)
		i = 1
	}
	if !ok || i >= len(cmds) && i == 1 {
		return "", false
	}
	for ; i < len(cmds); i++ {
		if !Decodable(&cmds[i]) {
			return "", false
		}
		if text, ok = Decode(&cmds[i], text); !ok {
			return "", false
		}
	}
	w.st.decodes++
	return strings.TrimRight(text, "\n"), true
}
