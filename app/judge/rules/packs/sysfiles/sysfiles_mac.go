package sysfiles

// macOS security switches that have no command of their own: defaults
// write of a security preference (the application firewall, download
// quarantine, automatic login, the screen lock), FileVault off, the
// unified log erased, an account added to the admin group.

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

func init() {
	pack.On(ruleMacSecurity, "defaults", "fdesetup", "log", "dscl", "dseditgroup", "sysadminctl", "security")
}

// macSecurityPrefs: a preference domain (and key, lower case) whose
// write turns a protection off; off is the value that must be written
// for it to count ("" for any).
var macSecurityPrefs = []struct{ domain, key, off, what string }{
	{"com.apple.alf", "globalstate", "0", "turns the macOS application firewall off"},
	{"com.apple.launchservices", "lsquarantine", "false", "turns off the quarantine of downloads, which Gatekeeper's checks rely on"},
	{"com.apple.systempolicy.control", "enableassessment", "", "changes Gatekeeper's assessment of apps"},
	{"com.apple.loginwindow", "autologinuser", "", "logs a user in at boot without a password"},
	{"com.apple.loginwindow", "guestenabled", "", "changes the guest account"},
	{"com.apple.screensaver", "askforpassword", "0", "stops asking for the password after sleep or the screen saver"},
	{"com.apple.security", "", "", "changes a macOS security policy"},
	{"com.apple.softwareupdate", "criticalupdateinstall", "", "changes the automatic install of security data (XProtect, MRT)"},
	{"com.apple.softwareupdate", "configdatainstall", "", "changes the automatic install of security data (XProtect, MRT)"},
}

func ruleMacSecurity(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	low := strings.ToLower(c.Raw)
	switch c.Name {
	case "defaults":
		if len(ops) < 2 || ops[0] != "write" && ops[0] != "delete" {
			return rules.Finding{}, false
		}
		for _, p := range macSecurityPrefs {
			if !strings.Contains(low, p.domain) || !strings.Contains(low, p.key) {
				continue
			}
			if p.off != "" && ops[0] == "write" && !pkWrites(low, p.off) {
				continue // turning it on
			}
			if p.domain == "com.apple.alf" {
				return rules.PkRet(c, 2.7, 0.8, "net.firewall-off", p.what)
			}
			return rules.PkRet(c, 2.2, 0.5, "sec.mac-setting", p.what)
		}
	case "security":
		if len(ops) > 0 && ops[0] == "delete-keychain" && (len(ops) == 1 || strings.Contains(low, "login.keychain") || strings.Contains(low, "/library/keychains/")) {
			return rules.PkRet(c, 3, 0.9, "fs.delete-user-data", "deletes the user's keychain: every stored password, key and certificate in it is lost")
		}
	case "fdesetup":
		if len(ops) > 0 && ops[0] == "disable" {
			return rules.PkRet(c, 3, 0.85, "sec.filevault-off", "turns FileVault disk encryption off")
		}
	case "log":
		if len(ops) > 0 && ops[0] == "erase" {
			return rules.PkRet(c, 3, 0.95, "sys.log-erase", "erases the macOS unified log (evidence is lost)")
		}
	case "dscl", "dseditgroup", "sysadminctl":
		admin := strings.Contains(low, "/groups/admin") || strings.Contains(low, " admin") || strings.Contains(low, "-admin")
		add := strings.Contains(low, "-append") || strings.Contains(low, "-merge") || strings.Contains(low, "-create") || strings.Contains(low, " -a ") || strings.Contains(low, "-adduser")
		if admin && add {
			return rules.PkRet(c, 3, 0.95, "sys.net-admin-group", "adds an account to the macOS admin group")
		}
	}
	return rules.Finding{}, false
}

// pkWrites: the last word of a defaults write (its value) is v, or the
// booleans' other spellings of it.
func pkWrites(low, v string) bool {
	f := strings.Fields(low)
	last := strings.Trim(f[len(f)-1], `"'`)
	switch v {
	case "0", "false":
		return last == "0" || last == "false" || last == "no"
	}
	return last == v
}
