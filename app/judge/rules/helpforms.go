package rules

import (
	"github.com/agent-guard/agent-guard/app/judge/opts"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Help and version forms: a program whose grammar (opts table) says an
// option prints help or its version does nothing else. Where it counts
// depends on the parser: before the first operand for every getopt; also
// after operands only for programs that read all options first
// (Spec.HelpAnywhere: cobra's kubectl and helm, terraform, curl). After
// "--" or as another option's value it is a word, not help.

// helpFormSkip: programs whose packs read their own read-only forms
// (git, rsync's dry run, mkfs's), or that are runners or interpreters.
var helpFormSkip = pkSet("git", "rsync", "mkfs", "xargs", "parallel", "watch", "python", "ruby")

func helpForm(c *shell.Cmd) (Finding, bool) {
	if c.DynName || helpFormSkip.Has(c.Name) {
		return Finding{}, false
	}
	name := c.Name
	if name == "tofu" {
		name = "terraform"
	}
	spec := opts.Lookup(name)
	if spec == nil {
		return Finding{}, false
	}
	a := opts.Parse(spec, c.Args)
	if a.ReadOnlyLead || spec.HelpAnywhere && a.ReadOnly {
		return Finding{Rule: "opts.help", Reason: c.Name + " with a help or version option prints it and changes nothing", Marked: c.Raw}, true
	}
	return Finding{}, false
}
