package sysfiles

// System configuration: in-place edits of system files, accounts and
// passwords, the Windows registry, boot configuration, event logs, shadow
// copies and backups, Defender, firewalls and SELinux, kernel settings.
// DESIGN's red lines (system files, registry, services, event logs,
// backups) block; other security switches confirm or block by severity.

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

func init() {
	pack.On(ruleSedInPlace, "sed", "gsed")
	pack.On(ruleUsers, "usermod", "useradd", "adduser", "userdel", "deluser", "groupadd", "addgroup", "groupdel", "delgroup", "groupmod", "gpasswd", "passwd", "chpasswd", "chage", "vipw", "vigr", "visudo", "chsh", "chfn", "pwconv", "newusers",
		"add-localgroupmember", "new-localuser", "remove-localuser", "set-localuser", "remove-localgroupmember", "enable-localuser", "disable-localuser", "new-localgroup", "remove-localgroup")
	pack.On(ruleReg, "reg")
	pack.OnAny(rulePSRegistry)
	pack.On(ruleBoot, "bcdedit", "bootrec", "bcdboot", "update-grub", "grub-install", "grub-mkconfig", "grub2-mkconfig", "grub2-install", "efibootmgr", "update-initramfs", "mkinitcpio", "dracut", "bootcfg")
	pack.On(ruleEventLogs, "wevtutil", "clear-eventlog", "remove-eventlog", "limit-eventlog", "auditpol", "auditctl", "journalctl")
	pack.On(ruleShadowCopies, "vssadmin", "wbadmin", "wmic", "diskshadow", "remove-wmiobject", "remove-ciminstance", "rwmi", "disable-computerrestore", "checkpoint-computer", "tmutil", "clear-recyclebin")
	pack.On(ruleDefender, "set-mppreference", "add-mppreference", "remove-mppreference", "get-mppreference")
	pack.On(ruleFirewall, "netsh", "iptables", "ip6tables", "iptables-restore", "ip6tables-restore", "iptables-save", "nft", "ufw", "firewall-cmd", "set-netfirewallprofile", "new-netfirewallrule", "remove-netfirewallrule", "disable-netfirewallrule", "set-netfirewallrule", "get-netfirewallprofile", "get-netfirewallrule", "pfctl")
	pack.On(ruleSecurityModes, "setenforce", "getenforce", "aa-disable", "aa-teardown", "aa-complain", "csrutil", "spctl", "set-executionpolicy", "enable-psremoting", "disable-uac")
	pack.On(ruleKernel, "sysctl", "modprobe", "insmod", "rmmod", "mount", "umount", "swapoff", "swapon", "hostnamectl", "hostname", "timedatectl", "date", "hwclock", "update-alternatives", "ldconfig", "setx", "dism", "sfc", "chkdsk", "fsutil", "enable-windowsoptionalfeature", "disable-windowsoptionalfeature", "kextload", "kextunload", "nvram", "scutil", "networksetup")
	pack.On(ruleNetAdmin, "disable-netadapter", "remove-netipaddress", "remove-netroute", "set-netipaddress", "set-dnsclientserveraddress", "ip", "ifconfig", "ifdown", "ifup", "nmcli", "route", "ipconfig", "arp", "tc", "brctl", "wg", "wg-quick", "resolvectl")
}

func ruleSedInPlace(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	inPlace := c.Flag('i', "--in-place")
	for _, a := range c.Args {
		if strings.HasPrefix(a, "-i") || strings.HasPrefix(a, "--in-place") || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.Contains(a, "i") && strings.Trim(a[1:], "nEsuzri") == "" {
			inPlace = true
		}
		if a == "--" {
			break
		}
	}
	if !inPlace {
		return rules.PkAllow(c, 0, "text.sed", "sed prints edited text; no file changes")
	}
	ops := rules.PkPos(c.Args, pkVFSysfiles1)
	_, hasE := rules.PkVal(c, "-e", "--expression", "-f", "--file")
	files := ops
	if !hasE && len(files) > 0 {
		files = files[1:] // the script
	}
	// "-i.bak" with the suffix as a separate word is not a file either.
	var fs []rules.Finding
	for _, f := range files {
		if r, ok := rules.PkWriteTarget(c, x, f, "sed -i"); ok {
			fs = append(fs, r)
		}
	}
	if len(fs) == 0 {
		return rules.PkAllow(c, 1, "text.sed-inplace", "sed edits files in place")
	}
	w := rules.Worst(fs...)
	if w.Risk < 1 && !w.RedLine {
		w.Risk = 1
	}
	return w, true
}

var pkAdminGroups = rules.PkSet("sudo", "wheel", "admin", "root", "disk", "shadow", "administrators", "admins", "domain admins", "sys")

// Groups that grant root-equivalent access to a service (docker), often
// part of a documented setup: confirm rather than block.
var pkPowerGroups = rules.PkSet("docker", "lxd", "libvirt", "kvm", "adm", "staff", "remote desktop users", "systemd-journal", "podman")

func ruleUsers(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	adminGroup := func() bool {
		for i, a := range c.Args {
			for _, g := range strings.Split(strings.ToLower(a), ",") {
				if pkAdminGroups.Has(g) && (i > 0 || c.Name == "gpasswd") {
					return true
				}
			}
		}
		if v, ok := rules.PkWinVal(c, "group"); ok && pkAdminGroups.Has(strings.ToLower(v)) {
			return true
		}
		return false
	}
	powerGroup := func() bool {
		for i, a := range c.Args {
			for _, g := range strings.Split(strings.ToLower(a), ",") {
				if pkPowerGroups.Has(g) && (i > 0 || c.Name == "gpasswd") {
					return true
				}
			}
		}
		v, ok := rules.PkWinVal(c, "group")
		return ok && pkPowerGroups.Has(strings.ToLower(v))
	}
	switch c.Name {
	case "usermod", "gpasswd", "add-localgroupmember", "groupmod":
		if !adminGroup() && powerGroup() && (c.Flag('a', "--append") || c.Name != "usermod") {
			return rules.PkRet(c, 2.3, 0.7, "sys.power-group", "adds an account to a group with root-equivalent access to a service (e.g. docker)")
		}
		if adminGroup() || c.Name == "usermod" && (rules.PkHas(c, "-u") && rules.PkHas(c, "0") || c.Flag('o', "--non-unique")) {
			return rules.PkRet(c, 3, 0.95, "sys.admin-group", "gives an account administrator/root rights")
		}
		if c.Name == "gpasswd" && len(c.Args) == 1 {
			return rules.PkRet(c, 2, 0.6, "sys.group-password", "sets a group password")
		}
		return rules.PkRet(c, 2.6, rules.RedLineAt, "sys.account-edit", "changes a system account (the password and group databases)")
	case "useradd", "adduser", "new-localuser", "newusers", "addgroup", "groupadd", "new-localgroup":
		if adminGroup() || (c.Flag('o', "--non-unique") || rules.PkHas(c, "-ou")) && (rules.PkValIs(c, "-u", "0") || rules.PkValIs(c, "--uid", "0") || rules.PkHas(c, "0")) {
			return rules.PkRet(c, 3, 0.95, "sys.admin-user", "creates an account with administrator/root rights")
		}
		if c.Name == "addgroup" || c.Name == "groupadd" || c.Name == "new-localgroup" {
			if len(c.Operands()) == 2 && c.Name == "addgroup" && pkAdminGroups.Has(strings.ToLower(c.Operands()[1])) {
				return rules.PkRet(c, 3, 0.95, "sys.admin-group", "gives an account administrator/root rights")
			}
			return rules.PkRet(c, 1.8, 0.5, "sys.group-add", "creates a system group")
		}
		if c.Name == "adduser" && len(c.Operands()) == 2 {
			if pkAdminGroups.Has(strings.ToLower(c.Operands()[1])) {
				return rules.PkRet(c, 3, 0.95, "sys.admin-group", "gives an account administrator/root rights")
			}
			return rules.PkRet(c, 2.2, 0.6, "sys.group-member", "adds an account to a group")
		}
		return rules.PkRet(c, 2.3, 0.7, "sys.user-add", "creates a system account")
	case "userdel", "deluser", "remove-localuser", "groupdel", "delgroup", "remove-localgroup", "remove-localgroupmember":
		return rules.PkRet(c, 2.7, rules.RedLineAt, "sys.user-delete", "deletes a system account or group (with -r its home too)")
	case "passwd":
		if c.Flag('S', "--status") || rules.PkHas(c, "-S") {
			return rules.PkAllow(c, 0, "sys.passwd-status", "shows password status")
		}
		if len(c.Operands()) > 0 || c.Flag('d', "--delete") || c.Flag('l', "--lock") || c.Flag('u', "--unlock") || c.Flag('e', "--expire") || c.Flag(0, "--stdin") {
			return rules.PkRet(c, 2.7, rules.RedLineAt, "sys.passwd", "changes, deletes or locks another account's password")
		}
		return rules.PkRet(c, 2, 0.6, "sys.passwd-self", "changes the user's password")
	case "chpasswd", "vipw", "vigr", "pwconv", "set-localuser", "enable-localuser", "disable-localuser":
		return rules.PkRet(c, 2.7, rules.RedLineAt, "sys.passwords", "rewrites account passwords or the password database")
	case "chage":
		if c.Flag('l', "--list") {
			return rules.PkAllow(c, 0, "sys.chage-list", "shows password aging")
		}
		return rules.PkRet(c, 2, 0.6, "sys.chage", "changes password aging")
	case "visudo":
		if c.Flag('c', "--check") {
			return rules.PkAllow(c, 0, "sys.visudo-check", "checks sudoers syntax")
		}
		return rules.PkRet(c, 3, 0.9, "sys.visudo", "edits the sudoers file (root access)")
	case "chsh", "chfn":
		return rules.PkRet(c, 1.5, 0.3, "sys.chsh", "changes an account's login shell or info")
	}
	return rules.Finding{}, false
}

func ruleFirewall(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	low := " " + strings.ToLower(strings.Join(c.Args, " ")) + " "
	ops := rules.PkLowOps(c)
	switch c.Name {
	case "netsh":
		switch {
		case strings.Contains(low, " state off") || strings.Contains(low, "opmode disable") || strings.Contains(low, "opmode mode=disable"):
			return rules.PkRet(c, 2.8, rules.RedLineAt, "net.firewall-off", "turns the Windows firewall off")
		case strings.Contains(low, "advfirewall reset"):
			return rules.PkRet(c, 2.5, 0.7, "net.firewall-reset", "resets the Windows firewall")
		case strings.Contains(low, "key=clear"):
			return rules.Finding{}, false // creds pack
		case strings.Contains(low, " show ") || strings.HasSuffix(strings.TrimSpace(low), " show") || strings.Contains(low, " dump") || len(ops) == 0:
			return rules.PkAllow(c, 0, "net.netsh-read", "reads network configuration")
		case strings.Contains(low, "portproxy") && strings.Contains(low, " add "):
			return rules.PkRet(c, 2.3, 0.6, "net.portproxy", "forwards a port to another host")
		case strings.Contains(low, " add ") || strings.Contains(low, " delete ") || strings.Contains(low, " set ") || strings.Contains(low, " reset"):
			return rules.PkRet(c, 2, 0.4, "net.netsh-change", "changes firewall or network configuration")
		}
		return rules.PkUnsure(c, 1.5, "net.netsh", "network shell command")
	case "iptables", "ip6tables":
		switch {
		case c.Flag('F', "--flush") || c.Flag('X', "--delete-chain"):
			if pos := rules.PkPos(c.Args, pkVFIptables); len(pos) > 0 {
				return rules.PkRet(c, 2.3, 0.6, "net.iptables-flush-chain", "flushes the firewall chain "+pos[0])
			}
			return rules.PkRet(c, 2.7, 0.7, "net.iptables-flush", "flushes firewall rules (opens the host or cuts it off)")
		case c.Flag('P', "--policy"):
			return rules.PkRet(c, 2.6, 0.7, "net.iptables-policy", "changes a default firewall policy")
		case c.Flag('A', "--append") || c.Flag('I', "--insert") || c.Flag('D', "--delete") || c.Flag('R', "--replace") || c.Flag('N', "--new-chain") || c.Flag('Z', "--zero"):
			return rules.PkRet(c, 2, 0.4, "net.iptables-rule", "changes firewall rules")
		}
		return rules.PkAllow(c, 0, "net.iptables-read", "lists firewall rules")
	case "iptables-restore", "ip6tables-restore":
		return rules.PkRet(c, 2.3, 0.6, "net.iptables-restore", "replaces the firewall rules")
	case "iptables-save":
		return rules.PkAllow(c, 0, "net.iptables-read", "prints firewall rules")
	case "nft":
		switch {
		case strings.Contains(low, " flush "):
			return rules.PkRet(c, 2.7, 0.7, "net.nft-flush", "flushes firewall rules")
		case len(ops) > 0 && (ops[0] == "list" || ops[0] == "monitor" || ops[0] == "describe"):
			return rules.PkAllow(c, 0, "net.nft-read", "lists firewall rules")
		}
		return rules.PkRet(c, 2, 0.4, "net.nft-change", "changes firewall rules")
	case "ufw":
		if len(ops) == 0 {
			return rules.PkAllow(c, 0, "net.ufw-help", "shows usage")
		}
		switch ops[0] {
		case "disable", "reset":
			return rules.PkRet(c, 2.7, 0.7, "net.firewall-off", "turns the firewall off or resets it")
		case "status", "show", "app", "version":
			return rules.PkAllow(c, 0, "net.ufw-read", "reads firewall state")
		}
		return rules.PkRet(c, 2, 0.4, "net.ufw-change", "changes firewall rules")
	case "firewall-cmd":
		switch {
		case strings.Contains(low, "--panic-on"):
			return rules.PkRet(c, 2.7, 0.6, "net.firewall-panic", "drops all network traffic")
		case strings.Contains(low, "--list") || strings.Contains(low, "--state") || strings.Contains(low, "--get") || strings.Contains(low, "--query") || strings.Contains(low, "--info"):
			return rules.PkAllow(c, 0, "net.firewalld-read", "reads firewall state")
		}
		return rules.PkRet(c, 2, 0.4, "net.firewalld-change", "changes firewall rules")
	case "set-netfirewallprofile", "set-netfirewallrule", "disable-netfirewallrule":
		if strings.Contains(low, "-enabled false") || strings.Contains(low, "-enabled 0") || strings.Contains(low, "-enabled:$false") || strings.Contains(low, "-enabled:false") || c.Name == "set-netfirewallprofile" && strings.Contains(low, "-enabled "+shell.Dyn) {
			return rules.PkRet(c, 2.8, rules.RedLineAt, "net.firewall-off", "turns the Windows firewall off")
		}
		return rules.PkRet(c, 2, 0.4, "net.firewall-change", "changes firewall rules")
	case "new-netfirewallrule", "remove-netfirewallrule":
		return rules.PkRet(c, 2, 0.4, "net.firewall-change", "changes firewall rules")
	case "get-netfirewallprofile", "get-netfirewallrule":
		return rules.PkAllow(c, 0, "net.firewall-read", "reads firewall state")
	case "pfctl":
		if c.Flag('d', "") || c.Flag('F', "") {
			return rules.PkRet(c, 2.7, 0.7, "net.firewall-off", "disables or flushes the packet filter")
		}
		if c.Flag('s', "") && len(c.Args) <= 2 {
			return rules.PkAllow(c, 0, "net.pf-read", "reads the packet filter")
		}
		return rules.PkRet(c, 2, 0.4, "net.pf-change", "changes the packet filter")
	}
	return rules.Finding{}, false
}

func ruleSecurityModes(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	switch c.Name {
	case "getenforce":
		return rules.PkAllow(c, 0, "sec.getenforce", "reads SELinux mode")
	case "setenforce":
		if len(ops) > 0 && (ops[0] == "1" || ops[0] == "enforcing") {
			return rules.PkAllow(c, 1, "sec.setenforce-on", "turns SELinux enforcement on")
		}
		return rules.PkRet(c, 2.7, 0.8, "sec.selinux-off", "turns SELinux enforcement off")
	case "aa-disable", "aa-teardown", "aa-complain":
		return rules.PkRet(c, 2.6, 0.75, "sec.apparmor-off", "turns AppArmor protection off")
	case "csrutil":
		if len(ops) > 0 && (ops[0] == "disable" || ops[0] == "authenticated-root") {
			return rules.PkRet(c, 3, 0.9, "sec.sip-off", "turns System Integrity Protection off")
		}
		return rules.PkAllow(c, 0, "sec.csrutil", "reads SIP state")
	case "spctl":
		if strings.Contains(strings.ToLower(c.Raw), "disable") || strings.Contains(strings.ToLower(c.Raw), "--master-disable") {
			return rules.PkRet(c, 2.7, 0.8, "sec.gatekeeper-off", "turns Gatekeeper off")
		}
		if c.Flag(0, "--add") {
			return rules.PkRet(c, 2, 0.5, "sec.gatekeeper-allow", "allows an app past Gatekeeper")
		}
		return rules.PkAllow(c, 0, "sec.spctl", "reads Gatekeeper state")
	case "set-executionpolicy":
		if v, ok := rules.PkWinVal(c, "scope"); ok && strings.EqualFold(v, "process") {
			return rules.PkAllow(c, 1, "sec.execpolicy-process", "relaxes the script policy for this session only")
		}
		low := strings.ToLower(c.Raw)
		if strings.Contains(low, "unrestricted") || strings.Contains(low, "bypass") {
			return rules.PkRet(c, 2, 0.5, "sec.execpolicy", "lets every script run without signature checks")
		}
		return rules.PkRet(c, 1.5, 0.3, "sec.execpolicy", "changes the script execution policy")
	case "enable-psremoting":
		return rules.PkRet(c, 2.2, 0.6, "sec.psremoting", "opens the machine to remote PowerShell sessions")
	case "disable-uac":
		return rules.PkRet(c, 3, 0.9, "sec.uac-off", "turns UAC off")
	}
	return rules.Finding{}, false
}

func ruleKernel(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	switch c.Name {
	case "sysctl":
		if c.Flag('w', "--write") || c.Flag('p', "--load") || c.Flag(0, "--system") {
			return rules.PkRet(c, 2, 0.5, "sys.sysctl", "changes kernel settings")
		}
		for _, o := range ops {
			if strings.Contains(o, "=") {
				return rules.PkRet(c, 2, 0.5, "sys.sysctl", "changes kernel settings")
			}
		}
		return rules.PkAllow(c, 0, "sys.sysctl-read", "reads kernel settings")
	case "modprobe", "insmod", "rmmod", "kextload", "kextunload":
		if c.Name == "modprobe" && (c.Flag('n', "--dry-run") || c.Flag('c', "--showconfig")) {
			return rules.PkAllow(c, 0, "sys.modprobe-read", "reads module configuration")
		}
		return rules.PkRet(c, 2.2, 0.5, "sys.kernel-module", "loads or unloads kernel modules")
	case "mount":
		if len(ops) == 0 && !c.Flag('a', "--all") || c.Flag('l', "") && len(ops) == 0 {
			return rules.PkAllow(c, 0, "sys.mount-list", "lists mounts")
		}
		if o, _ := rules.PkVal(c, "-o", "--options"); strings.Contains(o, "remount") {
			return rules.PkRet(c, 2.2, 0.5, "sys.remount", "remounts a file system with other options")
		}
		return rules.PkRet(c, 1.8, 0.3, "sys.mount", "mounts a file system")
	case "umount":
		if c.Flag('a', "--all") || c.Flag('l', "--lazy") && c.Flag('f', "--force") {
			return rules.PkRet(c, 2.3, 0.3, "sys.umount-all", "unmounts file systems in use")
		}
		for _, o := range ops {
			if o == "/" || o == "/home" || o == "/boot" || o == "/usr" || o == "/var" {
				return rules.PkRet(c, 2.5, 0.4, "sys.umount-system", "unmounts a system file system")
			}
		}
		return rules.PkRet(c, 1.5, 0.2, "sys.umount", "unmounts a file system")
	case "swapoff":
		return rules.PkRet(c, 2, 0.3, "sys.swapoff", "turns swap off (memory pressure)")
	case "swapon":
		if c.Flag('s', "--show") || len(c.Args) == 0 {
			return rules.PkAllow(c, 0, "sys.swap-read", "shows swap")
		}
		return rules.PkRet(c, 1.5, 0.2, "sys.swapon", "turns swap on")
	case "hostnamectl":
		if len(ops) > 0 && strings.HasPrefix(ops[0], "set-") {
			return rules.PkRet(c, 2, 0.5, "sys.hostname", "renames the machine")
		}
		return rules.PkAllow(c, 0, "sys.hostnamectl", "reads host information")
	case "hostname":
		if len(ops) > 0 && !c.Flag('I', "--all-ip-addresses") && !c.Flag('i', "--ip-address") {
			return rules.PkRet(c, 2, 0.5, "sys.hostname", "renames the machine")
		}
		return rules.PkAllow(c, 0, "sys.hostname", "prints the host name")
	case "timedatectl":
		if len(ops) > 0 && strings.HasPrefix(ops[0], "set-") {
			return rules.PkRet(c, 1.5, 0.3, "sys.time", "changes the system clock or time zone")
		}
		return rules.PkAllow(c, 0, "sys.timedatectl", "reads the clock")
	case "date":
		// date -s / --set=..., or date MMDDhhmm[[CC]YY][.ss]: sets the clock.
		if _, ok := rules.PkVal(c, "-s", "--set"); ok || len(ops) == 1 && len(ops[0]) >= 8 && strings.Trim(ops[0], "0123456789.") == "" {
			return rules.PkRet(c, 1.5, 0.3, "sys.time", "changes the system clock or time zone")
		}
		return rules.Finding{}, false
	case "hwclock":
		if c.Flag('w', "--systohc") || c.Flag('s', "--hctosys") || c.Flag(0, "--set", "--adjust") {
			return rules.PkRet(c, 1.5, 0.3, "sys.time", "changes the system clock or time zone")
		}
		return rules.PkAllow(c, 0, "sys.timedatectl", "reads the clock")
	case "update-alternatives":
		if c.Flag(0, "--install", "--set", "--config", "--remove", "--remove-all", "--auto", "--all") {
			return rules.PkRet(c, 1.5, 0.3, "sys.alternatives", "changes which program a system command runs")
		}
		return rules.PkAllow(c, 0, "sys.alternatives-read", "reads alternatives")
	case "ldconfig":
		return rules.PkAllow(c, 1, "sys.ldconfig", "refreshes the library cache")
	case "setx":
		if rules.PkWinFlag(c, "m") {
			return rules.PkRet(c, 2.2, 0.6, "sys.setx-machine", "sets a machine-wide environment variable (registry)")
		}
		return rules.PkAllow(c, 1, "sys.setx", "sets a user environment variable")
	case "dism":
		low := strings.ToLower(c.Raw)
		if strings.Contains(low, "/disable-feature") || strings.Contains(low, "/remove-package") || strings.Contains(low, "/remove-capability") || strings.Contains(low, "/cleanup-image") && strings.Contains(low, "/resetbase") {
			return rules.PkRet(c, 2.3, 0.6, "sys.dism-remove", "removes Windows components")
		}
		if strings.Contains(low, "/enable-feature") || strings.Contains(low, "/add-package") || strings.Contains(low, "/add-capability") || strings.Contains(low, "/restorehealth") || strings.Contains(low, "/apply-image") {
			return rules.PkRet(c, 2, 0.5, "sys.dism-change", "changes Windows components")
		}
		return rules.PkAllow(c, 0, "sys.dism-read", "reads Windows components")
	case "sfc":
		if rules.PkWinFlag(c, "scannow", "scanfile") {
			return rules.PkRet(c, 1.5, 0.2, "sys.sfc", "repairs Windows system files")
		}
		return rules.PkAllow(c, 0, "sys.sfc-verify", "verifies system files")
	case "chkdsk":
		if rules.PkWinFlag(c, "f", "r", "x", "b") {
			return rules.PkRet(c, 2, 0.3, "sys.chkdsk-fix", "repairs a disk (may need a reboot, may lose damaged files)")
		}
		return rules.PkAllow(c, 0, "sys.chkdsk", "checks a disk read-only")
	case "fsutil":
		low := strings.ToLower(strings.Join(ops, " "))
		switch {
		case strings.Contains(low, "usn deletejournal"), strings.Contains(low, "setzerodata"):
			return rules.PkRet(c, 2.8, rules.RedLineAt, "sys.fsutil-erase", "erases file-system journals or file contents")
		case strings.Contains(low, "query") || strings.Contains(low, "info") || len(ops) <= 1:
			return rules.PkAllow(c, 0, "sys.fsutil-read", "reads file-system information")
		}
		return rules.PkRet(c, 2, 0.5, "sys.fsutil", "changes file-system behaviour")
	case "enable-windowsoptionalfeature", "disable-windowsoptionalfeature":
		return rules.PkRet(c, 2, 0.5, "sys.feature", "changes Windows features")
	case "nvram":
		if c.Flag('p', "") || len(c.Args) == 0 {
			return rules.PkAllow(c, 0, "sys.nvram-read", "reads firmware variables")
		}
		return rules.PkRet(c, 2.6, 0.8, "sys.nvram", "changes firmware variables")
	case "scutil", "networksetup":
		for _, a := range c.Args {
			la := strings.ToLower(a)
			if la == "--set" || strings.HasPrefix(la, "-set") || strings.HasPrefix(la, "-remove") || strings.HasPrefix(la, "-delete") {
				return rules.PkRet(c, 2, 0.4, "sys.macos-net", "changes macOS network or host settings")
			}
		}
		return rules.PkAllow(c, 0, "sys.macos-net-read", "reads macOS network settings")
	}
	return rules.Finding{}, false
}

func ruleNetAdmin(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	has := func(w string) bool { return rules.PkContains(ops, w) }
	switch c.Name {
	case "disable-netadapter", "remove-netipaddress", "remove-netroute":
		return rules.PkRet(c, 2.2, 0.4, "net.ps-adapter", "takes network configuration down (may cut the connection)")
	case "set-netipaddress", "set-dnsclientserveraddress":
		return rules.PkRet(c, 1.8, 0.3, "net.ps-adapter-set", "changes network configuration")
	case "ip":
		if len(ops) < 2 {
			return rules.PkAllow(c, 0, "net.ip-read", "shows network state")
		}
		switch ops[1] {
		case "del", "delete", "flush", "set":
			if ops[1] == "set" && !has("down") {
				return rules.PkRet(c, 1.8, 0.3, "net.ip-set", "changes a network interface")
			}
			return rules.PkRet(c, 2.2, 0.4, "net.ip-remove", "takes down or removes network configuration (may cut the connection)")
		case "add", "append", "change", "replace":
			return rules.PkRet(c, 1.8, 0.3, "net.ip-add", "changes network configuration")
		}
		return rules.PkAllow(c, 0, "net.ip-read", "shows network state")
	case "ifconfig":
		if has("down") {
			return rules.PkRet(c, 2.2, 0.4, "net.if-down", "takes a network interface down")
		}
		if len(ops) >= 2 {
			return rules.PkRet(c, 1.8, 0.3, "net.if-set", "changes a network interface")
		}
		return rules.PkAllow(c, 0, "net.ifconfig", "shows interfaces")
	case "ifdown":
		return rules.PkRet(c, 2.2, 0.4, "net.if-down", "takes a network interface down")
	case "ifup":
		return rules.PkRet(c, 1.5, 0.2, "net.if-up", "brings a network interface up")
	case "nmcli":
		if has("down") || has("delete") || has("off") && (has("networking") || has("radio")) || has("disconnect") {
			return rules.PkRet(c, 2.2, 0.4, "net.nmcli-down", "takes network connections down or deletes them")
		}
		if has("modify") || has("add") || has("up") || has("connect") || has("on") || has("reload") {
			return rules.PkRet(c, 1.5, 0.2, "net.nmcli-change", "changes network connections")
		}
		return rules.PkAllow(c, 0, "net.nmcli-read", "shows network state")
	case "route":
		if has("del") || has("delete") || has("flush") || has("add") || has("change") {
			return rules.PkRet(c, 2, 0.4, "net.route-change", "changes the routing table")
		}
		return rules.PkAllow(c, 0, "net.route-read", "shows routes")
	case "ipconfig":
		if rules.PkWinFlag(c, "release", "release6", "renew", "renew6") {
			return rules.PkRet(c, 1.8, 0.2, "net.ipconfig-release", "drops or renews the IP address (connection blips)")
		}
		return rules.PkAllow(c, 0, "net.ipconfig", "shows or flushes network state")
	case "arp":
		if c.Flag('d', "--delete") || c.Flag('s', "--set") {
			return rules.PkRet(c, 1.5, 0.2, "net.arp-change", "changes the ARP table")
		}
		return rules.PkAllow(c, 0, "net.arp-read", "shows the ARP table")
	case "tc", "brctl":
		if len(ops) > 1 && (has("add") || has("del") || has("delete") || has("change") || has("replace") || has("delbr") || has("addbr")) {
			return rules.PkRet(c, 2, 0.3, "net.tc", "changes traffic control or bridges")
		}
		return rules.PkAllow(c, 0, "net.tc-read", "shows traffic control")
	case "wg", "wg-quick":
		if has("down") || has("set") || has("up") || has("syncconf") || has("setconf") {
			return rules.PkRet(c, 1.8, 0.3, "net.wireguard", "changes a VPN tunnel")
		}
		if has("showconf") || has("show") && has("private-key") {
			return rules.PkRet(c, 1.5, 0.5, "creds.wireguard", "prints VPN private keys")
		}
		return rules.PkAllow(c, 0, "net.wg-read", "shows VPN state")
	case "resolvectl":
		if has("flush-caches") || has("statistics") || has("status") || has("query") || len(ops) == 0 {
			return rules.PkAllow(c, 0, "net.resolvectl", "reads or flushes the DNS cache")
		}
		return rules.PkRet(c, 1.8, 0.3, "net.resolvectl-change", "changes DNS settings")
	}
	return rules.Finding{}, false
}

// Flag sets hoisted out of the rules (built once, not per command).
var (
	pkVFSysfiles1 = rules.PkSet("-e", "--expression", "-f", "--file", "-l", "--line-length")
)

var pkVFIptables = rules.PkSet("-t", "--table", "-w", "--wait")
