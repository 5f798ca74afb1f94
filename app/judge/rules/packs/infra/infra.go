package infra

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Infrastructure and service CLIs: secrets managers, CI servers, message
// brokers, search engines and API gateways. Each program's verbs are data
// (infraPacks); a CLI without a pack whose subcommand path holds a
// destroying verb is confirm (ruleDestroyVerb), its read verbs stay allowed.

// infraVerb is one rule of a pack: the leading subcommand words (or,
// with flags, the options that must all be present) and the judgment.
type infraVerb struct {
	path   string   // subcommand words, space-separated; "" matches any
	flags  []string // options that must all be given (kafka-topics --delete)
	risk   float64
	viol   float64
	reason string
}

// infraPacks: program -> verbs, most specific first; the first match wins.
// A command of a listed program that matches nothing is read (risk 0.5,
// Uncertain) unless the generic destroying-verb rule says more.
var infraPacks = map[string][]infraVerb{
	"vault": {
		{path: "secrets disable", risk: 2.7, viol: 0.7, reason: "disables a secrets engine: every secret stored in it is deleted"},
		{path: "kv destroy", risk: 2.6, viol: 0.6, reason: "destroys secret versions permanently"},
		{path: "kv metadata delete", risk: 2.6, viol: 0.6, reason: "deletes a secret with all its versions permanently"},
		{path: "kv delete", risk: 2, viol: 0.3, reason: "deletes the latest version of a secret"},
		{path: "delete", risk: 2.2, viol: 0.3, reason: "deletes data at a Vault path"},
		{path: "auth disable", risk: 2.3, viol: 0.4, reason: "disables an auth method: everyone logging in through it is locked out"},
		{path: "audit disable", risk: 2.3, viol: 0.5, reason: "disables a Vault audit device"},
		{path: "policy delete", risk: 2, viol: 0.3, reason: "deletes a Vault policy"},
		{path: "namespace delete", risk: 2.6, viol: 0.6, reason: "deletes a Vault namespace with everything in it"},
		{path: "lease revoke", risk: 2, viol: 0.3, reason: "revokes leases: the credentials stop working"},
		{path: "token revoke", risk: 1.6, viol: 0.2, reason: "revokes a Vault token"},
		{path: "operator seal", risk: 2.3, viol: 0.4, reason: "seals Vault: every client loses access until it is unsealed"},
		{path: "operator raft remove-peer", risk: 2.3, viol: 0.4, reason: "removes a node from the Vault cluster"},
		{path: "operator step-down", risk: 1.5, viol: 0.1, reason: "forces a Vault leader election"},
		{path: "secrets move", risk: 1.6, viol: 0.2, reason: "moves a secrets engine to another path"},
		{path: "write", risk: 1.2, reason: "writes data to Vault"},
		{path: "kv put", risk: 1.2, reason: "writes a new version of a secret"},
	},
	"op": {
		{path: "vault delete", risk: 2.7, viol: 0.6, reason: "deletes a 1Password vault with every item in it"},
		{path: "item delete", risk: 2.2, viol: 0.3, reason: "deletes a 1Password item"},
		{path: "document delete", risk: 2.2, viol: 0.3, reason: "deletes a 1Password document"},
		{path: "user delete", risk: 2.2, viol: 0.4, reason: "removes a user from the 1Password account"},
		{path: "group delete", risk: 2, viol: 0.3, reason: "deletes a 1Password group"},
		{path: "connect server delete", risk: 2, viol: 0.3, reason: "deletes a 1Password Connect server"},
	},
	"bw": {
		{path: "delete", flags: []string{"--permanent"}, risk: 2.6, viol: 0.5, reason: "deletes a Bitwarden item permanently"},
		{path: "delete", risk: 2, viol: 0.3, reason: "moves a Bitwarden item to the trash"},
	},
	"doppler": {
		{path: "projects delete", risk: 2.7, viol: 0.6, reason: "deletes a Doppler project with all its secrets"},
		{path: "environments delete", risk: 2.6, viol: 0.5, reason: "deletes a Doppler environment with its secrets"},
		{path: "configs delete", risk: 2.6, viol: 0.5, reason: "deletes a Doppler config with its secrets"},
		{path: "secrets delete", risk: 2.2, viol: 0.3, reason: "deletes Doppler secrets"},
	},
	"jenkins-cli": jenkinsVerbs,
	"jenkins":     jenkinsVerbs,
	"rabbitmqctl": {
		{path: "reset", risk: 2.7, viol: 0.6, reason: "resets the RabbitMQ node: every queue, message, user and setting is deleted"},
		{path: "force_reset", risk: 2.8, viol: 0.7, reason: "force-resets the RabbitMQ node: all its data is deleted"},
		{path: "delete_vhost", risk: 2.6, viol: 0.5, reason: "deletes a virtual host with all its queues and messages"},
		{path: "delete_queue", risk: 2.3, viol: 0.4, reason: "deletes a queue and the messages in it"},
		{path: "purge_queue", risk: 2.3, viol: 0.4, reason: "deletes every message in a queue"},
		{path: "delete_user", risk: 2, viol: 0.3, reason: "deletes a RabbitMQ user"},
		{path: "clear_permissions", risk: 1.8, viol: 0.3, reason: "removes a user's permissions"},
		{path: "forget_cluster_node", risk: 2.3, viol: 0.4, reason: "removes a node from the RabbitMQ cluster"},
		{path: "stop_app", risk: 2, viol: 0.3, reason: "stops RabbitMQ on the node"},
		{path: "stop", risk: 2, viol: 0.3, reason: "stops the RabbitMQ node"},
		{path: "eval", risk: 2, viol: 0.4, reason: "runs Erlang code inside the broker"},
		{path: "close_all_connections", risk: 1.8, viol: 0.2, reason: "disconnects every client"},
	},
	"rabbitmqadmin": {
		{path: "delete", risk: 2.3, viol: 0.4, reason: "deletes a RabbitMQ object (queue, exchange, vhost, user...)"},
		{path: "purge", risk: 2.3, viol: 0.4, reason: "deletes every message in a queue"},
		{path: "close", risk: 1.6, viol: 0.1, reason: "closes client connections"},
		{path: "import", risk: 2, viol: 0.3, reason: "replaces the broker's definitions"},
	},
	"kafka-topics": {
		{flags: []string{"--delete"}, risk: 2.5, viol: 0.5, reason: "deletes Kafka topics and every message in them"},
		{flags: []string{"--alter"}, risk: 1.6, viol: 0.1, reason: "changes a Kafka topic's partitions or settings"},
	},
	"kafka-consumer-groups": {
		{flags: []string{"--delete-offsets"}, risk: 2, viol: 0.3, reason: "deletes a consumer group's offsets"},
		{flags: []string{"--delete"}, risk: 2, viol: 0.3, reason: "deletes consumer groups and their offsets"},
		{flags: []string{"--reset-offsets", "--execute"}, risk: 2, viol: 0.3, reason: "moves consumer offsets: messages are skipped or consumed again"},
	},
	"kafka-delete-records": {{risk: 2.5, viol: 0.5, reason: "deletes records from Kafka partitions"}},
	"kafka-configs":        {{flags: []string{"--alter"}, risk: 1.6, viol: 0.2, reason: "changes Kafka broker or topic configuration"}},
	"kafka-acls":           {{flags: []string{"--remove"}, risk: 2, viol: 0.3, reason: "removes Kafka ACLs"}},
	"nats": {
		{path: "stream rm", risk: 2.5, viol: 0.5, reason: "deletes a JetStream stream and its messages"},
		{path: "stream delete", risk: 2.5, viol: 0.5, reason: "deletes a JetStream stream and its messages"},
		{path: "stream purge", risk: 2.5, viol: 0.5, reason: "deletes every message in a JetStream stream"},
		{path: "stream rmm", risk: 2, viol: 0.3, reason: "deletes a message from a stream"},
		{path: "consumer rm", risk: 2, viol: 0.3, reason: "deletes a JetStream consumer"},
		{path: "consumer delete", risk: 2, viol: 0.3, reason: "deletes a JetStream consumer"},
		{path: "kv rm", risk: 2.5, viol: 0.5, reason: "deletes a NATS key-value bucket or key"},
		{path: "kv del", risk: 2, viol: 0.3, reason: "deletes a NATS key"},
		{path: "kv purge", risk: 2.3, viol: 0.4, reason: "purges a NATS key's history"},
		{path: "object rm", risk: 2.5, viol: 0.5, reason: "deletes a NATS object store or object"},
		{path: "object del", risk: 2.3, viol: 0.4, reason: "deletes a NATS object"},
	},
	"pulsar-admin": {
		{path: "tenants delete", risk: 2.7, viol: 0.6, reason: "deletes a Pulsar tenant"},
		{path: "namespaces delete", risk: 2.6, viol: 0.5, reason: "deletes a Pulsar namespace with its topics"},
		{path: "topics delete", risk: 2.5, viol: 0.5, reason: "deletes a Pulsar topic and its messages"},
		{path: "topics clear-backlog", risk: 2.3, viol: 0.4, reason: "drops every unacknowledged message"},
	},
	"deck": {
		{path: "reset", risk: 2.7, viol: 0.6, reason: "deletes every entity configured in Kong (services, routes, plugins, consumers)"},
		{path: "gateway reset", risk: 2.7, viol: 0.6, reason: "deletes every entity configured in Kong (services, routes, plugins, consumers)"},
		{path: "sync", risk: 2, viol: 0.3, reason: "makes Kong match the file: entities not in it are deleted"},
		{path: "gateway sync", risk: 2, viol: 0.3, reason: "makes Kong match the file: entities not in it are deleted"},
		{path: "gateway apply", risk: 1.6, viol: 0.2, reason: "applies configuration to Kong"},
	},
	"kong": {
		{path: "migrations reset", risk: 2.8, viol: 0.7, reason: "drops Kong's whole database"},
		{path: "migrations up", risk: 1.6, viol: 0.2, reason: "migrates Kong's database"},
		{path: "migrations finish", risk: 1.6, viol: 0.2, reason: "finishes Kong database migrations"},
		{path: "stop", risk: 2, viol: 0.3, reason: "stops the Kong gateway"},
		{path: "quit", risk: 2, viol: 0.3, reason: "stops the Kong gateway"},
	},
	"tyk-sync": {
		{path: "sync", risk: 2, viol: 0.3, reason: "makes the Tyk gateway match the repository: APIs not in it are deleted"},
		{path: "publish", risk: 1.6, viol: 0.2, reason: "publishes APIs to the Tyk gateway"},
	},
	"elasticsearch-node": {
		{path: "unsafe-bootstrap", risk: 2.8, viol: 0.7, reason: "forces a new cluster from this node: data can be lost"},
		{path: "detach-cluster", risk: 2.7, viol: 0.6, reason: "detaches the node from its cluster: data can be lost"},
		{path: "remove-settings", risk: 2, viol: 0.3, reason: "removes persistent cluster settings"},
		{path: "remove-customs", risk: 2, viol: 0.3, reason: "removes custom metadata from the cluster state"},
		{path: "override-version", risk: 2.5, viol: 0.5, reason: "overrides the node's data version"},
		{path: "repurpose", risk: 2.6, viol: 0.6, reason: "deletes the node's shard data"},
	},
	"elasticsearch-reset-password": {{risk: 1.6, viol: 0.3, reason: "resets an Elasticsearch user's password"}},
	"elasticsearch-keystore":       {{path: "remove", risk: 1.6, viol: 0.2, reason: "removes a setting from the Elasticsearch keystore"}},
	"curator_cli":                  {{path: "delete_indices", risk: 2.5, viol: 0.5, reason: "deletes Elasticsearch indices"}, {path: "delete_snapshots", risk: 2.5, viol: 0.5, reason: "deletes Elasticsearch snapshots (backups)"}},
	"kubeadm": {
		{path: "reset", risk: 2.7, viol: 0.6, reason: "tears the Kubernetes node down: cluster state on it is deleted"},
		{path: "upgrade apply", risk: 2, viol: 0.3, reason: "upgrades the Kubernetes control plane"},
	},
}

var jenkinsVerbs = []infraVerb{
	{path: "delete-job", risk: 2.3, viol: 0.4, reason: "deletes a Jenkins job with its build history"},
	{path: "delete-builds", risk: 2, viol: 0.3, reason: "deletes Jenkins builds"},
	{path: "delete-node", risk: 2, viol: 0.3, reason: "deletes a Jenkins agent"},
	{path: "delete-view", risk: 1.8, viol: 0.2, reason: "deletes a Jenkins view"},
	{path: "delete-credentials", risk: 2.2, viol: 0.3, reason: "deletes Jenkins credentials"},
	{path: "disable-job", risk: 1.6, viol: 0.2, reason: "disables a Jenkins job"},
	{path: "disable-plugin", risk: 1.6, viol: 0.2, reason: "disables a Jenkins plugin"},
	{path: "clear-queue", risk: 1.6, viol: 0.2, reason: "cancels every queued Jenkins build"},
	{path: "shutdown", risk: 2, viol: 0.3, reason: "shuts Jenkins down"},
	{path: "restart", risk: 2, viol: 0.3, reason: "restarts Jenkins, killing running builds"},
	{path: "safe-shutdown", risk: 1.8, viol: 0.2, reason: "shuts Jenkins down after running builds"},
	{path: "safe-restart", risk: 1.6, viol: 0.2, reason: "restarts Jenkins after running builds"},
	{path: "groovy", risk: 2, viol: 0.4, reason: "runs a Groovy script inside Jenkins"},
	{path: "groovysh", risk: 2, viol: 0.4, reason: "runs Groovy code inside Jenkins"},
	{path: "reload-configuration", risk: 1.5, viol: 0.1, reason: "reloads Jenkins configuration from disk"},
	{path: "build", risk: 1, reason: "starts a Jenkins build"},
}

func init() {
	names := make([]string, 0, len(infraPacks))
	for n := range infraPacks {
		names = append(names, n)
		if strings.HasPrefix(n, "kafka-") || strings.HasPrefix(n, "elasticsearch-") || n == "pulsar-admin" {
			names = append(names, n+".sh", n+".bat") // the scripts as shipped in bin/
		}
	}
	pack.On(ruleInfraPack, names...)
	pack.On(ruleJavaJar, "java")
	pack.OnAny(ruleDestroyVerb)
}

// infraName maps spellings to a pack: kafka-topics.sh, jenkins-cli.jar.
func infraName(n string) string {
	n = strings.TrimSuffix(strings.TrimSuffix(n, ".sh"), ".jar")
	n = strings.TrimSuffix(n, ".bat")
	return n
}

func ruleInfraPack(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	return infraJudge(c, infraName(c.Name), c.Args)
}

// ruleJavaJar: java -jar jenkins-cli.jar -s URL delete-job x.
func ruleJavaJar(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	for i, a := range c.Args {
		if a == "-jar" && i+1 < len(c.Args) {
			n := infraName(rules.PkNorm(c.Args[i+1]))
			if _, ok := infraPacks[n]; ok {
				return infraJudge(c, n, c.Args[i+2:])
			}
			return rules.Finding{}, false
		}
	}
	return rules.Finding{}, false
}

func infraJudge(c *shell.Cmd, prog string, args []string) (rules.Finding, bool) {
	if rules.InfraReadOnly(args) {
		return rules.PkAllow(c, 0, "infra.help", prog+" prints help, its version or a dry run")
	}
	words := rules.InfraWords(args)
	if len(words) > 0 && (words[0] == "run" || words[0] == "exec") && (prog == "op" || prog == "doppler") {
		// op run -- CMD, doppler run -- CMD: the command is judged on its
		// own (the unknown-wrapper tail rule).
		return rules.Finding{}, false
	}
	for _, v := range infraPacks[prog] {
		if !infraPathMatch(words, v.path) || !infraFlags(args, v.flags) {
			continue
		}
		f := rules.PkF(c, v.risk, v.viol, "infra."+prog+"."+strings.ReplaceAll(strings.TrimSpace(v.path+" "+strings.Join(v.flags, " ")), " ", "-"), prog+": "+v.reason)
		return f, true
	}
	if f, ok := rules.DestroyVerbFinding(c, prog, words); ok {
		return f, true
	}
	return rules.PkUnsure(c, 0.5, "infra."+prog, prog+" "+strings.Join(words, " ")+" (reads or changes service state the rules do not single out)")
}

func infraPathMatch(words []string, path string) bool {
	p := strings.Fields(path)
	if len(p) > len(words) {
		return false
	}
	for i := range p {
		if words[i] != p[i] {
			return false
		}
	}
	return true
}

func infraFlags(args, flags []string) bool {
	for _, f := range flags {
		found := false
		for _, a := range args {
			if a == f || strings.HasPrefix(a, f+"=") {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// ruleDestroyVerb: `mycli queues delete x`, `foo-cli delete-job`, `bar
// projects:destroy`: the subcommand path of a CLI without its own rules
// holds a destroying verb. Read verbs before it keep it allowed.
func ruleDestroyVerb(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if c.DynName || rules.HasRules(c.Name) || rules.LocalToolManagers.Has(c.Name) || len(c.Args) == 0 {
		return rules.Finding{}, false
	}
	if rules.InfraReadOnly(c.Args) {
		return rules.Finding{}, false
	}
	return rules.DestroyVerbFinding(c, c.Name, rules.InfraWords(c.Args))
}
