package rules

// Secret file names: which paths hold credentials (strong) or may
// (weak), with a cheap pre-check so ordinary words are not resolved.

import (
	"path"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// pkSecretPath classifies a file word: strong secrets (keys, cloud
// credentials, .env), weak ones (certificates/keys in the project,
// credential-looking JSON) or none. what names the secret for the reason.
func pkSecretPath(word string, x *Ctx) (int, string) {
	w := word
	if i := strings.LastIndex(w, "=@"); i >= 0 {
		w = w[i+2:]
	} else if i := strings.LastIndex(w, "=<"); i >= 0 {
		w = w[i+2:]
	}
	w = strings.TrimLeft(w, "@<")
	if i := strings.IndexByte(w, ';'); i > 0 {
		w = w[:i]
	}
	if w == "" || strings.HasPrefix(w, "-") || strings.Contains(w, "://") || !pkMaybeSecret(w) {
		return pkNoSecret, ""
	}
	p := pkAbs(w, x)
	if p == "" {
		p = strings.ToLower(strings.ReplaceAll(strings.ReplaceAll(w, shell.Dyn, ""), "\\", "/"))
	}
	base := path.Base(p)
	has := func(s string) bool { return strings.Contains(p, s) }
	switch {
	case has("/.ssh/") || strings.HasPrefix(p, ".ssh/"):
		if strings.HasSuffix(base, ".pub") || base == "known_hosts" || strings.HasPrefix(base, "known_hosts") || base == "config" || strings.HasPrefix(base, "authorized_keys") || base == "environment" || base == "rc" {
			return pkNoSecret, ""
		}
		return pkStrong, "an SSH private key"
	case strings.HasSuffix(p, "/.ssh") || strings.HasSuffix(p, "/.aws") || strings.HasSuffix(p, "/.gnupg") || strings.HasSuffix(p, "/.config/gcloud") || strings.HasSuffix(p, "/.kube") || strings.HasSuffix(p, "/.azure") || strings.HasSuffix(p, "/.password-store"):
		return pkStrong, "a credentials folder (" + base + ")"
	case has("/.aws/credentials"), has("/.aws/sso/cache"), has("/.aws/cli/cache"):
		return pkStrong, "AWS credentials"
	case has("/.config/gcloud/"):
		return pkStrong, "Google Cloud credentials"
	case has("/.kube/config"):
		return pkStrong, "the Kubernetes config with cluster credentials"
	case has("/.azure/"):
		return pkStrong, "Azure credentials"
	case has("/.docker/config.json"), base == ".dockercfg":
		return pkStrong, "Docker registry credentials"
	case base == ".netrc" || base == "_netrc" || base == ".npmrc" || base == ".pypirc" || base == ".git-credentials" || base == ".pgpass" || base == ".my.cnf" || base == ".vault-token" || base == ".agentguardrc":
		if base == ".npmrc" {
			home := ""
			if x != nil {
				home = strings.ToLower(strings.TrimRight(x.Home, "/"))
			}
			if home != "" && p != home+"/"+base {
				return pkWeak, "a project " + base
			}
		}
		return pkStrong, "a credentials file (" + base + ")"
	case has("/.config/gh/hosts.yml"), has("/.config/hub"), has("/.gnupg/"), has("/.password-store/"), has("/.terraform.d/credentials"), has("/.config/doctl/"), has("/.cargo/credentials"), has("/.gem/credentials"), has("/.config/op/"), has("/.local/share/keyrings/"), has("/library/keychains/"), strings.HasSuffix(base, ".keychain-db"), strings.HasSuffix(base, ".keychain"), has("/.config/rclone/rclone.conf"), has("/.s3cfg"), has("/.boto"), has("/.databrickscfg"), has("/.config/heroku"), has("/.netlify/config"), has("/.vercel/auth"), has("/.config/configstore/"):
		return pkStrong, "stored credentials (" + base + ")"
	case base == "logins.json" || base == "key4.db" || base == "login data" || (base == "cookies" || base == "web data" || base == "cookies.sqlite") && (has("chrome") || has("chromium") || has("firefox") || has("mozilla") || has("edge") || has("brave")) || base == "signons.sqlite":
		return pkStrong, "browser passwords or cookies"
	case base == ".bash_history" || base == ".zsh_history" || base == ".history" || base == ".python_history" || base == ".psql_history" || base == ".mysql_history" || base == ".node_repl_history" || base == "consolehost_history.txt" || base == ".sh_history" || base == ".lesshst" && false:
		return pkStrong, "shell history (often holds pasted secrets)"
	case p == "/etc/shadow" || p == "/etc/gshadow" || p == "/etc/master.passwd" || p == "/etc/shadow-" || p == "/etc/security/opasswd" || p == "/etc/krb5.keytab" || strings.HasPrefix(p, "/etc/ssl/private") || strings.HasPrefix(p, "/etc/ssh/ssh_host_") && !strings.HasSuffix(p, ".pub") || strings.HasPrefix(p, "/var/lib/sss/") || strings.HasPrefix(p, "/root/.ssh"):
		return pkStrong, "system password hashes or host keys"
	case strings.HasPrefix(p, "/proc/") && strings.HasSuffix(p, "/environ"):
		return pkStrong, "a process's environment (often holds secrets)"
	case strings.HasSuffix(p, "system32/config/sam") || strings.HasSuffix(p, "system32/config/security") || strings.HasSuffix(p, "system32/config/system") || base == "ntds.dit" || base == "sam" && has("config"):
		return pkStrong, "Windows password hashes"
	case base == ".env" || strings.HasPrefix(base, ".env.") || strings.HasSuffix(base, ".env") || strings.HasPrefix(base, ".env*"):
		switch path.Ext(base) {
		case ".ts", ".js", ".mjs", ".cjs", ".py", ".go", ".rb", ".d", ".tsx", ".jsonc", ".md":
			return pkNoSecret, ""
		}
		for _, safe := range []string{"example", "sample", "template", "dist", "defaults", "default", "tmpl", "tpl", "schema", "skeleton"} {
			if strings.Contains(base, safe) {
				return pkNoSecret, ""
			}
		}
		return pkStrong, "an environment file (" + base + ") with secrets"
	case has("config/master.key") || has("config/credentials/") && strings.HasSuffix(base, ".key") || base == "terraform.tfvars" && false:
		return pkStrong, "an application master key"
	}
	ext := path.Ext(base)
	switch ext {
	case ".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".ppk", ".p8", ".kdbx", ".ovpn":
		if strings.Contains(base, "pub") || strings.Contains(base, "cert") || strings.Contains(base, "chain") || strings.Contains(base, "ca.") || strings.Contains(base, "fullchain") {
			return pkNoSecret, ""
		}
		return pkWeak, "a key file (" + base + ")"
	}
	switch {
	case base == "credentials.json" || strings.HasPrefix(base, "client_secret") || strings.HasPrefix(base, "service-account") || strings.HasPrefix(base, "serviceaccount") || base == "secrets.json" || base == "secrets.yaml" || base == "secrets.yml" || base == ".secrets" || base == "secrets.toml" || base == "terraform.tfstate" || base == ".envrc" || base == "wp-config.php" || base == "id_rsa" || base == "id_ed25519" || base == "htpasswd" || base == ".htpasswd" || base == "token.json" || base == "application_default_credentials.json":
		if base == "id_rsa" || base == "id_ed25519" {
			return pkStrong, "an SSH private key"
		}
		return pkWeak, "a credentials-looking file (" + base + ")"
	}
	return pkNoSecret, ""
}

// pkSecretHints: every secret pkSecretPath knows contains one of these
// (lower case); a word without any is skipped without resolving it.
var pkSecretHints = []string{".ssh", "ssh_host", ".aws", "gcloud", ".kube", ".azure", ".docker", "netrc", "npmrc", "pypirc", "guardrc", ".pgpass", ".my.cnf", "vault", "gh/hosts", "/hub", "gnupg", "password", "terraform.d", "doctl", "credential", "/op/", "keyring", "keychain", "s3cfg", "boto", "databricks", "heroku", "netlify", "vercel", "configstore", "login", "key4", "cookies", "signons", "history", "hst", "shadow", "passwd", "krb5", "private", "sss", "environ", "sam", "security", "system", "ntds", "env", "master.key", ".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".ppk", ".p8", ".kdbx", ".ovpn", "secret", "service", "tfstate", "wp-config", "id_", "htpasswd", "token", "identity"}

func pkMaybeSecret(w string) bool {
	// Every known secret names a path or file with a dot or a slash.
	if strings.IndexAny(w, "./\\") < 0 && !strings.HasPrefix(w, "id_") {
		return false
	}
	var buf [256]byte
	if len(w) > len(buf) {
		return true
	}
	b := buf[:len(w)]
	for i := 0; i < len(w); i++ {
		ch := w[i]
		if ch >= 'A' && ch <= 'Z' {
			ch += 'a' - 'A'
		} else if ch == '\\' {
			ch = '/'
		}
		b[i] = ch
	}
	s := string(b)
	for _, h := range pkSecretHints {
		if strings.Contains(s, h) {
			return true
		}
	}
	return false
}
