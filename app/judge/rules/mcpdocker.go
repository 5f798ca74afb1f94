package rules

import (
	"fmt"
	"sort"
	"strings"
)

// Docker MCP servers (mcp-server-docker, docker-mcp) name docker's own
// commands: run_container {image, command, volumes, privileged},
// remove_volume {volume_name}, list_containers. Each call is the docker
// command line it stands for, judged by the docker rules: mounting the
// host's / into a privileged container is what docker run -v /:/host
// --privileged is, starting postgres is everyday. Arguments this reading
// does not know only let a block through.

var mcpDockerVerbs = map[string][]string{
	"run_container": {"run"}, "run-container": {"run"}, "create_container": {"create"}, "create-container": {"run", "-d"},
	"remove_container": {"rm"}, "remove-container": {"rm"}, "stop_container": {"stop"}, "start_container": {"start"},
	"remove_image": {"rmi"}, "remove_volume": {"volume", "rm"}, "remove-volume": {"volume", "rm"},
	"list_containers": {"ps"}, "list-containers": {"ps"}, "list_images": {"images"}, "list_volumes": {"volume", "ls"},
	"fetch_container_logs": {"logs"}, "get-logs": {"logs"}, "get_logs": {"logs"},
}

func mcpDocker(server, tool, args, cwd, home string) (Finding, bool) {
	verb, ok := mcpDockerVerbs[strings.ToLower(tool)]
	if !ok || !strings.Contains(strings.ToLower(server), "docker") && !strings.Contains(strings.ToLower(tool), "container") {
		return Finding{}, false
	}
	in, ok := mcpArgsMap(args)
	if !ok {
		return Finding{}, false
	}
	words := append([]string{"docker"}, verb...)
	var image, ops, tail []string
	unknown := false
	str := func(v any) string { return fmt.Sprint(v) }
	for _, k := range sortedKeys(in) {
		v := in[k]
		switch strings.ToLower(k) {
		case "image":
			image = append(image, shellQuote(str(v)))
		case "container_id", "container", "container_name", "volume_name", "volume", "name_or_id", "id":
			ops = append(ops, shellQuote(str(v)))
		case "name":
			if verb[0] == "run" || verb[0] == "create" {
				words = append(words, "--name="+shellQuote(str(v)))
			} else {
				ops = append(ops, shellQuote(str(v)))
			}
		case "command", "cmd", "args":
			switch v := v.(type) {
			case string:
				tail = append(tail, v)
			case []any:
				for _, e := range v {
					tail = append(tail, shellQuote(str(e)))
				}
			}
		case "entrypoint":
			words = append(words, "--entrypoint="+shellQuote(str(v)))
		case "environment", "env":
			switch v := v.(type) {
			case map[string]any:
				for _, ek := range sortedKeys(v) {
					words = append(words, "-e", shellQuote(ek+"="+str(v[ek])))
				}
			case []any:
				for _, e := range v {
					words = append(words, "-e", shellQuote(str(e)))
				}
			}
		case "ports":
			switch v := v.(type) {
			case map[string]any:
				for _, c := range sortedKeys(v) {
					words = append(words, "-p", shellQuote(str(v[c])+":"+strings.TrimSuffix(c, "/tcp")))
				}
			case []any:
				for _, e := range v {
					words = append(words, "-p", shellQuote(str(e)))
				}
			}
		case "volumes", "mounts", "binds":
			switch v := v.(type) {
			case map[string]any:
				for _, h := range sortedKeys(v) {
					b := v[h]
					bind := str(b)
					if m, ok := b.(map[string]any); ok {
						bind = str(m["bind"])
						if mode, ok := m["mode"].(string); ok && mode != "" {
							bind += ":" + mode
						}
					}
					words = append(words, "-v", shellQuote(h+":"+bind))
				}
			case []any:
				for _, e := range v {
					words = append(words, "-v", shellQuote(str(e)))
				}
			}
		case "privileged":
			if b, ok := v.(bool); ok && b {
				words = append(words, "--privileged")
			}
		case "network_mode", "network":
			words = append(words, "--network="+shellQuote(str(v)))
		case "pid_mode", "pid":
			words = append(words, "--pid="+shellQuote(str(v)))
		case "user":
			words = append(words, "--user="+shellQuote(str(v)))
		case "cap_add":
			if l, ok := v.([]any); ok {
				for _, e := range l {
					words = append(words, "--cap-add="+shellQuote(str(e)))
				}
			}
		case "detach":
			if b, ok := v.(bool); ok && b {
				words = append(words, "-d")
			}
		case "force":
			if b, ok := v.(bool); ok && b {
				words = append(words, "-f")
			}
		case "auto_remove", "remove", "rm":
			if b, ok := v.(bool); ok && b {
				words = append(words, "--rm")
			}
		case "all":
			if b, ok := v.(bool); ok && b {
				words = append(words, "-a")
			}
		case "tail", "since", "working_dir", "workdir", "hostname", "labels", "restart_policy", "restart":
			// shape the container's life or output, not its reach
		default:
			unknown = true
		}
	}
	all := append(append(append(words, image...), ops...), tail...)
	line := strings.Join(all, " ")
	return mcpAsLine(line, cwd, home, "the Docker MCP tool runs `"+line+"`: ", "mcp.docker", unknown)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
