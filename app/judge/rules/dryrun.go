package rules

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// pkDryFlag reports a dry-run option (one of names) that the program
// reads as an option, not as the value of the option before it: in
// `helm upgrade app ./c --description --dry-run` the words "--dry-run"
// are the release's description and the upgrade is real. vals are the
// program's options that take a separate value; options that carry free
// text (pkTextVals) take one in every program. --dry-run=none / =false
// (kubectl, helm) is no dry run. Words after "--" are operands.
func pkDryFlag(c *shell.Cmd, vals map[string]bool, names ...string) bool {
	found := false
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		if a == "--" {
			break
		}
		name, v, eq := strings.Cut(a, "=")
		for _, n := range names {
			if name == n {
				found = !eq || v != "none" && v != "false"
			}
		}
		if !eq && strings.HasPrefix(a, "-") && (vals[a] || pkTextVals[strings.TrimLeft(a, "-")]) {
			i++ // the next word is this option's value
		}
	}
	return found
}

// pkTextVals are long options that carry free text in the tools judged
// here (a message, a description, a title): their value is never an option.
var pkTextVals = pkSet("description", "message", "msg", "title", "body", "comment", "note", "notes", "reason",
	"summary", "subject", "annotation", "release-notes", "notes-file", "label", "labels")

// unknownDestroyVerb is ruleDestroyVerb for a program that has rules of
// its own which all passed on this call (splunk delete user alice: a pack
// knows some splunk verbs, not this one). Such a call is as unknown as a
// program without rules, and its destroying verb as much a question.
func unknownDestroyVerb(c *shell.Cmd) (Finding, bool) {
	if c.DynName || len(byName[c.Name]) == 0 || localToolManagers[c.Name] || len(c.Args) == 0 || infraReadOnly(c.Args) {
		return Finding{}, false
	}
	return destroyVerbFinding(c, c.Name, infraWords(c.Args))
}
