package shell

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"mvdan.cc/sh/v3/syntax"
)

// Caps keep hostile input from hanging the judge. Exceeding one sets Err
// (so the line is at least confirm) and stops looking further.
const (
	MaxInput = 256 << 10 // bytes of one command line
	MaxDepth = 8         // nested shells (bash -c 'bash -c ...')
	MaxCmds  = 2000      // simple commands in total
)

var parsers = sync.Pool{New: func() any {
	return syntax.NewParser(syntax.Variant(syntax.LangBash))
}}

// zshParsers read what bash cannot but zsh can (agents on macOS run zsh):
// for f in *.txt(N), ${(j:,:)arr}, setopt ...
var zshParsers = sync.Pool{New: func() any {
	return syntax.NewParser(syntax.Variant(syntax.LangZsh))
}}

// shared is the state of one Analyze call, shared by nested shells.
type shared struct {
	total   int
	parsed  int // bytes parsed, nested code included
	stopped bool
	// files written earlier in the line (cat > x.sh <<EOF, echo ... > x.sh),
	// so that a later `sh x.sh` is judged by its content.
	files map[string]string
	funcs map[string]bool
	// decodes counts the substitutions decoded statically (decodedOutput).
	decodes int
	// procSubs counts the <(...) of static output given a /dev/fd file.
	procSubs int
	// decoded: files written by a decoder (base64 -d > x.sh).
	decoded map[string]bool
	// bodies: function -> its body and the source it was parsed from, so
	// a call with static arguments walks it again with $1... bound
	// (funcCall); calls counts those walks, calling the functions being
	// walked so (no recursion).
	bodies  map[string]funcBody
	calls   int
	calling map[string]bool
	// exported: NAME=value from export earlier in the line; every later
	// command (nested shells included) runs with them in its Env.
	exported []string
	// dir is the folder the line runs in ("" unknown), for argument
	// files runners read from disk.
	dir string
	// spawns: function -> commands its body starts in a pipe or the
	// background; a cycle among functions is a fork bomb.
	spawns map[string][]string
	// loopRuns counts the for-loop bodies walked once per literal value.
	loopRuns int
	// subs numbers the subshells (Cmd.Scope).
	subs int
	// aliases defined earlier in the line (alias.go); expanding: the
	// aliases being expanded now.
	aliases   map[string]string
	expanding map[string]bool
}

// walker walks one parsed script (one nesting level).
type walker struct {
	a     *Analysis
	st    *shared
	src   string
	depth int
	vars  map[string]string
	// cond > 0 inside loops, conditionals, functions and && / || lists:
	// an assignment there may or may not happen, so it is not trusted.
	cond        int
	inPipe      int
	fn          string // function whose body is being walked (fork bombs)
	infLoop     int    // inside an endless loop body
	pending     map[int]bool
	xargsIn     map[int]bool // xargs commands whose last argument is stdin
	obf         []bool       // per word of the call being built: spelled to hide it
	lit         []string     // per word: its literal text when a relative Windows path (winRelPath)
	env         []string     // NAME=value assignments prefixed to the call being built
	decodedCall bool         // a word of the call being built was decoded statically
	bashOnly    bool         // do not take the line for PowerShell (the bash pass of one that looks like it)
	rawBS       bool         // do not double Windows trailing backslashes (the pass over the original)
	scope       string       // Cmd.Scope of the commands being walked
	span        [2]int       // source offsets of the statement being built (top level only)
}

// Analyze parses src as bash and flattens it into the simple commands that
// would run. It never panics and never takes long: see the caps above.
func Analyze(src string) (a Analysis) { return analyze(src, "") }

// analysisRun holds one analysis, its shared state and its top walker in
// one allocation (they were three, on every command).
type analysisRun struct {
	a  Analysis
	st shared
	w  walker
}

func analyze(src, dir string) Analysis { return *analyzePtr(src, dir) }

// analyzePtr is analyze without the copy: the Analysis stays in its
// analysisRun (the judge keeps a pointer for the whole call anyway).
func analyzePtr(src, dir string) (a *Analysis) {
	r := &analysisRun{st: shared{dir: dir}}
	defer func() {
		if p := recover(); p != nil {
			a = &r.a // what was found before the fault
			a.Err = fmt.Errorf("internal error analysing the command: %v", p)
		}
	}()
	r.w = walker{a: &r.a, st: &r.st}
	r.w.run(src)
	r.a.Written = r.st.files
	if r.a.ForkBomb == "" && len(r.st.spawns) > 0 && spawnCycle(&r.st) {
		r.a.ForkBomb = "functions that start each other in pipes or the background"
	}
	return &r.a
}

// spawnCycle reports a cycle of functions spawning each other
// (a(){ b|b& }; b(){ a|a& }; a).
func spawnCycle(st *shared) bool {
	state := map[string]int{} // 1 visiting, 2 done
	var visit func(f string, depth int) bool
	visit = func(f string, depth int) bool {
		if depth > 64 {
			return false
		}
		switch state[f] {
		case 1:
			return true
		case 2:
			return false
		}
		state[f] = 1
		for _, g := range st.spawns[f] {
			if st.funcs[g] && visit(g, depth+1) {
				return true
			}
		}
		state[f] = 2
		return false
	}
	for f := range st.spawns {
		if visit(f, 0) {
			return true
		}
	}
	return false
}

// child walks code run one level deeper. It sees the variables set so
// far: eval, trap, alias and source run in the same shell, and for a new
// shell reading a value it would not have errs on the careful side.
func (w *walker) child() *walker {
	n := &walker{a: w.a, st: w.st, depth: w.depth + 1, bashOnly: w.bashOnly, rawBS: w.rawBS, scope: w.scope}
	if len(w.vars) > 0 {
		n.vars = make(map[string]string, len(w.vars))
		for k, v := range w.vars {
			n.vars[k] = v
		}
	}
	return n
}

func (w *walker) setErr(err error) {
	if w.a.Err == nil {
		w.a.Err = err
	}
}

func (w *walker) run(src string) {
	if w.st.stopped {
		return
	}
	if len(src) > MaxInput {
		w.setErr(fmt.Errorf("command is %d bytes, above the %d-byte limit", len(src), MaxInput))
		w.a.Capped = true
		src = src[:MaxInput]
	}
	if w.tooDeep(src) {
		return
	}
	w.st.parsed += len(src)
	if w.st.parsed > 4*MaxInput {
		// Code that runs itself again and again (sh x.sh inside x.sh).
		w.setErr(fmt.Errorf("more than %d bytes of nested code", 4*MaxInput))
		w.st.stopped = true
		return
	}
	if !w.rawBS {
		if norm := winContinuation(src); norm != src {
			// dotnet build `<newline> -c Release, rd /s /q ^<newline> DIR:
			// one line to PowerShell or cmd; bash's reading is added.
			w.run(norm)
			w.merge(src, false)
			return
		}
		if norm := winTrailingBackslash(src); norm != src {
			// Judge the Windows reading, and add what bash would read of
			// the original too ("C:\" " ; rm -rf ~ ; echo "" hides an rm
			// from the Windows reading only).
			w.run(norm)
			w.merge(src, false)
			return
		}
	}
	if body, ok := cmdForBody(src); ok && !strings.Contains(src, "\n") {
		w.nestedWin(body, false) // cmd.exe's for %x in (...) do CMD (cmdfor.go)
		return
	}
	if body, ok := cmdIfBody(src); ok && !strings.Contains(src, "\n") {
		w.nestedWin(body, false) // cmd.exe's if exist X CMD (pwsh.go)
		return
	}
	if !w.bashOnly && looksPowerShell(src) {
		if body, ok := psForEachLiteral(src); ok {
			// 'bin','obj' | ForEach-Object { Remove-Item $_ ... }: the
			// block once per listed item; of bash's reading only the
			// list runs a program ('reboot' | ...), ForEach-Object is none.
			w.src = src
			w.nestedWin(body, true)
			w.merge(src[:strings.IndexByte(src, '|')], true)
			return
		}
		w.src = src
		w.psLine(src)
		w.merge(src, true)
		return
	}
	if argv, ok := fastSimple(src); ok {
		// A plain "prog arg arg" line: the parser would find exactly these words.
		w.src = src
		lead := len(src) - len(strings.TrimLeft(src, " \t\r\n"))
		w.setSpan(lead, lead+len(strings.TrimSpace(src)))
		w.command(argv, nil, strings.TrimSpace(src), false, nil)
		return
	}
	p := parsers.Get().(*syntax.Parser)
	f, err := p.Parse(strings.NewReader(src), "")
	parsers.Put(p)
	zsh := false
	if err != nil {
		zp := zshParsers.Get().(*syntax.Parser)
		if zf, zerr := zp.Parse(strings.NewReader(src), ""); zerr == nil {
			f, err, zsh = zf, nil, true
		}
		zshParsers.Put(zp)
	}
	if zsh {
		// Only zsh reads it. zsh also accepts other languages' text as
		// odd words (PowerShell's -Body (Get-Content key) is a glob
		// qualifier to zsh), so the naive pieces are judged as well.
		w.src = src
		w.stmts(f.Stmts)
		w.fallback(src)
		return
	}
	if err != nil {
		if norm := psCallOp(src); norm != src {
			// & "C:\Program Files\x.exe" args: PowerShell's call
			// operator at a statement's start, which bash cannot parse
			// (so bash runs nothing of it): judge the command it calls.
			w.run(norm)
			return
		}
		if !w.bashOnly && strings.Contains(src, "`\"") && !strings.Contains(src, "\n") {
			// git commit -m "修复 `"登录`" 问题": PowerShell's escaped quote,
			// which bash cannot parse (so runs nothing): PowerShell's reading.
			w.src = src
			w.psLine(src)
			return
		}
		var pe syntax.ParseError
		if errors.As(err, &pe) {
			err = fmt.Errorf("%s", pe.Text)
		}
		w.setErr(fmt.Errorf("cannot parse the command: %v", err))
		w.fallback(src)
		return
	}
	w.src = src
	w.stmts(f.Stmts)
}

// tooDeep refuses code nested deeper than MaxNesting, checked before any
// parser sees it: mvdan.cc/sh's recursion on such a line would overflow
// the stack, which no recover can catch.
func (w *walker) tooDeep(src string) bool {
	if nestingDepth(src, MaxNesting) <= MaxNesting {
		return false
	}
	w.setErr(ErrTooDeep)
	w.a.TooDeep = true
	w.st.stopped = true
	return true
}

func (w *walker) stop() bool {
	if w.st.stopped {
		return true
	}
	if w.st.total >= MaxCmds {
		w.setErr(fmt.Errorf("more than %d commands", MaxCmds))
		w.a.Capped = true
		w.st.stopped = true
		return true
	}
	return false
}

func (w *walker) stmts(ss []*syntax.Stmt) {
	for _, s := range ss {
		if w.stop() {
			return
		}
		w.stmt(s)
	}
}

// sub walks statements that run in a subshell of their own.
func (w *walker) sub(ss []*syntax.Stmt) {
	outer := w.scope
	w.enter()
	w.stmts(ss)
	w.scope = outer
}

// enter starts a new subshell scope below the current one.
func (w *walker) enter() {
	w.st.subs++
	w.scope += "/" + strconv.Itoa(w.st.subs)
}

// setSpan records where the statement being built sits in the top-level
// script; nested shells' offsets are into other text and are not kept.
func (w *walker) setSpan(a, b int) {
	if w.depth == 0 {
		w.span = [2]int{a, b}
	} else {
		w.span = [2]int{}
	}
}

func (w *walker) nodeSpan(n syntax.Node) { w.setSpan(int(n.Pos().Offset()), int(n.End().Offset())) }

func (w *walker) raw(n syntax.Node) string {
	a, b := int(n.Pos().Offset()), int(n.End().Offset())
	if a < 0 || b > len(w.src) || a > b {
		return ""
	}
	return w.src[a:b]
}

// stmt walks one statement and returns the index of its command in
// a.Cmds (-1 for compound statements).
func (w *walker) stmt(s *syntax.Stmt) int {
	if s == nil || w.stop() {
		return -1
	}
	if s.Background && w.infLoop > 0 && w.a.ForkBomb == "" {
		w.a.ForkBomb = w.raw(s)
	}
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		return w.call(s, c)
	case nil:
	default:
		w.compound(c)
	}
	if len(s.Redirs) > 0 {
		// Redirections of a block, loop or bare "> file": a nameless
		// command that carries them.
		w.nodeSpan(s)
		return w.emit(Cmd{Raw: w.raw(s), Redirs: w.redirs(s.Redirs), Depth: w.depth, Background: s.Background})
	}
	return -1
}

func (w *walker) compound(c syntax.Command) {
	switch c := c.(type) {
	case *syntax.Block:
		w.stmts(c.Stmts)
	case *syntax.Subshell:
		w.sub(c.Stmts)
	case *syntax.BinaryCmd:
		if c.Op == syntax.Pipe || c.Op == syntax.PipeAll {
			w.pipeline(c)
			return
		}
		w.stmt(c.X)
		w.cond++
		w.stmt(c.Y)
		w.cond--
	case *syntax.IfClause:
		w.cond++
		for ic := c; ic != nil; ic = ic.Else {
			w.stmts(ic.Cond)
			w.stmts(ic.Then)
		}
		w.cond--
	case *syntax.WhileClause:
		w.cond++
		w.stmts(c.Cond)
		endless := endlessCond(c.Cond, c.Until)
		if endless {
			w.infLoop++
		}
		first := len(w.a.Cmds)
		w.stmts(c.Do)
		if endless {
			w.infLoop--
			w.exhaust(first, c)
		}
		w.cond--
	case *syntax.ForClause:
		w.cond++
		endless := false
		switch l := c.Loop.(type) {
		case *syntax.WordIter:
			// for i in {1..100000} / $(seq 100000): as bad as endless
			// when the body starts background jobs. (Before words():
			// brace splitting rewrites the items.)
			endless = bigRange(l.Items)
			var vals []string
			static := len(l.Items) > 0 && !endless && w.st.loopRuns < maxLoopRuns
			for _, it := range l.Items {
				for _, v := range w.words(it) {
					if strings.Contains(v, Dyn) || strings.Contains(v, ifsMark) || len(vals) >= maxLoopVals {
						static = false
					}
					vals = append(vals, v)
				}
			}
			if static {
				// for d in / ~; do rm -rf $d; done: the body runs with each
				// value (a short literal list), so rm sees / and ~.
				w.forEach(l.Name.Value, vals, c.Do)
				w.cond--
				return
			}
			w.setVar(l.Name.Value, Dyn)
		case *syntax.CStyleLoop:
			w.subsIn(l)
			endless = l.Cond == nil || bigNumber(l.Cond)
		}
		if endless {
			w.infLoop++
		}
		w.stmts(c.Do)
		if endless {
			w.infLoop--
		}
		w.cond--
	case *syntax.CaseClause:
		w.word(c.Word)
		w.cond++
		for _, it := range c.Items {
			for _, p := range it.Patterns {
				w.word(p)
			}
			w.stmts(it.Stmts)
		}
		w.cond--
	case *syntax.FuncDecl:
		name := ""
		if c.Name != nil {
			name = NormName(c.Name.Value)
		}
		for _, n := range c.Names { // zsh: f g () { ... }
			if name == "" {
				name = NormName(n.Value)
			}
			if w.st.funcs == nil {
				w.st.funcs = map[string]bool{}
			}
			w.st.funcs[NormName(n.Value)] = true
		}
		if name != "" {
			w.a.FuncDefs = append(w.a.FuncDefs, name)
			if w.st.funcs == nil {
				w.st.funcs = map[string]bool{}
			}
			w.st.funcs[name] = true
		}
		if name != "" && c.Body != nil {
			if w.st.bodies == nil {
				w.st.bodies = map[string]funcBody{}
			}
			w.st.bodies[name] = funcBody{c.Body, w.src}
		}
		w.inFunc(name, c.Body)
	case *syntax.DeclClause:
		export := c.Variant != nil && c.Variant.Value == "export"
		for _, as := range c.Args {
			v := w.assignVal(as)
			if as.Name != nil && !as.Naked {
				w.setVar(as.Name.Value, v)
				if export && len(w.st.exported) < 64 {
					w.st.exported = append(w.st.exported, as.Name.Value+"="+v)
				}
			}
		}
	case *syntax.TimeClause:
		w.stmt(c.Stmt)
	case *syntax.CoprocClause:
		w.stmt(c.Stmt)
	default:
		// Arithmetic, [[ ]], let: only their substitutions run commands;
		// any other node: walk the statements it holds.
		syntax.Walk(c, func(n syntax.Node) bool {
			switch n := n.(type) {
			case *syntax.Stmt:
				w.stmt(n)
				return false
			case *syntax.CmdSubst:
				w.sub(n.Stmts)
				return false
			case *syntax.ProcSubst:
				w.sub(n.Stmts)
				return false
			}
			return true
		})
	}
}

// endlessCond: while true / while : / until false / while [ 1 ].
func endlessCond(cond []*syntax.Stmt, until bool) bool {
	if len(cond) != 1 {
		return false
	}
	switch c := cond[0].Cmd.(type) {
	case *syntax.CallExpr:
		if len(c.Args) == 0 {
			return false
		}
		n := c.Args[0].Lit()
		if until {
			return n == "false"
		}
		return n == "true" || n == ":" || (n == "[" && len(c.Args) == 3) || (n == "test" && len(c.Args) == 2)
	case *syntax.ArithmCmd:
		if w, ok := c.X.(*syntax.Word); ok {
			l := w.Lit()
			return !until && l != "" && l != "0"
		}
	}
	return false
}

func (w *walker) pipeline(b *syntax.BinaryCmd) {
	var elems []*syntax.Stmt
	var flat func(s *syntax.Stmt)
	flat = func(s *syntax.Stmt) {
		if bc, ok := s.Cmd.(*syntax.BinaryCmd); ok && len(s.Redirs) == 0 &&
			(bc.Op == syntax.Pipe || bc.Op == syntax.PipeAll) {
			flat(bc.X)
			flat(bc.Y)
			return
		}
		elems = append(elems, s)
	}
	flat(b.X)
	flat(b.Y)
	idx := make([]int, len(elems))
	w.inPipe++
	for i, s := range elems {
		outer := w.scope
		w.enter()
		idx[i] = w.stmt(s)
		w.scope = outer
	}
	w.inPipe--
	names := make([]string, len(elems))
	for i, j := range idx {
		if j >= 0 {
			names[i] = w.a.Cmds[j].Name
			if names[i] == "%0" && w.a.ForkBomb == "" {
				// cmd.exe's %0|%0: the batch file pipes itself into itself.
				w.a.ForkBomb = w.raw(b)
			}
		}
	}
	for i, j := range idx {
		if j < 0 {
			continue
		}
		c := &w.a.Cmds[j]
		c.PipedFrom = nonEmpty(names[:i])
		c.PipedTo = nonEmpty(names[i+1:])
		if w.xargsIn[j] && i > 0 && idx[i-1] >= 0 {
			// echo / | xargs rm -rf: the arguments are the echoed words.
			if words, ok := stdinCode(&w.a.Cmds[idx[i-1]], w.st.files); ok {
				c.Args = stdinSubst(c.Args, strings.Fields(words))
			} else if starts, ok := findListsStarts(&w.a.Cmds[idx[i-1]]); ok {
				// find DIR | xargs rm -rf: an unfiltered find prints DIR itself first.
				c.Args = append(c.Args[:len(c.Args)-1:len(c.Args)-1], starts...)
			}
		}
		if i > 0 && idx[i-1] >= 0 && (c.Name == "remove-item" || c.Name == "ri" || psAliasPipe(c, &w.a.Cmds[idx[i-1]])) {
			// (The previous element may be a subshell or group, idx -1:
			// checked first, or (cd web && make) | tee log failed to read.)
			// gci C:\Windows | ri -Recurse: the listed folder's content.
			p := &w.a.Cmds[idx[i-1]]
			argv := psPipeTarget(append([]string{p.Name}, p.Args...), append([]string{c.Name}, c.Args...))
			c.Args = argv[1:]
		}
		if i > 0 && idx[i-1] >= 0 && len(c.Redirs) > 0 && Decodable(c) {
			if in, ok := stdinCode(&w.a.Cmds[idx[i-1]], w.st.files); ok {
				w.decodedPipe(c, in)
			}
		}
		if w.pending[j] {
			delete(w.pending, j)
			if i > 0 && idx[i-1] >= 0 {
				w.feedFrom(j, idx[i-1])
			} else if i > 0 {
				w.unknownFeed(j)
			}
		}
	}
}

func nonEmpty(ns []string) []string {
	var out []string
	for _, n := range ns {
		if n != "" {
			out = append(out, n)
		}
	}
	return out
}

// arrKey is the vars key of array NAME's elements (joined by arrSep):
// kept with the variables, so nested walks and function calls see it.
func arrKey(name string) string { return "\x00[]" + name }

const arrSep = "\x01"

// setArray records cmd=(rm -rf "$HOME") when every element is static and
// the assignment surely happens (not in a branch or loop).
func (w *walker) setArray(name string, arr *syntax.ArrayExpr) {
	if w.vars == nil {
		w.vars = map[string]string{}
	}
	key := arrKey(name)
	var elems []string
	ok := w.cond == 0 && len(arr.Elems) <= 64
	for _, e := range arr.Elems {
		if !ok {
			break
		}
		if e.Index != nil || e.Value == nil {
			ok = false
			break
		}
		for _, v := range w.words(e.Value) {
			if strings.Contains(v, Dyn) || strings.Contains(v, arrSep) {
				ok = false
			}
			elems = append(elems, v)
		}
	}
	if _, seen := w.vars[key]; seen || !ok {
		w.vars[key] = Dyn
		return
	}
	w.vars[key] = strings.Join(elems, arrSep)
}

// arrayWords are the words "${NAME[@]}" (or ${NAME[@]}, "${NAME[*]}"
// as one word) expands to when the array is known.
func (w *walker) arrayWords(wd *syntax.Word) ([]string, bool) {
	if len(wd.Parts) != 1 {
		return nil, false
	}
	part, quoted := wd.Parts[0], false
	if dq, ok := part.(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
		part, quoted = dq.Parts[0], true
	}
	p, ok := part.(*syntax.ParamExp)
	if ok && p.Param != nil && p.Param.Value == "@" && p.Index == nil && p.Exp == nil && p.Slice == nil && p.Repl == nil && !p.Length && !p.Excl {
		// "$@" after set -- a b c, or in a function called with static
		// arguments: the positional parameters, one word each.
		if v, ok := w.vars[arrKey("@")]; ok && v != Dyn {
			if v == "" {
				return nil, true
			}
			return strings.Split(v, arrSep), true
		}
		return nil, false
	}
	if !ok || p.Param == nil || p.Index == nil || p.Exp != nil || p.Slice != nil || p.Repl != nil || p.Length || p.Excl {
		return nil, false
	}
	iw, ok := p.Index.(*syntax.Word)
	if !ok || len(iw.Parts) != 1 {
		return nil, false
	}
	l, ok := iw.Parts[0].(*syntax.Lit)
	if !ok || l.Value != "@" && l.Value != "*" {
		return nil, false
	}
	v, ok := w.vars[arrKey(p.Param.Value)]
	if !ok || v == Dyn {
		return nil, false
	}
	elems := strings.Split(v, arrSep)
	if v == "" {
		elems = nil
	}
	if l.Value == "*" && quoted {
		return []string{strings.Join(elems, " ")}, true
	}
	return elems, true
}

func (w *walker) setVar(name, v string) {
	if w.vars == nil {
		w.vars = map[string]string{}
	}
	if old, ok := w.vars[name]; (ok && old != v) || w.cond > 0 || name == "HOME" {
		v = Dyn
	}
	w.vars[name] = v
}

func (w *walker) assignVal(as *syntax.Assign) string {
	if as.Array != nil {
		w.subsIn(as.Array)
		if as.Name != nil && !as.Append && as.Index == nil {
			w.setArray(as.Name.Value, as.Array)
		}
		return Dyn
	}
	if as.Index != nil {
		w.subsIn(as.Index)
	}
	if as.Value == nil {
		return ""
	}
	v := w.word(as.Value)
	if as.Append || usesPwd(as.Value) {
		// $PWD and $(pwd) read as "." in a command's words; stored in a
		// variable, "." would follow a later cd, which the value does not.
		return Dyn
	}
	if v == Dyn && isMktemp(as.Value) {
		// tmp=$(mktemp -d): a fresh folder under /tmp.
		return "/tmp/" + Dyn
	}
	return v
}

func (w *walker) call(s *syntax.Stmt, ce *syntax.CallExpr) int {
	var env []string
	for _, as := range ce.Assigns {
		v := w.assignVal(as)
		if len(ce.Args) == 0 && as.Name != nil {
			w.setVar(as.Name.Value, v)
		} else if as.Name != nil && len(env) < 64 {
			env = append(env, as.Name.Value+"="+v)
		}
	}
	if len(ce.Args) == 0 {
		if len(s.Redirs) > 0 {
			w.nodeSpan(s)
			return w.emit(Cmd{Raw: w.raw(s), Redirs: w.redirs(s.Redirs), Depth: w.depth})
		}
		return -1
	}
	decodes := w.st.decodes
	argv := make([]string, 0, len(ce.Args))
	var obf []bool // per argv word: spelled to hide it
	var lit []string
	for i, a := range ce.Args {
		ws := w.words(a)
		hidden := obfuscated(a) || len(ws) > 1 // {rm,-rf,x} is one word in the source
		if aw, ok := w.arrayWords(a); ok {
			// cmd=(rm -rf ~); "${cmd[@]}": the array's elements, one word each.
			ws, hidden = aw, true
		}
		if i == 0 && hidden && len(ws) == 1 && len(a.Parts) == 1 {
			if l, ok := a.Parts[0].(*syntax.Lit); ok && winRelPath(l.Value) {
				lit = []string{l.Value} // only the program word is read so
			}
		}
		if len(ws) == 1 && strings.Contains(ws[0], "\\ ") && windowsy(ws[0]) && !quotedWord(a) {
			// PowerShell's C:\ -Recurse read by bash as one word "C:\ -Recurse".
			ws = strings.Fields(ws[0])
		}
		if len(ws) == 1 && strings.Contains(ws[0], ifsMark) {
			hidden = true
			var split []string
			for _, f := range strings.Split(ws[0], ifsMark) {
				if f != "" {
					split = append(split, f)
				}
			}
			ws = split
		}
		if i == 0 && len(ws) == 1 && strings.ContainsAny(ws[0], " \t\n") && unquotedParam(a) {
			// c="rm -rf /"; $c: word splitting makes it a command line.
			ws = strings.Fields(ws[0])
		}
		for range ws {
			obf = append(obf, hidden)
		}
		argv = append(argv, ws...)
	}
	if len(argv) == 0 {
		if len(s.Redirs) > 0 {
			w.nodeSpan(s)
			return w.emit(Cmd{Raw: w.raw(s), Redirs: w.redirs(s.Redirs), Depth: w.depth})
		}
		return -1
	}
	// set -- a b c sets the positional parameters ($1..., "$@").
	if argv[0] == "set" && len(argv) >= 2 && argv[1] == "--" {
		w.setPositional(argv[2:])
	}
	// `read X` makes X unknown.
	if argv[0] == "read" || argv[0] == "mapfile" || argv[0] == "readarray" {
		for _, a := range argv[1:] {
			if a != "" && a[0] != '-' {
				w.setVar(a, Dyn)
			}
		}
	}
	// printf -v X FMT ARGS assigns X, as X=$(printf FMT ARGS) would.
	if argv[0] == "printf" && len(argv) >= 4 && argv[1] == "-v" && argv[2] != "" {
		w.setVar(argv[2], printfValue(argv[3], argv[4:]))
	}
	w.obf, w.lit, w.env = obf, lit, env
	defer func() { w.obf, w.lit, w.env = nil, nil, nil }()
	w.nodeSpan(s)
	w.decodedCall = w.st.decodes > decodes // a word was decoded: $(echo B64 | base64 -d)
	return w.command(argv, w.redirs(s.Redirs), w.raw(s), s.Background, nil)
}

func (w *walker) redirs(rs []*syntax.Redirect) []Redir {
	if len(rs) == 0 {
		return nil
	}
	out := make([]Redir, 0, len(rs))
	for _, r := range rs {
		op := r.Op.String()
		var t string
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			t = w.hdoc(r)
		default:
			n := len(w.a.Cmds)
			t = w.word(r.Word)
			if r.Op == syntax.RdrIn && r.Word != nil && len(r.Word.Parts) == 1 && len(w.a.Cmds) == n+1 {
				if _, ok := r.Word.Parts[0].(*syntax.ProcSubst); ok {
					// cmd < <(echo /) reads what echo prints: a here-string.
					if words, ok := stdinCode(&w.a.Cmds[n], w.st.files); ok {
						op, t = "<<<", words
					}
				}
			}
		}
		if r.N != nil && (r.Op == syntax.RdrOut || r.Op == syntax.AppOut) && r.N.Value != "1" {
			// 2> file still writes the file; keep the op as it is.
			_ = r.N
		}
		out = append(out, Redir{Op: op, Target: t})
	}
	return out
}

// hdoc returns a here-document body: verbatim under a quoted delimiter,
// otherwise with expansions resolved (Dyn) and their commands walked.
func (w *walker) hdoc(r *syntax.Redirect) string {
	if r.Hdoc == nil {
		return ""
	}
	quoted := false
	if r.Word != nil {
		for _, p := range r.Word.Parts {
			switch p := p.(type) {
			case *syntax.SglQuoted, *syntax.DblQuoted:
				quoted = true
			case *syntax.Lit:
				if strings.IndexByte(p.Value, '\\') >= 0 {
					quoted = true
				}
			}
		}
	}
	var b strings.Builder
	for _, p := range r.Hdoc.Parts {
		if l, ok := p.(*syntax.Lit); ok {
			if quoted {
				b.WriteString(l.Value)
			} else {
				b.WriteString(unescapeDQ(l.Value))
			}
			continue
		}
		w.part(&b, p, true)
	}
	if r.Op == syntax.DashHdoc {
		// <<-: bash strips leading tabs from every line of the body.
		lines := strings.Split(b.String(), "\n")
		for i, l := range lines {
			lines[i] = strings.TrimLeft(l, "\t")
		}
		return strings.Join(lines, "\n")
	}
	return b.String()
}

func (w *walker) emit(c Cmd) int {
	if w.stop() {
		return -1
	}
	if c.End == 0 && w.span[1] > 0 {
		c.Start, c.End = w.span[0], w.span[1]
	}
	w.span = [2]int{}
	w.st.total++
	if c.Scope == "" {
		c.Scope = w.scope
	}
	w.a.Cmds = append(w.a.Cmds, c)
	return len(w.a.Cmds) - 1
}

// printfValue is printf's output for a format of %s/%d/%i/%b verbs and
// plain text (printf -v f '%s/.%s' ~ claude); anything else (%(...)T,
// widths, more verbs than arguments) or an unknown argument is Dyn.
func printfValue(format string, args []string) string {
	var b strings.Builder
	n := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' {
			b.WriteByte(c)
			continue
		}
		if i+1 >= len(format) {
			return Dyn
		}
		i++
		switch format[i] {
		case '%':
			b.WriteByte('%')
		case 's', 'd', 'i', 'b':
			if n >= len(args) || strings.Contains(args[n], Dyn) {
				return Dyn
			}
			b.WriteString(args[n])
			n++
		default:
			return Dyn
		}
	}
	if n != len(args) || strings.Contains(format, Dyn) {
		return Dyn // printf repeats the format for the rest: not modelled
	}
	return b.String()
}

// setPositional sets $1...$9, $@, $* and $# (set -- ARGS), or makes them
// unknown when the words are not all static or the set may not happen.
func (w *walker) setPositional(args []string) {
	if w.vars == nil {
		w.vars = map[string]string{}
	}
	known := w.cond == 0 && len(args) <= 9
	for _, a := range args {
		if strings.Contains(a, Dyn) || strings.Contains(a, arrSep) {
			known = false
		}
	}
	for i := 1; i <= 9; i++ {
		k := strconv.Itoa(i)
		switch {
		case !known:
			w.vars[k] = Dyn
		case i <= len(args):
			w.vars[k] = args[i-1]
		default:
			w.vars[k] = ""
		}
	}
	if !known {
		w.vars["@"], w.vars["*"], w.vars["#"], w.vars[arrKey("@")] = Dyn, Dyn, Dyn, Dyn
		return
	}
	w.vars["@"] = strings.Join(args, " ")
	w.vars["*"] = w.vars["@"]
	w.vars["#"] = strconv.Itoa(len(args))
	w.vars[arrKey("@")] = strings.Join(args, arrSep)
}

// inFunc walks body as function name's: conditionally, since it runs
// only when (and if) the function is called.
func (w *walker) inFunc(name string, body *syntax.Stmt) {
	old := w.fn
	w.fn = name
	w.cond++
	w.stmt(body)
	w.cond--
	w.fn = old
}
