package containers

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// What other packs reuse from this one.

// PkContainerCmd is pkContainerCmd for the packs that reuse it.
func PkContainerCmd(c *shell.Cmd, args []string, vals *rules.Set, skip int, x *rules.Ctx) (rules.Finding, bool) {
	return pkContainerCmd(c, args, vals, skip, x)
}

// PkKubeSecretRead is pkKubeSecretRead for the packs that reuse it.
func PkKubeSecretRead(c *shell.Cmd, objs []string) bool { return pkKubeSecretRead(c, objs) }

// PkKubeVal is pkKubeVal for the packs that reuse it.
var PkKubeVal = pkKubeVal
