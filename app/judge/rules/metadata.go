package rules

import (
	"net/url"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// A cloud machine's metadata service hands out the machine's credentials
// (AWS's 169.254.169.254/latest/meta-data/iam/security-credentials/,
// GCP's metadata.google.internal .../token, Azure's /metadata/identity,
// Alibaba's 100.100.100.200, ECS task roles at 169.254.170.2): a request
// to it puts a live cloud key into the model's context, as reading
// ~/.aws/credentials does. Sent on, the senders' rules judge it.

func init() {
	on(ruleCloudMetadata, "curl", "wget", "http", "https", "xh", "invoke-webrequest", "iwr", "invoke-restmethod", "irm", "fetch", "aria2c")
}

// metadataHosts: hosts (lower case) that serve instance metadata.
var metadataHosts = map[string]bool{"169.254.169.254": true, "metadata.google.internal": true, "metadata": true,
	"100.100.100.200": true, "169.254.170.2": true, "fd00:ec2::254": true, "[fd00:ec2::254]": true, "metadata.tencentyun.com": true,
	"169.254.169.253": true}

// metadataURL: the host of v (a URL or host[/path]) is a metadata service.
func metadataURL(v string) bool {
	v = strings.Trim(strings.TrimSpace(v), `"'`)
	if v == "" || strings.Contains(v, shell.Dyn) {
		return false
	}
	if !strings.Contains(v, "://") {
		v = "http://" + v
	}
	u, err := url.Parse(v)
	if err != nil {
		return false
	}
	return metadataHosts[strings.ToLower(u.Hostname())]
}

func ruleCloudMetadata(c *shell.Cmd, x *Ctx) (Finding, bool) {
	for _, a := range c.Args {
		if metadataURL(a) {
			for _, to := range c.PipedTo {
				if metadataSenders[to] {
					return Finding{Risk: 3, Violation: 0.95, RedLine: true, Rule: "creds.exfil", Marked: c.Raw,
						Reason: "pipes the cloud metadata service's answer (" + a + ", the machine's credentials) into " + to + ", which sends it off the machine"}, true
				}
			}
			return metadataFinding(a, c.Raw), true
		}
	}
	return Finding{}, false
}

// metadataSenders take what is piped into them off the machine.
var metadataSenders = map[string]bool{"curl": true, "wget": true, "nc": true, "ncat": true, "netcat": true, "socat": true,
	"invoke-webrequest": true, "iwr": true, "invoke-restmethod": true, "irm": true, "http": true, "https": true,
	"ssh": true, "telnet": true, "openssl": true, "xh": true, "mail": true, "sendmail": true}

func metadataFinding(u, marked string) Finding {
	return Finding{Risk: 2, Violation: 0.6, Rule: "creds.cloud-metadata", Marked: marked,
		Reason: "asks the cloud metadata service (" + u + ") for the machine's identity and credentials; a live cloud key would reach the model"}
}
