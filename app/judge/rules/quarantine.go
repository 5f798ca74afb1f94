package rules

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// The mark an OS puts on downloaded files (macOS com.apple.quarantine,
// Windows' Zone.Identifier stream) is what makes Gatekeeper and
// SmartScreen check them before they first run. Removing it lets a
// downloaded program run unchecked: a question, like turning off any
// other protection. Reading the mark or other attributes stays everyday.

func init() {
	on(ruleQuarantine, "xattr", "unblock-file")
	onAny(ruleZoneStream)
}

func ruleQuarantine(c *shell.Cmd, x *Ctx) (Finding, bool) {
	if c.Name == "unblock-file" {
		return pkRet(c, 2, 0.4, "sec.quarantine-off", "Unblock-File removes the downloaded-file mark, so SmartScreen no longer checks the file before it runs")
	}
	del := false
	for _, a := range c.Args {
		if a == "-c" || a == "--clear" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.ContainsAny(a, "dc") {
			del = true
		}
	}
	if del && (strings.Contains(strings.ToLower(c.Raw), "com.apple.quarantine") || c.Flag('c', "--clear")) {
		return pkRet(c, 2, 0.4, "sec.quarantine-off", "xattr removes the quarantine mark, so Gatekeeper no longer checks the downloaded program before it runs")
	}
	return Finding{}, false
}

// ruleZoneStream: Remove-Item -Stream Zone.Identifier (or del x:Zone.Identifier).
func ruleZoneStream(c *shell.Cmd, x *Ctx) (Finding, bool) {
	low := strings.ToLower(c.Raw)
	if !strings.Contains(low, "zone.identifier") {
		return Finding{}, false
	}
	switch c.Name {
	case "remove-item", "ri", "del", "erase", "rm", "clear-content", "set-content":
		return pkRet(c, 2, 0.4, "sec.quarantine-off", c.Name+" removes the Zone.Identifier mark, so SmartScreen no longer checks the downloaded file before it runs")
	}
	return Finding{}, false
}
