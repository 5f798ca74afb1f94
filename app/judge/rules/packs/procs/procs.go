package procs

// Processes, services, power and scheduled jobs. Killing or stopping
// something affects running services (risk 2, confirm); killing everything,
// system-critical processes, shutting the machine down or wiping the
// crontab is destructive (block).

import (
	"strconv"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

func init() {
	pack.On(ruleKill, "kill")
	pack.On(rulePkill, "pkill", "killall", "skill", "slay")
	pack.On(ruleKillall5, "killall5")
	pack.On(ruleTaskkill, "taskkill", "tskill")
	pack.On(ruleStopProcess, "stop-process", "spps")
	pack.On(ruleSystemctl, "systemctl")
	pack.On(ruleService, "service", "rc-service", "invoke-rc.d")
	pack.On(ruleSc, "sc")
	pack.On(rulePSService, "stop-service", "restart-service", "suspend-service", "start-service", "set-service", "remove-service", "new-service", "get-service")
	pack.On(ruleNet, "net", "net1")
	pack.On(ruleLaunchctl, "launchctl")
	pack.On(rulePower, "shutdown", "reboot", "halt", "poweroff", "restart-computer", "stop-computer", "logoff", "telinit", "init")
	pack.On(ruleCrontab, "crontab")
	pack.On(ruleAt, "at", "atrm", "batch", "atq")
	pack.On(ruleSchtasks, "schtasks")
	pack.On(rulePSTasks, "register-scheduledtask", "unregister-scheduledtask", "new-scheduledtask", "set-scheduledtask", "disable-scheduledtask", "start-scheduledtask", "stop-scheduledtask", "new-scheduledtaskaction", "new-scheduledtasktrigger")
	pack.On(ruleWsl, "wsl")
	pack.On(ruleLoginctl, "loginctl")
	pack.On(ruleFuser, "fuser", "kill-port", "fkill", "xkill")
	pack.On(ruleWebServer, "nginx", "apachectl", "apache2ctl", "httpd", "caddy")
}

func pkKillGuard(c *shell.Cmd) (rules.Finding, bool) {
	if rules.KillsGuard(c) {
		return rules.PkRet(c, 3, 1, "self.kill-guard", "kills agent-guard itself; the agent may not switch its guard off")
	}
	return rules.Finding{}, false
}

// pkKillsAll: a kill of every process kills the guard too, so it is
// self.kill-guard (a red line) here as well, not only when KillsGuard
// sees it: the forms it misses (pkill -f "", kill -1 alone) still block
// as the guard's own, and no broad kill can be lifted by an allowlist.
func pkKillsAll(c *shell.Cmd, what string) (rules.Finding, bool) {
	return rules.PkRet(c, 3, 1, "self.kill-guard", what+", agent-guard's too: an agent must not switch off its own guard; ask the user to do it")
}

func ruleKill(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if f, ok := pkKillGuard(c); ok {
		return f, ok
	}
	if c.Flag('l', "--list") || c.Flag('L', "--table") {
		return rules.PkAllow(c, 0, "proc.kill-list", "lists signal names")
	}
	ops := c.Operands()
	sig0 := rules.PkHas(c, "-0", "-s0") || rules.PkHasPrefix(c, "--signal=0")
	if v, ok := rules.PkVal(c, "-s", "-n", "--signal"); ok && (v == "0") {
		sig0 = true
	}
	if sig0 {
		return rules.PkAllow(c, 0, "proc.kill-probe", "only checks that a process exists (signal 0)")
	}
	// "-1" as an operand (after a signal) or "kill -9 -1": every process.
	for i, a := range c.Args {
		if a == "-1" && i > 0 || a == "-1" && len(c.Args) == 1 {
			return pkKillsAll(c, "kill -1 signals every process the user can reach")
		}
	}
	for _, o := range ops {
		if o == "1" {
			return rules.PkRet(c, 3, 0.6, "proc.kill-init", "signals PID 1 (init), which takes the whole system down")
		}
	}
	if len(ops) > 0 {
		allJobs := true
		for _, o := range ops {
			if !strings.HasPrefix(o, "%") {
				allJobs = false
			}
		}
		if allJobs {
			return rules.PkAllow(c, 1, "proc.kill-job", "stops a background job of this shell")
		}
	}
	if len(ops) > 0 && !elevated(c) && !strings.Contains(c.Raw, "$(") && !strings.Contains(c.Raw, "`") &&
		strings.Count(c.Raw, "$!")+strings.Count(c.Raw, "${!}") == len(ops) {
		// kill $!: the PID of the job this shell last started in the
		// background (npm run dev & ... kill $!), its own process like %1.
		allBg := true
		for _, o := range ops {
			if !rules.PkDyn(o) {
				allBg = false
			}
		}
		if allBg {
			return rules.PkAllow(c, 1, "proc.kill-job", "stops the job this shell last started in the background ($!)")
		}
	}
	// PowerShell's kill alias: kill -Name x / kill -Id n.
	return rules.PkRet(c, 2, 0.2, "proc.kill", "terminates running processes")
}

func rulePkill(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if f, ok := pkKillGuard(c); ok {
		return f, ok
	}
	pos := rules.PkPos(c.Args, pkKillVal)
	_, byUser := rules.PkVal(c, "-u", "--euid", "-U", "--uid", "--user")
	if byUser && len(pos) == 0 {
		return rules.PkRet(c, 2.4, 0.5, "proc.kill-user", "kills every process of a user (their shells, editors, the agent itself)")
	}
	for _, p := range pos {
		if p == "." || p == ".*" || p == "^" || p == "" || p == ".+" {
			return pkKillsAll(c, "the pattern "+strconv.Quote(p)+" matches every process")
		}
	}
	ops := c.Operands()
	for _, o := range ops {
		switch strings.ToLower(o) {
		case "init", "systemd", "sshd", "launchd", "kernel_task", "dbus-daemon", "xorg", "gnome-shell", "explorer.exe", "csrss.exe", "lsass.exe", "winlogon.exe":
			return rules.PkRet(c, 3, 0.6, "proc.kill-critical", "kills a process the system or your session depends on")
		}
	}
	if c.Name == "killall" && len(ops) == 0 && !c.Flag('l', "--list") {
		return rules.PkRet(c, 2, 0.2, "proc.killall", "kills processes by name")
	}
	if c.Flag('l', "--list") && c.Name == "killall" {
		return rules.PkAllow(c, 0, "proc.kill-list", "lists signal names")
	}
	return rules.PkRet(c, 2, 0.2, "proc."+c.Name, "kills processes by name or pattern")
}

func ruleKillall5(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	return pkKillsAll(c, "killall5 signals every process on the system")
}

var pkCriticalWin = rules.PkSet("csrss.exe", "lsass.exe", "winlogon.exe", "wininit.exe", "smss.exe", "services.exe", "svchost.exe", "system", "explorer.exe", "dwm.exe", "csrss", "lsass", "winlogon", "wininit", "svchost", "services", "smss")

func ruleTaskkill(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if f, ok := pkKillGuard(c); ok {
		return f, ok
	}
	if im, ok := rules.PkWinVal(c, "im"); ok {
		if pkCriticalWin.Has(strings.ToLower(im)) {
			return rules.PkRet(c, 3, 0.6, "proc.taskkill-critical", "kills a Windows system process (crash, logoff)")
		}
		if im == "*" || im == "*.*" {
			return pkKillsAll(c, "taskkill /IM "+im+" kills every process")
		}
	}
	if _, ok := rules.PkWinVal(c, "fi"); ok && !rules.PkWinFlag(c, "im", "pid") {
		v, _ := rules.PkWinVal(c, "fi")
		lv := strings.Join(strings.Fields(strings.ToLower(v)), " ")
		// Every image name: the guard's processes are among them.
		if lv == "imagename eq *" || lv == "imagename eq *.*" {
			return pkKillsAll(c, "taskkill /FI \""+v+"\" kills every process it filters for")
		}
		if strings.Contains(lv, "username") || strings.Contains(lv, "status") || strings.Contains(lv, "memusage") {
			return rules.PkRet(c, 2.7, 0.6, "proc.taskkill-filter", "kills every process matching a broad filter")
		}
	}
	if pid, ok := rules.PkWinVal(c, "pid"); ok && (pid == "4" || pid == "0") {
		return rules.PkRet(c, 3, 0.6, "proc.taskkill-critical", "kills the Windows System process")
	}
	return rules.PkRet(c, 2, 0.2, "proc.taskkill", "terminates Windows processes")
}

func ruleStopProcess(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if f, ok := pkKillGuard(c); ok {
		return f, ok
	}
	for _, a := range c.Args {
		if pkCriticalWin.Has(strings.ToLower(a)) {
			return rules.PkRet(c, 3, 0.6, "proc.stop-critical", "stops a Windows system process")
		}
	}
	if len(c.PipedFrom) > 0 && len(c.Operands()) == 0 && !rules.PkWinFlag(c, "name", "id", "n") {
		for _, o := range rules.PkAll(x) {
			if (o.Name == "get-process" || o.Name == "gps" || o.Name == "ps") && rules.PkContains(o.PipedTo, c.Name) && len(o.Args) == 0 {
				return rules.PkRet(c, 2.8, 0.6, "proc.stop-all", "stops every running process")
			}
		}
		// Get-Process | Stop-Process: everything the filter let through.
		return rules.PkRet(c, 2.2, 0.3, "proc.stop-process-piped", "stops every process the pipeline hands over")
	}
	return rules.PkRet(c, 2, 0.2, "proc.stop-process", "terminates processes")
}

// Units whose loss cuts the machine off or breaks it.
var pkCriticalUnits = []string{"ssh", "sshd", "network", "networking", "networkmanager", "systemd-networkd", "systemd-resolved", "dbus", "systemd-journald", "systemd-logind", "getty", "wpa_supplicant", "docker.socket", "containerd", "kubelet", "firewalld", "ufw", "auditd", "rsyslog", "cron", "crond"}

func pkCriticalUnit(u string) bool {
	u = strings.TrimSuffix(strings.ToLower(u), ".service")
	for _, k := range pkCriticalUnits {
		if u == k || strings.HasPrefix(u, k+"@") {
			return true
		}
	}
	return false
}

var pkSystemctlVal = rules.PkSet("-H", "--host", "-M", "--machine", "-t", "--type", "-p", "--property", "-s", "--signal", "--state", "-o", "--output", "-n", "--lines", "--root", "--kill-whom", "--job-mode")

func ruleSystemctl(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if f, ok := pkKillGuard(c); ok {
		return f, ok
	}
	pos := rules.PkPos(c.Args, pkSystemctlVal)
	if len(pos) == 0 {
		return rules.PkAllow(c, 0, "svc.systemctl-list", "lists units")
	}
	verb := strings.ToLower(pos[0])
	units := pos[1:]
	crit := false
	for _, u := range units {
		if pkCriticalUnit(u) {
			crit = true
		}
	}
	user := c.Flag(0, "--user")
	switch verb {
	case "status", "show", "cat", "list-units", "list-unit-files", "list-sockets", "list-timers", "list-jobs", "list-dependencies", "list-machines",
		"is-active", "is-enabled", "is-failed", "is-system-running", "help", "get-default", "show-environment", "--version", "log-level":
		return rules.PkAllow(c, 0, "svc.systemctl-read", "reads service state")
	case "daemon-reload", "reset-failed", "daemon-reexec":
		return rules.PkAllow(c, 1, "svc.systemctl-reload", "reloads systemd's view of unit files")
	case "start", "reload", "try-restart", "reload-or-restart", "try-reload-or-restart", "restart":
		if user {
			return rules.PkRet(c, 1.5, 0.1, "svc.systemctl-user", "changes a user service")
		}
		if crit && verb == "restart" {
			return rules.PkRet(c, 2.2, 0.3, "svc.systemctl-restart-critical", "restarts a service the machine depends on (ssh, network)")
		}
		return rules.PkRet(c, 2, 0.2, "svc.systemctl-start", "starts or restarts a system service")
	case "stop", "kill", "disable", "mask", "freeze":
		if crit {
			return rules.PkRet(c, 2.7, 0.6, "svc.systemctl-stop-critical", "stops or disables a service the machine depends on (ssh, network, logging, firewall)")
		}
		if user {
			return rules.PkRet(c, 1.5, 0.1, "svc.systemctl-user", "stops a user service")
		}
		return rules.PkRet(c, 2, 0.3, "svc.systemctl-stop", "stops or disables a system service")
	case "enable", "unmask", "link", "preset", "preset-all", "revert", "add-wants", "add-requires", "set-property", "thaw":
		return rules.PkRet(c, 2, 0.5, "svc.systemctl-edit", "changes which services run at boot")
	case "edit", "set-default", "isolate", "switch-root":
		return rules.PkRet(c, 2.5, 0.7, "svc.systemctl-config", "edits system service configuration or the boot target")
	case "poweroff", "reboot", "halt", "kexec", "suspend", "hibernate", "hybrid-sleep", "suspend-then-hibernate", "rescue", "emergency", "soft-reboot", "exit":
		if user && verb == "exit" {
			return rules.PkRet(c, 2, 0.2, "svc.systemctl-user", "ends the user's service manager")
		}
		return rules.PkRet(c, 2.7, 0.5, "power.systemctl", "shuts down, reboots or suspends the machine")
	}
	return rules.PkUnsure(c, 1.5, "svc.systemctl-other", "changes system services")
}

func ruleService(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := c.Operands()
	if c.Flag(0, "--status-all") || len(ops) == 0 {
		return rules.PkAllow(c, 0, "svc.service-list", "lists services")
	}
	if len(ops) < 2 {
		return rules.PkUnsure(c, 1.5, "svc.service", "controls a service")
	}
	unit, verb := ops[0], strings.ToLower(ops[1])
	switch verb {
	case "status":
		return rules.PkAllow(c, 0, "svc.service-status", "reads service state")
	case "stop":
		if pkCriticalUnit(unit) {
			return rules.PkRet(c, 2.7, 0.6, "svc.service-stop-critical", "stops a service the machine depends on (ssh, network)")
		}
		return rules.PkRet(c, 2, 0.3, "svc.service-stop", "stops a system service")
	case "start", "restart", "reload", "force-reload", "condrestart", "try-restart":
		return rules.PkRet(c, 2, 0.2, "svc.service-start", "starts or restarts a system service")
	}
	return rules.PkRet(c, 2, 0.2, "svc.service", "controls a system service")
}

// sc.exe; "sc" is also PowerShell 5's Set-Content alias (-Path/-Value).
func ruleSc(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if rules.PkWinFlag(c, "path", "value", "literalpath") {
		return pkScSetContent(c, x)
	}
	if f, ok := pkKillGuard(c); ok {
		return f, ok
	}
	ops := c.Operands()
	if len(ops) == 0 {
		return rules.PkAllow(c, 0, "svc.sc-help", "shows sc usage")
	}
	if o := ops[0]; !strings.HasPrefix(o, `\\`) && (strings.ContainsAny(o, `/\`) || strings.HasPrefix(o, "$") || strings.HasPrefix(o, "~") || strings.HasPrefix(o, ".") || strings.ContainsRune(o, '.') && len(c.PipedFrom) > 0) {
		// (gc f) -replace a,b | sc f: sc.exe's first word is a verb or
		// \\machine, never a path; a path is Set-Content's
		return pkScSetContent(c, x)
	}
	i := 0
	if strings.HasPrefix(ops[0], `\\`) && len(ops) > 1 { // remote machine
		i = 1
	}
	verb := strings.ToLower(ops[i])
	name := ""
	if i+1 < len(ops) {
		name = ops[i+1]
	}
	switch verb {
	case "query", "queryex", "qc", "qdescription", "qfailure", "qfailureflags", "qsidtype", "qprivs", "qtriggerinfo", "qpreferrednode", "qmanagedaccount", "qprotection", "getdisplayname", "getkeyname", "enumdepend", "sdshow", "showsid", "interrogate", "query-config":
		return rules.PkAllow(c, 0, "svc.sc-read", "reads service state")
	case "stop", "pause", "control":
		if strings.EqualFold(name, "windefend") || strings.EqualFold(name, "eventlog") || strings.EqualFold(name, "mpssvc") || strings.EqualFold(name, "vss") {
			return rules.PkRet(c, 2.7, rules.RedLineAt, "svc.sc-stop-protection", "stops a protective Windows service (Defender, firewall, event log, shadow copies)")
		}
		return rules.PkRet(c, 2, 0.3, "svc.sc-stop", "stops a Windows service")
	case "start", "continue":
		return rules.PkRet(c, 2, 0.2, "svc.sc-start", "starts a Windows service")
	case "create", "delete", "config", "failure", "failureflags", "sidtype", "privs", "managedaccount", "sdset", "triggerinfo", "description":
		return rules.PkRet(c, 3, 0.9, "sys.sc-"+verb, "creates, deletes or reconfigures a Windows service (system configuration)")
	}
	return rules.PkUnsure(c, 1.5, "svc.sc", "controls Windows services")
}

func pkScSetContent(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	p, _ := rules.PkWinVal(c, "path", "literalpath")
	if p == "" {
		if ops := c.Operands(); len(ops) > 0 {
			p = ops[0]
		}
	}
	return rules.PkWriteTarget(c, x, p, "Set-Content")
}

func rulePSService(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if f, ok := pkKillGuard(c); ok {
		return f, ok
	}
	switch c.Name {
	case "get-service":
		return rules.PkAllow(c, 0, "svc.get-service", "reads service state")
	case "new-service", "remove-service":
		return rules.PkRet(c, 3, 0.9, "sys."+c.Name, "creates or deletes a Windows service (system configuration)")
	case "set-service":
		if v, ok := rules.PkWinVal(c, "startuptype"); ok && strings.EqualFold(v, "disabled") {
			return rules.PkRet(c, 2.3, 0.6, "svc.set-service-disable", "disables a Windows service")
		}
		if rules.PkWinFlag(c, "binarypathname", "credential") {
			return rules.PkRet(c, 3, 0.9, "sys.set-service", "rewrites what a Windows service runs or runs as")
		}
		return rules.PkRet(c, 2, 0.4, "svc.set-service", "reconfigures a Windows service")
	case "start-service":
		return rules.PkRet(c, 2, 0.2, "svc.start-service", "starts a Windows service")
	}
	for _, a := range c.Args {
		switch strings.ToLower(a) {
		case "windefend", "eventlog", "mpssvc", "vss", "sense", "wscsvc":
			return rules.PkRet(c, 2.7, rules.RedLineAt, "svc.stop-protection", "stops a protective Windows service (Defender, firewall, event log, shadow copies)")
		}
	}
	return rules.PkRet(c, 2, 0.3, "svc."+c.Name, "stops or restarts a Windows service")
}

func ruleNet(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	if len(ops) == 0 {
		return rules.PkAllow(c, 0, "net.help", "shows net usage")
	}
	add := rules.PkWinFlag(c, "add")
	del := rules.PkWinFlag(c, "delete", "del")
	switch ops[0] {
	case "stop", "pause":
		return rules.PkRet(c, 2, 0.3, "svc.net-stop", "stops a Windows service")
	case "start", "continue":
		if len(ops) == 1 {
			return rules.PkAllow(c, 0, "svc.net-list", "lists started services")
		}
		return rules.PkRet(c, 2, 0.2, "svc.net-start", "starts a Windows service")
	case "user":
		if len(ops) >= 3 || add || del || rules.PkWinFlag(c, "active", "expires", "passwordchg") {
			return rules.PkRet(c, 2.8, rules.RedLineAt, "sys.net-user", "creates, deletes or changes a Windows account or its password")
		}
		return rules.PkAllow(c, 0, "net.user-read", "lists accounts")
	case "localgroup", "group":
		if add || del {
			for _, o := range ops {
				if o == "administrators" || o == "admins" || o == "domain admins" || o == "remote desktop users" {
					return rules.PkRet(c, 3, 0.95, "sys.net-admin-group", "changes membership of an administrators group")
				}
			}
			return rules.PkRet(c, 2.5, 0.7, "sys.net-group", "changes a Windows group")
		}
		return rules.PkAllow(c, 0, "net.group-read", "lists groups")
	case "share":
		if add || del || len(ops) >= 2 && strings.Contains(ops[1], "=") {
			return rules.PkRet(c, 2, 0.4, "net.share", "changes file sharing")
		}
		return rules.PkAllow(c, 0, "net.share-read", "lists shares")
	case "use":
		if del {
			return rules.PkRet(c, 1.5, 0.1, "net.use-delete", "disconnects network drives")
		}
		return rules.PkAllow(c, 1, "net.use", "maps a network drive")
	case "accounts":
		if len(c.Args) > 1 {
			return rules.PkRet(c, 2.5, 0.7, "sys.net-accounts", "changes the password policy")
		}
		return rules.PkAllow(c, 0, "net.accounts-read", "shows the password policy")
	case "view", "statistics", "config", "session", "file", "time", "helpmsg", "help":
		return rules.PkAllow(c, 0, "net.read", "reads network information")
	}
	return rules.PkUnsure(c, 1.5, "net.other", "Windows net command")
}

func ruleLaunchctl(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := c.Operands()
	if len(ops) == 0 {
		return rules.PkAllow(c, 0, "svc.launchctl-help", "shows usage")
	}
	verb := strings.ToLower(ops[0])
	switch verb {
	case "list", "print", "print-cache", "print-disabled", "blame", "procinfo", "hostinfo", "dumpstate", "managerpid", "manageruid", "managername", "version", "help", "getenv", "error", "examine":
		return rules.PkAllow(c, 0, "svc.launchctl-read", "reads launchd state")
	case "load", "unload", "bootstrap", "bootout", "enable", "disable", "kickstart", "kill", "stop", "start", "remove", "submit", "setenv", "unsetenv", "asuser", "reboot", "config":
		if verb != "load" && verb != "bootstrap" && verb != "enable" && verb != "start" && verb != "kickstart" && rules.PkNamesGuard(c.Raw) {
			return rules.PkGuardStop(c, "launchctl "+verb)
		}
		for _, o := range ops[1:] {
			lo := strings.ToLower(o)
			if strings.HasPrefix(lo, "/system/") || strings.Contains(lo, "com.apple.") {
				return rules.PkRet(c, 2.7, 0.7, "svc.launchctl-system", "changes a macOS system service")
			}
		}
		if verb == "reboot" {
			return rules.PkRet(c, 2.7, 0.5, "power.launchctl-reboot", "reboots the machine")
		}
		if verb == "load" || verb == "bootstrap" || verb == "enable" || verb == "submit" {
			return rules.PkRet(c, 2, 0.4, "svc.launchctl-load", "installs a launchd job (runs at login/boot)")
		}
		return rules.PkRet(c, 2, 0.3, "svc.launchctl", "stops or removes a launchd job")
	}
	return rules.PkUnsure(c, 1.5, "svc.launchctl-other", "controls launchd")
}

func rulePower(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	switch c.Name {
	case "shutdown":
		if c.Flag('c', "--cancel") || rules.PkWinFlag(c, "a") || c.Flag(0, "--show") {
			return rules.PkAllow(c, 0, "power.cancel", "cancels or shows a pending shutdown")
		}
		if rules.PkWinFlag(c, "?", "help") || c.Flag(0, "--help") {
			return rules.PkAllow(c, 0, "power.help", "shows usage")
		}
	case "init", "telinit":
		ops := c.Operands()
		if len(ops) == 0 {
			return rules.PkUnsure(c, 1, "power.init", "init without a runlevel")
		}
		switch ops[0] {
		case "0", "6", "1", "s", "S", "halt", "reboot":
			return rules.PkRet(c, 2.7, 0.5, "power.init", "changes the runlevel: halts, reboots or drops to single user")
		}
		return rules.PkRet(c, 2, 0.3, "power.init", "changes the runlevel")
	case "logoff":
		return rules.PkRet(c, 2, 0.3, "power.logoff", "logs the session off")
	case "restart-computer", "stop-computer":
		if rules.PkWinFlag(c, "whatif") {
			return rules.PkAllow(c, 0, "power.whatif", "only shows what would happen")
		}
	case "reboot", "halt", "poweroff":
		if c.Flag(0, "--help") {
			return rules.PkAllow(c, 0, "power.help", "shows usage")
		}
	}
	return rules.PkRet(c, 2.7, 0.5, "power."+c.Name, "shuts down or reboots the machine, stopping everything on it")
}

func ruleCrontab(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if c.Flag('r', "--remove") {
		return rules.PkRet(c, 2.7, 0.6, "cron.remove", "deletes the whole crontab with no backup")
	}
	if c.Flag('l', "--list") {
		return rules.PkAllow(c, 0, "cron.list", "lists cron jobs")
	}
	if c.Flag('e', "--edit") {
		return rules.PkRet(c, 1.5, 0.3, "cron.edit", "edits scheduled jobs (runs later, unattended)")
	}
	// "crontab file" or "crontab -" replaces the table with new jobs.
	base := rules.PkF(c, 2, 0.4, "cron.install", "replaces the crontab: installs scheduled jobs and drops the old ones")
	if f, ok := pkCronJobs(c, x); ok && f.Worse(base) {
		return f, true
	}
	return base, true
}

// pkCronJobs judges the jobs a crontab install is given in the same line
// (echo 'JOB' | crontab -, (crontab -l; echo 'JOB') | crontab -,
// crontab - <<< 'JOB'): each job's command runs unattended, as if run
// now, so it is judged as a command line (cron.job/<its rule>).
func pkCronJobs(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	var text []string
	if s := rules.PkStdinCode(c); s != "" {
		text = append(text, s)
	}
	if len(c.PipedFrom) > 0 || strings.Contains(x.Script, "| crontab") || strings.Contains(x.Script, "|crontab") {
		for _, o := range rules.PkAll(x) {
			// echo JOB | crontab -, or (crontab -l; echo JOB) | crontab -:
			// an echo inside the group piped in (its own scope, no redirect).
			grouped := len(o.PipedTo) == 0 && o.Scope != "" && o.Scope != c.Scope && len(o.Redirs) == 0 && o.Start < c.Start
			if (o.Name == "echo" || o.Name == "printf") && (rules.PkContains(o.PipedTo, "crontab") || grouped) && !o.Dynamic() {
				args := o.Args
				for len(args) > 0 && strings.HasPrefix(args[0], "-") && len(args[0]) <= 3 {
					args = args[1:]
				}
				text = append(text, strings.ReplaceAll(strings.Join(args, " "), "\\n", "\n"))
			}
		}
	}
	var worst rules.Finding
	found := false
	for _, t := range text {
		for _, line := range strings.Split(t, "\n") {
			line = strings.TrimSpace(line)
			if line == "" || line[0] == '#' {
				continue
			}
			f := strings.Fields(line)
			var cmd string
			switch {
			case strings.HasPrefix(f[0], "@") && len(f) > 1:
				cmd = strings.Join(f[1:], " ")
			case len(f) > 5 && !strings.Contains(f[0], "="):
				cmd = strings.Join(f[5:], " ")
			default:
				continue
			}
			j := rules.Bash(cmd, x.Cwd, x.Home)
			if j.Score() < 1.5 && !j.RedLine || rules.SelfRule(j.Rule) {
				continue // the self pack names a job against the guard itself
			}
			j.Rule = "cron.job/" + j.Rule
			j.Reason = "installs a cron job that, run unattended, " + j.Reason
			j.Marked = c.Raw
			if !found || j.Worse(worst) {
				worst, found = j, true
			}
		}
	}
	return worst, found
}

func ruleAt(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if c.Name == "atq" || (c.Name == "at" && c.Flag('l', "")) {
		return rules.PkAllow(c, 0, "cron.atq", "lists queued jobs")
	}
	if c.Name == "atrm" || c.Name == "at" && c.Flag('r', "") || c.Name == "at" && c.Flag('d', "") {
		return rules.PkRet(c, 1.5, 0.1, "cron.atrm", "removes queued jobs")
	}
	base := rules.PkF(c, 1.5, 0.3, "cron.at", "schedules a command to run later, unattended")
	// The job's commands arrive on stdin (here-string, here-doc): judge
	// them like the line itself; they run all the same, only later.
	if job := rules.PkStdinCode(c); job != "" && c.Depth < rules.PkMaxDepth {
		if f := rules.Bash(strings.ReplaceAll(job, shell.Dyn, "$X"), x.Cwd, x.Home); f.Worse(base) {
			f.Rule = "at/" + f.Rule
			f.Reason = "the scheduled job " + f.Reason
			f.Marked = c.Raw
			return f, true
		}
	}
	return base, true
}

// ruleWebServer: nginx -s reload/stop, apachectl graceful/restart/stop
// change a running service (like systemctl restart); -t/-v only check.
func ruleWebServer(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if v, ok := rules.PkVal(c, "-s"); ok {
		return rules.PkRet(c, 1.5, 0.1, "svc.webserver-signal", c.Name+" -s "+v+" reloads or stops the running web server")
	}
	for _, o := range rules.PkLowOps(c) {
		switch o {
		case "restart", "graceful", "stop", "graceful-stop", "start", "reload":
			return rules.PkRet(c, 1.5, 0.1, "svc.webserver", c.Name+" "+o+" changes the running web server")
		}
	}
	if c.Name == "caddy" {
		return rules.Finding{}, false
	}
	return rules.PkAllow(c, 0.5, "svc.webserver-check", c.Name+" checks its configuration or prints its version")
}

func ruleSchtasks(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	switch {
	case rules.PkWinFlag(c, "query", "showsid"):
		return rules.PkAllow(c, 0, "cron.schtasks-query", "lists scheduled tasks")
	case rules.PkWinFlag(c, "delete"):
		if v, _ := rules.PkWinVal(c, "tn"); v == "*" {
			return rules.PkRet(c, 2.7, 0.6, "cron.schtasks-delete-all", "deletes every scheduled task")
		}
		return rules.PkRet(c, 2, 0.3, "cron.schtasks-delete", "deletes a scheduled task")
	case rules.PkWinFlag(c, "create", "change"):
		if v, ok := rules.PkWinVal(c, "ru"); ok && strings.EqualFold(v, "system") {
			return rules.PkRet(c, 2.6, 0.7, "cron.schtasks-system", "schedules a task that runs as SYSTEM")
		}
		return rules.PkRet(c, 2, 0.4, "cron.schtasks-create", "schedules a task (runs later, unattended)")
	case rules.PkWinFlag(c, "run", "end"):
		return rules.PkRet(c, 1.5, 0.1, "cron.schtasks-run", "runs or ends a scheduled task")
	}
	return rules.PkUnsure(c, 1, "cron.schtasks", "scheduled tasks")
}

func ruleWsl(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	switch {
	case c.Flag(0, "--unregister"):
		return rules.PkRet(c, 3, 0.7, "proc.wsl-unregister", "deletes a WSL distribution and all its files")
	case c.Flag(0, "--shutdown", "--terminate") || rules.PkHas(c, "-t"):
		return rules.PkRet(c, 2, 0.2, "proc.wsl-shutdown", "stops WSL distributions")
	case c.Flag('l', "--list", "--status", "--version", "--help"):
		return rules.PkAllow(c, 0, "proc.wsl-read", "reads WSL state")
	}
	if i := rules.PkIndex(c.Args, "-e", "--exec", "--"); i >= 0 && i+1 < len(c.Args) {
		if f, ok := rules.PkEval(rules.PkInner(c, c.Args[i+1:]), x); ok {
			return f, true
		}
	}
	return rules.PkUnsure(c, 1, "proc.wsl", "runs a command in WSL")
}

func ruleLoginctl(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := c.Operands()
	if len(ops) == 0 {
		return rules.PkAllow(c, 0, "svc.loginctl-list", "lists sessions")
	}
	switch strings.ToLower(ops[0]) {
	case "terminate-session", "terminate-user", "kill-session", "kill-user", "lock-sessions", "poweroff", "reboot":
		return rules.PkRet(c, 2.2, 0.3, "svc.loginctl-kill", "ends login sessions")
	case "enable-linger", "disable-linger":
		return rules.PkRet(c, 1.5, 0.2, "svc.loginctl-linger", "changes whether user services outlive the session")
	}
	return rules.PkAllow(c, 0, "svc.loginctl-read", "reads session state")
}

// ruleFuser: fuser -k and kill-port style helpers kill whatever holds a
// file or port.
func ruleFuser(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if f, ok := pkKillGuard(c); ok {
		return f, ok
	}
	if c.Name == "fuser" && !c.Flag('k', "--kill") {
		return rules.PkAllow(c, 0, "proc.fuser", "lists processes using a file or port")
	}
	return rules.PkRet(c, 2, 0.2, "proc."+c.Name, "kills the processes holding a port, file or window")
}

func rulePSTasks(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	switch c.Name {
	case "new-scheduledtaskaction", "new-scheduledtasktrigger", "new-scheduledtask":
		return rules.PkAllow(c, 0.5, "cron.ps-task-object", "builds a scheduled-task object (nothing registered yet)")
	case "register-scheduledtask", "set-scheduledtask":
		if strings.Contains(strings.ToLower(c.Raw), "system") {
			return rules.PkRet(c, 2.6, 0.7, "cron.ps-task-system", "registers a scheduled task that runs as SYSTEM")
		}
		return rules.PkRet(c, 2, 0.4, "cron.ps-task", "registers a scheduled task (runs later, unattended)")
	}
	return rules.PkRet(c, 1.8, 0.3, "cron.ps-task-change", "removes, disables or runs a scheduled task")
}

var pkKillVal = rules.PkSet("-u", "--euid", "-U", "--uid", "-g", "--pgroup", "-G", "--group", "-P", "--parent", "-s", "--session", "-t", "--terminal", "--signal", "-o", "--older", "-y", "--younger", "-n", "-F", "--pidfile", "--ns", "--nslist", "-c", "-e")

// elevated: c runs under a wrapper that changes the user (sudo and the
// like): its $! or job is not this shell's own process to stop freely.
func elevated(c *shell.Cmd) bool {
	for _, w := range c.Wrappers {
		switch w {
		case "sudo", "doas", "su", "pkexec", "run0", "runuser", "gsudo":
			return true
		}
	}
	return false
}
