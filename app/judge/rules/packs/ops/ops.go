package ops

// Other infrastructure CLIs judged by their verb: deleting or tearing down
// is confirm, deleting backups blocks (a red line), deploying confirms,
// reading is allowed. Fleet tools (ansible, salt, pssh, sshpass) have the
// command they run on other hosts judged like a local one.

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

func init() {
	pack.On(ruleOpsTool, "microk8s", "eksctl", "skaffold", "argocd", "flux", "istioctl", "linkerd", "velero", "mc", "s3cmd", "rclone", "azcopy", "packer", "nomad", "consul", "kops", "kn", "tanzu", "juju", "openstack", "linode-cli", "hcloud", "vultr-cli", "scw", "oci", "ibmcloud", "aliyun", "exo", "civo", "railway", "render", "kamal", "dokku", "caprover", "pm2", "supervisorctl", "minio", "k3s", "rke", "talosctl", "crossplane", "waypoint", "porter", "copilot", "lightsail")
	pack.On(ruleBackupTool, "restic", "borg", "borgmatic", "duplicity", "rdiff-backup", "kopia", "tarsnap", "rsnapshot", "duplicati", "bacula", "bconsole", "rustic")
	pack.On(ruleFleet, "ansible", "ansible-playbook", "salt", "salt-ssh", "pssh", "parallel-ssh", "pdsh", "clush", "sshpass", "fab", "mussh")
}

var (
	pkOpsDestroy = rules.PkSet("delete", "del", "destroy", "remove", "rm", "purge", "uninstall", "drop", "wipe", "reset", "terminate", "teardown", "down", "nuke", "kill", "rb", "rmb", "prune", "cleanup", "deregister", "unregister", "stop", "suspend", "scale-down", "undeploy", "decommission")
	pkOpsDeploy  = rules.PkSet("deploy", "apply", "sync", "up", "install", "upgrade", "rollout", "rollback", "promote", "release", "build", "run", "create", "update", "set", "scale", "restart", "reconcile", "resume", "start", "push", "move", "mv", "mirror", "replace", "import", "restore", "migrate")
)

// pkOpsStorage are the object-storage CLIs; their copies (mc cp, s3cmd
// put) are judged as copies, not as reads.
var pkOpsStorage = rules.PkSet("rclone", "mc", "s3cmd", "azcopy")

// pkOpsCopies: the command's first verb copies files.
func pkOpsCopies(c *shell.Cmd) bool {
	ops := rules.PkLowOps(c)
	return len(ops) > 0 && (ops[0] == "cp" || ops[0] == "copy" || ops[0] == "copyto" || ops[0] == "put")
}

// pkOpsRead are verbs that only read (velero backup get, restore describe).
var pkOpsRead = rules.PkSet("get", "describe", "logs", "list", "ls", "show", "status", "info", "inspect", "version", "help")

// opsStorageVerbs: storage CLIs whose own verbs delete (rclone deletefile,
// move deletes the source) or revoke access (mc admin user disable).
var opsStorageVerbs = map[string]map[string]string{
	"rclone": {"delete": "deletes files", "deletefile": "deletes a file", "rmdir": "removes a directory", "rmdirs": "removes directories", "purge": "deletes a path and all its contents", "dedupe": "deletes duplicate files", "move": "moves files (deletes the source)", "moveto": "moves files (deletes the source)", "sync": "syncs (deletes destination files missing from the source)", "bisync": "syncs both ways (deletes on either side)", "cleanup": "empties the trash or old versions"},
	"mc":     {"rb": "removes a bucket", "mv": "moves objects (deletes the source)", "mirror": "mirrors (may delete at the destination)", "disable": "disables a user or service", "unset": "detaches a policy", "detach": "detaches a policy", "remove": "removes a user, policy or setting", "rm": "removes objects", "undo": "undoes object changes", "retention": "changes object retention"},
}

func opsStorageVerb(c *shell.Cmd) (rules.Finding, bool) {
	verbs := opsStorageVerbs[c.Name]
	if verbs == nil {
		return rules.Finding{}, false
	}
	for _, o := range rules.PkLowOps(c) {
		what, ok := verbs[o]
		if !ok {
			continue
		}
		if o == "purge" || c.Flag('r', "--recursive") && c.Flag(0, "--force") {
			return rules.PkRet(c, 2.6, 0.7, "ops."+c.Name+"-"+o, c.Name+" "+o+" "+what+" that cannot be recovered")
		}
		return rules.PkRet(c, 2.2, 0.3, "ops."+c.Name+"-"+o, c.Name+" "+o+" "+what)
	}
	return rules.Finding{}, false
}

func pkOpsVerb(c *shell.Cmd) (destroy, deploy string) {
	for _, o := range rules.PkLowOps(c) {
		if pkOpsDestroy.Has(o) && destroy == "" {
			destroy = o
		}
		if pkOpsDeploy.Has(o) && deploy == "" {
			deploy = o
		}
	}
	return destroy, deploy
}

func ruleOpsTool(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	// k3s kubectl ..., microk8s helm3 ...: the bundled CLI's own rules.
	if (c.Name == "k3s" || c.Name == "microk8s") && len(c.Args) > 0 {
		name := strings.TrimSuffix(strings.ToLower(c.Args[0]), "3")
		if name == "kubectl" || name == "helm" || name == "ctr" || name == "crictl" {
			if name == "ctr" || name == "crictl" {
				name = "docker"
			}
			if f, ok := rules.PkEval(rules.PkInner(c, append([]string{name}, c.Args[1:]...)), x); ok {
				return f, true
			}
		}
	}
	if rules.PkDryFlag(c, nil, "--dry-run", "--dryrun", "--check") {
		return rules.PkAllow(c, 0, "ops.dry-run", "dry run: nothing changes")
	}
	if c.Name == "pm2" || c.Name == "supervisorctl" {
		for _, o := range rules.PkLowOps(c) {
			if o == "restart" || o == "reload" || o == "stop" || o == "kill" || o == "shutdown" || o == "gracefulreload" {
				// like systemctl restart: the running app goes down for a moment
				return rules.PkRet(c, 1.5, 0.1, "ops."+c.Name+"-"+o, c.Name+" "+o+" restarts or stops running app processes")
			}
		}
	}
	if f, ok := opsStorageVerb(c); ok {
		return f, true
	}
	if f, ok := opsStorageSetting(c); ok && pkOpsStorage.Has(c.Name) {
		return f, true
	}
	destroy, deploy := pkOpsVerb(c)
	if destroy == "" {
		// only the verb slots (velero backup get): a later "ls" may be a
		// command another verb runs (kamal app exec ls)
		for i, o := range rules.PkLowOps(c) {
			if i < 2 && pkOpsRead.Has(o) {
				return rules.PkAllow(c, 0.5, "ops."+c.Name+"-read", c.Name+" "+o+" reads or inspects")
			}
		}
	}
	switch {
	case destroy != "":
		if c.Name == "velero" || destroy == "purge" || c.Flag('r', "--recursive") && c.Flag('f', "--force") {
			return rules.PkRet(c, 2.6, 0.7, "ops."+c.Name+"-"+destroy, c.Name+" "+destroy+" deletes data or backups that cannot be recovered")
		}
		return rules.PkRet(c, 2.2, 0.3, "ops."+c.Name+"-"+destroy, c.Name+" "+destroy+" removes or stops live resources")
	case deploy != "" || pkOpsStorage.Has(c.Name) && pkOpsCopies(c):
		if pkOpsStorage.Has(c.Name) {
			if deploy == "sync" || deploy == "mirror" {
				return rules.PkRet(c, 1.8, 0.2, "ops."+c.Name+"-sync", "syncs storage (deletes destination files missing from the source)")
			}
			if pkOpsCopies(c) || deploy == "push" || deploy == "import" || deploy == "restore" {
				return rules.PkAllow(c, 1, "ops."+c.Name+"-copy", "copies files to or from storage")
			}
			// mc anonymous set none, mc admin config set: a setting of
			// the storage, not a copy (and not a deletion).
			return rules.PkAllow(c, 1, "ops."+c.Name+"-setting", c.Name+" "+strings.Join(rules.PkLowOps(c), " ")+" changes a storage setting")
		}
		if c.Name == "pm2" || c.Name == "supervisorctl" {
			return rules.PkAllow(c, 1, "ops."+c.Name, "manages local app processes")
		}
		return rules.PkRet(c, 1.5, 0.2, "ops."+c.Name+"-"+deploy, c.Name+" "+deploy+" changes live infrastructure")
	}
	return rules.PkAllow(c, 0.5, "ops."+c.Name, c.Name+" reads or inspects")
}

func ruleBackupTool(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	if rules.PkDryFlag(c, nil, "--dry-run") || c.Name == "borg" && c.Flag('n', "") {
		return rules.PkAllow(c, 0, "backup.dry-run", "dry run: nothing changes")
	}
	for _, o := range ops {
		switch o {
		case "forget", "prune", "delete", "rdelete", "repo-delete", "rcompress", "remove", "rm", "purge", "compact", "remove-older-than", "nuke", "expire", "break-lock", "recreate":
			if o == "compact" || o == "break-lock" || o == "recreate" || o == "rcompress" {
				return rules.PkRet(c, 1.8, 0.2, "backup."+o, c.Name+" "+o+" rewrites the backup repository (space or archives are dropped)")
			}
			return rules.PkRet(c, 2.8, 0.9, "backup.delete", "deletes backups ("+c.Name+" "+o+"): they cannot be recovered")
		case "mount", "unlock":
			// mount is read-only; unlock removes a stale lock only
			return rules.PkAllow(c, 1, "backup."+o, c.Name+" "+o+" does not change the backups")
		case "cache":
			continue
		case "restore", "recover", "extract":
			return rules.PkRet(c, 1.5, 0.2, "backup.restore", "restores files from a backup (may overwrite current ones)")
		case "init", "backup", "create", "snapshot", "check", "list", "ls", "snapshots", "info", "stats", "diff", "find", "cat", "key", "version", "help", "config", "tag", "verify", "collection-status", "list-current-files":
			continue
		}
	}
	return rules.PkAllow(c, 1, "backup."+c.Name, "creates or inspects backups")
}

func ruleFleet(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	check := c.Flag('C', "--check") || c.Flag(0, "--syntax-check", "--list-hosts", "--list-tasks")
	var inner string
	switch c.Name {
	case "sshpass":
		pos := rules.PkPos(c.Args, rules.PkSet("-p", "-f", "-d", "-P"))
		if len(pos) > 0 {
			if i := rules.PkIndex(c.Args, pos[0]); i >= 0 {
				if f, ok := rules.PkEval(rules.PkInner(c, c.Args[i:]), x); ok {
					return f, true
				}
			}
		}
		return rules.PkUnsure(c, 1, "net.sshpass", "runs a command with a stored password")
	case "ansible":
		inner, _ = rules.PkVal(c, "-a", "--args")
	case "salt", "salt-ssh":
		pos := rules.PkPos(c.Args, rules.PkSet("-G", "-E", "-L", "-N", "-C", "-t", "--timeout", "--out", "-c"))
		for i, p := range pos {
			if (p == "cmd.run" || p == "cmd.shell" || p == "cmd.script") && i+1 < len(pos) {
				inner = pos[i+1]
			}
		}
	case "pssh", "parallel-ssh", "pdsh", "clush", "mussh":
		pos := rules.PkPos(c.Args, rules.PkSet("-h", "-H", "-l", "-p", "-t", "-o", "-e", "-O", "-x", "-w", "-g", "-R", "-f", "-c"))
		if len(pos) > 0 {
			inner = pos[len(pos)-1]
		}
	}
	if inner != "" {
		f := rules.Bash(strings.ReplaceAll(inner, shell.Dyn, "$X"), "~", "~")
		f.Marked = c.Raw
		base := rules.PkF(c, 1.5, 0.2, "fleet."+c.Name, "runs a command on many hosts at once")
		if f.Worse(base) {
			f.Rule = "fleet/" + f.Rule
			f.Reason = "on every targeted host: " + f.Reason
			return f, true
		}
		return base, true
	}
	if check {
		return rules.PkAllow(c, 0, "fleet.check", "dry run: nothing changes")
	}
	if c.Name == "ansible" {
		if m, _ := rules.PkVal(c, "-m", "--module-name"); m == "ping" || m == "setup" || m == "" {
			return rules.PkAllow(c, 0.5, "fleet.ansible-read", "gathers facts or pings hosts")
		}
	}
	return rules.PkRet(c, 1.5, 0.2, "fleet."+c.Name, "changes many hosts at once")
}

// opsStorageSetting: a storage CLI's verbs that set things rather than
// copy files. mc alias set / rclone config create save an endpoint and
// its keys in the tool's own config (local setup); mc anonymous set
// public / mc policy set download opens a bucket to anyone.
func opsStorageSetting(c *shell.Cmd) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	if len(ops) == 0 {
		return rules.Finding{}, false
	}
	switch {
	case len(ops) > 1 && (pkOpsRead.Has(ops[1]) || len(ops) > 2 && pkOpsRead.Has(ops[2])):
		return rules.Finding{}, false // mc alias list, mc config host ls
	case ops[0] == "alias" || ops[0] == "config" && (c.Name == "rclone" || len(ops) > 1 && ops[1] == "host"):
		verb := ops[0]
		if len(ops) > 1 {
			verb += " " + ops[1]
		}
		return rules.PkAllow(c, 0.5, "ops."+c.Name+"-config", c.Name+" "+verb+" saves a storage endpoint and its keys in "+c.Name+"'s own settings")
	case ops[0] == "anonymous" || ops[0] == "policy":
		for k, o := range ops[1:] {
			if o == "public" || o == "download" || o == "upload" {
				return rules.PkRet(c, 2, 0.4, "ops."+c.Name+"-public", c.Name+" "+strings.Join(ops[:k+2], " ")+" lets anyone on the internet read or write the bucket without a key")
			}
		}
	}
	return rules.Finding{}, false
}
