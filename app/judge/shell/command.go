package shell

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/facts"
	"github.com/agent-guard/agent-guard/app/judge/opts"
	"mvdan.cc/sh/v3/syntax"
)

// command builds the Cmd for one argv: wrappers unwrapped, code fed to a
// shell opened up, find -exec commands split out. pre are wrappers already
// peeled off by the caller (find -exec).
func (w *walker) command(argv []string, redirs []Redir, raw string, bg bool, pre []string) int {
	if w.stop() {
		return -1
	}
	c := Cmd{Raw: raw, Redirs: redirs, Depth: w.depth, Background: bg, Start: w.span[0], End: w.span[1], Decoded: w.decodedCall}
	w.decodedCall = false
	w.span = [2]int{} // commands split out of this one (find -exec) share no span
	c.Env = append(c.Env, w.st.exported...)
	if len(pre) == 0 && len(w.env) > 0 {
		c.Env = append(c.Env, w.env...)
	}
	if len(pre) > 0 {
		c.Wrappers = append(c.Wrappers, pre...)
	}
	args := argv
	var last []string // args when the last wrapper was peeled off
	var code string
	hasCode, xargsDyn := false, false
	k := 0 // index in argv of args[0], -1 once a runner rewrote the words
	for guard := 0; ; guard++ {
		if len(args) == 0 {
			break
		}
		if strings.Contains(args[0], Dyn) {
			c.DynName = true
			c.Name = NormName(strings.ReplaceAll(args[0], Dyn, ""))
			c.Args = args[1:]
			break
		}
		n := NormName(args[0])
		if n == "env" {
			c.Env = append(c.Env, envAssigns(args[1:])...)
		}
		var rest []string
		var isWrap, hc, known bool
		var cd, dir string
		switch n {
		case "xargs", "parallel":
			rest, cd, hc, known = w.runner(n, args[1:])
			isWrap = true
		case "watch":
			rest, cd, hc = watchCommand(args[1:])
			isWrap, known = true, true
		default:
			rest, isWrap, cd, hc, dir = unwrap(n, args[1:])
		}
		if dir != "" {
			c.Dir = dir
		}
		if !isWrap || guard > 16 {
			c.Name, c.Args, c.Prog = n, args[1:], args[0]
			if filePath(args[0]) {
				c.Path = args[0]
			}
			if hc {
				code, hasCode = cd, true
			}
			break
		}
		c.Wrappers = append(c.Wrappers, n)
		last = args
		if (n == "xargs" || n == "parallel") && !known {
			xargsDyn = true
		}
		if hc {
			c.Wrappers = c.Wrappers[:len(c.Wrappers)-1]
			c.Name, c.Args, c.Prog = n, args[1:], args[0]
			code, hasCode = cd, true
			break
		}
		k = wordIndex(argv, args, rest, k)
		args = rest
	}
	if !c.DynName && len(args) > 0 && k >= 0 && k < len(w.obf) && len(pre) == 0 && w.obf[k] && !psStaticSafe(strings.ToLower(args[0])) {
		c.Obfuscated = true
		if k < len(w.lit) {
			c.WinProg = w.lit[k]
		}
	}
	if c.Name == "" && !c.DynName && len(c.Wrappers) > 0 {
		// A wrapper with nothing after it (`exec >log`, `sudo -v`).
		c.Name = c.Wrappers[len(c.Wrappers)-1]
		c.Wrappers = c.Wrappers[:len(c.Wrappers)-1]
		if len(last) > 0 {
			c.Args = last[1:]
		}
		xargsDyn = false
	}
	stdinArgs := false
	if xargsDyn && !hasCode && c.Name != "" && !c.Dynamic() {
		// Arguments come from stdin: unknown targets.
		c.Args = append(c.Args, Dyn)
		stdinArgs = true
	} else if xargsDyn && !hasCode && c.Name != "" && !c.DynName && contains(c.Args, Dyn) {
		// xargs -I{} rm -rf {}: the placeholder is a line of stdin.
		stdinArgs = true
	}
	if stdinArgs {
		// xargs rm -rf <<< "/": the here-string is the argument list.
		for _, r := range c.Redirs {
			if (r.Op == "<<<" || r.Op == "<<" || r.Op == "<<-") && !strings.Contains(r.Target, Dyn) {
				c.Args = stdinSubst(c.Args, strings.Fields(r.Target))
				stdinArgs = false
			}
		}
	}
	if g := interpGrammar(c.Name); g != nil && !c.DynName {
		// python -vc CODE, ruby -we CODE: one option a word, as the
		// interpreter reads them, for the code finders here and in rules.
		c.Args = opts.Uncluster(g, c.Args)
	}
	if w.st.funcs[c.Name] {
		c.Func = true
		if c.Name == w.fn && (bg || w.inPipe > 0) && w.a.ForkBomb == "" {
			w.a.ForkBomb = raw
		}
	}
	if w.fn != "" && (bg || w.inPipe > 0) && c.Name != "" && len(w.st.spawns[w.fn]) < 64 {
		if w.st.spawns == nil {
			w.st.spawns = map[string][]string{}
		}
		w.st.spawns[w.fn] = append(w.st.spawns[w.fn], c.Name)
	}
	if hasCode {
		c.FedCode = true
	}
	idx := w.emit(c)
	if idx < 0 {
		return idx
	}
	if stdinArgs && w.inPipe > 0 {
		if w.xargsIn == nil {
			w.xargsIn = map[int]bool{}
		}
		w.xargsIn[idx] = true
	}
	if hasCode {
		w.nested(code, false)
	}
	w.special(idx, argv)
	if w.a.Cmds[idx].Func {
		w.funcCall(w.a.Cmds[idx].Name, w.a.Cmds[idx].Args)
	}
	w.remember(idx)
	if len(pre) == 0 {
		w.aliasUse(argv)
	}
	return idx
}

// special opens up what a command runs: shells, eval, source, find -exec,
// cmd /c, powershell -Command, scripts written earlier in the line.
func (w *walker) special(idx int, argv []string) {
	c := &w.a.Cmds[idx]
	if c.DynName && !c.FedCode && len(c.Args) >= 2 && c.Args[0] == "-c" && !strings.Contains(c.Args[1], Dyn) {
		// $SHELL -c 'code': whatever the shell, the code is readable.
		c.FedCode = true
		w.nested(c.Args[1], false)
		return
	}
	if c.FedCode || c.DynName {
		return
	}
	switch {
	case facts.IsShell(c.Name):
		w.shell(idx)
		return
	case facts.IsUnixElevator(c.Name):
		// sudo -s / su with no command: a root shell reading stdin.
		w.stdin(idx)
		return
	case facts.IsInterpreter(c.Name):
		w.interp(idx)
		return
	}
	switch c.Name {
	case "alias":
		for _, a := range c.Args {
			if _, v, ok := strings.Cut(a, "="); ok && v != "" {
				w.nested(v, false)
				w.defineAlias(a)
			}
		}
	case "trap":
		if ops := c.Operands(); len(ops) >= 2 && ops[0] != "-" {
			w.nested(ops[0], false)
		}
	case "at", "batch":
		// echo 'CMD' | at midnight: the job's commands come down the pipe,
		// read like a here-string (the at rule judges them).
		if w.inPipe > 0 && !c.Flag('f', "") {
			if w.pending == nil {
				w.pending = map[int]bool{}
			}
			w.pending[idx] = true
		}
	case "eval":
		code := strings.Join(c.Args, " ")
		c.FedCode = true
		if allSetup(c.Args) {
			return // a known tool's shell setup (setupcode.go)
		}
		w.nested(code, false)
	case "source", ".":
		ops := c.Operands()
		if len(ops) == 0 {
			return
		}
		w.script(idx, ops[0])
	case "find":
		w.findExec(idx)
	case "fd", "fdfind":
		w.fdExec(idx)
	case "cmd":
		args := c.Args
		for i, a := range args {
			l := lower(a)
			if l == "/c" || l == "/k" || l == "/r" {
				code := strings.Join(args[i+1:], " ")
				if len(code) >= 2 && code[0] == '"' && code[len(code)-1] == '"' {
					code = code[1 : len(code)-1]
				}
				c.FedCode = true
				w.nested(code, true)
				return
			}
		}
	case "powershell", "pwsh", "powershell_ise":
		w.powershell(idx)
	case "start-process", "saps", "start":
		w.startProcess(idx)
	case "invoke-command", "icm", "start-job", "sajb", "start-threadjob":
		// -ScriptBlock { code }: PowerShell code run here or remotely.
		for i, a := range c.Args {
			if la := lower(a); la == "-scriptblock" || la == "-sb" || la == "-command" {
				code := strings.Trim(strings.Join(c.Args[i+1:], " "), "{} ")
				c.FedCode = true
				w.nestedWin(code, true)
				return
			}
		}
	case "runas":
		// runas /user:X "cmd /c ...": the last word is the command line.
		ops := []string{}
		for _, a := range c.Args {
			if !strings.HasPrefix(a, "/") {
				ops = append(ops, a)
			}
		}
		if len(ops) > 0 {
			c.FedCode = true
			w.nestedWin(ops[len(ops)-1], false)
		}
	case "iex", "invoke-expression":
		c.FedCode = true
		args := c.Args
		if len(args) > 0 && (lower(args[0]) == "-command" || lower(args[0]) == "-c") {
			args = args[1:]
		}
		code := strings.Join(args, " ")
		if strings.HasPrefix(strings.TrimSpace(code), "(") {
			// iex ('Remove-Item ' + $env:USERPROFILE): a built string (pwsh.go).
			s, ok := psExprString(code)
			if !ok {
				w.unknownFeed(idx)
				return
			}
			code = s
		}
		if code == "" || strings.Contains(code, Dyn) {
			w.unknownFeed(idx)
			return
		}
		w.nestedWin(code, true)
	default:
		// ./x.sh written earlier in the same line.
		if p := argv[0]; strings.ContainsAny(p, "/") && !strings.Contains(p, Dyn) {
			if body, ok := w.st.files[cleanRel(p)]; ok {
				c.FedCode = true
				c.Decoded = w.st.decoded[cleanRel(p)]
				if body == hiddenBody {
					c.HiddenCode = true
				} else {
					w.nested(body, false)
				}
			}
		}
	}
}

// shell handles bash/sh/...: -c code, a script operand, or code on stdin.
func (w *walker) shell(idx int) {
	c := &w.a.Cmds[idx]
	cmode, smode, noexec := false, false, false
	var ops []string
	args := c.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || a == "-" {
			// "-": commands from stdin; what follows are its arguments.
			smode = smode || a == "-"
			ops = args[i+1:]
			break
		}
		if len(a) > 1 && (a[0] == '-' || a[0] == '+') && !strings.Contains(a, Dyn) {
			if a[0] == '-' && !strings.HasPrefix(a, "--") && strings.IndexByte(a[1:], 'n') >= 0 || a == "--noexec" ||
				(a == "-o" && i+1 < len(args) && args[i+1] == "noexec") {
				// bash -n: read the commands, run none (a syntax check).
				noexec = true
			}
			switch {
			case a == "-o" || a == "+o" || a == "-O" || a == "+O" || a == "--rcfile" || a == "--init-file":
				i++
			case strings.HasPrefix(a, "--"):
			case strings.IndexByte(a[1:], 'c') >= 0:
				cmode = true
			case a[0] == '-' && strings.IndexByte(a[1:], 's') >= 0:
				smode = true // commands from stdin, operands are arguments
			}
			continue
		}
		ops = args[i:]
		break
	}
	switch {
	case noexec:
		return
	case cmode:
		if len(ops) == 0 {
			return
		}
		c.FedCode = true
		w.nestedArgs(ops[0], ops[1:])
	case len(ops) > 0 && !smode:
		w.script(idx, ops[0])
	default:
		w.stdin(idx)
	}
}

// script judges running the file p: its content if written earlier in the
// line, unknown code if its name is dynamic (bash <(curl ...)).
func (w *walker) script(idx int, p string) {
	c := &w.a.Cmds[idx]
	if strings.Contains(p, Dyn) {
		c.FedCode = true
		c.HiddenCode = true
		return
	}
	if isStdin(p) {
		w.stdin(idx)
		return
	}
	if body, ok := w.st.files[cleanRel(p)]; ok {
		c.FedCode = true
		c.Decoded = w.st.decoded[cleanRel(p)]
		if body == hiddenBody {
			c.HiddenCode = true
			return
		}
		w.nested(body, false)
	}
}

// hiddenBody marks a file written earlier in the line with content that
// cannot be read (base64 -d > x.sh, curl -o x.sh): running it is hidden code.
const hiddenBody = "\x00hidden"

// stdin: the command reads its code from stdin: a here-doc or here-string,
// a `<` file, or the pipe (resolved when the pipeline is complete).
func (w *walker) stdin(idx int) {
	c := &w.a.Cmds[idx]
	for i := len(c.Redirs) - 1; i >= 0; i-- {
		r := c.Redirs[i]
		switch r.Op {
		case "<<", "<<-", "<<<":
			c.FedCode = true
			w.nested(r.Target, false)
			return
		case "<":
			if isStdin(r.Target) {
				continue
			}
			if r.Target != "/dev/null" {
				w.script(idx, r.Target)
			}
			return
		}
	}
	if w.inPipe > 0 {
		if w.pending == nil {
			w.pending = map[int]bool{}
		}
		w.pending[idx] = true
	}
}

// interp: python/node/... reading their program from stdin.
func (w *walker) interp(idx int) {
	c := &w.a.Cmds[idx]
	for _, a := range c.Args {
		if a == "-" {
			break
		}
		if len(a) > 0 && a[0] != '-' {
			// A script: if this line wrote it, its content goes to the
			// interpreter rules as a here-string (or it is hidden code).
			if body, ok := w.st.files[cleanRel(a)]; ok && !strings.Contains(a, Dyn) {
				c.FedCode = true
				c.Decoded = w.st.decoded[cleanRel(a)]
				if body == hiddenBody {
					c.HiddenCode = true
				} else {
					c.Redirs = append(c.Redirs, Redir{Op: "<<<", Target: body})
				}
			}
			return
		}
		if a == "-c" || a == "-e" || a == "-E" || a == "--eval" || a == "-p" || a == "-r" || a == "-m" {
			return
		}
	}
	for _, r := range c.Redirs {
		switch r.Op {
		case "<<", "<<-", "<<<":
			c.FedCode = true
			return
		case "<":
			c.FedCode = true
			if _, ok := w.st.files[cleanRel(r.Target)]; !ok {
				w.unknownFeed(idx)
			}
			return
		}
	}
	if w.inPipe > 0 {
		if w.pending == nil {
			w.pending = map[int]bool{}
		}
		w.pending[idx] = true
	}
}

// feedFrom resolves code piped from a.Cmds[from] into a.Cmds[to].
func (w *walker) feedFrom(to, from int) {
	src := &w.a.Cmds[from]
	code, ok := stdinCode(src, w.st.files)
	c := &w.a.Cmds[to]
	c.FedCode = true
	if !ok {
		w.unknownFeed(to)
		return
	}
	switch {
	case facts.IsShell(c.Name) || facts.IsUnixElevator(c.Name):
		w.nested(code, false)
	case c.Name == "powershell" || c.Name == "pwsh" || c.Name == "iex" || c.Name == "invoke-expression" || c.Name == "cmd":
		w.nestedWin(code, c.Name != "cmd")
	default:
		// An interpreter: its rules read the code as a here-string.
		c.Redirs = append(c.Redirs, Redir{Op: "<<<", Target: code})
	}
}

// unknownFeed marks code that cannot be seen (curl | sh, base64 -d | bash).
func (w *walker) unknownFeed(idx int) {
	c := &w.a.Cmds[idx]
	c.FedCode = true
	c.HiddenCode = true
	if !c.Dynamic() {
		c.Args = append(c.Args, Dyn)
	}
}

// EchoText is what echo prints for args (without the newline): its -n,
// -e and -E options read off the front, backslash escapes decoded under -e.
func EchoText(args []string) string {
	esc := false
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' && strings.Trim(args[0][1:], "neE") == "" {
		esc = esc || strings.IndexByte(args[0], 'e') >= 0
		args = args[1:]
	}
	s := strings.Join(args, " ")
	if esc {
		s = DecodeANSI(s)
	}
	return s
}

// stdinCode is what echo/printf/cat write to a pipe, when static.
func stdinCode(src *Cmd, files map[string]string) (string, bool) {
	if src.Dynamic() {
		return "", false
	}
	switch src.Name {
	case "echo":
		return EchoText(src.Args), true
	case "printf":
		args := src.Args
		if len(args) > 0 && args[0] == "--" {
			args = args[1:]
		}
		if len(args) == 0 || strings.HasPrefix(args[0], "-v") {
			return "", false
		}
		return printf(args[0], args[1:]), true
	case "cat":
		for i := len(src.Redirs) - 1; i >= 0; i-- {
			if r := src.Redirs[i]; r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<" {
				return r.Target, true
			}
		}
		ops := src.Operands()
		if len(ops) == 1 {
			b, ok := files[cleanRel(ops[0])]
			return b, ok && b != hiddenBody
		}
	}
	return "", false
}

// printf is a small printf(1): escapes decoded, %s %b %d %c filled from args,
// the format reused while arguments remain.
func printf(format string, args []string) string {
	var b strings.Builder
	for round := 0; round < 64; round++ {
		used := 0
		for i := 0; i < len(format); i++ {
			c := format[i]
			if c != '%' || i+1 >= len(format) {
				b.WriteByte(c)
				continue
			}
			j := i + 1
			for j < len(format) && strings.IndexByte("-+ #0123456789.", format[j]) >= 0 {
				j++
			}
			if j >= len(format) {
				b.WriteString(format[i:])
				break
			}
			verb := format[j]
			i = j
			if verb == '%' {
				b.WriteByte('%')
				continue
			}
			arg := ""
			if used < len(args) {
				arg = args[used]
				used++
			}
			if verb == 'b' {
				arg = DecodeANSI(arg)
			}
			b.WriteString(arg)
		}
		args = args[used:]
		if used == 0 || len(args) == 0 {
			break
		}
	}
	return DecodeANSI(b.String())
}

// remember records files written with static content in this line, so a
// later `sh x.sh` / `./x.sh` / `source x.sh` is judged by that content.
func (w *walker) remember(idx int) {
	c := &w.a.Cmds[idx]
	var body string
	switch c.Name {
	case "cat", "tee":
		ok := false
		for _, r := range c.Redirs {
			if r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<" {
				body, ok = r.Target, true
			}
		}
		if !ok {
			body = hiddenBody
			if b, known := stdinCode(c, w.st.files); known && c.Name == "cat" {
				body = b
			}
		}
		if c.Name == "tee" {
			for _, t := range c.Operands() {
				w.writeFile(t, body, c.Flag('a', "--append"))
			}
			return
		}
	case "echo", "printf":
		b, ok := stdinCode(c, w.st.files)
		if !ok {
			body = hiddenBody
		} else {
			body = b + "\n"
		}
	case "cp", "install", "mv", "ln":
		// cp /dev/stdin x.sh <<< CODE, install -m 755 /dev/stdin x.sh,
		// cp a.sh b.sh of a script written earlier: the destination gets
		// the source's content when this line knows it (a file on disk
		// stays as unknown as it was).
		if src, dst, ok := copyOperands(c); ok {
			if isStdin(src) || src == "-" && c.Name != "ln" {
				b, known := "", false
				for _, r := range c.Redirs {
					if r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<" {
						b, known = r.Target, true
					}
				}
				if !known {
					b = hiddenBody
				}
				w.writeFile(dst, b, false)
			} else if b, known := w.st.files[cleanRel(src)]; known && !strings.Contains(src, Dyn) {
				w.writeFile(dst, b, false)
			}
		}
		body = hiddenBody
	case "base64", "base32", "basenc", "openssl", "xxd", "rev", "tr":
		// base64 -d <<< B64 > x.sh: the decoded text is the file's content
		// (fed by a pipe, the pipeline fills it in: decodedPipe).
		body = hiddenBody
		if in, ok := hereInput(c); ok && Decodable(c) {
			if out, ok := Decode(c, in); ok {
				body = out
				w.markDecoded(c)
			}
		}
	case "curl", "wget", "aria2c", "invoke-webrequest", "iwr", "invoke-restmethod", "irm":
		for _, f := range downloadTargets(c) {
			w.writeFile(f, hiddenBody, false)
		}
		body = hiddenBody
	default:
		body = hiddenBody
	}
	for _, r := range c.Redirs {
		if r.Op == ">" || r.Op == ">>" || r.Op == ">|" || r.Op == "&>" {
			w.writeFile(r.Target, body, r.Op == ">>")
		}
	}
}

func (w *walker) writeFile(path, body string, app bool) {
	if strings.Contains(path, Dyn) || strings.HasPrefix(path, "/dev/") {
		return
	}
	if w.st.files == nil {
		w.st.files = map[string]string{}
	}
	k := cleanRel(path)
	if body == hiddenBody || w.st.files[k] == hiddenBody {
		w.st.files[k] = hiddenBody
		return
	}
	if app {
		body = w.st.files[k] + body
	}
	if len(body) > MaxInput {
		body = body[:MaxInput]
	}
	w.st.files[k] = body
}

func cleanRel(p string) string {
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	return p
}

// nestedArgs parses sh -c 'code' arg0 arg1...: $0, $1... are the args.
func (w *walker) nestedArgs(code string, args []string) {
	if w.depth+1 > MaxDepth {
		w.setErr(errDeep)
		return
	}
	n := w.child()
	if len(args) > 0 {
		if n.vars == nil {
			n.vars = map[string]string{}
		}
		for i, a := range args {
			if i > 9 {
				break
			}
			n.vars[string(rune('0'+i))] = a
		}
	}
	n.run(strings.ReplaceAll(code, Dyn, "${__dyn}"))
}

// nested parses code run by a shell one level deeper.
func (w *walker) nested(code string, windows bool) {
	if windows {
		w.nestedWin(code, false)
		return
	}
	if w.depth+1 > MaxDepth {
		w.setErr(fmt.Errorf("shells nested more than %d deep", MaxDepth))
		return
	}
	n := w.child()
	n.run(strings.ReplaceAll(code, Dyn, "${__dyn}"))
}

// findExec splits out the commands of find -exec/-execdir/-ok/-okdir.
func (w *walker) findExec(idx int) {
	args := w.a.Cmds[idx].Args
	raw := w.a.Cmds[idx].Raw
	pre := append(append([]string(nil), w.a.Cmds[idx].Wrappers...), "find")
	bg := w.a.Cmds[idx].Background
	for i := 0; i < len(args); i++ {
		switch args[i] {
		case "-exec", "-execdir", "-ok", "-okdir":
			j := i + 1
			for j < len(args) && args[j] != ";" && args[j] != "+" {
				j++
			}
			if j > i+1 {
				argv := args[i+1 : j]
				// find -exec env rm -rf {} +: peel wrappers first, so the
				// payload is still find's command and {} stays find's files.
				peeled, rest := PeelWrappers(argv)
				argv = rest
				wpre := append(append([]string(nil), pre[:len(pre)-1]...), peeled...)
				cpre := append(wpre, "find")
				if argv[0] == "{}" {
					// find -exec {} \;: every file found runs as a program.
					argv = append([]string{Dyn}, argv[1:]...)
				}
				w.command(argv, nil, raw, bg, cpre)
			}
			i = j
		}
	}
}

// fdExec: fd -x CMD / --exec CMD / -X / --exec-batch.
func (w *walker) fdExec(idx int) {
	args := w.a.Cmds[idx].Args
	for i, a := range args {
		if a == "-x" || a == "--exec" || a == "-X" || a == "--exec-batch" {
			if i+1 < len(args) {
				pre := append(append([]string(nil), w.a.Cmds[idx].Wrappers...), "find")
				w.command(args[i+1:], nil, w.a.Cmds[idx].Raw, false, pre)
			}
			return
		}
	}
}

// fallback judges an unparsable line piece by piece, split naively on
// ; & | and newlines, so a parse error cannot hide `rm -rf /`.
func (w *walker) fallback(src string) {
	pieces, raws := splitWords(src, modeBash)
	for i, argv := range pieces {
		if w.stop() {
			return
		}
		w.command(argv, nil, raws[i], false, nil)
	}
}

func isStdin(p string) bool {
	return p == "/dev/stdin" || p == "/dev/fd/0" || p == "-" || p == "/proc/self/fd/0"
}

// downloadTargets are the files a download command writes: curl -o F,
// -sSoF, --output=F, -O (the URL's base name), wget -O F, aria2c -o F,
// Invoke-WebRequest -OutFile F.
func downloadTargets(c *Cmd) []string {
	var out []string
	out1 := byte('o')
	if c.Name == "wget" {
		out1 = 'O'
	}
	remoteName := false
	var urls []string
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		la := lower(a)
		switch {
		case la == "--output" || la == "--output-document" || la == "-outfile" || la == "--out":
			if i+1 < len(c.Args) {
				out = append(out, c.Args[i+1])
				i++
			}
		case strings.HasPrefix(la, "--output=") || strings.HasPrefix(la, "--output-document=") || strings.HasPrefix(la, "--out="):
			_, v, _ := strings.Cut(a, "=")
			out = append(out, v)
		case la == "--remote-name" || la == "--remote-name-all":
			remoteName = true
		case len(a) > 1 && a[0] == '-' && a[1] != '-':
			if j := strings.IndexByte(a, out1); j > 0 {
				if j+1 < len(a) {
					out = append(out, a[j+1:])
				} else if i+1 < len(c.Args) {
					out = append(out, c.Args[i+1])
					i++
				}
			} else if c.Name == "curl" && strings.IndexByte(a, 'O') > 0 {
				remoteName = true
			}
		case strings.Contains(a, "://"):
			urls = append(urls, a)
		}
	}
	if remoteName || c.Name == "wget" && len(out) == 0 {
		for _, u := range urls {
			u, _, _ = strings.Cut(u, "?")
			if i := strings.LastIndexByte(u, '/'); i >= 0 && i+1 < len(u) {
				out = append(out, u[i+1:])
			}
		}
	}
	return out
}

// startProcess: Start-Process X -ArgumentList "..." (PowerShell) and
// cmd's start [/b] [""] X args: X runs with those arguments.
func (w *walker) startProcess(idx int) {
	c := &w.a.Cmds[idx]
	args := c.Args
	var argv []string
	if c.Name == "start" && (len(args) == 0 || args[0] == "" || strings.HasPrefix(args[0], "/")) {
		i := 0
		if i < len(args) && args[i] == "" {
			i++ // the window title
		}
		for i < len(args) && strings.HasPrefix(args[i], "/") {
			if lower(args[i]) == "/d" {
				i++
			}
			i++
		}
		if i < len(args) && args[i] == "" {
			i++
		}
		argv = args[i:]
	} else {
		file, list := "", ""
		for i := 0; i < len(args); i++ {
			la := lower(args[i])
			switch {
			case la == "-filepath" || la == "-file" || la == "-path":
				if i+1 < len(args) {
					file = args[i+1]
					i++
				}
			case la == "-argumentlist" || la == "-args" || la == "-arguments":
				// -ArgumentList '-c', 'code': every element up to the next
				// Start-Process parameter.
				var parts []string
				for i+1 < len(args) && !startProcParams[lower(args[i+1])] {
					parts = append(parts, args[i+1])
					i++
				}
				list = strings.Join(parts, " ")
			case strings.HasPrefix(la, "-"):
				if la == "-workingdirectory" || la == "-verb" || la == "-windowstyle" || la == "-credential" || la == "-redirectstandardoutput" || la == "-redirectstandarderror" || la == "-redirectstandardinput" {
					i++
				}
			case file == "":
				file = args[i]
			case list == "":
				list = args[i]
			}
		}
		if file == "" {
			return
		}
		argv = append([]string{file}, strings.Fields(strings.NewReplacer(",", " ", "'", "", "\"", "").Replace(list))...)
	}
	if len(argv) == 0 {
		return
	}
	c.FedCode = true
	w.command(argv, nil, c.Raw, false, append(append([]string(nil), c.Wrappers...), c.Name))
}

// stdinSubst puts the words xargs reads from stdin where its arguments
// were unknown: at the end, or at each -I placeholder.
func stdinSubst(args, words []string) []string {
	if n := len(args); n > 0 && args[n-1] == Dyn && !contains(args[:n-1], Dyn) {
		return append(args[:n-1:n-1], words...)
	}
	out := make([]string, 0, len(args)+len(words))
	for _, a := range args {
		if a == Dyn {
			out = append(out, words...)
		} else {
			out = append(out, a)
		}
	}
	return out
}

var startProcParams = map[string]bool{"-filepath": true, "-file": true, "-path": true, "-verb": true, "-wait": true,
	"-nonewwindow": true, "-windowstyle": true, "-workingdirectory": true, "-passthru": true, "-credential": true,
	"-redirectstandardoutput": true, "-redirectstandarderror": true, "-redirectstandardinput": true,
	"-loaduserprofile": true, "-usenewenvironment": true, "-environment": true}

// interpGrammar is the option grammar of an interpreter whose short
// options cluster with its code option (nil for others).
func interpGrammar(name string) *opts.Spec {
	switch {
	case name == "python" || name == "python2" || name == "python3" || strings.HasPrefix(name, "python3."):
		return opts.Lookup("python")
	case name == "ruby":
		return opts.Lookup("ruby")
	}
	return nil
}

// filePath: a program word that names a file rather than a command on PATH.
func filePath(w string) bool {
	if strings.ContainsAny(w, "/\\") {
		return true
	}
	l := lower(w)
	for _, ext := range [...]string{".sh", ".bash", ".bat", ".cmd", ".ps1", ".py", ".js", ".pl", ".rb"} {
		if strings.HasSuffix(l, ext) {
			return true
		}
	}
	return false
}

// wordIndex follows the program word through an unwrap: a plain wrapper
// leaves a tail of args (env X=1 rm: rm's index moves on), a runner
// rebuilds the words (parallel rm {} ::: a -> rm a), so its program word
// is found again in argv after the runner's; -1 when it is not there.
func wordIndex(argv, args, rest []string, k int) int {
	if k < 0 || len(rest) == 0 {
		return -1
	}
	if d := len(args) - len(rest); d > 0 && equalWords(rest, args[d:]) {
		return k + d
	}
	for j := k + 1; j < len(argv); j++ {
		if argv[j] == rest[0] {
			return j
		}
	}
	return -1
}

func equalWords(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// funcBody is a function's body and the source its offsets refer to.
type funcBody struct {
	body *syntax.Stmt
	src  string
}

// maxFuncCalls caps the function bodies walked again for a call.
const maxFuncCalls = 16

// funcCall walks the body of function name again for a call with the
// arguments args, $1... $9, $@ and $* bound to them: `f() { rm -rf "$1";
// }; f ~` runs rm -rf ~, which the walk of the definition (with $1
// unknown) could only call a dynamic target. Only for a body parsed from
// the same source (a function of an outer shell is not visible inside
// bash -c), without recursion, and a few calls a line.
func (w *walker) funcCall(name string, args []string) {
	fb, ok := w.st.bodies[name]
	if !ok || fb.src != w.src || w.st.calling[name] || w.st.calls >= maxFuncCalls || len(args) == 0 || len(args) > 9 || !usesPositional(fb.body) {
		return
	}
	w.st.calls++
	if w.st.calling == nil {
		w.st.calling = map[string]bool{}
	}
	w.st.calling[name] = true
	saved := w.vars
	vars := make(map[string]string, len(saved)+len(args)+2)
	for k, v := range saved {
		vars[k] = v
	}
	for i := 1; i <= 9; i++ {
		delete(vars, strconv.Itoa(i))
	}
	for i, a := range args {
		vars[strconv.Itoa(i+1)] = a
	}
	vars["@"] = strings.Join(args, " ")
	vars["*"] = vars["@"]
	vars["#"] = strconv.Itoa(len(args))
	vars[arrKey("@")] = Dyn
	if !strings.Contains(strings.Join(args, ""), Dyn) && !strings.Contains(strings.Join(args, ""), arrSep) {
		vars[arrKey("@")] = strings.Join(args, arrSep)
	}
	w.vars = vars
	w.inFunc(name, fb.body)
	w.vars = saved
	delete(w.st.calling, name)
}

// usesPositional: the body reads $1...$9, $@ or $*.
func usesPositional(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(m syntax.Node) bool {
		if p, ok := m.(*syntax.ParamExp); ok && p.Param != nil {
			if v := p.Param.Value; v == "@" || v == "*" || len(v) == 1 && v[0] >= '1' && v[0] <= '9' {
				found = true
			}
		}
		return !found
	})
	return found
}

// copyOperands is the source and destination of cp/install/mv/ln with
// exactly two operands (options that take a value skipped).
func copyOperands(c *Cmd) (src, dst string, ok bool) {
	var ops []string
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		if a == "--" {
			ops = append(ops, c.Args[i+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' {
			if a == "-t" || strings.HasPrefix(a, "--target-directory") {
				return "", "", false // -t DIR: the destination is a folder
			}
			if c.Name == "install" && (a == "-m" || a == "-o" || a == "-g") || a == "-S" {
				i++ // install -m 755, -o user, -g group; --suffix's short form
			}
			continue
		}
		ops = append(ops, a)
	}
	if len(ops) != 2 || strings.Contains(ops[1], Dyn) {
		return "", "", false
	}
	return ops[0], ops[1], true
}

// decodedPipe: a decoder in a pipeline fed a static text (echo B64 |
// base64 -d > x.sh) writes the decoded text to the files it redirects to.
// in is its input; the pipeline calls it once the elements are walked.
func (w *walker) decodedPipe(c *Cmd, in string) {
	out, ok := Decode(c, in)
	if !ok {
		return
	}
	for _, r := range c.Redirs {
		if (r.Op == ">" || r.Op == ">|") && !strings.Contains(r.Target, Dyn) && !strings.HasPrefix(r.Target, "/dev/") && w.st.files != nil {
			delete(w.st.files, cleanRel(r.Target))
			w.writeFile(r.Target, out, false)
		}
	}
	w.markDecoded(c)
}

// markDecoded records the files decoder c writes: running one later is
// running encoded code (Cmd.Decoded), at least a question however
// harmless the decoded text reads.
func (w *walker) markDecoded(c *Cmd) {
	for _, r := range c.Redirs {
		if (r.Op == ">" || r.Op == ">|" || r.Op == ">>") && !strings.Contains(r.Target, Dyn) {
			if w.st.decoded == nil {
				w.st.decoded = map[string]bool{}
			}
			w.st.decoded[cleanRel(r.Target)] = true
		}
	}
}
