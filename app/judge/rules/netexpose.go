package rules

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Services opened to the network: a local port, the Docker API, a
// notebook server or a database made reachable from other machines
// (kubectl port-forward --address 0.0.0.0, dockerd -H tcp://0.0.0.0:2375,
// jupyter --ip=0.0.0.0 or without its token, redis --protected-mode no,
// socat relaying a local port) and tunnels that publish a local port
// (tailscale funnel, code tunnel, ssh -R 0.0.0.0:...). The same
// services bound to localhost stay everyday work.

func init() {
	on(ruleExposeService, "kubectl", "oc", "dockerd", "jupyter", "jupyter-notebook", "jupyter-lab",
		"jupyter-server", "redis-server", "socat", "tailscale", "code", "code-insiders", "cursor", "ssh")
}

// exposeLoopback: an address only this machine can reach.
func exposeLoopback(h string) bool {
	h = strings.ToLower(strings.Trim(h, "[]'\""))
	return h == "localhost" || h == "lo" || h == "lo0" || strings.HasPrefix(h, "127.") || h == "::1" || h == "ip6-localhost" ||
		strings.HasPrefix(h, "unix:") || strings.HasPrefix(h, "fd:") || strings.HasPrefix(h, "npipe:")
}

func ruleExposeService(c *shell.Cmd, x *Ctx) (Finding, bool) {
	const rule = "net.expose-service"
	low := pkLow(c)
	switch c.Name {
	case "kubectl", "oc":
		if !hasWord(low, "port-forward") {
			return Finding{}, false
		}
		if v, ok := pkVal(c, "--address"); ok {
			for _, a := range strings.Split(v, ",") {
				if a != "" && !exposeLoopback(a) && !pkDyn(a) {
					return pkRet(c, 2, 0.4, rule, "port-forward --address "+v+" makes a cluster service reachable from other machines, not just this one")
				}
			}
		}
	case "dockerd":
		for i, a := range low {
			var h string
			switch {
			case (a == "-h" || a == "--host") && i+1 < len(low):
				h = low[i+1]
			case strings.HasPrefix(a, "--host=") || strings.HasPrefix(a, "-h="):
				_, h, _ = strings.Cut(a, "=")
			default:
				continue
			}
			addr, ok := strings.CutPrefix(h, "tcp://")
			if !ok {
				continue
			}
			host := addr
			if k := strings.LastIndexByte(addr, ':'); k >= 0 {
				host = addr[:k]
			}
			if host != "" && exposeLoopback(host) {
				continue
			}
			if hasWord(low, "--tlsverify") {
				return pkRet(c, 1.5, 0.3, rule, "dockerd serves the Docker API (root on this machine) over TCP at "+h)
			}
			return pkRet(c, 2.2, 0.6, rule, "dockerd serves the Docker API over TCP at "+h+" without TLS: anyone who reaches the port is root on this machine")
		}
	case "jupyter", "jupyter-notebook", "jupyter-lab", "jupyter-server":
		for i, a := range low {
			if (strings.HasSuffix(a, ".token=") || strings.HasSuffix(a, ".password=") || strings.HasSuffix(a, ".token=''") || strings.HasSuffix(a, `.token=""`)) && strings.HasPrefix(a, "--") {
				return pkRet(c, 2.2, 0.5, rule, "starts a notebook server with its token or password set empty ("+c.Args[i]+"): anyone who reaches the port can run code here")
			}
		}
		for i, a := range low {
			ip := ""
			switch {
			case strings.HasPrefix(a, "--ip="), strings.HasPrefix(a, "--notebookapp.ip="), strings.HasPrefix(a, "--serverapp.ip="):
				_, ip, _ = strings.Cut(a, "=")
			case a == "--ip" && i+1 < len(low):
				ip = low[i+1]
			}
			if ip != "" && !exposeLoopback(ip) && !pkDyn(ip) {
				return pkRet(c, 2, 0.4, rule, "starts a notebook server on "+ip+": it runs code for anyone on the network who gets in, not just this machine")
			}
		}
	case "redis-server":
		if v, ok := pkVal(c, "--protected-mode"); ok && strings.EqualFold(v, "no") {
			return pkRet(c, 2, 0.4, rule, "starts redis with protected mode off: without a password, anyone on the network can read and change it")
		}
	case "socat":
		// socat TCP-LISTEN:2222,fork TCP:localhost:22: a local-only
		// service relayed to every interface.
		ops := c.Operands()
		if len(ops) < 2 {
			return Finding{}, false
		}
		l, t := strings.ToLower(ops[0]), strings.ToLower(ops[1])
		if !strings.HasPrefix(l, "tcp-listen:") && !strings.HasPrefix(l, "tcp4-listen:") && !strings.HasPrefix(l, "tcp6-listen:") {
			return Finding{}, false
		}
		if strings.Contains(l, "bind=127.") || strings.Contains(l, "bind=localhost") || strings.Contains(l, "range=127.") {
			return Finding{}, false
		}
		if _, rest, ok := strings.Cut(t, ":"); ok && (strings.HasPrefix(t, "tcp:") || strings.HasPrefix(t, "tcp4:") || strings.HasPrefix(t, "tcp6:")) && exposeLoopback(strings.Split(rest, ":")[0]) {
			return pkRet(c, 2, 0.4, rule, "socat relays a local-only port ("+ops[1]+") to every network interface")
		}
	case "tailscale":
		if ops := c.Operands(); len(ops) > 0 && ops[0] == "funnel" && !hasWord(low, "status") && !hasWord(low, "off") && !hasWord(low, "reset") {
			return pkRet(c, 1.5, 0.4, "net.tunnel", "tailscale funnel exposes a local service to the internet")
		}
	case "code", "code-insiders", "cursor":
		if ops := c.Operands(); len(ops) > 0 && ops[0] == "tunnel" {
			if len(ops) > 1 && (ops[1] == "status" || ops[1] == "kill" || ops[1] == "unregister" || ops[1] == "help" || ops[1] == "prune" || ops[1] == "rename" || ops[1] == "user") {
				return Finding{}, false
			}
			return pkRet(c, 1.5, 0.4, "net.tunnel", c.Name+" tunnel opens this machine to remote editing and terminals over the internet")
		}
	case "ssh":
		for i, a := range c.Args {
			spec := ""
			switch {
			case a == "-R" && i+1 < len(c.Args):
				spec = c.Args[i+1]
			case strings.HasPrefix(a, "-R") && len(a) > 2:
				spec = a[2:]
			default:
				continue
			}
			// -R [bind:]port:host:hostport; a bind address other than
			// loopback (0.0.0.0, *, "") publishes the local port there.
			if parts := strings.Split(spec, ":"); len(parts) == 4 && !exposeLoopback(parts[0]) {
				return pkRet(c, 1.5, 0.4, "net.tunnel", "ssh -R "+spec+" publishes a local port on every interface of the remote host")
			}
		}
	}
	return Finding{}, false
}
