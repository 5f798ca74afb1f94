package rules

import (
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

func init() { onAny(ruleSelfWrites) }

// writeSpec says which arguments of a program are written.
type writeSpec struct {
	// all: every operand (after the flags) may be written.
	all bool
	// when: the operands are written only with one of these flags (a
	// short letter inside a cluster counts: -pi, -i.bak, -ni); nil means
	// always.
	when []string
	// values: flags whose value is a written path (-o FILE, of=FILE,
	// --output=FILE, UNIX-LISTEN:PATH).
	values []string
	// skipFirst: the first operand is a script or pattern, not a file
	// (sed 's/a/b/' FILE, sd FROM TO FILE skips two).
	skipFirst int
	// unless: flags that make the operands read-only (gzip -c, strip -o).
	unless []string
}

var writeSpecs = map[string]writeSpec{
	// in-place text editors
	"sed":  {all: true, when: []string{"-i", "--in-place", "-I"}, skipFirst: 1},
	"gsed": {all: true, when: []string{"-i", "--in-place", "-I"}, skipFirst: 1},
	"perl": {all: true, when: []string{"-i"}},
	"ruby": {all: true, when: []string{"-i"}},
	"awk":  {all: true, when: []string{"inplace"}}, "gawk": {all: true, when: []string{"inplace"}},
	"yq": {all: true, when: []string{"-i", "--inplace"}},
	"sd": {all: true, skipFirst: 2}, "rpl": {all: true, skipFirst: 2}, "ruplacer": {all: true, skipFirst: 2},
	"dasel": {values: []string{"-f", "--file"}}, "crudini": {all: true},
	"sponge": {all: true},
	// editors: scripted (-c, -s, -e, --batch) or not, they write what they open
	"vi": {all: true}, "vim": {all: true}, "nvim": {all: true}, "view": {all: true}, "ex": {all: true},
	"ed": {all: true}, "red": {all: true}, "emacs": {all: true}, "nano": {all: true}, "micro": {all: true},
	"kak": {all: true}, "hx": {all: true}, "helix": {all: true}, "joe": {all: true}, "mcedit": {all: true},
	"vis": {all: true}, "pico": {all: true}, "jed": {all: true}, "mg": {all: true},
	// binary rewriters
	"strip": {all: true, values: []string{"-o"}, unless: []string{"-o"}}, "sstrip": {all: true},
	"objcopy": {all: true}, "patchelf": {all: true}, "install_name_tool": {all: true},
	"codesign": {all: true}, "chrpath": {all: true}, "upx": {all: true, values: []string{"-o"}, unless: []string{"-o"}},
	"xattr": {all: true}, "setfattr": {all: true},
	// writers naming their output
	"dd":      {values: []string{"of="}},
	"sort":    {values: []string{"-o", "--output"}},
	"uniq":    {skipFirst: 1, all: true},
	"xxd":     {skipFirst: 1, all: true, when: []string{"-r"}},
	"openssl": {values: []string{"-out"}},
	"gpg":     {values: []string{"-o", "--output"}},
	"base64":  {values: []string{"-o", "--output"}},
	"git":     {values: []string{"--file", "-f"}, when: []string{"config"}},
	"mkfifo":  {all: true}, "mknod": {all: true},
	"rename": {all: true, skipFirst: 1}, "prename": {all: true, skipFirst: 1}, "perl-rename": {all: true, skipFirst: 1},
	"mmv":        {all: true},
	"ssh-keygen": {values: []string{"-f"}}, "pandoc": {values: []string{"-o", "--output"}},
	"wkhtmltopdf": {all: true, skipFirst: 1}, "magick": {all: true, skipFirst: 1}, "convert": {all: true, skipFirst: 1},
	// compressors replace their input with the packed (or unpacked) file
	"gzip":     {all: true, unless: []string{"-c", "--stdout", "-k", "--keep", "-l", "--list", "-t", "--test"}},
	"gunzip":   {all: true, unless: []string{"-c", "--stdout", "-k", "--keep", "-l", "--list", "-t", "--test"}},
	"bzip2":    {all: true, unless: []string{"-c", "--stdout", "-k", "--keep", "-t", "--test"}},
	"xz":       {all: true, unless: []string{"-c", "--stdout", "-k", "--keep", "-l", "--list", "-t", "--test"}},
	"lzma":     {all: true, unless: []string{"-c", "--stdout", "-k", "--keep"}},
	"zstd":     {all: true, when: []string{"--rm"}},
	"lz4":      {all: true, when: []string{"--rm"}},
	"compress": {all: true, unless: []string{"-c"}},
	// unix-socket listeners: the bind creates the file at the path
	"nc": {all: true, when: []string{"-U"}}, "ncat": {all: true, when: []string{"-U", "--unixsock"}},
	"netcat":  {all: true, when: []string{"-U"}},
	"socat":   {values: []string{"unix-listen:", "unix-l:", "unix-recvfrom:", "unix-recv:", "unix-connect:", "unix:", "unix-client:", "create:", "open:", "gopen:"}},
	"sqlite3": {all: true}, "sqlite": {all: true},
	"systemd-socket-activate": {values: []string{"-l", "--listen"}},
}

// writtenBy lists the paths c writes according to writeSpecs.
func writtenBy(c *shell.Cmd) []string {
	spec, ok := writeSpecs[c.Name]
	if !ok {
		return nil
	}
	if spec.when != nil && !hasAnyFlag(c, spec.when) {
		return nil
	}
	var out []string
	for i, a := range c.Args {
		la := strings.ToLower(a)
		for _, v := range spec.values {
			switch {
			case strings.HasSuffix(v, "=") || strings.HasSuffix(v, ":"):
				// dd of=FILE, socat UNIX-LISTEN:PATH,fork
				if j := strings.Index(la, v); j >= 0 && (j == 0 || strings.ContainsAny(la[j-1:j], " ,!")) {
					p := a[j+len(v):]
					if k := strings.IndexByte(p, ','); k >= 0 {
						p = p[:k]
					}
					out = append(out, p)
				}
			case a == v && i+1 < len(c.Args):
				out = append(out, c.Args[i+1])
			case strings.HasPrefix(a, v+"="):
				out = append(out, a[len(v)+1:])
			case len(v) == 2 && v[0] == '-' && strings.HasPrefix(a, v) && len(a) > 2 && !strings.HasPrefix(a, "--"):
				out = append(out, a[2:]) // -oFILE
			}
		}
	}
	if !spec.all {
		return out
	}
	if spec.unless != nil && hasAnyFlag(c, spec.unless) {
		return out
	}
	ops := operandsOf(c)
	if spec.skipFirst > 0 && !hasScriptFlag(c) {
		if len(ops) <= spec.skipFirst {
			return out
		}
		ops = ops[spec.skipFirst:]
	}
	return append(out, ops...)
}

// hasAnyFlag: one of flags among c's arguments; a one-letter flag also
// inside a short cluster (-pi, -i.bak, -ni, -Ei) or with a value glued on.
func hasAnyFlag(c *shell.Cmd, flags []string) bool {
	for _, a := range c.Args {
		for _, f := range flags {
			switch {
			case a == f || strings.HasPrefix(a, f+"=") || !strings.HasPrefix(f, "-") && strings.EqualFold(a, f):
				return true
			case len(f) == 2 && f[0] == '-' && len(a) > 1 && a[0] == '-' && a[1] != '-':
				// -i inside a cluster; for perl/sed also -i.bak / -iSUFFIX
				cl := a[1:]
				if k := strings.IndexAny(cl, ".~"); k >= 0 {
					cl = cl[:k]
				}
				if c.Name == "perl" || c.Name == "ruby" {
					// -Mstrict, -Ilib, -rjson: a flag with its value glued on
					if k := strings.IndexAny(cl, "MmIrx0CdDlF"); k >= 0 {
						cl = cl[:k]
					}
				}
				if strings.IndexByte(cl, f[1]) >= 0 {
					return true
				}
			}
		}
	}
	return false
}

// hasScriptFlag: sed -e/-f, perl -e give the script by flag, so every
// operand is a file.
func hasScriptFlag(c *shell.Cmd) bool {
	for _, a := range c.Args {
		if a == "-e" || a == "-f" || a == "--expression" || a == "--file" || strings.HasPrefix(a, "--expression=") {
			return true
		}
	}
	return false
}

// operandsOf are c's non-flag words, skipping the values of the flags
// that take one for the programs in writeSpecs (-e CODE, -c CMD, -s FILE).
func operandsOf(c *shell.Cmd) []string {
	takes := map[string]bool{"-e": true, "-E": true, "-c": true, "-f": true, "-o": true,
		"--eval": true, "--expression": true, "-l": true, "-x": true, "-W": true, "--cmd": true, "-u": true,
		"-p": true, "--remove-section": true, "-R": true, "-j": true, "--set-rpath": true, "--output": true}
	switch c.Name {
	case "perl", "ruby":
		takes["-l"], takes["-x"] = false, false
	case "gzip", "gunzip", "bzip2", "xz", "lzma", "zstd", "lz4", "compress", "nc", "ncat", "netcat":
		takes = map[string]bool{"-S": true, "--suffix": true, "-o": true, "-T": true, "-w": true, "-p": true, "-s": true, "-x": true}
	case "strip", "objcopy":
		takes["-s"], takes["-p"] = false, false
	case "awk", "gawk":
		takes = map[string]bool{"-i": true, "-f": true, "-v": true, "-F": true, "-e": true, "--include": true}
	}
	var out []string
	dashdash := false
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		switch {
		case dashdash:
			out = append(out, a)
		case a == "--":
			dashdash = true
		case strings.HasPrefix(a, "+") && (c.Name == "vim" || c.Name == "vi" || c.Name == "nvim" || c.Name == "ex" || c.Name == "emacs"):
			// +cmd / +N: an editor command, not a file
		case len(a) > 1 && a[0] == '-':
			if takes[a] && i+1 < len(c.Args) {
				i++
			}
		case (c.Name == "awk" || c.Name == "gawk") && len(out) == 0 && !hasScriptFlag(c):
			out = append(out, "") // the program text
		case c.Name == "git" && a == "config":
		default:
			out = append(out, a)
		}
	}
	if (c.Name == "awk" || c.Name == "gawk") && len(out) > 0 && out[0] == "" {
		out = out[1:]
	}
	return out
}

func ruleSelfWrites(c *shell.Cmd, x *Ctx) (Finding, bool) {
	if c.DynName {
		return Finding{}, false
	}
	written := writtenBy(c)
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
	if ops := c.Operands(); len(ops) > 1 && fedByXargs(c) && strings.Contains(ops[len(ops)-1], shell.Dyn) {
		switch c.Name {
		case "cp", "mv", "install", "ln", "rsync", "tee", "dd":
			// xargs may put its input last: any named operand can be the target
			written = append(written, ops...)
		}
	}
	if editors[c.Name] {
		written = append(written, editorScriptPaths(c)...)
	}
	for _, p := range written {
		if p == "" || p == "-" {
			continue
		}
		if f, ok := Protected(p, x.Cwd, x.Home); ok {
			f.Reason = c.Name + " writes " + p + " in place: " + f.Reason
			f.Marked = c.Raw
			return f, true
		}
	}
	if f, ok := selfPatch(c, x); ok {
		return f, true
	}
	return Finding{}, false
}

// selfPatch: patch and git apply write the files their patch names.
// The patch is read from disk (-i FILE, < FILE, git apply FILE...) and
// every target is judged; a patch that cannot be read, applied into a
// folder holding the guard's files (-d ~, --directory=~), confirms.
func selfPatch(c *shell.Cmd, x *Ctx) (Finding, bool) {
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
					if f, ok := Protected(val(), x.Cwd, x.Home); ok {
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
			if f, ok := Protected(joinDir(dir, ops[0]), x.Cwd, x.Home); ok {
				f.Reason = "patch rewrites " + ops[0] + ": " + f.Reason
				f.Marked = c.Raw
				return f, true
			}
			if len(ops) > 1 {
				patches = append(patches, ops[1])
			}
			return Finding{}, false
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
				return Finding{}, false // only reads
			case strings.HasPrefix(a, "-"):
			default:
				patches = append(patches, a)
			}
		}
	default:
		return Finding{}, false
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
			if f, ok := Protected(joinDir(dir, t), x.Cwd, x.Home); ok {
				f.Reason = c.Raw[:min(len(c.Raw), 40)] + " patches " + t + ": " + f.Reason
				f.Marked = c.Raw
				return f, true
			}
		}
	}
	if unknown && dir != "" && (git && dir != x.Cwd || !git) {
		return unknownInto(c, dir, c.Name+" applies a patch that cannot be read", x)
	}
	return Finding{}, false
}

// patchTargets reads a unified or git patch file and returns the paths
// it writes (the +++ and rename/copy-to names, /dev/null skipped).
func patchTargets(pf string, x *Ctx) ([]string, bool) {
	if x.All != nil && x.All.Written != nil {
		if body, ok := x.All.Written[pf]; ok && body != shell.Hidden {
			return patchNames(body), true
		}
	}
	n := normalize(pf, x.Cwd, x.Home)
	if n.dynamic || !isAbs(n.abs) || strings.HasPrefix(n.abs, "~") {
		return nil, false
	}
	body, err := readSmall(n.abs, 1<<20)
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
	p = slashify(p)
	if isAbs(p) || strings.HasPrefix(p, "$") || strings.HasPrefix(p, "%") || dir == "" {
		return p
	}
	return strings.TrimRight(slashify(dir), "/") + "/" + p
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
