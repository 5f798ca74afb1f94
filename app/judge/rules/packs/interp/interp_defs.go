package interp

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"path/filepath"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Names and files a line defines (issue 11, item 4): aliases, functions,
// copies or links of system binaries, files written. The session memory
// keeps them so a later call running such a name or file is judged by
// what it is; within one line a copied binary is judged as itself.

func init() { pack.OnAny(ruleCopiedBinary) }

// Defs is what one command line defines.
type Defs struct {
	// Files are absolute paths the line writes (redirections, tee, cp/mv
	// destinations, touch).
	Files []string
	// Code maps alias and function names to their code; Programs maps a
	// copied binary (absolute path and base name) to the program it is.
	Code, Programs map[string]string
}

// Definitions extracts Defs from an analysis of a line run in cwd.
func Definitions(a *shell.Analysis, script, cwd, home string) Defs {
	d := Defs{Code: map[string]string{}, Programs: map[string]string{}}
	x := &rules.Ctx{Cwd: cwd, Home: home}
	for _, n := range a.FuncDefs {
		d.Code[n] = script
	}
	for i := range a.Cmds {
		c := &a.Cmds[i]
		if c.DynName {
			continue
		}
		for _, r := range c.Redirs {
			if (r.Op == ">" || r.Op == ">>" || r.Op == ">|" || r.Op == "&>") && !strings.Contains(r.Target, shell.Dyn) && !strings.HasPrefix(r.Target, "/dev/") {
				d.Files = append(d.Files, rules.AbsPath(r.Target, x))
			}
		}
		switch c.Name {
		case "alias":
			for _, arg := range c.Args {
				if k, v, ok := strings.Cut(arg, "="); ok && k != "" && !strings.HasPrefix(k, "-") {
					d.Code[k] = v
				}
			}
		case "tee", "touch":
			for _, t := range c.Operands() {
				if !strings.Contains(t, shell.Dyn) {
					d.Files = append(d.Files, rules.AbsPath(t, x))
				}
			}
		case "cp", "ln", "install", "mv", "copy-item", "cpi", "copy", "new-item":
			src, dst, ok := copyEnds(c)
			if !ok {
				continue
			}
			abs := rules.AbsPath(dst, x)
			d.Files = append(d.Files, abs)
			if prog := binaryName(src, c.Raw); prog != "" {
				d.Programs[abs] = prog
				d.Programs[shell.NormName(dst)] = prog
			}
		}
	}
	return d
}

// copyEnds: the source and destination of cp/ln/install/mv (two operands).
func copyEnds(c *shell.Cmd) (src, dst string, ok bool) {
	var ops []string
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		la := strings.ToLower(a)
		if la == "-t" || la == "--target-directory" || la == "-m" || la == "--mode" || la == "-o" || la == "-g" || la == "-s" && c.Name == "install" {
			i++
			continue
		}
		if la == "-destination" || la == "-path" || la == "-value" || la == "-target" {
			if i+1 < len(c.Args) {
				ops = append(ops, c.Args[i+1])
				i++
			}
			continue
		}
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			continue
		}
		ops = append(ops, a)
	}
	if len(ops) != 2 || strings.Contains(ops[1], shell.Dyn) {
		return "", "", false
	}
	return ops[0], ops[1], true
}

// binaryName: the program a copy source is (/bin/rm, /usr/bin/rm,
// $(which rm), $(command -v rm)), "" when not a system binary.
func binaryName(src, raw string) string {
	if strings.Contains(src, shell.Dyn) || !strings.ContainsAny(src, "/\\") {
		for _, pre := range []string{"$(which ", "$(command -v ", "`which ", "$(type -p "} {
			if i := strings.Index(raw, pre); i >= 0 {
				rest := raw[i+len(pre):]
				if j := strings.IndexAny(rest, ")` "); j > 0 && (strings.Contains(src, shell.Dyn) || shell.NormName(rest[:j]) == shell.NormName(src)) {
					return shell.NormName(rest[:j])
				}
			}
		}
		return ""
	}
	s := filepath.ToSlash(src)
	for _, d := range rules.BinDirs {
		if strings.HasPrefix(s, d+"/") && !strings.Contains(s[len(d)+1:], "/") {
			return shell.NormName(s)
		}
	}
	if l := strings.ToLower(s); strings.Contains(l, "windows/system32/") {
		return shell.NormName(s)
	}
	return ""
}

// ruleCopiedBinary: a program the same line copied from a system binary
// (cp /bin/rm /tmp/tidy && /tmp/tidy -rf ~) is judged as that binary.
func ruleCopiedBinary(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if x.All == nil || c.DynName || c.Name == "" {
		return rules.Finding{}, false
	}
	for i := range x.All.Cmds {
		p := &x.All.Cmds[i]
		if p == c {
			break
		}
		switch p.Name {
		case "cp", "ln", "install", "mv", "copy-item", "cpi", "copy":
		default:
			continue
		}
		src, dst, ok := copyEnds(p)
		if !ok {
			continue
		}
		prog := binaryName(src, p.Raw)
		if prog == "" || prog == c.Name {
			continue
		}
		if shell.NormName(dst) == c.Name || c.Path != "" && filepath.Clean(c.Path) == filepath.Clean(dst) {
			f := rules.JudgeAs(c, prog, x)
			f.Reason = c.Name + " is a copy of " + prog + " made in the same line: " + f.Reason
			f.Marked = c.Raw
			return f, true
		}
	}
	return rules.Finding{}, false
}
