package rules

import (
	"encoding/json"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Secrets by destination and content (issue 11, item 5). Two tables:
// the secret sources (environment names, in pkSecretVar; files, in
// pkSecretPath, the one classifier Bash, Write and MCP share) and the
// token patterns below. Any outbound channel carrying one is a red line,
// unless it goes to the secret's own service (a GitHub token to
// api.github.com is how it is used; to collect.example it is a leak).

// TokenPattern is one kind of credential recognisable by its shape.
type TokenPattern struct {
	Name string
	Re   *lazyre.Regexp
	Home []string // hosts (suffixes) where it is legitimately sent; none: nowhere
}

// TokenPatterns is the one table of token shapes (audit redaction may use it too).
var TokenPatterns = []TokenPattern{
	{"an AWS access key id", lazyre.New(`\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b`), []string{"amazonaws.com"}},
	{"an AWS secret access key", lazyre.New(`(?i)aws_?secret_?(?:access_?)?key["'\s:=]+[A-Za-z0-9/+]{40}\b`), []string{"amazonaws.com"}},
	{"a GitHub token", lazyre.New(`\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36}\b|\bgithub_pat_[A-Za-z0-9_]{22,}`), []string{"github.com", "githubusercontent.com", "ghcr.io"}},
	{"a GitLab token", lazyre.New(`\bglpat-[0-9A-Za-z_-]{20}\b`), []string{"gitlab.com"}},
	{"a Stripe secret key", lazyre.New(`\b(?:sk|rk)_live_[0-9A-Za-z]{16,}\b`), []string{"stripe.com"}},
	{"an Anthropic API key", lazyre.New(`\bsk-ant-[A-Za-z0-9_-]{20,}`), []string{"anthropic.com"}},
	{"an OpenAI API key", lazyre.New(`\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}`), []string{"openai.com"}},
	{"a Slack token", lazyre.New(`\bxox[bpars]-[0-9A-Za-z-]{10,}`), []string{"slack.com"}},
	{"an npm token", lazyre.New(`\bnpm_[A-Za-z0-9]{36}\b`), []string{"npmjs.org", "npmjs.com"}},
	{"a Google API key", lazyre.New(`\bAIza[0-9A-Za-z_-]{35}\b`), []string{"googleapis.com"}},
	{"a Hugging Face token", lazyre.New(`\bhf_[A-Za-z]{34}\b`), []string{"huggingface.co"}},
	{"a private key", lazyre.New(`-----BEGIN (?:[A-Z0-9]+ )?PRIVATE KEY-----`), nil},
	{"a password in a URL", lazyre.New(`\b[a-z][a-z0-9+.-]*://[^/\s:@"']+:[^/\s@"']{3,}@[^/\s"']+`), nil},
}

var urlPassword = TokenPatterns[len(TokenPatterns)-1]

// tokenMarks: every TokenPatterns entry matches only text holding one of
// these literals (case as written), or "secret" in any case (the AWS
// secret key's pattern ignores case). FindToken tests them before a dozen
// regexps; a pattern added to the table needs its mark here (and a sample
// in TestTokenMarksCoverEveryPattern).
var tokenMarks = []string{"AKIA", "ASIA", "AGPA", "AIDA", "AROA", "gh", "github_pat_", "glpat-", "_live_", "sk-",
	"xox", "npm_", "AIza", "hf_", "PRIVATE KEY-----", "://"}

// mayHoldToken is false when no token pattern can match s.
func mayHoldToken(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return true // (?i) folds some non-ASCII letters to ASCII (U+017F is s): no shortcut
		}
	}
	// "secret" in any ASCII case, found by its first letter
	for i := 0; i+6 <= len(s); i++ {
		if s[i]|0x20 == 's' && strings.EqualFold(s[i:i+6], "secret") {
			return true
		}
	}
	for _, m := range tokenMarks {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}

// FindToken returns the first token pattern s holds.
func FindToken(s string) (TokenPattern, string, bool) {
	if len(s) < 16 || !mayHoldToken(s) {
		return TokenPattern{}, "", false
	}
	for _, p := range TokenPatterns {
		if m := p.Re.FindString(s); m != "" {
			return p, m, true
		}
	}
	return TokenPattern{}, "", false
}

// envHomes: a secret environment variable's own service, by name.
var envHomes = []struct {
	prefix string
	hosts  []string
}{
	{"GITHUB", []string{"github.com", "githubusercontent.com", "ghcr.io"}}, {"GH_", []string{"github.com", "githubusercontent.com", "ghcr.io"}},
	{"NPM", []string{"npmjs.org", "npmjs.com", "npm.pkg.github.com"}}, {"NODE_AUTH", []string{"npmjs.org", "npmjs.com", "npm.pkg.github.com"}},
	{"OPENAI", []string{"openai.com"}}, {"ANTHROPIC", []string{"anthropic.com"}}, {"CLAUDE", []string{"anthropic.com"}},
	{"AWS", []string{"amazonaws.com", "aws.amazon.com"}}, {"GITLAB", []string{"gitlab"}}, {"CI_JOB", []string{"gitlab"}}, {"GL_", []string{"gitlab"}},
	{"SLACK", []string{"slack.com"}}, {"HF_", []string{"huggingface.co"}}, {"HUGGING", []string{"huggingface.co"}},
	{"GOOGLE", []string{"googleapis.com", "google.com"}}, {"GCP", []string{"googleapis.com"}}, {"GEMINI", []string{"googleapis.com"}},
	{"AZURE", []string{"azure.com", "windows.net", "microsoft.com", "azure.net"}}, {"ARM_", []string{"azure.com", "windows.net", "microsoft.com"}},
	{"DOCKER", []string{"docker.io", "docker.com"}}, {"PYPI", []string{"pypi.org"}}, {"TWINE", []string{"pypi.org"}}, {"CARGO", []string{"crates.io"}},
	{"DD_", []string{"datadoghq.com", "datadoghq.eu"}}, {"DATADOG", []string{"datadoghq.com"}}, {"CF_", []string{"cloudflare.com"}},
	{"DO_", []string{"digitalocean.com"}}, {"TYPESAFE", []string{"typesafe.ai"}}, {"CIRCLE", []string{"circleci.com"}}, {"MISTRAL", []string{"mistral.ai"}},
}

// secretHomes: the hosts where the variable at raw[pos:] ($X, ${X},
// $env:X, %X%) may go; derived from its name's first word when no entry
// of envHomes names it (STRIPE_API_KEY -> hosts containing "stripe").
func secretHomes(raw string, pos int) (name string, homes []string, known bool) {
	j := pos + 1
	if j < len(raw) && raw[j] == '{' {
		j++
	}
	if strings.HasPrefix(strings.ToLower(raw[j:]), "env:") {
		j += 4
	}
	k := j
	for k < len(raw) && (raw[k] == '_' || raw[k] >= 'A' && raw[k] <= 'Z' || raw[k] >= 'a' && raw[k] <= 'z' || raw[k] >= '0' && raw[k] <= '9') {
		k++
	}
	name = strings.ToUpper(raw[j:k])
	for _, h := range envHomes {
		if strings.HasPrefix(name, h.prefix) {
			return name, h.hosts, true
		}
	}
	word, _, _ := strings.Cut(name, "_")
	switch word {
	case "MY", "API", "APP", "AUTH", "ACCESS", "SECRET", "TOKEN", "PRIVATE", "CLIENT", "SERVICE", "DB", "DATABASE", "USER", "PROD", "DEV", "TEST", "LOCAL", "CI", "BOT", "WEBHOOK", "SESSION", "MASTER", "ADMIN", "ROOT":
		return name, nil, false
	}
	if len(word) >= 3 {
		return name, []string{strings.ToLower(word)}, false
	}
	return name, nil, false
}

// destHosts are the hosts a sender sends to: URL hosts, -Uri values,
// user@host: specs, nc/ssh/telnet host operands.
func destHosts(c *shell.Cmd) []string {
	var out []string
	add := func(h string) {
		h = strings.ToLower(strings.TrimSpace(h))
		if h != "" && !strings.Contains(h, shell.Dyn) {
			out = append(out, h)
		}
	}
	words := append(append([]string(nil), c.Args...), pkRawWords(c.Raw)...)
	for _, w := range words {
		if i := strings.Index(w, "://"); i >= 0 {
			u, err := url.Parse(w[strings.LastIndexAny(w[:i], " =\"'(+")+1:])
			if err == nil {
				add(u.Hostname())
			}
			continue
		}
		if strings.HasPrefix(w, `\\`) {
			h, _, _ := strings.Cut(w[2:], `\`)
			add(h)
		}
	}
	switch c.Name {
	case "nc", "ncat", "netcat", "telnet", "socat", "ssh", "scp", "sftp", "rsync", "ftp":
		for _, o := range c.Operands() {
			h := o
			if at := strings.LastIndexByte(h, '@'); at >= 0 {
				h = h[at+1:]
			}
			if i := strings.IndexByte(h, ':'); i >= 0 {
				h = h[:i]
			}
			if strings.Contains(h, ".") || c.Name == "nc" || c.Name == "ncat" || c.Name == "netcat" || strings.Contains(o, ":") && c.Name != "nc" {
				if !strings.Contains(h, "/") {
					add(h)
				}
			}
		}
	}
	return out
}

// atHome: every destination host is (under) one of homes.
func atHome(hosts, homes []string) bool {
	if len(hosts) == 0 || len(homes) == 0 {
		return false
	}
	for _, h := range hosts {
		ok := false
		for _, home := range homes {
			if h == home || strings.HasSuffix(h, "."+home) || !strings.Contains(home, ".") && strings.Contains(h, home) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// secretDestFinding: a sender carries a secret variable or a token to a
// host that is not the secret's home. ok=false: nothing to say here (the
// older send-env rule still applies when the destination is unknown).
func secretDestFinding(c *shell.Cmd) (Finding, bool, bool) {
	hosts := destHosts(c)
	if len(hosts) == 0 {
		return Finding{}, false, false
	}
	home := true
	for _, p := range pkSecretVarRefs(c.Raw) {
		name, homes, known := secretHomes(c.Raw, p)
		switch {
		case atHome(hosts, homes):
		case len(homes) == 0:
			home = false // no idea where it belongs: the older rules decide
		case known || !pkAuthContext(c.Raw, p):
			return pkRetRed(c, "creds.exfil-env", "sends $"+name+" to "+strings.Join(hosts, ", ")+", which is not that secret's own service"), true, false
		default:
			return Finding{Risk: 2, Violation: 0.5, Rule: "creds.send-env-elsewhere", Marked: c.Raw,
				Reason: "sends $" + name + " as a credential to " + strings.Join(hosts, ", ") + ", which does not look like its own service"}, true, false
		}
	}
	if tp, m, ok := FindToken(c.Raw); ok {
		homes := tp.Home
		if tp.Re == urlPassword.Re {
			// user:pass@host is how that host is logged in to.
			if u, err := url.Parse(m); err == nil {
				homes = []string{strings.ToLower(u.Hostname())}
			}
		}
		if !atHome(hosts, homes) {
			return pkRetRed(c, "creds.exfil-token", "sends "+tp.Name+" to "+strings.Join(hosts, ", ")), true, false
		}
	}
	return Finding{}, false, home
}

func pkRetRed(c *shell.Cmd, rule, reason string) Finding {
	return Finding{Risk: 3, Violation: 0.92, RedLine: true, Rule: rule, Reason: reason, Marked: c.Raw}
}

func init() {
	on(ruleCopyRemote, "cp", "copy", "copy-item", "cpi", "xcopy", "robocopy", "move", "mv", "move-item", "mi")
}

func ruleCopyRemote(c *shell.Cmd, x *Ctx) (Finding, bool) { return copyToRemote(c, x) }

// mcpSendWords mark MCP tools that send a message or create something
// others see (Slack post_message, GitHub create_issue, send_email).
var mcpSendWords = map[string]bool{"send": true, "post": true, "create": true, "comment": true, "mail": true, "email": true,
	"message": true, "reply": true, "publish": true, "upload": true, "share": true, "tweet": true, "chat": true, "notify": true,
	"submit": true, "issue": true, "gist": true, "webhook": true, "update": true, "add": true, "push": true, "write": true, "put": true}

// mcpSecretOut: an MCP tool that sends something whose arguments hold a
// token or a private key, or a write to a UNC/remote path carrying one.
func mcpSecretOut(server, tool, args string) (Finding, bool) {
	// The tool's name first: most tools send nothing, and the token
	// patterns are a dozen regexps over the whole argument text.
	send, upload, fetch := false, false, false
	for _, w := range splitName(tool) {
		if mcpSendWords[w] {
			send = true
		}
		if mcpUploadWords[w] {
			upload = true
		}
		if mcpFetchWords[w] {
			fetch = true
		}
	}
	if upload {
		if f, ok := mcpSecretFileOut(server, tool, args); ok {
			return f, true
		}
	}
	// A fetch or a browser's navigation carries what its URL holds: a
	// key in the query string reaches the site as a post would.
	if !send && !(fetch && strings.Contains(args, "://")) {
		return Finding{}, false
	}
	tp, _, ok := FindToken(args)
	if !ok {
		return Finding{}, false
	}
	return Finding{Risk: 3, Violation: 0.92, RedLine: true, Rule: "mcp.secret-out", Marked: tp.Name,
		Reason: "the MCP tool " + server + "/" + tool + " would send " + tp.Name + " found in its arguments; credentials must not leave the machine"}, true
}

// mcpUploadWords mark MCP tools that send a local file (Slack's
// upload_file, a mail's attachments); mcpFetchWords those that request
// a URL (fetch, a browser's navigate).
var mcpUploadWords = map[string]bool{"upload": true, "attach": true, "attachment": true, "send": true, "mail": true, "email": true, "share": true, "gist": true}
var mcpFetchWords = map[string]bool{"fetch": true, "navigate": true, "goto": true, "request": true, "http": true, "browse": true, "scrape": true, "crawl": true, "visit": true, "download": true, "url": true}

// mcpFileKeys name a local file an upload tool sends.
var mcpFileKeys = map[string]bool{"file": true, "file_path": true, "filepath": true, "filePath": true, "path": true, "paths": true,
	"attachment": true, "attachments": true, "local_path": true, "localPath": true, "filename": true, "files": true}

// mcpSecretFileOut: an upload tool given a secret file (Slack's
// files_upload {file: ~/.aws/credentials}, an email's attachments).
func mcpSecretFileOut(server, tool, args string) (Finding, bool) {
	var in map[string]any
	if json.Unmarshal([]byte(args), &in) != nil {
		return Finding{}, false
	}
	x := &Ctx{}
	for k, v := range in {
		if !mcpFileKeys[k] {
			continue
		}
		var list []string
		switch v := v.(type) {
		case string:
			list = append(list, v)
		case []any:
			for _, e := range v {
				if s, ok := e.(string); ok {
					list = append(list, s)
				}
			}
		}
		for _, p := range list {
			if kind, what := pkSecretPath(p, x); kind == pkStrong {
				return Finding{Risk: 3, Violation: 0.92, RedLine: true, Rule: "mcp.secret-out", Marked: p,
					Reason: "the MCP tool " + server + "/" + tool + " would send " + what + " (" + p + "); credentials must not leave the machine"}, true
			}
		}
	}
	return Finding{}, false
}

// isRemoteDest: a UNC path or a URL-like remote destination.
func isRemoteDest(p string) bool {
	lp := strings.ToLower(p)
	return strings.HasPrefix(p, `\\`) && !strings.HasPrefix(p, `\\?\`) && !strings.HasPrefix(p, `\\.\`) || strings.HasPrefix(lp, "//") ||
		strings.HasPrefix(lp, "smb://") || strings.HasPrefix(lp, "sftp://") || strings.HasPrefix(lp, "ftp://") || strings.HasPrefix(lp, "s3://") || strings.HasPrefix(lp, "gs://")
}

// WriteSecretOut: a Write whose content holds a token, to a remote path.
func WriteSecretOut(p, content string) (Finding, bool) {
	if !isRemoteDest(p) {
		return Finding{}, false
	}
	if tp, _, ok := FindToken(content); ok {
		return Finding{Risk: 3, Violation: 0.92, RedLine: true, Rule: "write.secret-remote", Marked: p,
			Reason: "writes " + tp.Name + " to a remote path (" + p + "): credentials would leave the machine"}, true
	}
	return Finding{}, false
}

// copyToRemote: cp/Copy-Item/robocopy of a secret file to a UNC or
// remote destination (Chrome's Login Data to \\host\share).
func copyToRemote(c *shell.Cmd, x *Ctx) (Finding, bool) {
	switch c.Name {
	case "cp", "copy", "copy-item", "cpi", "xcopy", "robocopy", "move", "mv", "move-item", "mi":
	default:
		return Finding{}, false
	}
	ops := c.Operands()
	if len(ops) < 2 {
		return Finding{}, false
	}
	dst := ops[len(ops)-1]
	raws := pkRawWords(c.Raw)
	if !isRemoteDest(dst) && !(len(raws) > 0 && isRemoteDest(raws[len(raws)-1])) {
		return Finding{}, false
	}
	srcs := append(append([]string(nil), ops[:len(ops)-1]...), raws...)
	for _, s := range srcs {
		if k, what := pkSecretPath(s, x); k != pkNoSecret {
			return pkRetRed(c, "creds.exfil-copy", "copies "+what+" to a remote share"), true
		}
	}
	if strings.Contains(strings.ToLower(c.Raw), "login data") {
		return pkRetRed(c, "creds.exfil-copy", "copies browser passwords to a remote share"), true
	}
	return Finding{}, false
}
