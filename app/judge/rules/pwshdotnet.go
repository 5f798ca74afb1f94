package rules

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// PowerShell reaches files through .NET as well as through cmdlets:
// [IO.Directory]::Delete($HOME, $true) is Remove-Item -Recurse -Force
// ~, [IO.File]::WriteAllText(path, ...) is a write to path. The
// PowerShell splitter leaves the call's name and its arguments as
// separate pieces, so the call is read from the text that carries it
// (the line, or the code given to powershell -c) and judged as the
// delete or write it is.

var dotnetFileCall = lazyre.New(`(?i)\[(?:system\.)?io\.(file|directory)\]::(delete|writealltext|writeallbytes|writealllines|appendalltext|appendalllines|create|move|copy|replace|readalltext|readalllines|readallbytes|readlines|openread)\s*\(\s*([^,)]*)(?:,\s*([^,)]*))?`)

func init() { onAny(ruleDotnetFiles) }

func ruleDotnetFiles(c *shell.Cmd, x *Ctx) (Finding, bool) {
	seen := strings.Contains(c.Raw, "]::")
	for _, a := range c.Args {
		seen = seen || strings.Contains(a, "]::")
	}
	if !seen {
		return Finding{}, false // the common case: nothing to build
	}
	text := c.Raw + " " + strings.Join(c.Args, " ")
	var w Finding
	have := false
	for _, m := range dotnetFileCall.FindAllStringSubmatch(text, 8) {
		kind, method := strings.ToLower(m[1]), strings.ToLower(m[2])
		p := dotnetPath(m[3])
		var f Finding
		var ok bool
		switch {
		case method == "delete" && kind == "directory":
			words := []string{"rm", "-r", "-f", p}
			if a := strings.ToLower(strings.TrimSpace(m[4])); a == "" || a == "$false" {
				words = []string{"rmdir", p} // Delete(path): only an empty folder
			}
			f, ok = pkEval(pkInner(c, words), x)
		case method == "delete":
			f, ok = pkEval(pkInner(c, []string{"rm", "-f", p}), x)
		case strings.HasPrefix(method, "read") || method == "openread":
			// ReadAllText(path) is cat path: a secret read is creds.read.
			f, ok = pkEval(pkInner(c, []string{"cat", p}), x)
		case method == "move" || method == "copy" || method == "replace":
			// Move(src, dst): the destination is written, a move's source goes.
			dst := dotnetPath(m[4])
			if method == "copy" {
				f, ok = pkEval(pkInner(c, []string{"cp", p, dst}), x)
			} else {
				f, ok = pkEval(pkInner(c, []string{"mv", p, dst}), x)
			}
		default:
			f, ok = fsWriteTarget(c, p, x), true
		}
		if ok && (!have || f.Worse(w)) {
			w, have = f, true
		}
	}
	if !have {
		return Finding{}, false
	}
	w.Marked = c.Raw
	return w, true
}

// dotnetPath turns a PowerShell argument into a path the fs rules read:
// quotes go, $HOME and $env:USERPROFILE are the home, other variables
// are unknown.
func dotnetPath(a string) string {
	// "$HOME" + '\Documents': the pieces joined.
	var b strings.Builder
	for _, part := range strings.Split(strings.ReplaceAll(a, `\"`, `"`), "+") {
		b.WriteString(strings.Trim(strings.TrimSpace(part), `"'`))
	}
	a = b.String()
	la := strings.ToLower(a)
	for _, h := range []string{"$home", "$env:userprofile", "${env:userprofile}", "$env:home"} {
		if strings.HasPrefix(la, h) {
			return "~" + a[len(h):]
		}
	}
	if a == "" || strings.Contains(a, "$") || strings.Contains(a, "(") {
		return shell.Dyn
	}
	return a
}
