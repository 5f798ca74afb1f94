package sysfiles

// System configuration, Windows and boot side: the registry (reg.exe and
// PowerShell item cmdlets), boot configuration, event and audit logs,
// shadow copies and backups, Defender, writes into the Windows folder.

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/rules/packs/creds"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// pkRegHive classifies a registry key: "machine", "user", or "".
func pkRegHive(k string) string {
	k = strings.ToUpper(strings.ReplaceAll(k, "/", `\`))
	k = strings.TrimPrefix(k, `REGISTRY::`)
	k = strings.TrimPrefix(k, `\\`)
	switch {
	case strings.HasPrefix(k, "HKLM"), strings.HasPrefix(k, "HKEY_LOCAL_MACHINE"), strings.HasPrefix(k, "HKCR"), strings.HasPrefix(k, "HKEY_CLASSES_ROOT"), strings.HasPrefix(k, "HKU"), strings.HasPrefix(k, "HKEY_USERS"), strings.HasPrefix(k, "HKCC"), strings.HasPrefix(k, "HKEY_CURRENT_CONFIG"):
		return "machine"
	case strings.HasPrefix(k, "HKCU"), strings.HasPrefix(k, "HKEY_CURRENT_USER"):
		return "user"
	}
	return ""
}

// pkRegSensitive: keys whose change runs code at logon, weakens security
// or hijacks programs, even in the user's hive.
func pkRegSensitive(raw string) bool {
	l := strings.ToLower(strings.ReplaceAll(raw, `\`, ""))
	for _, k := range []string{"currentversionrun", "currentversion\\run", "runonce", "winlogon", "image file execution options", "imagefileexecutionoptions", "policies", "windows defender", "windowsdefender", "currentcontrolset", "environment", "shell folders", "shellfolders", "appinit_dlls", "enablelua", "disableantispyware", "lsa", "terminal server", "terminalserver", "explorershell", "command processor", "commandprocessor", "userinit", "classesms-settings", "classesmscfile", "classesexefileshell", "classesfoldershellopencommand"} {
		if strings.Contains(l, strings.ReplaceAll(k, "\\", "")) {
			return true
		}
	}
	return false
}

func ruleReg(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	if len(ops) == 0 {
		return rules.PkAllow(c, 0, "reg.help", "shows usage")
	}
	key := ""
	if len(ops) > 1 {
		key = ops[1]
	}
	hive := pkRegHive(key)
	switch ops[0] {
	case "query", "compare", "flags":
		return rules.PkAllow(c, 0, "reg.query", "reads the registry")
	case "export", "save":
		if ok, w := creds.PkSecretCmd(c, x); ok {
			return rules.PkRet(c, 3, 0.95, "creds.reg-hive", "saves "+w)
		}
		return rules.PkAllow(c, 1, "reg.export", "exports registry keys to a file")
	case "add", "delete", "copy":
		if ops[0] == "delete" {
			if k := regBroadKey(c.Raw); k != "" {
				return rules.PkRet(c, 3, 0.9, "sys.registry", "deletes "+k+": the settings of every program under it")
			}
		}
		if hive == "machine" || pkRegSensitive(c.Raw) {
			return rules.PkRet(c, 3, 0.9, "sys.registry", "changes the system registry ("+ops[0]+" "+key+")")
		}
		return rules.PkRet(c, 2, 0.6, "sys.registry-user", "changes the user's registry ("+ops[0]+" "+key+")")
	case "import", "restore", "load", "unload":
		return rules.PkRet(c, 3, 0.9, "sys.registry-import", "imports or replaces registry hives")
	}
	return rules.PkUnsure(c, 1.5, "reg.other", "registry command")
}

var pkPSItemCmds = rules.PkSet("set-itemproperty", "sp", "new-itemproperty", "remove-itemproperty", "rp", "new-item", "ni", "remove-item", "ri", "set-item", "si", "rename-itemproperty", "rnp", "copy-itemproperty", "cpp", "move-itemproperty", "mp", "clear-itemproperty", "clp", "clear-item", "cli", "rename-item", "rni", "move-item", "mi", "copy-item", "cpi", "del", "rd", "rmdir", "erase", "md", "mkdir")

// rulePSRegistry: PowerShell item cmdlets on registry drives (HKLM:\...).
func rulePSRegistry(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if !pkPSItemCmds.Has(c.Name) {
		return rules.Finding{}, false
	}
	hive := ""
	for _, a := range c.Args {
		la := strings.ToLower(a)
		switch {
		case strings.HasPrefix(la, "hklm:") || strings.HasPrefix(la, "hkcr:") || strings.HasPrefix(la, "hku:") || strings.HasPrefix(la, "registry::hkey_local_machine") || strings.HasPrefix(la, "registry::hklm") || strings.HasPrefix(la, "registry::hkey_classes_root") || strings.HasPrefix(la, "registry::hkey_users"):
			hive = "machine"
		case strings.HasPrefix(la, "hkcu:") || strings.HasPrefix(la, "registry::hkey_current_user") || strings.HasPrefix(la, "registry::hkcu"):
			if hive == "" {
				hive = "user"
			}
		}
	}
	switch {
	case hive == "machine" || hive == "user" && pkRegSensitive(c.Raw):
		return rules.PkRet(c, 3, 0.9, "sys.registry", "changes the system registry or a security-sensitive key")
	case hive == "user":
		return rules.PkRet(c, 2, 0.6, "sys.registry-user", "changes the user's registry")
	}
	return rules.Finding{}, false
}

func ruleBoot(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	switch c.Name {
	case "bcdedit", "bootcfg":
		if len(c.Args) == 0 || rules.PkWinFlag(c, "enum", "v", "?", "query") && !rules.PkWinFlag(c, "set", "delete", "deletevalue", "create", "import", "default", "bootsequence", "displayorder", "copy", "timeout", "export") {
			return rules.PkAllow(c, 0, "boot.read", "reads boot configuration")
		}
		return rules.PkRet(c, 3, 0.9, "sys.boot", "changes the Windows boot configuration (recovery, safe boot, boot entries)")
	case "efibootmgr":
		if len(c.Args) == 0 || c.Flag('v', "--verbose") && len(c.Args) == 1 {
			return rules.PkAllow(c, 0, "boot.read", "reads boot entries")
		}
		return rules.PkRet(c, 3, 0.9, "sys.boot", "changes firmware boot entries")
	case "update-initramfs", "mkinitcpio", "dracut":
		return rules.PkRet(c, 2.2, 0.6, "sys.initramfs", "rebuilds the boot image")
	}
	return rules.PkRet(c, 3, 0.9, "sys.boot", "rewrites the boot loader or its configuration")
}

func ruleEventLogs(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	switch c.Name {
	case "wevtutil":
		if len(ops) == 0 {
			return rules.PkAllow(c, 0, "log.help", "shows usage")
		}
		switch ops[0] {
		case "cl", "clear-log":
			return rules.PkRet(c, 3, 0.95, "sys.eventlog-clear", "clears a Windows event log (evidence is lost)")
		case "sl", "set-log", "um", "uninstall-manifest":
			return rules.PkRet(c, 2.7, rules.RedLineAt, "sys.eventlog-config", "changes or disables a Windows event log")
		}
		return rules.PkAllow(c, 0, "log.read", "reads event logs")
	case "clear-eventlog", "remove-eventlog":
		return rules.PkRet(c, 3, 0.95, "sys.eventlog-clear", "clears or removes Windows event logs")
	case "limit-eventlog":
		return rules.PkRet(c, 2, 0.6, "sys.eventlog-limit", "changes event log retention")
	case "auditpol":
		if rules.PkWinFlag(c, "get", "list", "backup", "?") {
			return rules.PkAllow(c, 0, "log.auditpol-read", "reads audit policy")
		}
		return rules.PkRet(c, 2.8, 0.9, "sys.audit-policy", "changes or clears the audit policy (events stop being logged)")
	case "auditctl":
		if c.Flag('l', "") || c.Flag('s', "") {
			return rules.PkAllow(c, 0, "log.auditctl-read", "reads audit rules")
		}
		if c.Flag('D', "") || rules.PkValIs(c, "-e", "0") {
			return rules.PkRet(c, 2.8, 0.9, "sys.audit-off", "deletes audit rules or turns auditing off")
		}
		return rules.PkRet(c, 2, 0.5, "sys.audit-rule", "changes audit rules")
	case "journalctl":
		for _, a := range c.Args {
			if strings.HasPrefix(a, "--vacuum") || a == "--rotate" && false || a == "--flush" && false {
				return rules.PkRet(c, 2.6, rules.RedLineAt, "sys.journal-vacuum", "deletes system logs")
			}
		}
		return rules.PkAllow(c, 0, "log.journalctl", "reads system logs")
	}
	return rules.Finding{}, false
}

func ruleShadowCopies(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	low := strings.ToLower(c.Raw)
	ops := rules.PkLowOps(c)
	switch c.Name {
	case "vssadmin":
		if len(ops) > 0 && (ops[0] == "delete" || ops[0] == "resize") {
			return rules.PkRet(c, 3, 0.95, "sys.shadow-delete", "deletes or shrinks shadow copies (Windows backups)")
		}
		if len(ops) > 0 && ops[0] == "create" {
			return rules.PkAllow(c, 1, "sys.shadow-create", "creates a shadow copy")
		}
		return rules.PkAllow(c, 0, "sys.shadow-list", "lists shadow copies")
	case "wbadmin":
		if len(ops) > 0 && (ops[0] == "delete" || ops[0] == "disable") {
			return rules.PkRet(c, 3, 0.95, "sys.backup-delete", "deletes Windows backups or the backup catalog")
		}
		if len(ops) > 0 && (ops[0] == "start" && len(ops) > 1 && (ops[1] == "recovery" || ops[1] == "sysrecovery" || ops[1] == "systemstaterecovery")) {
			return rules.PkRet(c, 2.8, 0.7, "sys.backup-restore", "restores over the live system")
		}
		if len(ops) > 0 && ops[0] == "start" {
			return rules.PkAllow(c, 1, "sys.backup-start", "starts a backup")
		}
		return rules.PkAllow(c, 0, "sys.backup-read", "reads backup state")
	case "wmic":
		switch {
		case strings.Contains(low, "shadowcopy") && strings.Contains(low, "delete"):
			return rules.PkRet(c, 3, 0.95, "sys.shadow-delete", "deletes shadow copies (Windows backups)")
		case strings.Contains(low, "call create"):
			return rules.PkRet(c, 2, 0.4, "proc.wmic-create", "starts a process through WMI")
		case strings.Contains(low, "process") && (strings.Contains(low, "delete") || strings.Contains(low, "terminate")):
			if rules.PkNamesGuard(low) {
				return rules.PkGuardStop(c, "wmic process delete")
			}
			return rules.PkRet(c, 2, 0.2, "proc.wmic-kill", "terminates processes")
		case strings.Contains(low, "useraccount") && strings.Contains(low, " set "), strings.Contains(low, "delete"), strings.Contains(low, " set ") || strings.Contains(low, "call "):
			return rules.PkRet(c, 2.3, 0.6, "sys.wmic-change", "changes system objects through WMI")
		}
		return rules.PkAllow(c, 0, "sys.wmic-read", "reads system information")
	case "diskshadow":
		return rules.PkRet(c, 2.5, 0.7, "sys.diskshadow", "manages shadow copies (can delete backups)")
	case "remove-wmiobject", "remove-ciminstance", "rwmi":
		for _, o := range rules.PkAll(x) {
			if strings.Contains(strings.ToLower(o.Raw), "shadowcopy") {
				return rules.PkRet(c, 3, 0.95, "sys.shadow-delete", "deletes shadow copies (Windows backups)")
			}
		}
		if strings.Contains(low, "shadowcopy") {
			return rules.PkRet(c, 3, 0.95, "sys.shadow-delete", "deletes shadow copies (Windows backups)")
		}
		return rules.PkRet(c, 2.2, 0.5, "sys.wmi-remove", "deletes WMI objects")
	case "disable-computerrestore":
		return rules.PkRet(c, 2.8, 0.9, "sys.restore-off", "turns System Restore off (restore points are lost)")
	case "checkpoint-computer":
		return rules.PkAllow(c, 1, "sys.restore-point", "creates a restore point")
	case "tmutil":
		if len(ops) > 0 && (ops[0] == "delete" || ops[0] == "disable" || ops[0] == "deletelocalsnapshots" || ops[0] == "thinlocalsnapshots" || ops[0] == "removeexclusion" && false) {
			return rules.PkRet(c, 3, 0.95, "sys.backup-delete", "deletes or disables Time Machine backups")
		}
		if len(ops) > 0 && (ops[0] == "addexclusion" || ops[0] == "setdestination" || ops[0] == "removedestination") {
			return rules.PkRet(c, 2, 0.5, "sys.backup-config", "changes what Time Machine backs up")
		}
		return rules.PkAllow(c, 0, "sys.backup-read", "reads backup state")
	case "clear-recyclebin":
		return rules.PkRet(c, 2.6, 0.7, "fs.recyclebin", "empties the recycle bin: those files cannot be recovered")
	}
	return rules.Finding{}, false
}

func ruleDefender(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if c.Name == "get-mppreference" {
		return rules.PkAllow(c, 0, "av.read", "reads Defender settings")
	}
	low := strings.ToLower(c.Raw)
	if c.Name == "add-mppreference" || c.Name == "set-mppreference" {
		if w := avWholeExclusion(c, x); w != "" {
			return rules.PkRet(c, 3, 0.9, "av.disable", "excludes "+w+" from antivirus scanning: Defender is as good as off there")
		}
	}
	if c.Name == "add-mppreference" {
		if strings.Contains(low, "exclusion") {
			return rules.PkRet(c, 2.4, 0.75, "av.exclusion", "excludes paths or programs from antivirus scanning")
		}
		return rules.PkRet(c, 1.8, 0.4, "av.change", "changes Defender settings")
	}
	if c.Name == "remove-mppreference" {
		return rules.PkRet(c, 1.5, 0.3, "av.change", "changes Defender settings")
	}
	off := false
	for i, a := range c.Args {
		la := strings.ToLower(a)
		if strings.HasPrefix(la, "-disable") {
			v := ""
			if _, after, ok := strings.Cut(la, ":"); ok {
				v = after
			} else if i+1 < len(c.Args) {
				v = strings.ToLower(c.Args[i+1])
			}
			if !strings.Contains(v, "false") && v != "0" {
				off = true
			}
		}
		if la == "-mapsreporting" || la == "-submitsamplesconsent" || la == "-puaprotection" || la == "-enablecontrolledfolderaccess" || la == "-enablenetworkprotection" {
			if i+1 < len(c.Args) {
				v := strings.ToLower(c.Args[i+1])
				if v == "0" || v == "disabled" || v == "2" && la == "-submitsamplesconsent" || v == "auditmode" {
					off = true
				}
			}
		}
		if strings.HasPrefix(la, "-exclusion") {
			return rules.PkRet(c, 2.4, 0.75, "av.exclusion", "excludes paths or programs from antivirus scanning")
		}
	}
	if off || strings.Contains(low, "$true") && strings.Contains(low, "-disable") {
		return rules.PkRet(c, 3, 0.9, "av.disable", "turns off Windows Defender protection")
	}
	return rules.PkRet(c, 1.8, 0.4, "av.change", "changes Defender settings")
}

func init() { pack.OnAny(ruleWinSystemWrite) }

// ruleWinSystemWrite: writes whose target the walker sees only as an
// unknown word ($env:windir\..., %SystemRoot%\...) but whose source text
// names the Windows system folder or the hosts file.
func ruleWinSystemWrite(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	writes := false
	for _, r := range c.Redirs {
		if (r.Op == ">" || r.Op == ">>" || r.Op == "&>") && rules.PkDyn(r.Target) {
			writes = true
		}
	}
	switch c.Name {
	case "set-content", "add-content", "out-file", "copy-item", "cpi", "copy", "move-item", "mi", "move", "new-item", "ni", "remove-item", "ri", "del", "erase", "tee-object", "xcopy", "robocopy":
		writes = true
	}
	if !writes || !rules.PkContainsFold(c.Raw, "system32") && !rules.PkContainsFold(c.Raw, `etc\hosts`) && !rules.PkContainsFold(c.Raw, "syswow64") {
		return rules.Finding{}, false
	}
	low := strings.ToLower(c.Raw)
	if strings.Contains(low, "windir") || strings.Contains(low, "systemroot") || strings.Contains(low, `c:\windows`) || strings.Contains(low, "c:/windows") || strings.Contains(low, `drivers\etc\hosts`) {
		return rules.PkRet(c, 3, 0.9, "sys.windows-files", "writes or deletes Windows system files")
	}
	return rules.Finding{}, false
}

// avWholeExclusion names a Defender exclusion that covers everything: a
// drive root, the home or the users' folder, Windows itself, or the
// extensions every program has (exe, dll, ps1).
func avWholeExclusion(c *shell.Cmd, x *rules.Ctx) string {
	if v, ok := rules.PkWinVal(c, "exclusionpath"); ok {
		for _, p := range strings.Split(v, ",") {
			lp := strings.TrimRight(strings.ToLower(strings.Trim(strings.TrimSpace(p), `"'`)), `\/`)
			home := strings.TrimRight(strings.ToLower(x.Home), `\/`)
			switch {
			case len(lp) <= 2 && (lp == "" || strings.HasSuffix(lp, ":")), lp == "*", lp == "$env:systemdrive", lp == "%systemdrive%":
				return "the whole drive (" + p + ")"
			case lp == "c:\\users", lp == "$env:userprofile", lp == "%userprofile%", lp == "~", home != "" && lp == home,
				strings.HasPrefix(lp, "c:\\users\\") && !strings.Contains(lp[len("c:\\users\\"):], "\\"):
				return "the user's home (" + p + ")"
			case lp == "c:\\windows", lp == "$env:windir", lp == "%windir%", lp == "c:\\windows\\system32":
				return "Windows itself (" + p + ")"
			}
		}
	}
	if v, ok := rules.PkWinVal(c, "exclusionextension"); ok {
		for _, e := range strings.Split(v, ",") {
			switch strings.TrimPrefix(strings.ToLower(strings.Trim(strings.TrimSpace(e), `"'`)), ".") {
			case "exe", "dll", "ps1", "bat", "cmd", "js", "vbs", "scr", "*":
				return "every ." + strings.TrimPrefix(strings.ToLower(strings.Trim(strings.TrimSpace(e), `"'`)), ".") + " file"
			}
		}
	}
	return ""
}

// regBroadKeys are registry keys whose deletion takes every program's
// settings with it (the user's hive, Software, Classes, Environment).
var regBroadKeys = map[string]bool{"hkcu": true, "hkcu\\software": true, "hkcu\\software\\microsoft": true, "hkcu\\software\\microsoft\\windows": true,
	"hkcu\\software\\microsoft\\windows\\currentversion": true, "hkcu\\software\\classes": true, "hkcu\\software\\policies": true, "hkcu\\environment": true,
	"hkcu\\control panel": true, "hku": true}

// regBroadKey returns the key reg delete names (from the raw line: the
// shell reading drops cmd's backslashes) when it is one of regBroadKeys.
func regBroadKey(raw string) string {
	f := strings.Fields(raw)
	for i := 0; i+1 < len(f); i++ {
		if !strings.EqualFold(f[i], "delete") {
			continue
		}
		k := strings.ToLower(strings.Trim(f[i+1], `"'`))
		if i+2 < len(f) && strings.HasSuffix(k, "\\control") && strings.HasPrefix(strings.ToLower(f[i+2]), "panel") {
			k += " panel"
		}
		k = strings.Replace(k, "hkey_current_user", "hkcu", 1)
		k = strings.Replace(k, "hkey_users", "hku", 1)
		k = strings.TrimRight(strings.ReplaceAll(k, "hkcu:", "hkcu"), "\\")
		if regBroadKeys[k] {
			return strings.Trim(f[i+1], `"'`)
		}
		return ""
	}
	return ""
}
