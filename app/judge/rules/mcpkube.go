package rules

import (
	"fmt"
	"strings"
)

// Kubernetes MCP servers (mcp-server-kubernetes and the like) name
// kubectl's own commands: kubectl_get, kubectl_delete {resourceType,
// name, namespace}, kubectl_scale. Each call is the kubectl command line
// it stands for, judged by the kubectl rules: deleting a namespace is the
// block kubectl delete ns is, reading pods is everyday. Arguments this
// reading does not know only let a block through.

var mcpKubeKeys = map[string]string{
	"resourceType": "op", "resource_type": "op", "kind": "op", "resource": "op", "name": "op", "names": "ops",
	"namespace": "-n=", "context": "--context=", "allNamespaces": "-A", "all_namespaces": "-A", "all": "--all",
	"force": "--force", "gracePeriodSeconds": "--grace-period=", "grace_period": "--grace-period=", "replicas": "--replicas=",
	"labelSelector": "-l=", "label_selector": "-l=", "selector": "-l=", "output": "-o=", "cascade": "--cascade=",
	"dryRun": "--dry-run=client", "dry_run": "--dry-run=client", "container": "-c=", "tail": "--tail=",
}

func mcpKube(tool, args, cwd, home string) (Finding, bool) {
	lt := strings.ToLower(tool)
	verb, ok := strings.CutPrefix(lt, "kubectl_")
	if !ok || verb == "" {
		return Finding{}, false
	}
	in, ok := mcpArgsMap(args)
	if !ok {
		return Finding{}, false
	}
	words := []string{"kubectl", strings.ReplaceAll(verb, "_", "-")}
	if verb == "generic" {
		// kubectl_generic {command: "delete", resourceType, name, flags:
		// {all: true}, args: [...]}: the verb is an argument.
		cmd, _ := in["command"].(string)
		if strings.TrimSpace(cmd) == "" || strings.ContainsAny(cmd, ";|&$`<>") {
			return Finding{}, false
		}
		words = append([]string{"kubectl"}, strings.Fields(cmd)...)
		delete(in, "command")
		if fl, ok := in["flags"].(map[string]any); ok {
			for _, k := range sortedKeys(fl) {
				switch v := fl[k].(type) {
				case bool:
					if v {
						words = append(words, "--"+k)
					}
				default:
					words = append(words, "--"+k+"="+shellQuote(fmt.Sprint(v)))
				}
			}
			delete(in, "flags")
		}
		if l, ok := in["args"].([]any); ok {
			for _, e := range l {
				words = append(words, shellQuote(fmt.Sprint(e)))
			}
			delete(in, "args")
		}
	}
	var ops []string
	unknown := false
	// resource before name: kubectl delete deployment api.
	for _, k := range []string{"resourceType", "resource_type", "kind", "resource", "name", "names"} {
		if v, ok := in[k]; ok {
			switch v := v.(type) {
			case string:
				if v != "" {
					ops = append(ops, shellQuote(v))
				}
			case []any:
				for _, e := range v {
					if s, ok := e.(string); ok {
						ops = append(ops, shellQuote(s))
					}
				}
			}
		}
	}
	for k, v := range in {
		how, known := mcpKubeKeys[k]
		if !known {
			unknown = true
			continue
		}
		s := fmt.Sprint(v)
		switch {
		case how == "op" || how == "ops":
		case strings.HasSuffix(how, "="):
			if s != "" {
				words = append(words, strings.TrimSuffix(how, "=")+"="+shellQuote(s))
			}
		case strings.Contains(how, "="):
			if b, ok := v.(bool); ok && b {
				words = append(words, how)
			}
		default:
			if b, ok := v.(bool); ok && b {
				words = append(words, how)
			}
		}
	}
	line := strings.Join(append(words, ops...), " ")
	return mcpAsLine(line, cwd, home, "the Kubernetes MCP tool runs `"+line+"`: ", "mcp.kubectl", unknown)
}
