package shell

// Hazard detectors of the walk: word shapes that hide what runs (bare
// $VAR, mktemp, obfuscated names, which-substitutions) and loops big
// enough to exhaust the machine. They report facts on Cmd; the rules
// decide.

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// unquotedParam: the word holds a bare $VAR (split on spaces by bash).
func unquotedParam(wd *syntax.Word) bool {
	for _, p := range wd.Parts {
		if _, ok := p.(*syntax.ParamExp); ok {
			return true
		}
	}
	return false
}

// isMktemp: the word is exactly $(mktemp ...) without a template path.
func isMktemp(wd *syntax.Word) bool {
	if len(wd.Parts) == 1 {
		if dq, ok := wd.Parts[0].(*syntax.DblQuoted); ok && len(dq.Parts) == 1 {
			return isMktemp(&syntax.Word{Parts: dq.Parts})
		}
	}
	if len(wd.Parts) != 1 {
		return false
	}
	cs, ok := wd.Parts[0].(*syntax.CmdSubst)
	if !ok || len(cs.Stmts) != 1 {
		return false
	}
	ce, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) == 0 || ce.Args[0].Lit() != "mktemp" {
		return false
	}
	for _, a := range ce.Args[1:] {
		l := a.Lit()
		if l == "" || strings.Contains(l, "/") || l == "-p" || l == "--tmpdir" {
			return false
		}
	}
	return true
}

// findListsStarts returns the start folders of a find whose output
// includes them (no tests that would filter them out).
func findListsStarts(c *Cmd) ([]string, bool) {
	if c.Name != "find" || c.Dynamic() {
		return nil, false
	}
	starts, i := FindStarts(c.Args)
	for ; i < len(c.Args); i++ {
		switch c.Args[i] {
		case "-print", "-print0", "-depth", "-xdev", "-mount", "-follow", "-d":
		case "-maxdepth":
			i++
		default:
			return nil, false
		}
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	return starts, true
}

// FindStarts splits find's arguments into its start folders (after the
// -H/-L/-P options, up to the first expression word) and the index where
// the expression begins. The judge's find rules and the walker both read
// find this way; no start folder means none was given (find uses ".").
func FindStarts(args []string) (starts []string, expr int) {
	i := 0
	for i < len(args) {
		a := args[i]
		if a == "-H" || a == "-L" || a == "-P" {
			i++
			continue
		}
		if strings.HasPrefix(a, "-") || a == "(" || a == "!" {
			break
		}
		starts = append(starts, a)
		i++
	}
	return starts, i
}

// obfuscated reports a word spelled so a reader does not see what it is:
// quotes or backslashes inside it (r”m, "r"m, r\m), ANSI-C escapes,
// substitutions or variables that resolve statically. A leading
// backslash (\rm, to skip aliases), a wholly quoted word and $(which x)
// are ordinary.
func obfuscated(wd *syntax.Word) bool {
	if len(wd.Parts) == 1 {
		switch p := wd.Parts[0].(type) {
		case *syntax.Lit:
			v := strings.TrimPrefix(p.Value, "\\")
			return strings.IndexByte(v, '\\') >= 0 && !windowsy(v)
		case *syntax.SglQuoted:
			return p.Dollar && strings.IndexByte(p.Value, '\\') >= 0
		case *syntax.DblQuoted:
			if pathIdiom(p.Parts) {
				return false
			}
			if len(p.Parts) == 1 {
				if _, ok := p.Parts[0].(*syntax.Lit); ok {
					return false
				}
				if cs, ok := p.Parts[0].(*syntax.CmdSubst); ok {
					return !isWhich(cs)
				}
			}
			return true
		case *syntax.CmdSubst:
			return !isWhich(p)
		case *syntax.ParamExp:
			return true
		}
		return true
	}
	return !pathIdiom(wd.Parts)
}

// pathIdiom: $VAR/bin/tool or "$HOME/x": a variable used as a folder.
func pathIdiom(parts []syntax.WordPart) bool {
	if len(parts) < 2 {
		return false
	}
	if _, ok := parts[0].(*syntax.ParamExp); !ok {
		return false
	}
	if len(parts) == 2 && envLit(parts, 0) && strings.IndexByte(parts[1].(*syntax.Lit).Value, '\\') > 0 {
		return true // "$env:ProgramFiles\dotnet\dotnet.exe" (PowerShell)
	}
	l, ok := parts[1].(*syntax.Lit)
	return ok && strings.HasPrefix(l.Value, "/")
}

// isWhich: $(which x), $(command -v x), $(type -p x).
func isWhich(cs *syntax.CmdSubst) bool {
	if len(cs.Stmts) != 1 {
		return false
	}
	ce, ok := cs.Stmts[0].Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Args) < 2 {
		return false
	}
	switch ce.Args[0].Lit() {
	case "which", "command", "type":
		return true
	}
	return false
}

// bigLoop is the iteration count from which a loop that starts background
// jobs exhausts the machine like an endless one.
const bigLoop = 1000

// bigRange: loop items holding a brace sequence or $(seq ...) of bigLoop
// or more elements.
func bigRange(items []*syntax.Word) bool {
	for _, it := range items {
		for _, p := range it.Parts {
			switch p := p.(type) {
			case *syntax.Lit:
				if i := strings.Index(p.Value, ".."); i > 0 && strings.HasPrefix(p.Value, "{") {
					a, b := atoiPrefix(p.Value[1:i]), atoiPrefix(p.Value[i+2:])
					if b-a >= bigLoop || a-b >= bigLoop {
						return true
					}
				}
			case *syntax.CmdSubst:
				if len(p.Stmts) == 1 {
					if ce, ok := p.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(ce.Args) >= 2 && ce.Args[0].Lit() == "seq" {
						if atoiPrefix(ce.Args[len(ce.Args)-1].Lit())-atoiPrefix(ce.Args[1].Lit()) >= bigLoop-1 || len(ce.Args) == 2 && atoiPrefix(ce.Args[1].Lit()) >= bigLoop {
							return true
						}
					}
				}
			}
		}
	}
	return false
}

// bigNumber: an arithmetic condition comparing with a number >= bigLoop.
func bigNumber(n syntax.Node) bool {
	found := false
	syntax.Walk(n, func(m syntax.Node) bool {
		if l, ok := m.(*syntax.Lit); ok && atoiPrefix(l.Value) >= bigLoop {
			found = true
		}
		return !found
	})
	return found
}

// atoiPrefix parses leading decimal digits (0 when none, capped).
func atoiPrefix(s string) int {
	n := 0
	for i := 0; i < len(s) && i < 12; i++ {
		if s[i] < '0' || s[i] > '9' {
			break
		}
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// quotedWord: the word has quoted parts (its spaces are part of it).
func quotedWord(wd *syntax.Word) bool {
	for _, p := range wd.Parts {
		switch p.(type) {
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		}
	}
	return false
}
