package creds

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// What other packs reuse from this one.

// PkLineSenders is pkLineSenders for the interp pack.
func PkLineSenders(c *shell.Cmd, x *rules.Ctx) []*shell.Cmd { return pkLineSenders(c, x) }

// PkSecretCmd is pkSecretCmd for the sysfiles pack.
func PkSecretCmd(c *shell.Cmd, x *rules.Ctx) (bool, string) { return pkSecretCmd(c, x) }
