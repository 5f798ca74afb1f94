package rules

import (
	"path"
	"strings"
)

// The same settings as tlsconfig.go's commands, written into the tool's
// config file by Write or Edit: ~/.npmrc with strict-ssl=false, pip.conf
// with a trusted-host or an http:// index, .condarc with ssl_verify:
// false, a git config with sslVerify = false. The file stays and every
// later install or clone trusts whatever answers.

// transportFiles: config file base names (lower case) whose key = value
// (or key: value) lines the transport check reads.
var transportFiles = map[string]bool{".npmrc": true, ".yarnrc": true, ".yarnrc.yml": true, "pip.conf": true,
	"pip.ini": true, ".condarc": true, "condarc": true, ".gitconfig": true, ".mambarc": true, "bunfig.toml": true}

// WriteTransport judges content written to path (Write's content, or an
// Edit's new text); ok=false when the file is none of them or the content
// turns nothing off.
func WriteTransport(p, content string) (Finding, bool) {
	low := strings.ToLower(slashify(p))
	base := path.Base(low)
	gitCfg := base == "config" && (strings.HasSuffix(low, ".git/config") || strings.HasSuffix(low, "/git/config"))
	if base == ".curlrc" || base == "curlrc" || base == "_curlrc" || base == ".wgetrc" || base == "wgetrc" {
		return rcTransport(p, base, content)
	}
	if !transportFiles[base] && !gitCfg {
		return Finding{}, false
	}
	for _, line := range strings.Split(content, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || line[0] == '#' || line[0] == ';' || line[0] == '[' {
			continue
		}
		i := strings.IndexAny(line, "=:")
		if i <= 0 {
			continue
		}
		k := strings.ToLower(strings.Trim(strings.TrimSpace(line[:i]), `"'`))
		v := strings.TrimSpace(line[i+1:])
		if j := strings.LastIndexByte(k, '.'); j >= 0 {
			k = k[j+1:]
		}
		f := Finding{Risk: 2, Violation: 0.4, Marked: line}
		switch k {
		case "strict-ssl", "enablestrictssl", "ssl_verify", "ssl-verify", "sslverify", "strict_ssl":
			if falsy(v) {
				f.Rule, f.Reason = "net.tls-off", "writes "+k+" "+v+" into "+p+": certificates are no longer checked, so every later install or clone can be replaced on the way"
				return f, true
			}
		case "script-shell", "node-options", "yarnpath":
			// the program npm runs every script with, the code node loads
			// before every program, the yarn yarn itself runs
			lv := strings.ToLower(strings.Trim(v, `"'`))
			switch {
			case k == "script-shell" && !standardShell(lv),
				k == "node-options" && (strings.Contains(lv, "--require") || strings.Contains(lv, "-r ") || strings.Contains(lv, "--import") || strings.Contains(lv, "--loader")),
				k == "yarnpath" && !strings.HasPrefix(strings.TrimPrefix(lv, "./"), ".yarn/releases/"):
				f.Rule, f.Violation = "write.script-danger", 0.45
				f.Reason = "writes " + k + " " + v + " into " + p + ": every later npm, node or yarn run starts that program first"
				return f, true
			}
		case "trusted-host":
			f.Rule, f.Reason = "net.tls-off", "writes trusted-host "+v+" into "+p+": that host's certificate is no longer checked for every later install"
			return f, true
		case "registry", "index-url", "extra-index-url", "npmregistryserver", "channel_alias", "index":
			if plainHTTPRemote(v) {
				f.Rule, f.Reason = "net.plain-index", "writes "+k+" "+v+" into "+p+": packages come over plain http from another machine and can be replaced on the way"
				return f, true
			}
		}
	}
	return Finding{}, false
}

// rcTransport: curl's and wget's run-control files take options without
// values: .curlrc's insecure (-k, --insecure), .wgetrc's
// check_certificate = off. Every later curl or wget, the install scripts
// piped to sh among them, then accepts any certificate.
func rcTransport(p, base, content string) (Finding, bool) {
	for _, line := range strings.Split(content, "\n") {
		l := strings.ToLower(strings.TrimSpace(line))
		if l == "" || l[0] == '#' {
			continue
		}
		off := false
		if strings.Contains(base, "curl") {
			l = strings.TrimLeft(l, "-")
			off = l == "insecure" || l == "k" || strings.HasPrefix(l, "insecure ") || strings.HasPrefix(l, "insecure=") && !falsy(strings.TrimPrefix(l, "insecure="))
		} else if k, v, ok := strings.Cut(l, "="); ok {
			k = strings.ReplaceAll(strings.TrimSpace(k), "_", "")
			off = (k == "checkcertificate" || k == "checkcert") && falsy(strings.TrimSpace(v))
		}
		if off {
			return Finding{Risk: 2, Violation: 0.4, Marked: strings.TrimSpace(line), Rule: "net.tls-off",
				Reason: "writes " + strings.TrimSpace(line) + " into " + p + ": every later " + strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(base, "."), "_"), "rc") + " accepts any certificate, so downloads can be replaced on the way"}, true
		}
	}
	return Finding{}, false
}

// standardShell: a shell npm may run scripts with as usual.
func standardShell(v string) bool {
	switch path.Base(strings.ReplaceAll(v, "\\", "/")) {
	case "sh", "bash", "zsh", "dash", "pwsh", "pwsh.exe", "powershell", "powershell.exe", "cmd", "cmd.exe", "bash.exe", "sh.exe":
		return true
	}
	return false
}
