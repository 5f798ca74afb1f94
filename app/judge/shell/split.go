package shell

import (
	"fmt"
	"strings"
)

var errDeep = fmt.Errorf("shells nested more than %d deep", MaxDepth)

type splitMode int

const (
	modeBash splitMode = iota // fallback for unparsable bash
	modeCmd                   // cmd.exe /c code
	modePS                    // PowerShell code
)

// splitWords splits code naively into commands (on ; & | newlines and
// brackets) and those into words (whitespace, quotes removed). It is the
// reader for cmd.exe and PowerShell code and for bash that does not parse:
// it does not understand the language, it only finds the words.
func splitWords(code string, mode splitMode) (pieces [][]string, raws []string) {
	pieces, raws, _ = splitPieces(code, mode)
	return pieces, raws
}

// splitPieces is splitWords that also returns, for each piece, the
// separator that ended it ('|' when it pipes into the next piece).
func splitPieces(code string, mode splitMode) (pieces [][]string, raws []string, seps []byte) {
	var cur []string
	var psVars map[string]string // $p = "C:\x" literal assignments seen so far
	var tok strings.Builder
	inTok := false
	start := 0
	flushTok := func() {
		if inTok {
			t := tok.String()
			if mode == modePS && len(t) > 1 && t[len(t)-1] == ',' {
				t = t[:len(t)-1] // -ArgumentList '-c', 'code': array elements
			}
			if mode == modePS && len(psVars) > 0 && len(cur) > 0 && strings.HasPrefix(t, "$") {
				// Not the first word: $p = ... assigns, & $p calls.
				t = psVarSubst(t, psVars)
			}
			cur = append(cur, expandVars(t, mode))
			tok.Reset()
			inTok = false
		}
	}
	call := false
	flush := func(end int) {
		flushTok()
		// In PowerShell a piece that starts with a variable is an
		// expression ($_.CPU -gt 100), unless the call operator runs it.
		if len(cur) > 0 && mode == modePS && !call && strings.Contains(cur[0], Dyn) && (strings.HasPrefix(strings.TrimSpace(code[start:end]), "$") || strings.HasPrefix(strings.TrimSpace(code[start:end]), Dyn)) {
			raw := strings.TrimSpace(code[start:end])
			psVars = psLiteralAssign(raw, psVars)
			cur = psAssigned(cur, raw)
		}
		if len(cur) > 0 {
			pieces = append(pieces, cur)
			raws = append(raws, strings.TrimSpace(code[start:end]))
			sep := byte(0)
			if end < len(code) {
				sep = code[end]
			}
			seps = append(seps, sep)
			call = false
		}
		cur = nil
		start = end + 1
		if len(pieces) >= MaxCmds {
			start = len(code)
		}
	}
	var quote byte
	for i := 0; i < len(code); i++ {
		if len(pieces) >= MaxCmds {
			break
		}
		c := code[i]
		if quote != 0 {
			switch {
			case c == quote:
				quote = 0
			case mode == modeBash && quote == '"' && c == '\\' && i+1 < len(code) && strings.IndexByte("$`\"\\", code[i+1]) >= 0:
				i++
				tok.WriteByte(code[i])
			case mode == modePS && quote == '"' && c == '`' && i+1 < len(code):
				i++
				tok.WriteByte(code[i])
			default:
				tok.WriteByte(c)
			}
			continue
		}
		if mode == modePS && c == '@' && !inTok && len(cur) > 0 && i+1 < len(code) && code[i+1] == '(' {
			// Remove-Item -Path @('bin','obj'): an array of plain strings
			// is its items, one word each.
			if items, n, ok := psArrayLit(code[i:]); ok {
				for _, it := range items {
					cur = append(cur, expandVars(it, mode))
				}
				i += n - 1
				continue
			}
		}
		if mode == modePS && c == '@' && i+2 < len(code) && (code[i+1] == '"' || code[i+1] == '\'') && (code[i+2] == '\n' || code[i+2] == '\r') {
			// A here-string: @' ... '@ (or @" ... "@ without $ inside)
			// up to the closing mark at a line's start, one word.
			if end := strings.Index(code[i+2:], "\n"+code[i+1:i+2]+"@"); end >= 0 {
				body := code[i+2 : i+2+end]
				if code[i+1] == '\'' || !strings.ContainsAny(body, "$`") {
					tok.WriteString(strings.TrimRight(strings.TrimLeft(body, "\r\n"), "\r"))
					inTok = true
					i += 2 + end + 2
					continue
				}
			}
		}
		switch {
		case c == '"' || c == '\'' && mode != modeCmd:
			quote = c
			inTok = true
		case c == '\\' && mode == modeBash && winTok(tok.String()):
			// C:\Users\dev in an unparsable line: a Windows path, not escapes.
			tok.WriteByte(c)
			inTok = true
		case c == '\\' && mode == modeBash && i+1 < len(code):
			i++
			if code[i] != '\n' {
				tok.WriteByte(code[i])
			}
			inTok = true
		case c == '^' && mode == modeCmd && i+1 < len(code):
			i++
			tok.WriteByte(code[i])
			inTok = true
		case c == '`' && mode == modePS && i+1 < len(code):
			i++
			tok.WriteByte(code[i])
			inTok = true
		case c == ' ' || c == '\t' || c == '\r':
			flushTok()
		case c == '&' && mode == modePS && (i+1 >= len(code) || code[i+1] != '&') && (i == 0 || code[i-1] != '&'):
			// PowerShell's call operator: & $cmd args runs $cmd; & { ... }
			// runs the block, whose statements are pieces of their own.
			flush(i)
			call = !strings.HasPrefix(strings.TrimLeft(code[i+1:], " \t"), "{")
		case c == ';' && mode != modeCmd, c == '&', c == '|', c == '\n', c == '(', c == ')',
			(c == '{' || c == '}') && mode != modeCmd, c == '`' && mode == modeBash:
			flush(i)
		default:
			tok.WriteByte(c)
			inTok = true
		}
	}
	flush(len(code))
	return pieces, raws, seps
}

// psArrayLit reads @('a','b') at the start of s: its items and the
// length read; ok=false unless every item is a plain quoted string.
func psArrayLit(s string) ([]string, int, bool) {
	end := strings.IndexByte(s, ')')
	if end < 3 {
		return nil, 0, false
	}
	var items []string
	for _, it := range strings.Split(s[2:end], ",") {
		it = strings.TrimSpace(it)
		if len(it) < 3 || (it[0] != '\'' && it[0] != '"') || it[len(it)-1] != it[0] || strings.ContainsAny(it[1:len(it)-1], "'\"$`()") {
			return nil, 0, false
		}
		items = append(items, it[1:len(it)-1])
	}
	return items, end + 1, true
}

// psAssigned: a PowerShell piece that starts with a variable is an
// expression ($_.CPU -gt 100, $env:CI = "true"), except that
// $r = Remove-Item x runs the command right of the =.
func psAssigned(cur []string, raw string) []string {
	eq := strings.IndexByte(raw, '=')
	if eq < 0 || eq+1 < len(raw) && raw[eq+1] == '=' {
		return nil
	}
	rhs := strings.TrimSpace(raw[eq+1:])
	if rhs == "" || !(rhs[0] >= 'a' && rhs[0] <= 'z' || rhs[0] >= 'A' && rhs[0] <= 'Z' || rhs[0] == '&') {
		return nil // a literal, a number, another variable
	}
	for k, t := range cur {
		if k < 2 && (t == "=" || strings.HasSuffix(t, "=")) && k+1 < len(cur) {
			return cur[k+1:]
		}
	}
	return nil
}

// expandVars resolves variables in a naively split word: home and system
// folders to their literal forms (~, C:\Windows), everything else Dyn.
func expandVars(t string, mode splitMode) string {
	switch mode {
	case modeCmd:
		if strings.IndexByte(t, '%') < 0 {
			return t
		}
		return ExpandWinVars(t)
	case modePS, modeBash:
		if strings.IndexByte(t, '$') < 0 {
			return t
		}
		if mode == modePS {
			return ExpandWinVars(t)
		}
		for _, h := range [...]string{"${HOME}", "$HOME"} {
			if strings.HasPrefix(t, h) && !strings.ContainsRune(t[len(h):], '$') {
				return "~" + t[len(h):]
			}
		}
		return Dyn
	}
	return t
}

var winVars = [...][2]string{
	{"%userprofile%", "~"},
	{"%homedrive%%homepath%", "~"},
	{"%systemroot%", "C:\\Windows"},
	{"%windir%", "C:\\Windows"},
	{"%systemdrive%", "C:"},
	{"%programfiles%", "C:\\Program Files"},
	{"%programdata%", "C:\\ProgramData"},
	{"%programfiles(x86)%", "C:\\Program Files (x86)"},
	{"$env:programfiles(x86)", "C:\\Program Files (x86)"},
	{"%temp%", "/tmp"},
	{"%tmp%", "/tmp"},
	{"$env:temp", "/tmp"},
	{"$env:tmp", "/tmp"},
	{"%appdata%", "~\\AppData\\Roaming"},
	{"%localappdata%", "~\\AppData\\Local"},
	{"$env:userprofile", "~"},
	{"${env:userprofile}", "~"},
	{"$env:homedrive$env:homepath", "~"},
	{"$env:systemroot", "C:\\Windows"},
	{"$env:windir", "C:\\Windows"},
	{"$env:systemdrive", "C:"},
	{"$env:programfiles", "C:\\Program Files"},
	{"$env:programdata", "C:\\ProgramData"},
	{"$env:appdata", "~\\AppData\\Roaming"},
	{"$env:localappdata", "~\\AppData\\Local"},
	{"$home", "~"},
	{"${home}", "~"},
	// PowerShell's profile script, run by every new PowerShell session:
	// a shell rc file (PowerShell 7's path; 5.1 keeps WindowsPowerShell).
	{"$profile.currentuserallhosts", "~\\Documents\\PowerShell\\profile.ps1"},
	{"$profile.currentusercurrenthost", "~\\Documents\\PowerShell\\Microsoft.PowerShell_profile.ps1"},
	{"$profile.allusersallhosts", "C:\\Program Files\\PowerShell\\7\\profile.ps1"},
	{"$profile.alluserscurrenthost", "C:\\Program Files\\PowerShell\\7\\Microsoft.PowerShell_profile.ps1"},
	{"$profile", "~\\Documents\\PowerShell\\Microsoft.PowerShell_profile.ps1"},
	{"$pwd", "."},
	{"${pwd}", "."},
	{"%cd%", "."}, // cmd.exe's current folder, as $PWD
}

// ExpandWinVars maps a leading cmd.exe %VAR% or PowerShell $env:VAR naming
// home or a system folder to its literal form ("~", "C:\Windows");
// $true/$false/$null stay; any other variable makes the word Dyn.
func ExpandWinVars(t string) string {
	l := lower(t)
	if strings.HasPrefix(l, "${env:") {
		// ${env:APPDATA}\x, ${env:ProgramFiles(x86)}: the braced form.
		if j := strings.IndexByte(t, '}'); j > 6 {
			t = "$env:" + t[6:j] + t[j+1:]
			l = lower(t)
		}
	}
	for _, v := range winVars {
		if strings.HasPrefix(l, v[0]) {
			rest := t[len(v[0]):]
			if strings.ContainsAny(rest, "%$") {
				return Dyn
			}
			return v[1] + rest
		}
	}
	if l != "" && l[0] == '-' {
		// -Confirm:$false, -Force:$true: a switch given its value.
		if i := strings.Index(l, ":$"); i > 1 {
			switch l[i+1:] {
			case "$true", "$false", "$null":
				return t
			}
		}
	}
	switch l {
	case "$true", "$false", "$null", "$_":
		if l == "$_" {
			return Dyn
		}
		return t
	}
	if strings.IndexByte(t, '$') >= 0 {
		return Dyn
	}
	if i := strings.IndexByte(t, '%'); i >= 0 && strings.IndexByte(t[i+1:], '%') >= 0 {
		return Dyn
	}
	return t
}

// psLiteralAssign records $name = "literal" (no variables inside); a
// name assigned twice is unknown (the later value may be conditional).
func psLiteralAssign(raw string, vars map[string]string) map[string]string {
	name, val, ok := strings.Cut(raw, "=")
	if !ok || strings.HasPrefix(val, "=") {
		return vars
	}
	name = lower(strings.TrimSpace(strings.TrimPrefix(name, "$")))
	if name == "" || strings.ContainsAny(name, " .[:$") {
		return vars
	}
	val = strings.TrimSpace(val)
	lit := ""
	if len(val) >= 2 && (val[0] == '"' || val[0] == '\'') && val[len(val)-1] == val[0] && !strings.ContainsAny(val[1:len(val)-1], "$`\"'") {
		lit = val[1 : len(val)-1]
	} else if f := strings.Fields(val); len(f) == 3 && lower(f[0]) == "join-path" {
		// $d = Join-Path $PWD 'dist': a folder under the current one.
		base, child := lower(f[1]), strings.Trim(f[2], "'\"")
		if child != "" && child[0] != '\\' && child[0] != '/' && !strings.ContainsAny(child, "$`\"'*?:~%") && !strings.Contains(child, "..") {
			if base == "$pwd" || base == "." || base == "$pwd.path" {
				lit = ".\\" + child
			} else if e := ExpandWinVars(f[1] + "\\" + child); e != Dyn && !strings.ContainsAny(e, "$%") {
				lit = e // Join-Path $HOME 'Documents', $env:APPDATA
			}
		}
	}
	if vars == nil {
		vars = map[string]string{}
	}
	if _, seen := vars[name]; seen || lit == "" {
		lit = Dyn
	}
	vars[name] = lit
	return vars
}

// psVarSubst replaces a leading $name known from a literal assignment.
func psVarSubst(t string, vars map[string]string) string {
	j := 1
	for j < len(t) && (t[j] == '_' || t[j] >= 'a' && t[j] <= 'z' || t[j] >= 'A' && t[j] <= 'Z' || t[j] >= '0' && t[j] <= '9') {
		j++
	}
	if v, ok := vars[lower(t[1:j])]; ok && v != Dyn {
		return v + t[j:]
	}
	return t
}

// winTok: the word so far is a drive (C:), . or .., or already a Windows path.
func winTok(t string) bool {
	return len(t) >= 2 && t[1] == ':' && (t[0]|0x20) >= 'a' && (t[0]|0x20) <= 'z' || t == "." || t == ".." ||
		strings.Contains(t, ":\\")
}
