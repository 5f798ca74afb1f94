package rules

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Get-ChildItem P -Recurse | ForEach-Object { Remove-Item $_.FullName }:
// the loop deletes every item the listing yields, so it is judged as
// `Get-ChildItem P -Recurse | Remove-Item -Recurse` (what find ROOT |
// xargs rm is to find ROOT -delete).

func init() { on(rulePSForEachDelete, "foreach-object", "%", "foreach") }

var psListers = pkSet("get-childitem", "gci", "ls", "dir", "get-item", "gi")
var psDeleters = pkSet("remove-item", "ri", "del", "erase", "rm", "rd", "rmdir", "rimraf", "trash")

func rulePSForEachDelete(c *shell.Cmd, x *Ctx) (Finding, bool) {
	src := pipedSource(c, x)
	if src == nil || !psListers.Has(src.Name) || src.Dynamic() {
		return Finding{}, false
	}
	del := ""
	for i, a := range c.Args {
		if psDeleters.Has(shell.NormName(a)) && i+1 < len(c.Args) {
			for _, b := range c.Args[i+1:] {
				if b == "}" || b == ";" {
					break
				}
				if strings.Contains(b, shell.Dyn) {
					del = shell.NormName(a) // Remove-Item $_ / $_.FullName / $PSItem
				}
			}
		}
	}
	if del == "" {
		return Finding{}, false
	}
	line := src.Raw + " | Remove-Item"
	for _, a := range src.Args {
		if la := strings.ToLower(a); la == "-r" || strings.HasPrefix("-recurse", la) && len(la) >= 3 {
			line += " -Recurse"
			break
		}
	}
	a := shell.AnalyzeDir(line, x.Cwd)
	if len(a.Cmds) == 0 {
		return Finding{}, false
	}
	last := a.Cmds[len(a.Cmds)-1]
	if last.Name != "remove-item" {
		return Finding{}, false
	}
	f, ok := ruleDelete(&last, x)
	if !ok || f.score() < 1 {
		return Finding{}, false
	}
	f.Reason = src.Raw + " | ForEach-Object { " + del + " $_ }: " + f.Reason
	f.Marked = c.Raw
	return f, true
}

// psForEachCovers: c (Remove-Item $_) is the body of a ForEach-Object fed
// by a static listing, which rulePSForEachDelete judges as a whole.
func psForEachCovers(c *shell.Cmd, x *Ctx) bool {
	if x.All == nil {
		return false
	}
	for i := range x.All.Cmds {
		fc := &x.All.Cmds[i]
		if fc == c || fc.Name != "foreach-object" && fc.Name != "%" && fc.Name != "foreach" || !strings.Contains(fc.Raw, c.Raw) {
			continue
		}
		if src := pipedSource(fc, x); src != nil && psListers.Has(src.Name) && !src.Dynamic() {
			return true
		}
	}
	return false
}
