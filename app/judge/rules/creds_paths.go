package rules

// Secret file names: which paths hold credentials (strong) or may
// (weak), with a cheap pre-check so ordinary words are not resolved.

import (
	"path"
	"slices"
	"strings"
	"sync"

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
	for _, r := range secretFiles() {
		if !r.match(p, base) {
			continue
		}
		class, what := r.class, strings.ReplaceAll(r.what, "<base>", base)
		if r.refine != nil {
			class, what = r.refine(p, base, x, class, what)
		}
		return class, what
	}
	return pkNoSecret, ""
}

// secretFile is one kind of secret file: the paths it matches (p is the
// lower-case, slash-separated path, base its last element), its class
// and words for the reason (<base> stands for the file's name); refine,
// when set, may lower the class for the harmless members of the kind
// (public keys in ~/.ssh, .env.example). The first match decides.
type secretFile struct {
	match  func(p, base string) bool
	class  int
	what   string
	refine func(p, base string, x *Ctx, class int, what string) (int, string)
}

// secretFiles is the one table of secret files, read by Bash reads and
// sends, the write-path classifier (creds_dest.go, path.credentials) and
// MCP file tools. pkSecretHints must hold a word of every entry.
// Built on first use: most calls name no secret-looking word, and every
// hook fallback pays for what package init builds.
var secretFiles = sync.OnceValue(func() []secretFile {
	return []secretFile{
		{match: anyOf(inPath("/.ssh/"), pathStarts(".ssh/")), class: pkStrong, what: "an SSH private key", refine: sshPublic},
		{match: pathEnds("/.ssh", "/.aws", "/.gnupg", "/.config/gcloud", "/.kube", "/.azure", "/.password-store"), class: pkStrong, what: "a credentials folder (<base>)"},
		{match: inPath("/.aws/credentials", "/.aws/sso/cache", "/.aws/cli/cache"), class: pkStrong, what: "AWS credentials"},
		{match: inPath("/.config/gcloud/"), class: pkStrong, what: "Google Cloud credentials"},
		{match: inPath("/.kube/config"), class: pkStrong, what: "the Kubernetes config with cluster credentials"},
		{match: inPath("/.azure/"), class: pkStrong, what: "Azure credentials"},
		{match: anyOf(inPath("/.docker/config.json"), baseIs(".dockercfg")), class: pkStrong, what: "Docker registry credentials"},
		{match: baseIs(".netrc", "_netrc", ".npmrc", ".pypirc", ".git-credentials", ".pgpass", ".my.cnf", ".vault-token", ".agentguardrc"),
			class: pkStrong, what: "a credentials file (<base>)", refine: projectNpmrc},
		{match: anyOf(inPath("/.config/gh/hosts.yml", "/.config/hub", "/.gnupg/", "/.password-store/", "/.terraform.d/credentials", "/.config/doctl/",
			"/.cargo/credentials", "/.gem/credentials", "/.config/op/", "/.local/share/keyrings/", "/library/keychains/", "/.config/rclone/rclone.conf",
			"/.s3cfg", "/.boto", "/.databrickscfg", "/.config/heroku", "/.netlify/config", "/.vercel/auth", "/.config/configstore/"),
			baseEnds(".keychain-db", ".keychain")), class: pkStrong, what: "stored credentials (<base>)"},
		{match: anyOf(baseIs("logins.json", "key4.db", "login data", "signons.sqlite"),
			allOf(baseIs("cookies", "web data", "cookies.sqlite"), inPath("chrome", "chromium", "firefox", "mozilla", "edge", "brave")),
			baseIs("cookies.binarycookies"), allOf(baseIs("cookies.db", "cookies"), inPath("/library/cookies/", "/library/containers/com.apple.safari/"))),
			class: pkStrong, what: "browser passwords or cookies"},
		{match: anyOf(pathEnds("/.config/google-chrome", "/.config/chromium", "/.config/bravesoftware", "/.config/microsoft-edge", "/.mozilla/firefox", "/.mozilla",
			"/google/chrome", "/google/chrome/user data", "/bravesoftware/brave-browser", "/microsoft/edge/user data", "/firefox/profiles", "/library/safari"),
			allOf(anyOf(baseIs("default"), baseStarts("profile ")), inPath("google-chrome", "/chromium/", "bravesoftware", "microsoft-edge", "/google/chrome/", "/microsoft/edge/")),
			allOf(inPath("/.mozilla/firefox/", "/firefox/profiles/"), baseEnds(".default", ".default-release", ".default-esr"))),
			class: pkStrong, what: "a browser profile (its cookies and saved passwords)"},
		{match: baseIs(".bash_history", ".zsh_history", ".history", ".python_history", ".psql_history", ".mysql_history", ".node_repl_history", "consolehost_history.txt", ".sh_history", "fish_history", ".zhistory"),
			class: pkStrong, what: "shell history (often holds pasted secrets)"},
		{match: anyOf(pathIs("/etc/shadow", "/etc/gshadow", "/etc/master.passwd", "/etc/shadow-", "/etc/security/opasswd", "/etc/krb5.keytab"),
			pathStarts("/etc/ssl/private", "/var/lib/sss/", "/root/.ssh"), allOf(pathStarts("/etc/ssh/ssh_host_"), notPath(pathEnds(".pub")))),
			class: pkStrong, what: "system password hashes or host keys"},
		{match: pathStarts("/run/secrets/", "/var/run/secrets/"), class: pkStrong, what: "a secret mounted into a container (<base>)"},
		{match: allOf(pathStarts("/proc/"), pathEnds("/environ")), class: pkStrong, what: "a process's environment (often holds secrets)"},
		{match: anyOf(pathEnds("system32/config/sam", "system32/config/security", "system32/config/system"), baseIs("ntds.dit"), allOf(baseIs("sam"), inPath("config"))),
			class: pkStrong, what: "Windows password hashes"},
		{match: anyOf(baseIs(".env"), baseStarts(".env.", ".env*"), baseEnds(".env")), class: pkStrong, what: "an environment file (<base>) with secrets", refine: envTemplate},
		{match: anyOf(inPath("config/master.key"), allOf(inPath("config/credentials/"), baseEnds(".key"))), class: pkStrong, what: "an application master key"},
		{match: extIs(".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".ppk", ".p8", ".kdbx", ".ovpn"), class: pkWeak, what: "a key file (<base>)", refine: publicCert},
		{match: baseIs("id_rsa", "id_ed25519"), class: pkStrong, what: "an SSH private key"},
		{match: anyOf(baseIs("credentials.json", "secrets.json", "secrets.yaml", "secrets.yml", ".secrets", "secrets.toml", "terraform.tfstate", ".envrc", "wp-config.php",
			"htpasswd", ".htpasswd", "token.json", "application_default_credentials.json"), baseStarts("client_secret", "service-account", "serviceaccount")),
			class: pkWeak, what: "a credentials-looking file (<base>)"},
	}
})

// sshPublic: what ~/.ssh holds besides private keys (public keys, known
// hosts, config, authorized_keys, environment, rc) is not a secret.
func sshPublic(p, base string, x *Ctx, class int, what string) (int, string) {
	if strings.HasSuffix(base, ".pub") || strings.HasPrefix(base, "known_hosts") || base == "config" || strings.HasPrefix(base, "authorized_keys") || base == "environment" || base == "rc" {
		return pkNoSecret, ""
	}
	return class, what
}

// projectNpmrc: a project's .npmrc usually holds registry settings, a
// token only sometimes; the user's own (~/.npmrc) holds the login.
func projectNpmrc(p, base string, x *Ctx, class int, what string) (int, string) {
	if base != ".npmrc" || x == nil {
		return class, what
	}
	if home := strings.ToLower(strings.TrimRight(x.Home, "/")); home != "" && p != home+"/"+base {
		return pkWeak, "a project " + base
	}
	return class, what
}

// envTemplate: source files named like env files (config.env.ts) and the
// templates committed beside .env (.env.example) hold no secrets.
func envTemplate(p, base string, x *Ctx, class int, what string) (int, string) {
	switch path.Ext(base) {
	case ".ts", ".js", ".mjs", ".cjs", ".py", ".go", ".rb", ".d", ".tsx", ".jsonc", ".md":
		return pkNoSecret, ""
	}
	for _, safe := range []string{"example", "sample", "template", "dist", "defaults", "default", "tmpl", "tpl", "schema", "skeleton"} {
		if strings.Contains(base, safe) {
			return pkNoSecret, ""
		}
	}
	return class, what
}

// publicCert: certificates and chains share the key files' extensions.
func publicCert(p, base string, x *Ctx, class int, what string) (int, string) {
	for _, pub := range []string{"pub", "cert", "chain", "ca.", "fullchain"} {
		if strings.Contains(base, pub) {
			return pkNoSecret, ""
		}
	}
	return class, what
}

// Matchers for the table: each tests the lower-case path p or its base.
type pathTest = func(p, base string) bool

func inPath(subs ...string) pathTest {
	return func(p, _ string) bool {
		return slices.ContainsFunc(subs, func(s string) bool { return strings.Contains(p, s) })
	}
}
func pathIs(paths ...string) pathTest {
	return func(p, _ string) bool { return slices.Contains(paths, p) }
}
func pathStarts(pre ...string) pathTest {
	return func(p, _ string) bool {
		return slices.ContainsFunc(pre, func(s string) bool { return strings.HasPrefix(p, s) })
	}
}
func pathEnds(suf ...string) pathTest {
	return func(p, _ string) bool {
		return slices.ContainsFunc(suf, func(s string) bool { return strings.HasSuffix(p, s) })
	}
}
func baseIs(names ...string) pathTest {
	return func(_, b string) bool { return slices.Contains(names, b) }
}
func baseStarts(pre ...string) pathTest {
	return func(_, b string) bool {
		return slices.ContainsFunc(pre, func(s string) bool { return strings.HasPrefix(b, s) })
	}
}
func baseEnds(suf ...string) pathTest {
	return func(_, b string) bool {
		return slices.ContainsFunc(suf, func(s string) bool { return strings.HasSuffix(b, s) })
	}
}
func extIs(exts ...string) pathTest {
	return func(_, b string) bool { return slices.Contains(exts, path.Ext(b)) }
}
func anyOf(ts ...pathTest) pathTest {
	return func(p, b string) bool { return slices.ContainsFunc(ts, func(t pathTest) bool { return t(p, b) }) }
}
func allOf(a, b pathTest) pathTest {
	return func(p, base string) bool { return a(p, base) && b(p, base) }
}
func notPath(t pathTest) pathTest { return func(p, base string) bool { return !t(p, base) } }

// pkSecretHints: every secret pkSecretPath knows contains one of these
// (lower case); a word without any is skipped without resolving it.
var pkSecretHints = []string{"rclone", "chrome", "chromium", "brave", "mozilla", "firefox", "edge", "safari", ".ssh", "ssh_host", ".aws", "gcloud", ".kube", ".azure", ".docker", "netrc", "npmrc", "pypirc", "guardrc", ".pgpass", ".my.cnf", "vault", "gh/hosts", "/hub", "gnupg", "password", "terraform.d", "doctl", "credential", "/op/", "keyring", "keychain", "s3cfg", "boto", "databricks", "heroku", "netlify", "vercel", "configstore", "login", "key4", "cookies", "signons", "history", "hst", "shadow", "passwd", "krb5", "private", "sss", "environ", "sam", "security", "system", "ntds", "env", "master.key", ".pem", ".key", ".p12", ".pfx", ".jks", ".keystore", ".ppk", ".p8", ".kdbx", ".ovpn", "secret", "service", "tfstate", "wp-config", "id_", "htpasswd", "token", "identity"}

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
