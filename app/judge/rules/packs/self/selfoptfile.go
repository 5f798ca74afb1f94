package self

import (
	"path"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// A file whose name is a program option that runs code
// (--checkpoint-action=exec=sh x.sh, --use-compress-program=sh,
// -e sh x.sh, --rsync-path=...) becomes that option when a later `tar cf
// x *` or `rsync -a * dest` expands a glob in its folder: the wildcard
// injection. Nobody names a file that way to keep data in it, so making
// one confirms (fs.option-file).

func init() { pack.OnAny(ruleOptionFile) }

// optionWords in such a name make it an option that runs something.
var optionWords = []string{"checkpoint-action", "to-command", "use-compress-program", "rsh", "rsync-path", "exec",
	"command", "proxycommand", "upload-pack", "receive-pack", "run=", "eval", "init-file", "rcfile", "script=", "-e sh",
	"-e bash", "-e python", "program=", "filter=", "pager=", "editor="}

func ruleOptionFile(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	var names []string
	if c.Name == "touch" || c.Name == "new-item" || c.Name == "ni" || c.Name == "mkdir" || c.Name == "cp" || c.Name == "mv" {
		names = append(names, c.Args...)
	}
	for _, r := range c.Redirs {
		if r.Op == ">" || r.Op == ">>" || r.Op == ">|" {
			names = append(names, r.Target)
		}
	}
	for _, n := range names {
		base := strings.ToLower(path.Base(rules.Slashify(n)))
		if !strings.HasPrefix(base, "-") || base == "-" || base == "--" {
			continue
		}
		for _, w := range optionWords {
			if strings.Contains(base, w) {
				return rules.Finding{Risk: 2, Violation: 0.5, Rule: "fs.option-file", Marked: c.Raw,
					Reason: "makes a file named " + n + ", an option that runs a program: a later glob (tar cf x *, rsync -a * dest) in its folder passes it as that option"}, true
			}
		}
	}
	return rules.Finding{}, false
}
