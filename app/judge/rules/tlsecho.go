package rules

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// echo strict-ssl=false >> ~/.npmrc, echo insecure >> ~/.curlrc,
// Add-Content -Path pip.ini -Value 'trusted-host = x': the line a shell
// appends to a tool's config file is judged as Write's content would be
// (tlswrite.go).

func init() {
	on(ruleEchoTransport, "echo", "printf", "add-content", "ac", "set-content", "sc")
}

func ruleEchoTransport(c *shell.Cmd, x *Ctx) (Finding, bool) {
	switch c.Name {
	case "echo", "printf":
		for _, r := range c.Redirs {
			if r.Op != ">" && r.Op != ">>" {
				continue
			}
			text := strings.ReplaceAll(strings.Join(c.Args, " "), `\n`, "\n")
			if f, ok := WriteTransport(r.Target, text); ok {
				return f, true
			}
		}
	default:
		p, ok := pkWinVal(c, "path", "literalpath")
		if !ok {
			return Finding{}, false
		}
		if v, ok := pkWinVal(c, "value"); ok {
			return WriteTransport(p, v)
		}
	}
	return Finding{}, false
}
