package rules

import (
	"bytes"
	"crypto/sha256"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/disk"
	"github.com/agent-guard/agent-guard/app/judge/facts"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Scripts about to run (issue 11, item 3): bash x.sh, sh x, ./x, source x,
// . x, python x.py, node x.js, pwsh -File x.ps1, & .\x.ps1, cmd /c x.bat
// read the file (up to 1 MiB, wherever its payload sits) and judge its
// content with the shell analysis or the interpreter rules. A file that
// cannot be read is judged as before, never better.

// scriptOf names the file c runs and the program that reads it
// ("sh", "python3", "node", "pwsh", "cmd", or "" for the file's own
// shebang); ok=false when c runs no file.
func scriptOf(c *shell.Cmd) (file, reader string, ok bool) {
	if c.FedCode || c.DynName {
		return "", "", false
	}
	switch {
	case facts.IsPOSIXShell(c.Name):
		for i := 0; i < len(c.Args); i++ {
			a := c.Args[i]
			if a == "-o" || a == "+o" || a == "--rcfile" || a == "--init-file" {
				i++
				continue
			}
			if strings.HasPrefix(a, "-") {
				if strings.ContainsAny(a[1:], "cs") && !strings.HasPrefix(a, "--") {
					return "", "", false
				}
				continue
			}
			return a, "sh", true
		}
		return "", "", false
	case c.Name == "source" || c.Name == ".":
		if ops := c.Operands(); len(ops) > 0 {
			return ops[0], "sh", true
		}
		return "", "", false
	case facts.Lang(c.Name) != "": // the language its rules speak, the program its content is judged under
		args := c.Args
		if (c.Name == "deno" || c.Name == "bun") && len(args) > 0 && args[0] == "run" {
			args = args[1:]
		}
		for i := 0; i < len(args); i++ {
			a := args[i]
			switch a {
			case "-c", "-e", "-E", "-m", "--eval", "-p", "--print", "-r", "-":
				return "", "", false
			case "-W", "-X", "--require", "-I", "--import", "--loader":
				i++
				continue
			}
			if strings.HasPrefix(a, "-") {
				continue
			}
			return a, facts.Lang(c.Name), true
		}
		return "", "", false
	case c.Name == "pwsh" || c.Name == "powershell":
		for i, a := range c.Args {
			if la := strings.ToLower(a); (la == "-file" || la == "-f") && i+1 < len(c.Args) {
				return c.Args[i+1], "pwsh", true
			}
		}
		return "", "", false
	}
	if c.Path != "" {
		return c.Path, "", true
	}
	return "", "", false
}

// absPath resolves p against the command's folder.
func absPath(p string, x *Ctx) string {
	p = winPath(expandHome(p, x.Home))
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(expandHome(x.Cwd, x.Home), p)
}

// fileScriptFinding reads and judges the file c runs.
func fileScriptFinding(c *shell.Cmd, x *Ctx) (Finding, bool) {
	file, reader, ok := scriptOf(c)
	if !ok || strings.Contains(file, shell.Dyn) || strings.Contains(x.Cwd, shell.Dyn) {
		return Finding{}, false
	}
	if x.All != nil {
		if _, inLine := x.All.Written[file]; inLine {
			return Finding{}, false // the shell analysis judged the content the line wrote
		}
	}
	abs := absPath(file, x)
	b, err := disk.ReadFile(abs)
	if err != nil {
		return Finding{}, false
	}
	if reader == "" {
		if prog := sameBinary(abs, b); prog != "" {
			f := judgeAs(c, prog, x)
			f.Reason = file + " is a copy of " + prog + ": " + f.Reason
			return f, true
		}
		reader = shebangReader(b, file)
	}
	f, ok := judgeContent(c, x, string(b), reader)
	if ok {
		f.Reason = "runs " + file + ", which " + lowerFirst(f.Reason)
		f.Marked = c.Raw
	}
	return f, ok
}

// judgeContent judges code as the given reader would run it.
func judgeContent(c *shell.Cmd, x *Ctx, code, reader string) (Finding, bool) {
	sub := x.M.deeper()
	if sub == nil {
		return Finding{}, false
	}
	switch reader {
	case "python3", "node", "perl", "ruby", "php":
		y := *x
		y.M = sub
		s := &shell.Cmd{Name: reader, Raw: c.Raw, Depth: c.Depth + 1, FedCode: true,
			Redirs: []shell.Redir{{Op: "<<<", Target: code}}}
		return judgeCmd(s, &y), true
	case "binary":
		return Finding{}, false
	case "cmd":
		code = batchLines(code)
	}
	return BashOn(code, x.Cwd, x.Home, sub), true
}

// shebangReader picks the reader from #! or the file's extension.
func shebangReader(b []byte, name string) string {
	if bytes.HasPrefix(b, []byte("\x7fELF")) || bytes.HasPrefix(b, []byte("MZ")) || bytes.HasPrefix(b, []byte("\xcf\xfa\xed\xfe")) {
		return "binary"
	}
	if bytes.HasPrefix(b, []byte("#!")) {
		line, _, _ := bytes.Cut(b, []byte("\n"))
		fs := strings.Fields(string(line[2:]))
		if len(fs) > 0 {
			prog := shell.NormName(fs[0])
			if prog == "env" && len(fs) > 1 {
				prog = shell.NormName(fs[len(fs)-1])
				if strings.HasPrefix(prog, "-") && len(fs) > 2 {
					prog = shell.NormName(fs[2])
				}
			}
			if r := facts.Lang(prog); r != "" {
				return r
			}
			if prog == "pwsh" || prog == "powershell" {
				return "pwsh"
			}
		}
		return "sh"
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case ".py":
		return "python3"
	case ".js", ".mjs", ".cjs", ".ts":
		return "node"
	case ".pl":
		return "perl"
	case ".rb":
		return "ruby"
	case ".bat", ".cmd":
		return "cmd"
	case ".ps1":
		return "pwsh"
	}
	return "sh"
}

// batchLines drops a batch file's echo-off, comments and labels.
func batchLines(code string) string {
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(code, "\r", ""), "\n") {
		t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "@"))
		lt := strings.ToLower(t)
		if t == "" || lt == "echo off" || strings.HasPrefix(lt, "rem ") || strings.HasPrefix(t, "::") || strings.HasPrefix(t, ":") {
			continue
		}
		out = append(out, t)
	}
	return strings.Join(out, "\n")
}

// dangerBins are system programs whose renamed copies are judged as
// themselves (cp /bin/rm ./tidy; ./tidy -rf ~): tools that destroy or
// send, and every shell of the facts table (cp /bin/zsh ./x; ./x -c ...).
var dangerBins = append([]string{"rm", "dd", "shred", "mkfs", "wipefs", "chmod", "chown", "kill", "pkill", "killall", "mv", "truncate", "find", "curl", "wget", "nc"}, facts.Shells()...)

var binDirs = []string{"/bin", "/usr/bin", "/sbin", "/usr/sbin", "/usr/local/bin"}

// sameBinary: is the executable b a byte-for-byte copy of a system
// program of dangerBins? Sizes are compared first; only an equal size
// is hashed.
func sameBinary(abs string, b []byte) string {
	if !bytes.HasPrefix(b, []byte("\x7fELF")) && !bytes.HasPrefix(b, []byte("\xcf\xfa\xed\xfe")) {
		return ""
	}
	var sum []byte
	for _, name := range dangerBins {
		for _, d := range binDirs {
			p := filepath.Join(d, name)
			st, err := os.Stat(p)
			if err != nil || st.Size() != int64(len(b)) || p == abs {
				continue
			}
			if sum == nil {
				h := sha256.Sum256(b)
				sum = h[:]
			}
			f, err := os.Open(p)
			if err != nil {
				continue
			}
			h := sha256.New()
			io.Copy(h, io.LimitReader(f, disk.MaxScript))
			f.Close()
			if bytes.Equal(h.Sum(nil), sum) {
				return name
			}
			break
		}
	}
	return ""
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}
