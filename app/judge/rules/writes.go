package rules

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Which arguments of a program it writes, as data (writeSpecs), and the
// paths a command writes by it: the self-protection rules of the core and
// of packs/self both read it.

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
