package rules

import (
	"net/url"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Settings that stay after the call and take away what guards every later
// download: certificate checks turned off (git http.sslVerify false, npm
// strict-ssl false, pip trusted-host, conda ssl_verify false,
// NODE_TLS_REJECT_UNAUTHORIZED=0 or GIT_SSL_NO_VERIFY set with setx), a
// package index over plain http, or git's URL rewriting that sends one
// host's traffic to another. Each later clone, push or install can then
// be read or replaced on the way. A one-off flag for a single run (git -c,
// curl -k, pip --trusted-host) is left to the run's own rules.

func init() {
	on(ruleGitTransport, "git")
	on(rulePkgTransport, "npm", "yarn", "pnpm", "pip", "pip3", "conda", "mamba")
	on(ruleSetxTransport, "setx")
}

func transportF(c *shell.Cmd, rule, reason string) (Finding, bool) {
	return Finding{Risk: 2, Violation: 0.4, Rule: rule, Reason: reason, Marked: c.Raw}, true
}

func falsy(v string) bool {
	switch strings.ToLower(strings.Trim(v, `"'`)) {
	case "false", "0", "no", "off":
		return true
	}
	return false
}

// plainHTTPRemote: an http:// address of another machine.
func plainHTTPRemote(v string) bool {
	u, err := url.Parse(strings.Trim(v, `"'`))
	if err != nil || !strings.EqualFold(u.Scheme, "http") {
		return false
	}
	h := strings.ToLower(u.Hostname())
	return h != "" && h != "localhost" && h != "127.0.0.1" && h != "::1" && !strings.HasSuffix(h, ".localhost")
}

// urlHost is the host of a git URL (https://h/..., git@h:..., ssh://h/...).
func urlHost(v string) string {
	v = strings.ToLower(strings.Trim(v, `"'`))
	if i := strings.Index(v, "://"); i >= 0 {
		v = v[i+3:]
	} else if i := strings.IndexByte(v, '@'); i >= 0 {
		v = v[i+1:]
	}
	if i := strings.IndexByte(v, '@'); i >= 0 {
		v = v[i+1:]
	}
	h, _, _ := strings.Cut(v, "/")
	h, _, _ = strings.Cut(h, ":")
	return h
}

// ruleGitTransport: git config writing http.sslVerify false or a
// url.<base>.insteadOf / pushInsteadOf that moves a host to another.
func ruleGitTransport(c *shell.Cmd, x *Ctx) (Finding, bool) {
	a := c.Args
	i := 0
	for i < len(a) && strings.HasPrefix(a[i], "-") {
		if a[i] == "-C" || a[i] == "-c" || a[i] == "--git-dir" || a[i] == "--work-tree" || a[i] == "--namespace" {
			i++
		}
		i++
	}
	if i >= len(a) || a[i] != "config" {
		return Finding{}, false
	}
	var ops []string
	for j := i + 1; j < len(a); j++ {
		switch {
		case a[j] == "-f" || a[j] == "--file" || a[j] == "--type" || a[j] == "--blob" || a[j] == "--comment" || a[j] == "--value":
			j++
		case strings.HasPrefix(a[j], "-"):
			if a[j] == "--unset" || a[j] == "--unset-all" || a[j] == "--get" || a[j] == "--get-all" || a[j] == "--list" || a[j] == "-l" || a[j] == "--remove-section" {
				return Finding{}, false
			}
		default:
			ops = append(ops, a[j])
		}
	}
	if len(ops) > 0 && (ops[0] == "set" || ops[0] == "--add") {
		ops = ops[1:]
	}
	if len(ops) < 2 {
		return Finding{}, false
	}
	k, v := strings.ToLower(ops[0]), ops[1]
	switch {
	case k == "http.sslverify" || strings.HasPrefix(k, "http.") && strings.HasSuffix(k, ".sslverify"):
		if falsy(v) {
			return transportF(c, "net.tls-off", "git config "+ops[0]+" "+v+": git stops checking certificates, so every later clone, fetch and push can be read or changed on the way")
		}
	case strings.HasPrefix(k, "url.") && (strings.HasSuffix(k, ".insteadof") || strings.HasSuffix(k, ".pushinsteadof")):
		dot := strings.LastIndexByte(ops[0], '.')
		if dot <= 4 {
			break // url.insteadOf: no base URL
		}
		base := ops[0][4:dot]
		if hb, hv := urlHost(base), urlHost(v); hb != "" && hv != "" && hb != hv {
			return transportF(c, "git.url-redirect", "git config "+ops[0]+" "+v+": every later "+v+" URL goes to "+hb+" instead")
		}
	}
	return Finding{}, false
}

// rulePkgTransport: npm/yarn/pnpm/pip/conda configuration that turns
// certificate checks off or points the package index at plain http.
func rulePkgTransport(c *shell.Cmd, x *Ctx) (Finding, bool) {
	ops := c.Operands()
	var kv []string
	switch c.Name {
	case "npm", "yarn", "pnpm":
		switch {
		case len(ops) >= 2 && ops[0] == "config" && ops[1] == "set":
			kv = ops[2:]
		case len(ops) >= 1 && ops[0] == "set":
			kv = ops[1:]
		}
	case "pip", "pip3":
		if len(ops) >= 2 && ops[0] == "config" && ops[1] == "set" {
			kv = ops[2:]
		}
	case "conda", "mamba":
		for i, a := range c.Args {
			if a == "--set" && i+2 < len(c.Args) {
				kv = c.Args[i+1 : i+3]
			}
		}
	}
	if len(kv) == 1 {
		// npm config set strict-ssl=false
		if k, v, ok := strings.Cut(kv[0], "="); ok {
			kv = []string{k, v}
		}
	}
	if len(kv) < 2 {
		return Finding{}, false
	}
	k, v := strings.ToLower(kv[0]), kv[1]
	if i := strings.LastIndexByte(k, '.'); i >= 0 && (c.Name == "pip" || c.Name == "pip3") {
		k = k[i+1:] // global.trusted-host
	}
	switch k {
	case "strict-ssl", "enablestrictssl", "ssl_verify", "ssl-verify", "sslverify":
		if falsy(v) {
			return transportF(c, "net.tls-off", c.Name+" "+kv[0]+" "+v+": certificates are no longer checked, so every later install can be replaced on the way")
		}
	case "trusted-host":
		return transportF(c, "net.tls-off", c.Name+" trusts "+v+" without checking its certificate for every later install")
	case "registry", "index-url", "extra-index-url", "npmregistryserver", "channel_alias":
		if plainHTTPRemote(v) {
			return transportF(c, "net.plain-index", c.Name+" "+kv[0]+" "+v+": packages come over plain http from another machine and can be replaced on the way")
		}
	}
	return Finding{}, false
}

// ruleSetxTransport: setx NODE_TLS_REJECT_UNAUTHORIZED 0 and the like,
// for every later program of the user (or machine, /m).
func ruleSetxTransport(c *shell.Cmd, x *Ctx) (Finding, bool) {
	ops := c.Operands()
	var names []string
	for _, a := range ops {
		if !strings.HasPrefix(a, "/") {
			names = append(names, a)
		}
	}
	if len(names) < 2 {
		return Finding{}, false
	}
	n, v := strings.ToLower(names[0]), names[1]
	val := strings.ToLower(strings.Trim(v, `"'`))
	off := false
	switch n {
	case "node_tls_reject_unauthorized", "pythonhttpsverify":
		off = val == "0"
	case "git_ssl_no_verify", "curl_insecure":
		off = val == "1" || val == "true"
	}
	if off {
		return transportF(c, "net.tls-off", "setx "+names[0]+" "+v+": certificate checks stay off for every later program")
	}
	return Finding{}, false
}
