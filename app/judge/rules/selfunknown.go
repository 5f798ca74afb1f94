package rules

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// A program the rules do not know (tomlq -i, dasel put, crudini --set,
// a tool installed a minute ago) given one of the guard's files may
// rewrite it: nothing says it only reads. Confirm, so the user sees which
// file; known readers (cat, jq without -i, less) are judged by their
// packs and never come here.

// selfUnknownOperand reports an unknown program's argument that names a
// protected path (an operand, or an option's value after =).
func selfUnknownOperand(c *shell.Cmd, x *Ctx) (Finding, bool) {
	if c.DynName || c.Func || c.Name == "" || unknownReaders[c.Name] || c.Name == "plutil" && (hasArg(c, "-p") || hasArg(c, "-lint")) {
		return Finding{}, false
	}
	for _, a := range c.Args {
		v := a
		if strings.HasPrefix(v, "-") {
			_, after, ok := strings.Cut(v, "=")
			if !ok {
				continue
			}
			v = after
		}
		if v == "" || strings.Contains(v, shell.Dyn) || !strings.ContainsAny(v, `/\~%$`) {
			continue
		}
		if f, ok := Protected(v, x.Cwd, x.Home); ok {
			return Finding{Risk: 2, Violation: 0.6, Rule: "guard.unknown-tool", Marked: c.Raw,
				Reason: c.Name + " is a program the guard does not know, given " + v + " (" + strings.TrimPrefix(f.Rule, "self.") + " of the agent's own guard): it may rewrite or remove it; the user should see this"}, true
		}
	}
	return Finding{}, false
}

// unknownReaders only show, compare or open a file for the user; the
// packs do not know them because there is nothing to judge.
var unknownReaders = map[string]bool{"dir": true, "tree": true, "bat": true, "batcat": true, "glow": true, "jless": true,
	"fx": true, "hexdump": true, "od": true, "strings": true, "file": true, "stat": true, "md5sum": true, "sha1sum": true,
	"sha256sum": true, "sha512sum": true, "b2sum": true, "cksum": true, "wc": true, "diff": true, "cmp": true,
	"colordiff": true, "delta": true, "code": true, "subl": true, "gedit": true, "kate": true, "cursor": true,
	"get-filehash": true, "get-acl": true, "test-path": true, "resolve-path": true, "lsattr": true, "getfattr": true,
	"namei": true, "exa": true, "eza": true, "lsd": true, "highlight": true, "pygmentize": true, "jc": true, "gron": true}
