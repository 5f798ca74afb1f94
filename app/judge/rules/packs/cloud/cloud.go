package cloud

// Infrastructure as code and cloud CLIs. Reads (list/describe/get/plan)
// are allowed; changes confirm; destroying stacks, databases, clusters,
// buckets' contents or backups blocks.

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/rules/packs/containers"
	"github.com/agent-guard/agent-guard/app/judge/rules/packs/db"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

func init() {
	pack.On(ruleTerraform, "terraform", "tofu", "terragrunt", "tf")
	pack.On(rulePulumi, "pulumi")
	pack.On(ruleAws, "aws", "awslocal")
	pack.On(ruleGcloud, "gcloud")
	pack.On(ruleGsutil, "gsutil")
	pack.On(ruleAz, "az")
	pack.On(ruleDoctl, "doctl")
	pack.On(ruleFirebase, "firebase")
	pack.On(ruleVercel, "vercel", "netlify", "surge")
	pack.On(ruleHeroku, "heroku")
	pack.On(ruleFly, "fly", "flyctl")
	pack.On(ruleSupabase, "supabase")
	pack.On(ruleWrangler, "wrangler")
	pack.On(ruleCdk, "cdk", "serverless", "sls", "sam", "eb", "copilot")
}

func ruleTerraform(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	pos := rules.PkPos(c.Args, pkVFCloud1)
	if len(pos) == 0 {
		return rules.PkAllow(c, 0, "tf.help", "shows usage")
	}
	verb := strings.ToLower(pos[0])
	if verb == "run-all" && len(pos) > 1 {
		verb = strings.ToLower(pos[1])
	}
	auto := c.Flag(0, "-auto-approve", "--auto-approve") || rules.PkHas(c, "-auto-approve", "--terragrunt-non-interactive", "--non-interactive")
	switch verb {
	case "destroy":
		return rules.PkRet(c, 3, 0.7, "tf.destroy", "destroys all infrastructure managed by this configuration")
	case "apply":
		if rules.PkHas(c, "-destroy", "--destroy") {
			return rules.PkRet(c, 3, 0.7, "tf.destroy", "destroys all infrastructure managed by this configuration")
		}
		if auto {
			return rules.PkRet(c, 2.3, 0.4, "tf.apply-auto", "changes real infrastructure without a reviewed plan")
		}
		return rules.PkRet(c, 2, 0.3, "tf.apply", "changes real infrastructure")
	case "import", "taint", "untaint", "force-unlock", "refresh", "replace":
		return rules.PkRet(c, 2, 0.2, "tf."+verb, "changes Terraform state")
	case "state":
		if len(pos) > 1 {
			switch strings.ToLower(pos[1]) {
			case "list", "show", "pull":
				return rules.PkAllow(c, 0, "tf.state-read", "reads Terraform state")
			case "rm", "mv", "push", "replace-provider":
				return rules.PkRet(c, 2.2, 0.3, "tf.state-edit", "edits Terraform state: resources may be orphaned or destroyed later")
			}
		}
		return rules.PkUnsure(c, 1.5, "tf.state", "Terraform state command")
	case "workspace":
		if len(pos) > 1 && strings.EqualFold(pos[1], "delete") {
			return rules.PkRet(c, 2.2, 0.3, "tf.workspace-delete", "deletes a Terraform workspace and its state")
		}
		return rules.PkAllow(c, 1, "tf.workspace", "selects or lists workspaces")
	case "plan", "init", "validate", "fmt", "show", "output", "version", "providers", "graph", "console", "get", "login", "logout", "test", "metadata", "modules", "hclfmt", "render-json", "output-module-groups", "graph-dependencies", "validate-inputs", "-version", "-help", "--version", "--help":
		return rules.PkAllow(c, 0, "tf.read", "plans or inspects without changing infrastructure")
	}
	return rules.PkUnsure(c, 1.5, "tf.other", "Terraform command")
}

func rulePulumi(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	pos := rules.PkPos(c.Args, pkVFCloud2)
	if len(pos) == 0 {
		return rules.PkAllow(c, 0, "pulumi.help", "shows usage")
	}
	yes := c.Flag('y', "--yes", "--skip-preview") || c.Flag('f', "--force")
	switch v := strings.ToLower(pos[0]); v {
	case "destroy", "down":
		return rules.PkRet(c, 3, 0.7, "pulumi.destroy", "destroys every resource in the stack")
	case "up", "update":
		if yes {
			return rules.PkRet(c, 2.3, 0.4, "pulumi.up-yes", "changes real infrastructure without a reviewed preview")
		}
		return rules.PkRet(c, 2, 0.3, "pulumi.up", "changes real infrastructure")
	case "refresh", "import", "cancel":
		return rules.PkRet(c, 1.8, 0.2, "pulumi."+v, "changes stack state")
	case "stack":
		if len(pos) > 1 && (strings.EqualFold(pos[1], "rm") || strings.EqualFold(pos[1], "remove")) {
			return rules.PkRet(c, 2.7, 0.5, "pulumi.stack-rm", "deletes a stack and its history")
		}
		return rules.PkAllow(c, 1, "pulumi.stack", "selects or lists stacks")
	case "state":
		return rules.PkRet(c, 2.2, 0.3, "pulumi.state", "edits stack state")
	case "preview", "pre", "config", "whoami", "logs", "about", "version", "login", "logout", "plugin", "new", "help", "schema", "package", "install", "convert", "org", "console", "watch":
		return rules.PkAllow(c, 0, "pulumi.read", "previews or inspects")
	}
	return rules.PkUnsure(c, 1.5, "pulumi.other", "Pulumi command")
}

var pkAwsGlobalVal = rules.PkSet("--profile", "--region", "--output", "--endpoint-url", "--query", "--color", "--cli-read-timeout", "--cli-connect-timeout", "--ca-bundle", "--cli-binary-format")

// Operations whose loss cannot be undone (data, backups, whole stacks).
var pkAwsBlockOps = rules.PkSet("terminate-instances", "delete-db-instance", "delete-db-cluster", "delete-table", "delete-bucket", "delete-stack", "delete-cluster",
	"delete-file-system", "delete-volume", "delete-snapshot", "delete-db-snapshot", "delete-db-cluster-snapshot", "delete-backup", "delete-backup-vault",
	"delete-recovery-point", "delete-backup-plan", "delete-vault", "delete-archive", "schedule-key-deletion", "delete-repository", "delete-hosted-zone",
	"delete-global-cluster", "delete-replication-group", "delete-cache-cluster", "delete-domain", "delete-stream", "delete-secret", "delete-user-pool",
	"delete-log-group", "delete-trail", "stop-logging", "delete-detector", "delete-organization", "close-account", "delete-keyspace", "delete-objects", "delete-workspace", "delete-image-builder", "deregister-image", "delete-certificate-authority")

func ruleAws(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	pos := rules.PkPos(c.Args, pkAwsGlobalVal)
	if len(pos) == 0 {
		return rules.PkAllow(c, 0, "aws.help", "shows usage")
	}
	svc := strings.ToLower(pos[0])
	if len(pos) < 2 {
		if svc == "configure" {
			return rules.PkAllow(c, 1, "aws.configure", "configures local credentials")
		}
		return rules.PkAllow(c, 0, "aws.help", "shows usage")
	}
	op := strings.ToLower(pos[1])
	if rules.PkDryFlag(c, nil, "--dryrun", "--dry-run") {
		return rules.PkAllow(c, 0, "aws.dry-run", "dry run: nothing changes")
	}
	if svc == "s3" {
		return pkAwsS3(c, op)
	}
	if svc == "configure" {
		switch op {
		case "get", "list", "list-profiles":
			return rules.PkAllow(c, 0, "aws.configure-read", "reads local configuration")
		case "export-credentials":
			return rules.PkRet(c, 1.5, 0.5, "creds.aws-export", "prints AWS credentials")
		}
		return rules.PkAllow(c, 1, "aws.configure", "configures local credentials")
	}
	rule := "aws." + svc + "." + op
	switch {
	case svc == "secretsmanager" && op == "get-secret-value", svc == "ssm" && (op == "get-parameter" || op == "get-parameters" || op == "get-parameters-by-path") && c.Flag(0, "--with-decryption"),
		svc == "sts" && (op == "get-session-token" || op == "assume-role" || op == "get-federation-token"), svc == "iam" && op == "create-access-key", svc == "kms" && op == "decrypt":
		return rules.PkRet(c, 1.5, 0.5, "creds."+svc, "reveals secrets or credentials")
	case svc == "ecr" && op == "get-login-password", svc == "codeartifact" && op == "get-authorization-token", svc == "eks" && op == "get-token":
		return rules.PkAllow(c, 1, "aws.login-token", "prints a short-lived registry/cluster token")
	case pkAwsBlockOps.Has(op):
		if svc == "secretsmanager" && !c.Flag(0, "--force-delete-without-recovery") {
			return rules.PkRet(c, 2.2, 0.3, rule, "schedules a secret for deletion (recoverable for a while)")
		}
		if svc == "ec2" && op == "delete-volume" || svc == "logs" || svc == "cloudtrail" || strings.Contains(op, "backup") || strings.Contains(op, "snapshot") || op == "delete-recovery-point" || op == "delete-vault" || op == "delete-archive" {
			return rules.PkRet(c, 3, 0.9, rule, "deletes backups, snapshots, logs or volumes: cannot be recovered")
		}
		return rules.PkRet(c, 2.8, 0.6, rule, "deletes cloud resources whose data cannot be recovered")
	case strings.HasPrefix(op, "delete-"), strings.HasPrefix(op, "remove-"), strings.HasPrefix(op, "deregister-"), strings.HasPrefix(op, "purge-"), strings.HasPrefix(op, "detach-"), strings.HasPrefix(op, "revoke-"), strings.HasPrefix(op, "disassociate-"), strings.HasPrefix(op, "release-"), strings.HasPrefix(op, "batch-delete"), strings.HasPrefix(op, "disable-"), strings.HasPrefix(op, "cancel-"):
		return rules.PkRet(c, 2.2, 0.3, rule, "deletes or detaches cloud resources")
	case strings.HasPrefix(op, "stop-"), strings.HasPrefix(op, "reboot-"), op == "update-service" && rules.PkHasPrefix(c, "--desired-count=0") || op == "update-service" && rules.PkValIs(c, "--desired-count", "0"), op == "set-desired-capacity" && rules.PkValIs(c, "--desired-capacity", "0"):
		return rules.PkRet(c, 2, 0.2, rule, "stops or restarts running cloud services")
	case strings.HasPrefix(op, "list-"), strings.HasPrefix(op, "describe-"), strings.HasPrefix(op, "get-"), strings.HasPrefix(op, "head-"), strings.HasPrefix(op, "wait"), strings.HasPrefix(op, "lookup-"), strings.HasPrefix(op, "search-"), strings.HasPrefix(op, "scan"), op == "query", strings.HasPrefix(op, "filter-"), strings.HasPrefix(op, "tail"), op == "help", strings.HasPrefix(op, "validate-"), strings.HasPrefix(op, "simulate-"), strings.HasPrefix(op, "test-"), strings.HasPrefix(op, "check-"), strings.HasPrefix(op, "estimate-"), strings.HasPrefix(op, "preview-"), op == "select-object-content", strings.HasPrefix(op, "batch-get"):
		return rules.PkAllow(c, 0, "aws.read", "reads cloud state")
	case svc == "sso" && op == "login", svc == "ecr" && op == "get-login", svc == "eks" && op == "update-kubeconfig", svc == "codeartifact" && op == "login", svc == "sso" && op == "logout":
		return rules.PkAllow(c, 1, "aws.login", "logs in or writes local config")
	case svc == "iam" && (strings.HasPrefix(op, "attach-") || strings.HasPrefix(op, "put-") || strings.HasPrefix(op, "create-") || strings.HasPrefix(op, "update-") || strings.HasPrefix(op, "add-")):
		return rules.PkRet(c, 2, 0.4, rule, "changes IAM permissions")
	}
	return rules.PkRet(c, 1.5, 0.1, rule, "changes cloud resources")
}

func pkAwsS3(c *shell.Cmd, op string) (rules.Finding, bool) {
	rec := c.Flag(0, "--recursive")
	switch op {
	case "rm":
		if rec {
			return rules.PkRet(c, 2.8, 0.6, "aws.s3-rm-recursive", "deletes every object under the prefix; unversioned objects cannot be recovered")
		}
		return rules.PkRet(c, 2, 0.2, "aws.s3-rm", "deletes an object from S3")
	case "rb":
		if c.Flag(0, "--force") {
			return rules.PkRet(c, 3, 0.7, "aws.s3-rb-force", "deletes a bucket and every object in it")
		}
		return rules.PkRet(c, 2.2, 0.3, "aws.s3-rb", "deletes a bucket")
	case "sync":
		if c.Flag(0, "--delete") {
			return rules.PkRet(c, 2.2, 0.3, "aws.s3-sync-delete", "sync that deletes destination files missing from the source")
		}
		return rules.PkAllow(c, 1, "aws.s3-sync", "copies files to or from S3")
	case "mv":
		return rules.PkRet(c, 1.5, 0.1, "aws.s3-mv", "moves objects (deletes the source)")
	case "cp", "mb":
		return rules.PkAllow(c, 1, "aws.s3-"+op, "copies files or makes a bucket")
	case "ls", "presign", "website":
		return rules.PkAllow(c, 0, "aws.s3-read", "reads S3")
	}
	return rules.PkUnsure(c, 1, "aws.s3", "S3 command")
}

// gcloud group words that hold data; deleting them is block.
var pkGcloudDataGroups = rules.PkSet("projects", "sql", "spanner", "bigtable", "firestore", "filestore", "disks", "snapshots", "images", "clusters", "buckets", "datasets", "backups", "instances", "redis", "memcache", "alloydb", "databases", "secrets", "kms", "keys", "repositories", "logging", "logs", "sinks", "dataproc", "bigquery", "composer", "workstations")

func ruleGcloud(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	pos := rules.PkPos(c.Args, pkVFCloud3)
	if len(pos) == 0 {
		return rules.PkAllow(c, 0, "gcloud.help", "shows usage")
	}
	words := make([]string, 0, len(pos))
	for _, p := range pos {
		words = append(words, strings.ToLower(p))
	}
	has := func(w string) bool {
		for _, v := range words {
			if v == w {
				return true
			}
		}
		return false
	}
	quiet := c.Flag('q', "--quiet")
	if has("print-access-token") || has("print-identity-token") || (has("secrets") && has("access")) || has("application-default") && has("print-access-token") {
		return rules.PkRet(c, 1.5, 0.5, "creds.gcloud-token", "prints a credential or secret value")
	}
	if has("keys") && has("create") && has("service-accounts") {
		return rules.PkRet(c, 2, 0.6, "creds.gcloud-sa-key", "creates a long-lived service account key")
	}
	if c.Flag('h', "--help") || has("help") {
		return rules.PkAllow(c, 0, "gcloud.help", "shows usage")
	}
	if words[0] == "storage" && len(words) > 1 {
		switch words[1] {
		case "ls", "cat", "du", "hash", "describe", "list", "get", "objects", "buckets":
			if words[1] != "objects" && words[1] != "buckets" || len(words) > 2 && pkGcloudReadVerb(words[2]) {
				return rules.PkAllow(c, 0, "gcloud.storage-read", "reads storage")
			}
		case "cp":
			// a download (last operand local) only writes here
			if ops := c.Operands(); len(ops) > 0 && !strings.Contains(ops[len(ops)-1], "://") && !c.Flag(0, "--delete-from-source") {
				return rules.PkAllow(c, 1, "gcloud.storage-download", "copies storage objects to this machine")
			}
		}
	}
	if words[0] == "storage" && (has("rm") || has("delete")) {
		if c.Flag('r', "--recursive") || has("buckets") || pkHasWildcard(c) {
			return rules.PkRet(c, 2.8, 0.6, "gcloud.storage-rm-recursive", "deletes buckets or every object under a prefix")
		}
		return rules.PkRet(c, 2, 0.2, "gcloud.storage-rm", "deletes storage objects")
	}
	for _, del := range []string{"delete", "remove", "destroy", "purge", "rm"} {
		if has(del) {
			for _, w := range words {
				if pkGcloudDataGroups.Has(w) {
					r := 2.7
					if w == "projects" {
						r = 3
					}
					return rules.PkRet(c, r, 0.6, "gcloud.delete-"+w, "deletes "+w+" and the data in them")
				}
			}
			if quiet {
				return rules.PkRet(c, 2.4, 0.3, "gcloud.delete-quiet", "deletes cloud resources without a prompt")
			}
			return rules.PkRet(c, 2.2, 0.3, "gcloud.delete", "deletes cloud resources")
		}
	}
	for _, w := range words {
		switch w {
		case "list", "describe", "get", "info", "version", "help", "read", "tail", "get-iam-policy", "get-credentials", "get-value", "configurations", "print-settings", "explain", "search", "logs":
			if w == "get-credentials" {
				return rules.PkAllow(c, 1, "gcloud.get-credentials", "writes cluster credentials to the local kubeconfig")
			}
			return rules.PkAllow(c, 0, "gcloud.read", "reads cloud state")
		}
	}
	switch words[0] {
	case "auth", "config", "init", "components", "alpha", "beta", "emulators", "topic", "cheat-sheet", "feedback", "survey", "meta":
		if words[0] == "alpha" || words[0] == "beta" {
			break
		}
		return rules.PkAllow(c, 1, "gcloud.local", "changes local gcloud settings")
	}
	// The verb, not the last word: the instance's name follows it
	// (gcloud compute instances stop vm1).
	for _, v := range []string{"stop", "reset", "suspend", "restart"} {
		if has(v) {
			return rules.PkRet(c, 2, 0.2, "gcloud."+v, "stops or resets running cloud services")
		}
	}
	if has("set-iam-policy") || has("add-iam-policy-binding") || has("remove-iam-policy-binding") {
		return rules.PkRet(c, 2, 0.4, "gcloud.iam", "changes IAM permissions")
	}
	return rules.PkRet(c, 1.5, 0.1, "gcloud.change", "changes cloud resources")
}

func pkGcloudReadVerb(w string) bool {
	return w == "list" || w == "describe" || w == "ls" || w == "get"
}

func pkHasWildcard(c *shell.Cmd) bool {
	for _, o := range c.Operands() {
		if strings.Contains(o, "**") || strings.HasSuffix(o, "/*") {
			return true
		}
	}
	return false
}

func ruleGsutil(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	pos := rules.PkPos(c.Args, pkVFCloud4)
	if len(pos) == 0 {
		return rules.PkAllow(c, 0, "gsutil.help", "shows usage")
	}
	verb := strings.ToLower(pos[0])
	rc := &shell.Cmd{Args: c.Args[rules.PkIndex(c.Args, pos[0])+1:]}
	switch verb {
	case "rm", "del", "delete", "remove":
		if rc.Flag('r', "") || rc.Flag('R', "") || rc.Flag('a', "") || pkHasWildcard(c) {
			return rules.PkRet(c, 2.8, 0.6, "gsutil.rm-recursive", "deletes every object under a bucket or prefix")
		}
		return rules.PkRet(c, 2, 0.2, "gsutil.rm", "deletes storage objects")
	case "rb":
		return rules.PkRet(c, 2.3, 0.3, "gsutil.rb", "deletes a bucket")
	case "rsync":
		if rc.Flag('d', "") {
			return rules.PkRet(c, 2.2, 0.3, "gsutil.rsync-delete", "sync that deletes destination files missing from the source")
		}
		return rules.PkAllow(c, 1, "gsutil.rsync", "copies files")
	case "mv":
		return rules.PkRet(c, 1.5, 0.1, "gsutil.mv", "moves objects (deletes the source)")
	case "cp", "mb", "compose", "setmeta", "label", "versioning", "lifecycle", "cors", "iam", "acl", "defacl", "retention":
		if verb == "iam" || verb == "acl" || verb == "defacl" {
			if len(pos) > 1 && (strings.EqualFold(pos[1], "ch") || strings.EqualFold(pos[1], "set")) {
				return rules.PkRet(c, 2, 0.4, "gsutil.acl", "changes who can read or write the bucket")
			}
			return rules.PkAllow(c, 0, "gsutil.read", "reads bucket permissions")
		}
		if verb == "lifecycle" || verb == "retention" || verb == "versioning" {
			if len(pos) > 1 && strings.EqualFold(pos[1], "set") {
				return rules.PkRet(c, 1.8, 0.2, "gsutil."+verb, "changes bucket retention (objects may expire)")
			}
		}
		return rules.PkAllow(c, 1, "gsutil."+verb, "copies or configures storage")
	case "ls", "cat", "du", "stat", "hash", "version", "help", "signurl", "web", "config", "notification", "kms", "logging", "requesterpays", "ubla", "pap", "autoclass", "rpo":
		return rules.PkAllow(c, 0, "gsutil.read", "reads storage")
	}
	return rules.PkUnsure(c, 1, "gsutil.other", "gsutil command")
}

var pkAzDataGroups = rules.PkSet("group", "vm", "sql", "cosmosdb", "storage", "keyvault", "postgres", "mysql", "disk", "snapshot", "backup", "aks", "redis", "account", "webapp", "functionapp", "acr", "mariadb", "vmss", "image", "monitor", "log-analytics", "synapse", "databricks")

var pkAzStorageRead = rules.PkSet("download", "download-batch", "url", "show", "list", "exists", "metadata-show")

func ruleAz(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	pos := rules.PkPos(c.Args, pkVFCloud5)
	if len(pos) == 0 {
		return rules.PkAllow(c, 0, "az.help", "shows usage")
	}
	words := make([]string, len(pos))
	for i, p := range pos {
		words[i] = strings.ToLower(p)
	}
	last := words[len(words)-1]
	if words[0] == "account" && last == "get-access-token" || words[0] == "keyvault" && len(words) > 2 && words[1] == "secret" && (last == "show" || last == "download") || last == "list-keys" || last == "keys" && len(words) > 2 || last == "show-connection-string" || last == "list-connection-strings" || last == "show-keys" {
		return rules.PkRet(c, 1.5, 0.5, "creds.az", "reveals keys, secrets or tokens")
	}
	if c.Flag('h', "--help") {
		return rules.PkAllow(c, 0, "az.help", "shows usage")
	}
	// az storage blob download -c c -n f -f out: value flags can hide the
	// verb's place, so look for the read verb among the words
	if words[0] == "storage" && len(words) > 2 && pkAzStorageRead.Has(words[2]) {
		return rules.PkAllow(c, 0, "az.storage-read", "reads or downloads storage to this machine")
	}
	switch last {
	case "url", "generate-sas", "show-deleted":
		if words[0] == "storage" && last == "url" {
			return rules.PkAllow(c, 0, "az.read", "prints an object URL")
		}
	case "login", "logout":
		return rules.PkAllow(c, 1, "az.login", "logs in")
	case "delete", "delete-batch", "purge", "remove", "destroy":
		if words[0] == "group" {
			return rules.PkRet(c, 3, 0.7, "az.group-delete", "deletes a resource group and everything in it")
		}
		if last == "delete-batch" || last == "purge" || pkAzDataGroups.Has(words[0]) {
			return rules.PkRet(c, 2.7, 0.6, "az."+words[0]+"-delete", "deletes cloud resources whose data cannot be recovered")
		}
		return rules.PkRet(c, 2.2, 0.3, "az.delete", "deletes cloud resources")
	case "stop", "deallocate", "restart", "stop-all", "power-off":
		return rules.PkRet(c, 2, 0.2, "az.stop", "stops or restarts running cloud services")
	case "list", "show", "get", "exists", "version", "list-locations", "get-credentials", "check-name", "wait", "tail", "logs", "query", "download-batch", "download":
		if last == "get-credentials" {
			return rules.PkAllow(c, 1, "az.get-credentials", "writes cluster credentials to the local kubeconfig")
		}
		return rules.PkAllow(c, 0, "az.read", "reads cloud state")
	}
	switch words[0] {
	case "login", "logout", "configure", "extension", "upgrade", "version", "find", "interactive", "config", "bicep", "cloud", "init":
		return rules.PkAllow(c, 1, "az.local", "changes local az settings")
	case "account":
		if len(words) > 1 && (words[1] == "set" || words[1] == "show" || words[1] == "list") {
			return rules.PkAllow(c, 0, "az.account", "selects or shows the subscription")
		}
	case "role", "ad":
		return rules.PkRet(c, 2, 0.4, "az.iam", "changes identities or role assignments")
	}
	return rules.PkRet(c, 1.5, 0.1, "az.change", "changes cloud resources")
}

func ruleDoctl(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	if len(ops) == 0 {
		return rules.PkAllow(c, 0, "doctl.help", "shows usage")
	}
	last := ""
	for _, o := range ops {
		switch o {
		case "delete", "rm", "d", "destroy", "purge":
			last = "delete"
		case "list", "ls", "get", "g", "account", "balance":
			if last == "" {
				last = "read"
			}
		}
	}
	switch last {
	case "delete":
		for _, o := range ops {
			switch o {
			case "databases", "db", "droplet", "volume", "snapshot", "kubernetes", "k8s", "cluster", "spaces", "registry", "backups", "apps":
				return rules.PkRet(c, 2.7, 0.6, "doctl.delete-"+o, "deletes cloud resources whose data cannot be recovered")
			}
		}
		return rules.PkRet(c, 2.2, 0.3, "doctl.delete", "deletes cloud resources")
	case "read":
		return rules.PkAllow(c, 0, "doctl.read", "reads cloud state")
	}
	if ops[0] == "auth" {
		return rules.PkAllow(c, 1, "doctl.auth", "manages local login")
	}
	return rules.PkRet(c, 1.5, 0.1, "doctl.change", "changes cloud resources")
}

func ruleFirebase(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	pos := rules.PkPos(c.Args, pkVFCloud6)
	if len(pos) == 0 {
		return rules.PkAllow(c, 0, "firebase.help", "shows usage")
	}
	v := strings.ToLower(pos[0])
	switch {
	case v == "firestore:delete":
		if c.Flag(0, "--all-collections") || c.Flag('r', "--recursive") {
			return rules.PkRet(c, 2.9, 0.7, "firebase.firestore-delete-all", "deletes Firestore collections recursively")
		}
		return rules.PkRet(c, 2.3, 0.3, "firebase.firestore-delete", "deletes Firestore documents")
	case v == "database:remove", v == "database:set", v == "projects:delete", v == "auth:delete", v == "hosting:disable", v == "database:instances:delete", v == "remoteconfig:rollback":
		return rules.PkRet(c, 2.7, 0.6, "firebase."+v, "deletes or overwrites production data")
	case strings.HasSuffix(v, ":delete") || strings.HasSuffix(v, ":remove") || strings.HasSuffix(v, ":destroy"):
		return rules.PkRet(c, 2.2, 0.3, "firebase.delete", "deletes deployed resources")
	case v == "deploy" || strings.HasSuffix(v, ":deploy") || v == "database:update" || v == "database:push" || strings.HasSuffix(v, ":set") || v == "auth:import":
		return rules.PkRet(c, 1.5, 0.2, "firebase.deploy", "deploys to or changes a live project")
	}
	return rules.PkAllow(c, 0, "firebase.local", "local or read-only Firebase command")
}

func ruleVercel(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	prod := c.Flag(0, "--prod", "--production")
	if len(ops) == 0 {
		if c.Name == "surge" {
			return rules.PkRet(c, 1.5, 0.2, "deploy.surge", "publishes the site")
		}
		if prod {
			return rules.PkRet(c, 1.5, 0.2, "deploy.prod", "deploys to production")
		}
		return rules.PkAllow(c, 1, "deploy.preview", "deploys a preview")
	}
	v := ops[0]
	has := func(w string) bool {
		for _, o := range ops {
			if o == w {
				return true
			}
		}
		return false
	}
	switch {
	case c.Name == "netlify" && (v == "sites:delete" || v == "env:unset"), c.Name == "surge" && v == "teardown":
		return rules.PkRet(c, 2.5, 0.5, "deploy."+c.Name+"-delete", "deletes a live site or its settings")
	case v == "rm" || v == "remove" || has("rm") || has("remove"):
		if has("project") || has("projects") {
			return rules.PkRet(c, 2.6, 0.5, "deploy.project-rm", "deletes a project and its deployments")
		}
		return rules.PkRet(c, 2.2, 0.3, "deploy.rm", "removes deployments, domains or settings")
	case v == "deploy" && (prod || c.Name == "netlify" && prod), prod, v == "promote", v == "rollback", v == "alias" && has("set"), v == "redeploy":
		return rules.PkRet(c, 1.5, 0.2, "deploy.prod", "changes what production serves")
	case v == "env" && has("pull"), v == "pull":
		return rules.PkAllow(c, 1, "deploy.env-pull", "writes project environment to a local file")
	case v == "env" && (has("add") || has("set")):
		return rules.PkAllow(c, 1, "deploy.env-add", "sets a project environment variable")
	}
	return rules.PkAllow(c, 1, "deploy."+c.Name, "controlled deploy-platform command")
}

func ruleHeroku(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	if len(ops) == 0 {
		return rules.PkAllow(c, 0, "heroku.help", "shows usage")
	}
	v := ops[0]
	if v == "run" || v == "run:detached" {
		if i := rules.PkIndex(c.Args, ops[0]); i >= 0 {
			if f, ok := containers.PkContainerCmd(c, c.Args[i+1:], pkHerokuRunVal, 0, x); ok {
				return f, true
			}
		}
		return rules.PkAllow(c, 1, "heroku.run", "runs a one-off command on the app")
	}
	switch {
	case v == "apps:destroy", v == "destroy", v == "pg:reset", v == "pg:backups:delete", v == "addons:destroy", v == "pg:killall", v == "redis:cli" && rules.PkHas(c, "flushall"):
		return rules.PkRet(c, 2.9, 0.7, "heroku."+v, "destroys an app, its database or backups")
	case v == "auth:token":
		return rules.PkRet(c, 1.5, 0.5, "creds.heroku-token", "prints an API token")
	case v == "config" || v == "config:get":
		return rules.PkRet(c, 1.5, 0.4, "creds.heroku-config", "prints app secrets (config vars)")
	case strings.HasSuffix(v, ":remove") || strings.HasSuffix(v, ":unset") || strings.HasSuffix(v, ":destroy") || strings.HasSuffix(v, ":delete") || v == "ps:stop" || v == "maintenance:on" || v == "ps:kill":
		return rules.PkRet(c, 2.2, 0.3, "heroku.remove", "removes or stops parts of a live app")
	case v == "ps:scale" || v == "releases:rollback" || v == "rollback" || v == "ps:restart" || v == "restart" || v == "config:set" || v == "pg:promote":
		return rules.PkRet(c, 1.5, 0.2, "heroku.change", "changes a live app")
	}
	return rules.PkAllow(c, 0, "heroku.read", "reads or runs Heroku tooling")
}

func ruleFly(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	if len(ops) == 0 {
		return rules.PkAllow(c, 0, "fly.help", "shows usage")
	}
	for _, o := range ops {
		switch o {
		case "destroy", "delete", "remove", "rm", "unset":
			if ops[0] == "apps" || ops[0] == "volumes" || ops[0] == "postgres" || ops[0] == "pg" || ops[0] == "vol" || ops[0] == "destroy" || ops[0] == "mpg" {
				return rules.PkRet(c, 2.8, 0.6, "fly.destroy", "destroys an app, database or volume")
			}
			return rules.PkRet(c, 2.2, 0.3, "fly.delete", "removes resources from a live app")
		}
	}
	switch ops[0] {
	case "deploy", "scale", "secrets", "releases", "machine", "machines":
		return rules.PkRet(c, 1.5, 0.2, "fly.change", "changes a live app")
	}
	return rules.PkAllow(c, 0, "fly.read", "reads or runs fly tooling")
}

func ruleSupabase(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	if len(ops) >= 2 && ops[0] == "db" && ops[1] == "reset" {
		if c.Flag(0, "--linked") || c.Flag(0, "--db-url") {
			return rules.PkRet(c, 2.9, 0.7, "supabase.db-reset-remote", "wipes a remote database")
		}
		return rules.PkRet(c, 2, 0.2, "supabase.db-reset", "wipes the local database and reapplies migrations")
	}
	if len(ops) >= 2 && (ops[1] == "delete" || ops[1] == "remove") {
		return rules.PkRet(c, 2.5, 0.5, "supabase.delete", "deletes project resources")
	}
	if len(ops) >= 2 && (ops[0] == "db" && ops[1] == "push" || ops[0] == "functions" && ops[1] == "deploy" || ops[0] == "secrets" && ops[1] == "set") {
		return rules.PkRet(c, 1.5, 0.2, "supabase.push", "changes the live project")
	}
	return rules.PkAllow(c, 1, "supabase.local", "local Supabase tooling")
}

func ruleWrangler(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	for _, o := range ops {
		if o == "delete" || o == "rm" {
			return rules.PkRet(c, 2.3, 0.3, "wrangler.delete", "deletes a worker, bucket, database or keys")
		}
	}
	if len(ops) > 0 && (ops[0] == "deploy" || ops[0] == "publish" || ops[0] == "rollback") {
		return rules.PkRet(c, 1.5, 0.2, "wrangler.deploy", "deploys a worker to production")
	}
	if len(ops) >= 2 && ops[0] == "d1" && ops[1] == "execute" {
		if sql, ok := rules.PkVal(c, "--command"); ok {
			if f, ok := db.PkJudgeSQL(c, sql); ok {
				return f, true
			}
		}
	}
	return rules.PkAllow(c, 1, "wrangler.local", "local Cloudflare tooling")
}

func ruleCdk(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	if len(ops) == 0 {
		return rules.PkAllow(c, 0, "iac.help", "shows usage")
	}
	switch ops[0] {
	case "destroy", "remove", "terminate", "delete":
		return rules.PkRet(c, 3, 0.7, "iac.destroy", "destroys deployed stacks and their resources")
	case "deploy", "publish", "swap", "scale", "restore", "rollback", "release":
		if c.Flag(0, "--require-approval") && rules.PkValIs(c, "--require-approval", "never") || c.Flag('f', "--force") {
			return rules.PkRet(c, 2.3, 0.4, "iac.deploy-noapprove", "deploys without reviewing the change")
		}
		return rules.PkRet(c, 2, 0.3, "iac.deploy", "deploys to real infrastructure")
	}
	return rules.PkAllow(c, 0, "iac.read", "synthesizes, diffs or inspects")
}

// Flag sets hoisted out of the rules (built once, not per command).
var (
	pkVFCloud1 = rules.PkSet("-chdir", "-var", "-var-file", "-target", "-lock-timeout", "-parallelism", "-out", "-state", "-backend-config")
	pkVFCloud2 = rules.PkSet("-s", "--stack", "-C", "--cwd", "-m", "--message", "-t", "--target", "--config-file", "-c", "--config")
	pkVFCloud3 = rules.PkSet("--project", "--account", "--configuration", "--format", "--zone", "--region", "--filter", "--flatten", "--verbosity", "--impersonate-service-account", "--billing-project", "--limit", "--sort-by", "--location", "--cluster", "--instance", "--database", "--page-size", "--image", "--member", "--role")
	pkVFCloud4 = rules.PkSet("-o", "-h", "-u", "-p")
	pkVFCloud5 = rules.PkSet("-g", "--resource-group", "-n", "--name", "--subscription", "-o", "--output", "--query", "-l", "--location", "--vault-name", "--account-name", "-c", "--container-name", "-s", "--server", "--ids", "--image", "--size", "--sku", "--source", "--destination", "--pattern", "--admin-username", "--tags", "--scope", "--role", "--assignee", "--resource")
	pkVFCloud6 = rules.PkSet("--project", "-P", "--only", "--except", "-m", "--message", "--token", "--config", "--instance")
)

var pkHerokuRunVal = rules.PkSet("-a", "--app", "-s", "--size", "-e", "--env", "-r", "--remote", "--type")
