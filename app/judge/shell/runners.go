package shell

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/opts"
)

// Runners run another command with arguments they collect (xargs from
// stdin or -a FILE, parallel from ::: lists, :::: files or stdin) or run
// a command line over and over (watch). Their options are read with the
// programs' own grammar (opts table: xargs, parallel, watch), so the
// command they run starts where the program thinks it does.

// runnerSpec is the data for one runner.
type runnerSpec struct {
	replace    []string // options naming a replacement string (xargs -I R)
	replaceOpt []string // options with an optional replacement string, default "{}" (xargs -i, --replace)
	argFile    []string // options naming a file of arguments (-a, --arg-file)
	null       []string // arguments separated by NUL
	delim      []string // options naming the separator
	sources    bool     // ::: / :::: / :::+ / ::::+ argument sources (parallel)
	placeholds []string // replacement strings the runner always knows ({} {.} ...)
}

var runners = map[string]runnerSpec{
	"xargs": {replace: []string{"I", "J"}, replaceOpt: []string{"replace"}, argFile: []string{"arg-file"},
		null: []string{"null"}, delim: []string{"delimiter"}},
	"parallel": {replace: []string{"I"}, replaceOpt: []string{"replace"}, argFile: []string{"arg-file"},
		null: []string{"null"}, delim: []string{"delimiter"}, sources: true,
		placeholds: []string{"{}", "{.}", "{/}", "{//}", "{/.}", "{#}", "{%}", "{1}", "{2}", "{3}", "{4}", "{5}", "{6}", "{7}", "{8}", "{9}"}},
}

// Budget for argument files read from disk (xargs -a, parallel ::::).
const (
	maxArgFile  = 64 << 10
	maxArgWords = 512
)

// runner unwraps xargs or parallel. known: the arguments the command gets
// are all in rest (from ::: lists or an argument file); otherwise they
// come from stdin and the caller appends Dyn.
func (w *walker) runner(n string, args []string) (rest []string, code string, hasCode, known bool) {
	spec := runners[n]
	a := opts.ParseFor(n, args)
	if a.ReadOnly {
		// --help, --version, parallel --dry-run: prints, runs nothing.
		return []string{"echo"}, "", false, true
	}
	cmd := a.Operands
	var values []string // literal arguments, when known
	known = false
	if spec.sources {
		var groups [][]string
		for j, o := range cmd {
			if isSource(o) {
				groups = sourceGroups(cmd[j:], w)
				cmd = cmd[:j]
				break
			}
		}
		if groups != nil {
			known = true
			for _, g := range groups {
				values = append(values, g...)
			}
		}
	}
	for _, f := range a.Values(spec.argFile...) {
		body, ok := w.readArgFile(f)
		if !ok {
			values, known = []string{Dyn}, true
			break
		}
		sep := ""
		if a.Has(spec.null...) {
			sep = "\x00"
		}
		if d, ok := a.Value(spec.delim...); ok && d != "" {
			sep = DecodeANSI(d)[:1]
		}
		values, known = append(values, splitArgs(body, sep)...), true
	}
	if len(values) > maxArgWords {
		values = []string{Dyn}
	}
	repl := spec.placeholds
	if v, ok := a.Value(spec.replace...); ok && v != "" {
		repl = append([]string{v}, repl...)
	}
	if a.Has(spec.replaceOpt...) {
		r := "{}"
		if v, ok := a.Value(spec.replaceOpt...); ok && v != "" {
			r = v
		}
		repl = append([]string{r}, repl...)
	}
	if len(cmd) == 0 {
		if n == "xargs" {
			return []string{"echo"}, "", false, known
		}
		// parallel without a command: every argument is a command line.
		if !known {
			return nil, "${__dyn}", true, false
		}
		return nil, strings.ReplaceAll(strings.Join(values, "\n"), Dyn, "${__dyn}"), true, true
	}
	if known && len(values) > 1 && !strings.Contains(strings.Join(values, ""), Dyn) && hasPlaceholder(cmd, repl) {
		// parallel rm -rf {} ::: a b: one command line per argument.
		var lines []string
		for _, v := range values {
			line := make([]string, len(cmd))
			for i, word := range cmd {
				for _, r := range repl {
					word = strings.ReplaceAll(word, r, v)
				}
				line[i] = word
				if len(cmd) > 1 {
					line[i] = shQuote(word)
				}
			}
			lines = append(lines, strings.Join(line, " "))
		}
		return nil, strings.Join(lines, "\n"), true, true
	}
	with := Dyn // what a placeholder stands for
	if known && len(values) == 1 {
		with = values[0]
	}
	placed := false
	out := make([]string, len(cmd))
	for i, word := range cmd {
		for _, r := range repl {
			if strings.Contains(word, r) {
				word = strings.ReplaceAll(word, r, with)
				placed = true
			}
		}
		out[i] = word
	}
	if n == "parallel" && len(out) == 1 && strings.ContainsAny(out[0], " ;|&") {
		// parallel 'rm -rf {}' ::: a b: the command is a shell line.
		c := out[0]
		if !placed && known {
			c += " " + strings.Join(values, " ")
		}
		return nil, strings.ReplaceAll(c, Dyn, "${__dyn}"), true, true
	}
	if known && !placed {
		out = append(out, values...)
	}
	return out, "", false, known
}

func isSource(o string) bool { return o == ":::" || o == "::::" || o == ":::+" || o == "::::+" }

// sourceGroups reads parallel's argument sources: words after ::: or
// :::+, and the lines of the files after :::: or ::::+.
func sourceGroups(words []string, w *walker) [][]string {
	var groups [][]string
	file := false
	for _, o := range words {
		if isSource(o) {
			file = strings.HasPrefix(o, "::::")
			groups = append(groups, nil)
			continue
		}
		g := &groups[len(groups)-1]
		if !file {
			*g = append(*g, o)
			continue
		}
		body, ok := w.readArgFile(o)
		if !ok {
			*g = append(*g, Dyn)
			continue
		}
		for _, l := range strings.Split(body, "\n") {
			if l != "" {
				*g = append(*g, l)
			}
		}
	}
	return groups
}

// readArgFile returns the content of an argument file: one written
// earlier in the line, or a regular file on disk of at most maxArgFile
// bytes (relative paths only when the analysis knows its folder).
func (w *walker) readArgFile(p string) (string, bool) {
	if p == "" || strings.Contains(p, Dyn) || isStdin(p) {
		return "", false
	}
	if body, ok := w.st.files[cleanRel(p)]; ok {
		return body, body != hiddenBody
	}
	if !filepath.IsAbs(p) {
		if w.st.dir == "" || strings.Contains(w.st.dir, Dyn) {
			return "", false
		}
		p = filepath.Join(w.st.dir, p)
	}
	f, err := os.Open(p)
	if err != nil {
		return "", false
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() || st.Size() > maxArgFile {
		return "", false
	}
	b, err := io.ReadAll(io.LimitReader(f, maxArgFile+1))
	if err != nil || len(b) > maxArgFile {
		return "", false
	}
	return string(b), true
}

// splitArgs splits xargs input: on sep when given, else on blanks and
// newlines with quotes and backslashes honoured.
func splitArgs(s, sep string) []string {
	if sep != "" {
		var out []string
		for _, f := range strings.Split(s, sep) {
			if f != "" {
				out = append(out, f)
			}
		}
		return out
	}
	var out []string
	var b strings.Builder
	var q byte
	in := false
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case q != 0:
			if ch == q {
				q = 0
			} else {
				b.WriteByte(ch)
			}
		case ch == '"' || ch == '\'':
			q, in = ch, true
		case ch == '\\' && i+1 < len(s):
			i++
			b.WriteByte(s[i])
			in = true
		case ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r':
			if in {
				out = append(out, b.String())
				b.Reset()
				in = false
			}
		default:
			b.WriteByte(ch)
			in = true
		}
	}
	if in {
		out = append(out, b.String())
	}
	return out
}

// watchCommand: watch runs its words joined as `sh -c` code; with
// -x/--exec (or a multi-word argument after a program, the way
// `watch sh -c 'git reset --hard'` is meant) they are the command itself.
func watchCommand(args []string) (rest []string, code string, hasCode bool) {
	a := opts.ParseFor("watch", args)
	cmd := a.Operands
	if len(cmd) == 0 {
		return nil, "", false
	}
	exec := a.Has("exec")
	if !exec && len(cmd) > 1 {
		for _, w := range cmd[1:] {
			if strings.ContainsAny(w, " \t\n") {
				exec = true
			}
		}
	}
	if exec {
		return cmd, "", false
	}
	return nil, strings.Join(cmd, " "), true
}

// AnalyzeDir is Analyze for a command line run in folder dir: argument
// files named relative to it (xargs -a list.txt) can be read.
func AnalyzeDir(src, dir string) (a Analysis) {
	return analyze(src, dir)
}

// AnalyzeDirPtr is AnalyzeDir returning the analysis in place rather than
// a copy of it (one allocation and copy less per call).
func AnalyzeDirPtr(src, dir string) *Analysis { return analyzePtr(src, dir) }

func hasPlaceholder(cmd, repl []string) bool {
	for _, w := range cmd {
		for _, r := range repl {
			if strings.Contains(w, r) {
				return true
			}
		}
	}
	return false
}

// shQuote quotes a word for sh.
func shQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
