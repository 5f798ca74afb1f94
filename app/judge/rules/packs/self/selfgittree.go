package self

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Git that rewrites the files of a work tree holding the guard's files
// (a dotfiles repository whose work tree is the home: git -C ~ stash
// pop, apply, am, merge, pull): what it writes comes from a commit,
// patch or stash the rules cannot read, so it may be an older or emptied
// settings.json. A block, like a copy or extraction of unknown content
// into those folders (self.extract-into); a project's own work tree is
// left to the git rules.

func init() { pack.On(ruleGitHomeTree, "git", "yadm") }

// treeWriters are git verbs that write the work tree's files.
var treeWriters = map[string]bool{"stash": true, "apply": true, "am": true, "merge": true, "pull": true, "rebase": true,
	"cherry-pick": true, "revert": true, "read-tree": true, "checkout-index": true, "checkout": true, "switch": true,
	"reset": true, "restore": true}

func ruleGitHomeTree(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	dir, verb := x.Cwd, ""
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		switch {
		case (a == "-C" || a == "--work-tree" || a == "--git-dir") && i+1 < len(c.Args):
			if a != "--git-dir" {
				dir = c.Args[i+1]
			}
			i++
		case strings.HasPrefix(a, "--work-tree="):
			dir = strings.TrimPrefix(a, "--work-tree=")
		case strings.HasPrefix(a, "-"):
		default:
			verb = a
		}
		if verb != "" {
			break
		}
	}
	if !treeWriters[verb] {
		return rules.Finding{}, false
	}
	if verb == "stash" && !argAfter(c, "stash", "pop", "apply") {
		return rules.Finding{}, false
	}
	n := rules.Normalize(dir, x.Cwd, x.Home)
	if n.Dynamic() || !n.HomeKnown() || strings.TrimRight(n.Low(), "/") != strings.TrimRight(n.LowHome(), "/") {
		return rules.Finding{}, false // only the home's own work tree: a project's is everyday git
	}
	f := rules.Finding{Risk: 2, Violation: 0.6, Rule: "guard.unknown-into", Marked: c.Raw,
		Reason: c.Name + " " + verb + " rewrites files of the work tree at " + dir + ", the home, which holds the agent's own guard and hook configuration, from content that cannot be read before it runs"}
	if remoteHome(x) {
		return f, true
	}
	return extractInto(f), true
}

// argAfter: one of the words follows first among c's arguments.
func argAfter(c *shell.Cmd, first string, words ...string) bool {
	for i, a := range c.Args {
		if a == first {
			for _, b := range c.Args[i+1:] {
				if strings.HasPrefix(b, "-") {
					continue
				}
				for _, w := range words {
					if b == w {
						return true
					}
				}
				return false
			}
		}
	}
	return false
}
