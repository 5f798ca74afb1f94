package self

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// One write-path classifier for every program that writes a file named
// in its arguments: in-place editors (sed -i, perl -i, vim -c, ed, ex,
// yq -i, sd), binary rewriters (strip, objcopy, patchelf), sponge, dd
// of=, patch, compressors that replace their input, unix-socket
// listeners (a bind creates the file). Which argument is written is
// data (writeSpecs); judging it is Protected, the same check as for a
// redirection or the Write tool. A program not in the table is judged
// by its own pack; this rule only adds the self-protection view.

func init() { pack.OnAny(ruleSelfWrites) }

func ruleSelfWrites(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if c.DynName {
		return rules.Finding{}, false
	}
	written := rules.WrittenBy(c)
	for i, a := range c.Args {
		// a redirection the parser left as words (cmd /c "type nul > FILE")
		if (a == ">" || a == ">>" || a == "1>" || a == ">|") && i+1 < len(c.Args) {
			written = append(written, c.Args[i+1])
		}
		// Any program's long output flag names the file it writes.
		if k, v, ok := strings.Cut(a, "="); strings.HasPrefix(a, "--") && outputFlags[strings.ToLower(k)] {
			if ok {
				written = append(written, v)
			} else if i+1 < len(c.Args) {
				written = append(written, c.Args[i+1])
			}
		}
	}
	written = append(written, archiveOutputs(c)...)
	if fedByXargs(c) { // the wrapper first: Operands copies, and few lines come from xargs
		if ops := c.Operands(); len(ops) > 1 && strings.Contains(ops[len(ops)-1], shell.Dyn) {
			switch c.Name {
			case "cp", "mv", "install", "ln", "rsync", "tee", "dd":
				// xargs may put its input last: any named operand can be the target
				written = append(written, ops...)
			}
		}
	}
	if editors[c.Name] {
		written = append(written, editorScriptPaths(c)...)
	}
	for _, p := range written {
		if p == "" || p == "-" {
			continue
		}
		if f, ok := rules.Protected(p, x.Cwd, x.Home); ok {
			f.Reason = c.Name + " writes " + p + " in place: " + f.Reason
			f.Marked = c.Raw
			return f, true
		}
	}
	if f, ok := selfPatch(c, x); ok {
		return f, true
	}
	return rules.Finding{}, false
}

// selfPatch: patch and git apply write the files their patch names.
// The patch is read from disk (-i FILE, < FILE, git apply FILE...) and
// every target is judged; a patch that cannot be read, applied into a
// folder holding the guard's files (-d ~, --directory=~), confirms.
func selfPatch(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	var patches []string
	dir, strip, git := x.Cwd, -1, false
	switch {
	case c.Name == "patch":
		ops := []string{}
		for i := 0; i < len(c.Args); i++ {
			a := c.Args[i]
			val := func() string {
				if i+1 < len(c.Args) {
					i++
					return c.Args[i]
				}
				return ""
			}
			switch {
			case a == "-i" || a == "--input":
				patches = append(patches, val())
			case strings.HasPrefix(a, "--input="):
				patches = append(patches, a[8:])
			case a == "-d" || a == "--directory":
				dir = joinDir(x.Cwd, val())
			case strings.HasPrefix(a, "--directory="):
				dir = joinDir(x.Cwd, a[12:])
			case a == "-p":
				strip = atoiOr(val(), -1)
			case strings.HasPrefix(a, "-p") && len(a) > 2:
				strip = atoiOr(a[2:], -1)
			case a == "-o" || a == "--output" || a == "-r" || a == "-B" || a == "-z" || a == "-D" || a == "-F" || a == "-V" || a == "-Y":
				if a == "-o" || a == "--output" {
					if f, ok := rules.Protected(val(), x.Cwd, x.Home); ok {
						f.Marked = c.Raw
						return f, true
					}
				} else {
					val()
				}
			case strings.HasPrefix(a, "-"):
			default:
				ops = append(ops, a)
			}
		}
		if len(ops) > 0 {
			// patch FILE [PATCH]: FILE is the one written
			if f, ok := rules.Protected(joinDir(dir, ops[0]), x.Cwd, x.Home); ok {
				f.Reason = "patch rewrites " + ops[0] + ": " + f.Reason
				f.Marked = c.Raw
				return f, true
			}
			if len(ops) > 1 {
				patches = append(patches, ops[1])
			}
			return rules.Finding{}, false
		}
	case (c.Name == "git" && len(c.Args) > 0 && (c.Args[0] == "apply" || c.Args[0] == "am")):
		git = true
		strip = 1
		for _, a := range c.Args[1:] {
			switch {
			case strings.HasPrefix(a, "--directory="):
				dir = joinDir(x.Cwd, a[12:])
			case strings.HasPrefix(a, "-p") && len(a) > 2:
				strip = atoiOr(a[2:], 1)
			case a == "--check" || a == "--stat" || a == "--numstat" || a == "--summary":
				return rules.Finding{}, false // only reads
			case strings.HasPrefix(a, "-"):
			default:
				patches = append(patches, a)
			}
		}
	default:
		return rules.Finding{}, false
	}
	for _, r := range c.Redirs {
		if r.Op == "<" {
			patches = append(patches, r.Target)
		}
	}
	unknown := len(patches) == 0 // from a pipe
	for _, pf := range patches {
		names, ok := patchTargets(pf, x)
		if !ok {
			unknown = true
			continue
		}
		for _, n := range names {
			t := n
			if strip >= 0 {
				t = stripComponents(n, strip)
			} else {
				t = path.Base(n) // patch without -p keeps the base name
			}
			if t == "" {
				continue
			}
			if f, ok := rules.Protected(joinDir(dir, t), x.Cwd, x.Home); ok {
				f.Reason = c.Raw[:min(len(c.Raw), 40)] + " patches " + t + ": " + f.Reason
				f.Marked = c.Raw
				return f, true
			}
		}
	}
	if unknown && dir != "" && (git && dir != x.Cwd || !git) {
		return unknownInto(c, dir, c.Name+" applies a patch that cannot be read", x)
	}
	return rules.Finding{}, false
}

// patchTargets reads a unified or git patch file and returns the paths
// it writes (the +++ and rename/copy-to names, /dev/null skipped).
func patchTargets(pf string, x *rules.Ctx) ([]string, bool) {
	if x.All != nil && x.All.Written != nil {
		if body, ok := x.All.Written[pf]; ok && body != shell.Hidden {
			return patchNames(body), true
		}
	}
	n := rules.Normalize(pf, x.Cwd, x.Home)
	if n.Dynamic() || !rules.IsAbs(n.Abs()) || strings.HasPrefix(n.Abs(), "~") {
		return nil, false
	}
	body, err := readSmall(n.Abs(), 1<<20)
	if err != nil {
		return nil, false
	}
	return patchNames(body), true
}

func patchNames(body string) []string {
	var out []string
	for _, l := range strings.Split(body, "\n") {
		l = strings.TrimRight(l, "\r")
		var name string
		switch {
		case strings.HasPrefix(l, "+++ "), strings.HasPrefix(l, "--- "):
			name = strings.TrimSpace(l[4:])
			if i := strings.IndexByte(name, '\t'); i >= 0 {
				name = name[:i]
			}
		case strings.HasPrefix(l, "rename to "), strings.HasPrefix(l, "copy to "):
			_, name, _ = strings.Cut(l, " to ")
		case strings.HasPrefix(l, "diff --git "):
			f := strings.Fields(l)
			name = f[len(f)-1]
		default:
			continue
		}
		name = strings.Trim(name, "\"")
		if name != "" && name != "/dev/null" {
			out = append(out, name)
		}
	}
	return out
}

func joinDir(dir, p string) string {
	p = rules.Slashify(p)
	if rules.IsAbs(p) || strings.HasPrefix(p, "$") || strings.HasPrefix(p, "%") || dir == "" {
		return p
	}
	return strings.TrimRight(rules.Slashify(dir), "/") + "/" + p
}

func atoiOr(s string, def int) int {
	n := 0
	if s == "" {
		return def
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return def
		}
		n = n*10 + int(r-'0')
	}
	return n
}

// readSmall reads at most limit bytes of the file at p (slash form); a
// larger file is an error, never silently cut.
func readSmall(p string, limit int64) (string, error) {
	f, err := os.Open(filepath.FromSlash(p))
	if err != nil {
		return "", err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return "", err
	}
	if int64(len(b)) > limit {
		return "", fmt.Errorf("%s is over %d bytes", p, limit)
	}
	return string(b), nil
}

// outputFlags are long flags that, for any program, name a file it writes.
var outputFlags = map[string]bool{"--output": true, "--output-file": true, "--outfile": true, "--out": true,
	"--out-file": true, "--output-document": true, "--log-file": true, "--logfile": true, "--target-file": true}

// editors run scripts (-c, +cmd, -s FILE, a here-doc) that can open and
// write any file they name.
var editors = map[string]bool{"vi": true, "vim": true, "nvim": true, "ex": true, "ed": true, "red": true, "emacs": true, "view": true}

// editorScriptPaths are the path-like words of an editor's command
// arguments and here-docs (vim -c 'e ~/.claude/settings.json', ed <<< 'w FILE').
func editorScriptPaths(c *shell.Cmd) []string {
	var text []string
	for i, a := range c.Args {
		if strings.HasPrefix(a, "+") || i > 0 && (c.Args[i-1] == "-c" || c.Args[i-1] == "--cmd" || c.Args[i-1] == "--eval") {
			text = append(text, a)
		}
	}
	for _, r := range c.Redirs {
		if r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<" {
			text = append(text, r.Target)
		}
	}
	var out []string
	for _, t := range text {
		for _, w := range strings.FieldsFunc(t, func(r rune) bool {
			return r == ' ' || r == '\n' || r == '\t' || r == '"' || r == '\'' || r == '(' || r == ')' || r == '|'
		}) {
			if strings.ContainsAny(w, "/\\") {
				out = append(out, w)
			}
		}
	}
	return out
}

// archiveOutputs: tar -c/-r/-u -f ARCHIVE, zip ARCHIVE ..., 7z a ARCHIVE:
// the archive is written (over whatever was there).
func archiveOutputs(c *shell.Cmd) []string {
	switch c.Name {
	case "tar", "bsdtar", "gtar":
		create := false
		file := ""
		for i, a := range c.Args {
			switch {
			case a == "--create" || a == "--append" || a == "--update":
				create = true
			case strings.HasPrefix(a, "--file="):
				file = a[7:]
			case a == "--file" && i+1 < len(c.Args):
				file = c.Args[i+1]
			case len(a) > 1 && !strings.HasPrefix(a, "--") && (a[0] == '-' || i == 0):
				cl := strings.TrimPrefix(a, "-")
				if strings.ContainsAny(cl, "cru") {
					create = true
				}
				if k := strings.IndexByte(cl, 'f'); k >= 0 {
					if k+1 < len(cl) {
						file = cl[k+1:]
					} else if i+1 < len(c.Args) {
						file = c.Args[i+1]
					}
				}
			}
		}
		if create && file != "" {
			return []string{file}
		}
	case "zip":
		if ops := c.Operands(); len(ops) > 0 {
			return ops[:1]
		}
	case "7z", "7za", "7zz":
		if ops := c.Operands(); len(ops) > 1 && (ops[0] == "a" || ops[0] == "u") {
			return ops[1:2]
		}
	}
	return nil
}

func fedByXargs(c *shell.Cmd) bool {
	for _, w := range c.Wrappers {
		if w == "xargs" || w == "parallel" {
			return true
		}
	}
	return false
}
