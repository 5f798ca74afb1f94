package rules

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// find ROOT FILTERS | xargs rm: rm gets every file find selects, so the
// line deletes what `find ROOT FILTERS -delete` would, and is judged as
// that (find ~ -type f | xargs rm is a delete of the home's files, not a
// delete of one unknown file). An unfiltered find is handled by the
// walker, which puts its start folders in rm's arguments.

func init() { on(ruleXargsFromFind, "rm", "unlink", "shred", "srm") }

func ruleXargsFromFind(c *shell.Cmd, x *Ctx) (Finding, bool) {
	if !hasWord(c.Wrappers, "xargs") || !hasWord(c.Args, shell.Dyn) {
		return Finding{}, false
	}
	src := pipedSource(c, x)
	if src == nil || src.Name != "find" || src.Dynamic() {
		return Finding{}, false
	}
	words := []string{"find"}
	for _, a := range src.Args {
		switch a {
		case "-print", "-print0", "-ls":
			continue // what find prints is what rm gets
		}
		words = append(words, a)
	}
	words = append(words, "-delete")
	f, ok := pkEval(pkInner(src, words), x)
	if !ok {
		return Finding{}, false
	}
	f.Reason = strings.Join(words[:len(words)-1], " ") + " | xargs " + c.Name + ": " + f.Reason
	f.Marked = c.Raw
	return f, true
}
