package rules

import (
	"github.com/agent-guard/agent-guard/app/judge/facts"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// A program the rules do not know is weighed as "probably a developer
// tool" (shell.unknown, a grey-zone allow). Two things take that
// presumption away, because the unknown program can then change the
// machine itself: it runs as root (sudo, doas, su, pkexec, run0, gsudo),
// or it is handed a disk device (/dev/sda1, \\.\PhysicalDrive0), as fsck,
// tune2fs or xfs_repair are. Either is a question.

func init() { onAny(ruleUnknownPower) }

func ruleUnknownPower(c *shell.Cmd, x *Ctx) (Finding, bool) {
	if c.Name == "" || c.DynName || c.Func || len(rulesFor(c.Name)) > 0 {
		return Finding{}, false
	}
	for _, a := range c.Args {
		if _, ok := diskDevice(c, a); ok {
			return Finding{Risk: 2.2, Violation: 0.5, Rule: "disk.unknown-device", Marked: c.Raw,
				Reason: c.Name + " works on the disk device " + a + " and is not a program the rules know: it may change or destroy the file system on it"}, true
		}
	}
	for _, w := range c.Wrappers {
		if facts.IsElevator(w) {
			return Finding{Risk: 2, Violation: 0.3, Rule: "shell.unknown-elevated", Marked: c.Raw,
				Reason: c.Name + " runs as root through " + w + " and is not a program the rules know: it can change anything on the machine"}, true
		}
	}
	return Finding{}, false
}
