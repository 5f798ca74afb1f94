package remote

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// PowerShell reaches the certificate store as the Cert: drive:
// Import-Certificate -CertStoreLocation Cert:\LocalMachine\Root trusts a
// certificate for every TLS connection, Remove-Item Cert:\...\Root\*
// drops the machine's trust; both are what certutil -addstore / -delstore
// do (sys.certstore). Cert: paths are no files of the project.

func init() {
	pack.On(rulePSCertStore, "import-certificate", "import-pfxcertificate", "remove-item", "ri", "del", "erase", "rm", "rd", "rmdir", "move-item", "mi", "move", "copy-item", "cpi", "copy")
}

func rulePSCertStore(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	store := ""
	for _, a := range c.Args {
		if l := strings.ToLower(strings.Trim(a, `"'`)); strings.HasPrefix(l, "cert:") {
			store = a
		}
	}
	if store == "" {
		return rules.Finding{}, false
	}
	switch c.Name {
	case "import-certificate", "import-pfxcertificate":
		return rules.PkRet(c, 2.3, 0.6, "sys.certstore", "imports a certificate into "+store+", trusted for every later connection")
	}
	return rules.PkRet(c, 2.3, 0.6, "sys.certstore", "removes or moves certificates in "+store+" (the certificate store, not files)")
}
