package self

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// logrotate rotates, truncates (copytruncate) and deletes (rotate 0)
// the files its configuration names. Its configuration given in the same
// line (a process substitution, a here-doc, a file written just before)
// or on disk that names a guard file is that file's deletion.

func init() { pack.On(ruleLogrotate, "logrotate", "newsyslog", "savelog") }

func ruleLogrotate(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	texts := []string{x.Script}
	for _, a := range c.Args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		n := rules.Normalize(a, x.Cwd, x.Home)
		if n.Dynamic() || !rules.IsAbs(n.Abs()) {
			continue
		}
		if b, err := readSmall(n.Abs(), 64<<10); err == nil {
			texts = append(texts, b)
		}
	}
	for _, t := range texts {
		for _, w := range strings.FieldsFunc(t, func(r rune) bool { return r == ' ' || r == '\n' || r == '\t' || r == '"' || r == '\'' || r == '{' }) {
			if !strings.Contains(strings.ToLower(w), "agent-guard") && !strings.Contains(w, "*") {
				continue
			}
			if f, ok := rules.Protected(w, x.Cwd, x.Home); ok {
				f.Reason = c.Name + " is given a configuration that names " + w + ": it would rotate, truncate or delete it; " + f.Reason
				f.Marked = c.Raw
				return f, true
			}
		}
	}
	return rules.Finding{}, false
}
