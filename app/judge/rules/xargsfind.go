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

func init() {
	on(ruleXargsFromFind, "rm", "unlink", "shred", "srm", "rimraf", "trash", "trash-put", "del", "erase", "remove-item", "ri")
}

// xargsFindSource is the static find/fd whose output xargs hands to c.
func xargsFindSource(c *shell.Cmd, x *Ctx) *shell.Cmd {
	if !hasWord(c.Wrappers, "xargs") || !hasWord(c.Args, shell.Dyn) {
		return nil
	}
	src := pipedSource(c, x)
	if src == nil || src.Name != "find" && src.Name != "fd" && src.Name != "fdfind" || src.Dynamic() {
		return nil
	}
	return src
}

// xargsLsTargets: ls -d OPS prints OPS (globs expanded), ls with no
// operand (or .) prints the working folder's entries: what rm gets from
// ls ... | xargs rm. ok=false for other listings (ls DIR prints names
// relative to DIR, which rm reads in the working folder).
func xargsLsTargets(c *shell.Cmd, x *Ctx) ([]string, bool) {
	if !hasWord(c.Wrappers, "xargs") || !hasWord(c.Args, shell.Dyn) {
		return nil, false
	}
	src := pipedSource(c, x)
	if src == nil || src.Name != "ls" || src.Dynamic() {
		return nil, false
	}
	ops := src.Operands()
	switch {
	case src.Flag('d', "--directory") && len(ops) > 0:
		return ops, true
	case len(ops) == 0 || len(ops) == 1 && (ops[0] == "." || ops[0] == "./"):
		if src.Flag('a', "--all") || src.Flag('A', "--almost-all") {
			return []string{"./*", "./.*"}, true
		}
		return []string{"./*"}, true
	}
	return nil, false
}

func ruleXargsFromFind(c *shell.Cmd, x *Ctx) (Finding, bool) {
	if ts, ok := xargsLsTargets(c, x); ok && c.Name == "rm" {
		words := append([]string{"rm", "-rf", "--"}, ts...)
		f, ok := pkEval(pkInner(c, words), x)
		if !ok {
			return Finding{}, false
		}
		f.Reason = "ls | xargs rm deletes what ls lists: " + f.Reason
		f.Marked = c.Raw
		return f, true
	}
	src := xargsFindSource(c, x)
	if src == nil {
		return Finding{}, false
	}
	words := []string{src.Name}
	for _, a := range src.Args {
		switch a {
		case "-print", "-print0", "-ls":
			continue // what find prints is what rm gets
		}
		words = append(words, a)
	}
	shown := strings.Join(words, " ")
	switch {
	case src.Name != "find":
		// fd ... | xargs rimraf: what fd -X rimraf would do.
		words = append(words, "-X", c.Name)
	case c.Name == "trash" || c.Name == "trash-put":
		words = append(words, "-exec", c.Name, "{}", "+") // recoverable
	default:
		words = append(words, "-delete")
	}
	f, ok := pkEval(pkInner(src, words), x)
	if !ok {
		return Finding{}, false
	}
	f.Reason = shown + " | xargs " + c.Name + ": " + f.Reason
	f.Marked = c.Raw
	return f, true
}
