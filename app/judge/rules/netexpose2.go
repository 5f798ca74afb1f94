package rules

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/facts"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// More services opened to the network: kubectl proxy off loopback (the
// cluster's API without a login), ssh -L on every interface, web
// terminals (ttyd, gotty), a desktop without a password (x11vnc -nopw),
// tunnel clients (bore, frpc, chisel), ssh -R to public tunnel hosts, and
// static file servers pointed at the home or / (npx serve ~).

func init() {
	on(ruleExposeMore, "kubectl", "ssh", "ttyd", "gotty", "websocketd", "x11vnc", "bore", "frpc", "chisel",
		"serve", "http-server", "live-server", "php", "busybox", "httpd", "rclone")
}

var exposeTunnelHosts = pkSet("serveo.net", "localhost.run", "nokey@localhost.run", "a.pinggy.io", "pinggy.io", "free.pinggy.io", "tunnel.pyjam.as")

func ruleExposeMore(c *shell.Cmd, x *Ctx) (Finding, bool) {
	const rule = "net.expose-service"
	low := pkLow(c)
	switch c.Name {
	case "kubectl":
		if ops := pkLowOps(c); len(ops) == 0 || ops[0] != "proxy" { // kubectl -0: flags, no verb
			return Finding{}, false
		}
		if v, ok := pkVal(c, "--address"); ok && !exposeLoopback(v) && !pkDyn(v) {
			return pkRet(c, 2.2, 0.5, rule, "kubectl proxy --address "+v+" serves the cluster's API with this user's login to anyone who reaches the port")
		}
	case "ssh":
		for i, a := range c.Args {
			spec := ""
			switch {
			case a == "-L" && i+1 < len(c.Args):
				spec = c.Args[i+1]
			case strings.HasPrefix(a, "-L") && len(a) > 2:
				spec = a[2:]
			}
			if parts := strings.Split(spec, ":"); len(parts) == 4 && !exposeLoopback(parts[0]) {
				return pkRet(c, 1.6, 0.3, rule, "ssh -L "+spec+" opens a remote service on every interface of this machine")
			}
		}
		if hasWord(c.Args, "-R") || strings.Contains(strings.Join(c.Args, " "), " -R") {
			for _, o := range c.Operands() {
				h := strings.ToLower(o)
				if k := strings.IndexByte(h, '@'); k >= 0 && !exposeTunnelHosts.Has(h) {
					h = h[k+1:]
				}
				if exposeTunnelHosts.Has(h) || exposeTunnelHosts.Has(strings.ToLower(o)) {
					return pkRet(c, 1.5, 0.4, "net.tunnel", "ssh -R to "+o+" publishes a local port on the internet")
				}
			}
		}
	case "ttyd", "gotty", "websocketd":
		if v, ok := pkVal(c, "-i", "--interface", "--address", "-a"); ok && exposeLoopback(v) {
			return Finding{}, false
		}
		_, hasCred := pkVal(c, "-c", "--credential")
		writable := c.Name == "websocketd" || hasWord(c.Args, "-W") || hasWord(c.Args, "--writable") || hasWord(c.Args, "-w") || hasWord(c.Args, "--permit-write")
		shellRun := false
		for _, o := range c.Operands() {
			if facts.IsShell(shell.NormName(o)) {
				shellRun = true
			}
		}
		if writable && shellRun && !hasCred {
			return pkRet(c, 2.5, 0.8, "net.bind-shell", c.Name+" serves a shell anyone on the network can type into, without a password (backdoor)")
		}
		return pkRet(c, 2, 0.4, rule, c.Name+" serves a terminal over the web to anyone who reaches the port")
	case "rclone":
		// rclone serve http|webdav|sftp|ftp|s3 remote: --addr 0.0.0.0:8080
		if ops := pkLowOps(c); len(ops) > 0 && ops[0] == "serve" {
			if v, ok := pkVal(c, "--addr"); ok && !pkDyn(v) {
				host := v
				if k := strings.LastIndexByte(v, ':'); k >= 0 {
					host = v[:k]
				}
				if !exposeLoopback(host) {
					return pkRet(c, 2, 0.4, rule, "rclone serve --addr "+v+" serves the remote's files to anyone who reaches the port")
				}
			}
		}
	case "x11vnc":
		if hasWord(low, "-nopw") && !hasWord(low, "-localhost") {
			return pkRet(c, 2, 0.5, rule, "x11vnc -nopw shares the desktop with anyone on the network, without a password")
		}
	case "bore", "frpc":
		if c.Name == "frpc" || len(low) > 0 && low[0] == "local" {
			return pkRet(c, 1.5, 0.4, "net.tunnel", c.Name+" exposes a local service to the internet")
		}
	case "chisel":
		for _, a := range low {
			if a == "--reverse" || strings.HasPrefix(a, "r:") {
				return pkRet(c, 1.5, 0.4, "net.tunnel", "chisel opens a reverse tunnel to this machine's ports")
			}
		}
	case "serve", "http-server", "live-server", "php", "busybox", "httpd":
		dir := ""
		switch c.Name {
		case "php":
			if !hasWord(c.Args, "-S") {
				return Finding{}, false
			}
			dir, _ = pkVal(c, "-t")
		case "busybox", "httpd":
			if c.Name == "busybox" && (len(low) == 0 || low[0] != "httpd") {
				return Finding{}, false
			}
			dir, _ = pkVal(c, "-h")
		default:
			if ops := pkPos(c.Args, pkSet("-p", "--port", "-a", "--address", "-l", "--listen", "-c", "--config")); len(ops) > 0 {
				dir = ops[0]
			}
		}
		if dir == "" {
			dir = x.Cwd
		}
		if p := strings.TrimRight(pkAbs(dir, x), "/"); p == "" || p == strings.ToLower(strings.TrimRight(x.Home, "/")) || p == "c:" {
			return pkRet(c, 2.2, 0.6, "creds.serve-home", "serves the home or root folder (keys, credentials) over HTTP")
		}
	}
	return Finding{}, false
}
