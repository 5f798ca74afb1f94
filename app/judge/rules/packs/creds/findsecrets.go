package creds

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// find ~ -name 'id_*' -exec cat {} +, find / -name '*.pem' -exec cat {} \;:
// find collects key files across the home or the disk and a reader prints
// them, every private key and certificate store there into the model's
// context. In the project (find . -name '*.pem') it is ordinary work.

func init() { pack.On(ruleFindSecrets, "find") }

// keyNamePatterns: -name patterns (lower case) that select key or
// credential files, by prefix or suffix.
var (
	keyNamePrefixes = []string{"id_rsa", "id_ed25519", "id_ecdsa", "id_dsa", "id_*", "*id_rsa", "credentials", ".env", "*.env", ".netrc", ".pgpass", ".git-credentials"}
	keyNameSuffixes = []string{".pem", ".key", ".p12", ".pfx", ".kdbx", ".ppk", ".jks", ".keystore", ".gpg", ".asc", "_rsa", "_ed25519", "credentials", ".ovpn", "secrets.yml", "secrets.yaml", "secrets.json"}
)

func keyNamePattern(p string) bool {
	l := strings.ToLower(strings.Trim(p, `"'`))
	for _, s := range keyNamePrefixes {
		if strings.HasPrefix(l, s) {
			return true
		}
	}
	for _, s := range keyNameSuffixes {
		if strings.HasSuffix(l, s) || strings.HasSuffix(l, s+"*") {
			return true
		}
	}
	return false
}

func ruleFindSecrets(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	var roots, names []string
	reader := ""
	args := c.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case (a == "-name" || a == "-iname" || a == "-path" || a == "-ipath" || a == "-wholename") && i+1 < len(args):
			names = append(names, args[i+1])
			i++
		case (a == "-exec" || a == "-execdir" || a == "-ok" || a == "-okdir") && i+1 < len(args):
			if n := strings.ToLower(args[i+1]); pkDisplayReaders.Has(n) && reader == "" {
				reader = n
			}
			for i < len(args) && args[i] != ";" && args[i] != "+" && args[i] != `\;` {
				i++
			}
		case strings.HasPrefix(a, "-") || a == "(" || a == ")" || a == "!":
		case len(names) == 0 && reader == "":
			roots = append(roots, a)
		}
	}
	if reader == "" || reader == "cp" || reader == "mv" || reader == "ln" || len(names) == 0 {
		return rules.Finding{}, false
	}
	key := ""
	for _, n := range names {
		if keyNamePattern(n) {
			key = n
		}
	}
	if key == "" {
		return rules.Finding{}, false
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	home := strings.ToLower(strings.TrimRight(x.Home, "/"))
	proj := strings.ToLower(strings.TrimRight(rules.PkAbs(x.Project, x), "/"))
	for _, r := range roots {
		if rules.PkDyn(r) {
			continue
		}
		p := strings.ToLower(strings.TrimRight(rules.PkAbs(r, x), "/"))
		if proj != "" && (p == proj || strings.HasPrefix(p, proj+"/")) {
			continue // the project's own certificates and test keys
		}
		if p == "" || p == "/" || p == home || strings.HasPrefix(p, home+"/") || len(p) <= 3 && strings.HasSuffix(p, ":") ||
			strings.HasPrefix(p, "/home") || strings.HasPrefix(p, "/users") || strings.HasPrefix(p, "c:/users") || p == "/root" || p == "/etc" || strings.HasPrefix(p, "/etc/") || strings.HasPrefix(p, "/root/") {
			return rules.PkRet(c, 2, 0.6, "creds.read", "find "+r+" -name "+key+" -exec "+reader+": prints every key or credential file found there")
		}
	}
	return rules.Finding{}, false
}
