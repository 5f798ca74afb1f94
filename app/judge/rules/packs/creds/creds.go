package creds

// Credentials. Reading a secret (private keys, cloud credentials, .env,
// /etc/shadow, keychains, tokens, environment dumps, shell history) into
// the agent's context is confirm. A secret and a network sender in the
// same line (pipe, $(...), temp file, or the sender's own upload flags) is
// the red line "leaking or exporting credentials": block.

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/rules/packs/containers"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

func init() {
	pack.OnAny(ruleCreds)
	pack.On(ruleEnvDump, "printenv")
	pack.On(ruleCredDump, "mimikatz", "procdump", "procdump64", "lazagne", "secretsdump.py", "secretsdump", "pypykatz", "rundll32", "comsvcs")
}

// Programs that show a file's content to the caller.
var pkDisplayReaders = rules.PkSet("cat", "tac", "less", "more", "most", "head", "tail", "bat", "batcat", "nl", "strings", "xxd", "od", "hexdump", "hd", "base64", "base32", "basenc",
	"grep", "egrep", "fgrep", "rg", "ag", "ack", "awk", "gawk", "mawk", "nawk", "sed", "cut", "sort", "uniq", "jq", "yq", "tr", "column", "fold", "paste", "pr", "view", "diff", "cmp", "comm",
	"get-content", "gc", "type", "select-string", "sls", "format-hex", "openssl", "gpg", "clip", "pbcopy", "xclip", "xsel", "wl-copy", "dd", "tar", "zip", "compress-archive", "7z", "7za", "gzip", "bzip2", "xz", "zstd", "zcat", "iconv", "envsubst", "readfile", "python", "python3", "node", "ruby", "perl", "php", "tee", "install", "source-highlight", "pygmentize", "vis", "rev", "expand", "split", "look", "printf", "mapfile", "readarray", "cp", "copy", "copy-item", "cpi", "mv", "move-item", "rsync", "scp", "sftp", "ln",
	"sqlite3", "sqlite", "certutil")

// Programs whose operands are not read (they only use or manage the file).
var pkNotReaders = rules.PkSet("chmod", "chown", "chgrp", "ls", "stat", "test", "[", "[[", "touch", "rm", "file", "du", "ssh-keygen", "ssh-add", "ssh", "ssh-copy-id", "git", "code", "vim", "vi", "nvim", "nano", "emacs", "subl", "open", "source", ".", "dotenv", "docker", "kubectl", "helm", "aws", "gcloud", "az", "terraform", "mkdir", "wc", "realpath", "readlink", "basename", "dirname", "echo", "shred", "unlink", "getfacl", "setfacl", "lsattr", "chattr", "truncate", "find", "fd", "tree", "md5sum", "sha256sum", "sha1sum", "shasum", "b2sum", "cksum", "get-filehash", "test-path", "get-item", "get-acl", "set-acl", "icacls", "attrib", "remove-item", "ri", "del", "erase", "direnv", "docker-compose", "podman", "systemctl", "export", "set", "env", "printenv", "read", "trash", "gio", "mise", "asdf")

// Token printers: a credential on stdout, usually meant for a header.
func pkTokenCmd(c *shell.Cmd) bool {
	return pkTokenJoined(c, " "+strings.Join(rules.PkLowOps(c), " ")+" ")
}

// pkTokenJoined is pkTokenCmd given the lower-cased operands joined with
// spaces (and a space at each end), which pkSecretCmd has already built.
func pkTokenJoined(c *shell.Cmd, joined string) bool {
	switch c.Name {
	case "gh", "glab":
		return strings.Contains(joined, " auth token ") || c.Flag('t', "--show-token") && strings.Contains(joined, " auth ")
	case "gcloud":
		return strings.Contains(joined, "print-access-token") || strings.Contains(joined, "print-identity-token")
	case "az":
		return strings.Contains(joined, "get-access-token")
	case "aws":
		return strings.Contains(joined, " get-login-password ") || strings.Contains(joined, " get-authorization-token ") || strings.Contains(joined, " eks get-token ") || strings.Contains(joined, " get-session-token ")
	case "heroku":
		return strings.Contains(joined, "auth:token")
	case "vault":
		return strings.Contains(joined, " print token ")
	case "doctl":
		return strings.Contains(joined, " auth token")
	}
	return false
}

// pkSecretCmd reports commands that print secrets without naming a file:
// keychains, password managers, secret stores, env dumps, history.
func pkSecretCmd(c *shell.Cmd, x *rules.Ctx) (bool, string) {
	if !pkSecretCmdNames.Has(c.Name) && !strings.HasPrefix(c.Name, "docker-credential-") {
		return false, ""
	}
	ops := rules.PkLowOps(c)
	first := ""
	if len(ops) > 0 {
		first = ops[0]
	}
	joined := " " + strings.Join(ops, " ") + " "
	switch c.Name {
	case "security":
		switch first {
		case "find-generic-password", "find-internet-password", "dump-keychain", "export":
			return true, "the macOS keychain"
		}
	case "secret-tool":
		return first == "lookup" || first == "search", "the desktop keyring"
	case "pass", "gopass":
		switch first {
		case "ls", "list", "init", "insert", "generate", "edit", "rm", "git", "find", "grep", "mv", "cp", "help", "version", "--version", "sync", "setup":
			return false, ""
		}
		return len(ops) > 0 || c.Name == "gopass" && first == "show", "the password store"
	case "op":
		return first == "read" || strings.Contains(joined, " item get ") || strings.Contains(joined, " document get ") || strings.Contains(joined, " inject "), "1Password"
	case "bw":
		return first == "get" || first == "export" || strings.Contains(joined, " list items "), "Bitwarden"
	case "lpass":
		return first == "show" || first == "export", "LastPass"
	case "vault":
		return strings.Contains(joined, " kv get ") || first == "read" || strings.Contains(joined, " print token "), "Vault secrets"
	case "keyring":
		return first == "get", "the keyring"
	case "vaultcmd":
		return rules.PkWinFlag(c, "listcreds"), "Windows Credential Manager"
	case "cmdkey":
		return rules.PkWinFlag(c, "list"), "Windows stored credentials"
	case "netsh":
		return strings.Contains(strings.ToLower(c.Raw), "key=clear"), "Wi-Fi passwords"
	case "sops":
		return c.Flag('d', "--decrypt") || first == "decrypt", "decrypted secrets"
	case "ansible-vault":
		return first == "view" || first == "decrypt", "decrypted vault secrets"
	case "doppler":
		return strings.Contains(joined, " secrets ") && !strings.Contains(joined, " set "), "Doppler secrets"
	case "gpg", "gpg2":
		if c.Flag(0, "--export-secret-keys", "--export-secret-subkeys") {
			return true, "GPG private keys"
		}
	case "kubectl", "oc":
		kp := rules.PkPos(c.Args, containers.PkKubeVal)
		if len(kp) > 1 && strings.EqualFold(kp[0], "get") && containers.PkKubeSecretRead(c, kp[1:]) || strings.Contains(joined, " config view ") && c.Flag(0, "--raw", "--flatten") {
			return true, "Kubernetes secrets"
		}
	case "aws":
		if strings.Contains(joined, " get-secret-value ") || strings.Contains(joined, " export-credentials ") || strings.Contains(joined, " configure get ") && (strings.Contains(joined, "secret") || strings.Contains(joined, "token")) || strings.Contains(joined, " get-parameter") && c.Flag(0, "--with-decryption") {
			return true, "AWS secrets"
		}
	case "az":
		if strings.Contains(joined, " secret show ") || strings.Contains(joined, " keys list ") || strings.Contains(joined, "list-keys") || strings.Contains(joined, "connection-string") {
			return true, "Azure keys or secrets"
		}
	case "gcloud":
		if strings.Contains(joined, " secrets versions access ") {
			return true, "Google Cloud secrets"
		}
	case "heroku":
		if first == "config" || first == "config:get" {
			return true, "Heroku config vars"
		}
	case "git":
		if strings.Contains(joined, " credential fill ") || strings.HasPrefix(strings.TrimSpace(joined), "credential") && strings.Contains(joined, "fill") {
			return true, "git credentials"
		}
	case "reg":
		if (first == "save" || first == "export") && len(ops) > 1 && (strings.Contains(ops[1], "sam") || strings.Contains(ops[1], "security") || strings.HasSuffix(ops[1], `\system`) || strings.HasSuffix(ops[1], "/system")) {
			return true, "Windows password hashes (registry hives)"
		}
	}
	if strings.HasPrefix(c.Name, "docker-credential-") && first == "get" {
		return true, "Docker credential helper secrets"
	}
	if pkTokenJoined(c, joined) {
		return true, "an access token"
	}
	if pkEnvDump(c) {
		return true, "the whole environment (API keys, tokens)"
	}
	return false, ""
}

// pkEnvDump: printenv/env/set/export -p/declare -x/Get-ChildItem env: with
// no filter, history.
func pkEnvDump(c *shell.Cmd) bool {
	switch c.Name {
	case "printenv":
		ops := c.Operands()
		if len(ops) == 0 {
			return true
		}
		for _, o := range ops {
			if rules.PkSecretVar(o) {
				return true
			}
		}
	case "env":
		return len(c.Args) == 0 || len(c.Args) == 1 && (c.Args[0] == "-0" || c.Args[0] == "--null")
	case "set":
		return len(c.Args) == 0
	case "export", "declare", "typeset":
		return len(c.Args) == 0 || len(c.Operands()) == 0 && (rules.PkHas(c, "-p") || rules.PkHas(c, "-x") || rules.PkHas(c, "-px"))
	case "history", "get-history", "h", "ghy":
		return true
	case "get-childitem", "gci", "dir", "ls", "get-item", "gi":
		for _, a := range c.Args {
			la := strings.ToLower(a)
			if la == "env:" || la == "env:*" || la == "env:\\" || la == "env:/" {
				return true
			}
			if strings.HasPrefix(la, "env:") && rules.PkSecretVar(la[4:]) {
				return true
			}
		}
	}
	return false
}

// pkCmdSecrets returns the strongest secret a command reads (from its
// arguments, the source text for Windows paths, and input redirections),
// and whether it displays it.
func pkCmdSecrets(c *shell.Cmd, x *rules.Ctx) (kind int, what string) {
	if pkNotReaders.Has(c.Name) {
		// Input redirections still read: ssh host < ~/.aws/credentials.
		for _, r := range c.Redirs {
			if r.Op == "<" {
				if k, w := rules.PkSecretPath(r.Target, x); k > kind {
					kind, what = k, w
				}
			}
		}
		return kind, what
	}
	var words []string
	switch c.Name {
	case "cp", "copy", "copy-item", "cpi", "mv", "move-item", "install", "ln", "rsync", "scp", "sftp", "tee", "dd":
		ops := rules.PkPos(c.Args, pkVFCreds3)
		if c.Name == "tee" {
			ops = nil
		} else if c.Name == "dd" {
			for _, a := range c.Args {
				if strings.HasPrefix(a, "if=") {
					ops = append(ops, a[3:])
				}
			}
		} else if len(ops) > 1 {
			ops = ops[:len(ops)-1]
		}
		words = ops
	default:
		if !pkDisplayReaders.Has(c.Name) && pkSenders.Has(c.Name) {
			// A sender reads only what it uploads (not --cert, -o, -K).
			words = pkSenderData(c)
			break
		}
		words = append(words, c.Args...)
		if pkDisplayReaders.Has(c.Name) && !pkWritesHeredoc(c) {
			// The raw words, but not a file the command only writes
			// (printf 'PORT=3000\n' >> .env appends to .env, reads nothing).
			for _, w := range rules.PkRawWords(c.Raw) {
				if !pkWriteTarget(c, w) {
					words = append(words, w)
				}
			}
		}
	}
	for _, r := range c.Redirs {
		if r.Op == "<" {
			words = append(words, r.Target)
		}
	}
	for _, w := range words {
		if k, wh := rules.PkSecretPath(w, x); k > kind {
			kind, what = k, wh
		}
	}
	return kind, what
}

// pkTreeReaders copy or pack whole folder trees.
var pkTreeReaders = rules.PkSet("tar", "bsdtar", "zip", "7z", "7za", "rar", "cpio", "scp", "rsync", "cp", "sftp", "rclone",
	"compress-archive", "copy-item", "cpi", "robocopy", "xcopy")

// pkHomeTree: an operand of a tree copier is the home folder or a folder
// above it (~, $HOME, /home, /Users, /): everything under it goes, the
// credentials folders (.ssh, .aws, .gnupg, .kube...) included.
func pkHomeTree(c *shell.Cmd, x *rules.Ctx) (string, bool) {
	home := strings.TrimRight(strings.ReplaceAll(x.Home, "\\", "/"), "/")
	ops := c.Operands()
	if len(ops) > 1 && c.Name != "tar" && c.Name != "bsdtar" && c.Name != "zip" && c.Name != "7z" && c.Name != "7za" && c.Name != "rar" {
		ops = ops[:len(ops)-1] // the destination of a copy
	}
	for _, a := range ops {
		if strings.Contains(a, shell.Dyn) || rules.RsyncRemote(a) {
			continue
		}
		p := strings.ReplaceAll(a, "\\", "/")
		for len(p) > 1 && strings.HasSuffix(p, "/") {
			p = p[:len(p)-1]
		}
		switch {
		case p == "~" || p == "$HOME" || p == "${HOME}" || strings.EqualFold(p, "%USERPROFILE%") || strings.EqualFold(p, "$env:USERPROFILE"):
			return a, true
		case home != "" && strings.HasPrefix(p, "/") && (p == home || p == "/" || strings.HasPrefix(home+"/", p+"/")):
			return a, true // /home/dev, /home, /
		}
	}
	return "", false
}

// pkHomeTreeOut: c packs or copies the whole home folder and the line
// sends it off the machine (a sender in the line, or c's own destination
// on another host): the keys and credentials in it leave too.
func pkHomeTreeOut(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if !pkTreeReaders.Has(c.Name) {
		return rules.Finding{}, false
	}
	w, ok := pkHomeTree(c, x)
	if !ok {
		return rules.Finding{}, false
	}
	ops := c.Operands()
	remote := len(ops) > 1 && rules.RsyncRemote(ops[len(ops)-1])
	if senders := pkLineSenders(c, x); !remote && len(senders) == 0 && len(c.PipedTo) == 0 {
		return rules.Finding{}, false
	} else if !remote && len(senders) == 0 {
		return rules.Finding{}, false // piped into a local program (tar c ~ | tar t)
	}
	return rules.PkRet(c, 3, 0.95, "creds.exfil", "sends the whole home folder "+w+" off the machine, with the keys and credentials in it")
}

// pkLineSenders returns the commands of the line (other than c) that send
// data off the machine.
func pkLineSenders(c *shell.Cmd, x *rules.Ctx) []*shell.Cmd {
	var out []*shell.Cmd
	all := rules.PkAll(x)
	for i := range all {
		o := &all[i]
		if o.Raw == c.Raw && o.Name == c.Name && strings.Join(o.Args, "\x01") == strings.Join(c.Args, "\x01") {
			continue
		}
		if pkIsSender(o) || pkDevNet(o) {
			out = append(out, o)
		}
	}
	if pkDevNet(c) {
		out = append(out, &shell.Cmd{Name: "/dev/tcp", Raw: c.Raw})
	}
	for _, n := range c.PipedTo {
		if pkSenders.Has(n) && n != "python" && n != "python3" && n != "node" && n != "openssl" && n != "aws" && n != "gh" && n != "az" && n != "gsutil" && n != "dig" && n != "host" && n != "ping" && n != "nslookup" && n != "drill" {
			out = append(out, &shell.Cmd{Name: n, Raw: n})
		}
	}
	return out
}

// pkTokenInHeaderOnly: every sender uses c's output only in an auth header.
func pkTokenInHeaderOnly(c *shell.Cmd, senders []*shell.Cmd) bool {
	if len(c.PipedTo) > 0 {
		return false
	}
	for _, s := range senders {
		raw := s.Raw
		idx := strings.Index(raw, "$("+c.Name)
		if idx < 0 {
			idx = strings.Index(raw, "`"+c.Name)
		}
		if idx < 0 || !rules.PkAuthContext(raw, idx) {
			return false
		}
	}
	return true
}

func ruleCreds(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	// 1. A sender whose own upload names a secret.
	if pkIsSender(c) {
		data := pkSenderData(c)
		for _, a := range c.Args {
			if a == shell.Dyn {
				// The walker could not expand a word (%USERPROFILE%\...):
				// look at the upload words of the source text instead.
				var raw []string
				for _, w := range rules.PkRawWords(c.Raw) {
					if strings.Contains(w, "=@") || strings.HasPrefix(w, "@") || strings.Contains(w, "=<") {
						raw = append(raw, w)
					}
				}
				data = append(data, pkOnlyFiles(raw)...)
				break
			}
		}
		if c.Name == "git" {
			// git -C ~/.ssh push: the repository pushed is a secrets folder.
			if d, ok := rules.PkVal(c, "-C"); ok {
				data = append(data, d)
			}
		}
		if strings.IndexByte(c.Name, '-') > 0 && strings.Contains(c.Raw, `\`) {
			// A PowerShell cmdlet typed in a bash-parsed line lost its
			// backslashes (-InFile ~\.ssh\id_rsa): read the source text too.
			data = append(data, rules.PkRawWords(c.Raw)...)
		}
		for _, w := range data {
			k, what := rules.PkSecretPath(w, x)
			if k == rules.PkStrong {
				return rules.PkRet(c, 3, 0.95, "creds.exfil", "sends "+what+" over the network")
			}
			if k == rules.PkWeak {
				return rules.PkRet(c, 2.2, 0.6, "creds.exfil-weak", "uploads "+what+" over the network")
			}
		}
		// Secrets by destination: to their own service is use, elsewhere
		// a leak (creds_dest.go).
		f, leak, home := rules.SecretDestFinding(c)
		if leak {
			return f, true
		}
		// Secret environment variables as data (not as an auth header).
		// Cloud signing secrets are never sent anywhere legitimately.
		for _, p := range rules.PkSecretVarRefs(c.Raw) {
			if home {
				break // every destination is the secret's own service
			}
			if !rules.PkAuthContext(c.Raw, p) {
				if pkCloudSecretVar(c.Raw[p:]) {
					return rules.PkRet(c, 3, 0.9, "creds.exfil-env", "sends a cloud secret key from the environment over the network")
				}
				return rules.PkRet(c, 2, 0.6, "creds.send-env", "sends a secret environment variable as data, not as an auth header")
			}
		}
	}
	if f, ok := pkHomeTreeOut(c, x); ok {
		return f, true
	}
	kind, what := pkCmdSecrets(c, x)
	// Only programs that show or copy what they read count when alone;
	// others naming a secret (vercel env pull .env) count only with a sender.
	display := pkDisplayReaders.Has(c.Name)
	switch c.Name {
	case "sed", "perl":
		if c.Flag('i', "--in-place") || rules.PkHasPrefix(c, "-i", "-pi", "-ni") {
			display = false // edits the file in place, prints nothing
		}
	case "grep", "egrep", "fgrep", "rg":
		if c.Flag('q', "--quiet", "--silent") || c.Flag('l', "--files-with-matches") {
			display = false // exit status or file names only
		}
	}
	for _, r := range c.Redirs {
		if r.Op == "<" {
			if k, _ := rules.PkSecretPath(r.Target, x); k != rules.PkNoSecret {
				display = true
			}
		}
	}
	tokenish := false
	if kind == rules.PkNoSecret || !display {
		if ok, w := pkSecretCmd(c, x); ok {
			kind, what = rules.PkStrong, w
			tokenish = pkTokenCmd(c)
			display = true
		}
	}
	if kind == rules.PkNoSecret && (c.Name == "echo" || c.Name == "printf" || c.Name == "write-output" || c.Name == "write-host") {
		if refs := rules.PkSecretVarRefs(c.Raw); len(refs) > 0 {
			redirected, sentOn := false, ""
			for _, r := range c.Redirs {
				if r.Op == ">" || r.Op == ">>" || r.Op == "&>" {
					redirected = true
					if sentOn == "" && pkFileSent(r.Target, c, x) {
						sentOn = r.Target
					}
				}
			}
			if sentOn != "" {
				// echo $KEY > /tmp/k && curl -F f=@/tmp/k: the file carries it out.
				kind, what, display = rules.PkStrong, "a secret environment variable (written to "+sentOn+", which the line sends)", true
			} else if !redirected {
				kind, what, display = rules.PkStrong, "a secret environment variable", true
				if strings.Contains(c.Raw, "::add-mask::") {
					return rules.Finding{}, false // a CI runner's command to hide the value in its logs
				}
				if len(c.PipedTo) > 0 && len(pkLineSenders(c, x)) == 0 && !pkPipedToPrinter(c, x) {
					return rules.Finding{}, false // piped into a login command and the like
				}
			}
		}
	}
	if kind == rules.PkNoSecret {
		if hunt := pkSecretHunt(c, x); hunt != "" {
			kind, what, display = rules.PkStrong, hunt, true
		} else {
			return rules.Finding{}, false
		}
	}
	senders := pkLineSenders(c, x)
	if len(senders) == 0 && len(c.PipedTo) > 0 {
		// A token piped into a login (docker login --password-stdin), an
		// environment dump filtered for something that is not a secret.
		if tokenish || pkEnvDump(c) && pkFilteredHarmless(c, x) {
			return rules.Finding{}, false
		}
	}
	// 2. The secret and a sender in the same line.
	if len(senders) > 0 {
		if tokenish && pkTokenInHeaderOnly(c, senders) {
			return rules.PkRet(c, 1.5, 0.4, "creds.token-header", "passes "+what+" in an auth header")
		}
		if kind == rules.PkStrong {
			return rules.PkRet(c, 3, 0.95, "creds.exfil", "reads "+what+" in the same command line as a network sender ("+senders[0].Name+")")
		}
		return rules.PkRet(c, 2.2, 0.6, "creds.exfil-weak", "reads "+what+" in the same command line as a network sender ("+senders[0].Name+")")
	}
	// 3. Reading alone.
	if !display {
		return rules.Finding{}, false
	}
	if pkIntoExport(c, x) {
		// export $(grep -v '^#' .env | xargs): the values go into the
		// environment of the commands that follow, like set -a; . .env.
		return rules.Finding{}, false
	}
	switch c.Name {
	case "history", "get-history", "h", "ghy":
		// The agent's shell is not interactive: its history list is empty
		// (the history files are secret paths of their own). Only sending
		// it somewhere (above) counts. -c/-d/-w clear or rewrite it.
		for _, a := range c.Args {
			if strings.HasPrefix(a, "-") {
				return rules.PkRet(c, 1.5, 0.2, "shell.history-edit", "clears or rewrites the shell history (covers tracks)")
			}
		}
		return rules.PkAllow(c, 0.5, "shell.history", "lists the shell's history (empty in the agent's non-interactive shell)")
	}
	if kind == rules.PkStrong {
		return rules.PkRet(c, 1.5, 0.5, "creds.read", "reads "+what)
	}
	return rules.PkUnsure(c, 1.2, "creds.read-weak", "reads "+what)
}

// ruleEnvDump is registered for printenv only: env is a wrapper (the
// command it runs decides), and export, declare, set and compgen are
// judged by the shell pack as builtins.
func ruleEnvDump(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if pkEnvDump(c) {
		// ruleCreds judges the dump (confirm, or allow when filtered).
		return rules.PkAllow(c, 0, "env.printenv", "prints the environment")
	}
	return rules.PkAllow(c, 0, "env.printenv", "prints named, non-secret variables")
}

func ruleCredDump(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	raw := strings.ToLower(c.Raw)
	switch c.Name {
	case "rundll32":
		if strings.Contains(raw, "comsvcs") && strings.Contains(raw, "minidump") {
			return rules.PkRet(c, 3, 0.95, "creds.lsass-dump", "dumps process memory (lsass) to steal credentials")
		}
		if strings.Contains(raw, "http:") || strings.Contains(raw, "https:") || strings.Contains(raw, "javascript:") {
			return rules.PkRet(c, 2.6, 0.7, "remote.rundll32", "runs remote or script code through rundll32")
		}
		return rules.PkUnsure(c, 1.5, "win.rundll32", "runs a DLL entry point")
	case "procdump", "procdump64":
		if strings.Contains(raw, "lsass") {
			return rules.PkRet(c, 3, 0.95, "creds.lsass-dump", "dumps lsass memory to steal credentials")
		}
		return rules.PkRet(c, 1.5, 0.2, "proc.dump", "dumps a process's memory")
	}
	return rules.PkRet(c, 3, 0.95, "creds.dump-tool", "runs a credential-dumping tool")
}

// pkCloudSecretVar: the reference at the start of s names a cloud signing
// secret or private key, which no API expects to receive as data.
func pkCloudSecretVar(s string) bool {
	u := strings.ToUpper(s)
	for _, k := range []string{"AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AZURE_CLIENT_SECRET", "GOOGLE_APPLICATION_CREDENTIALS", "PRIVATE_KEY", "ARM_CLIENT_SECRET", "SSH_KEY"} {
		if i := strings.Index(u, k); i >= 0 && i < 8 {
			return true
		}
	}
	return false
}

// pkPrintFilters only re-encode or rearrange what they read and print
// it: a secret piped through them is still shown (and a CI log's masking
// of the exact value no longer hides it).
var pkPrintFilters = rules.PkSet("base64", "base32", "basenc", "xxd", "od", "hexdump", "hd", "rev", "sed", "tr", "fold", "cut", "awk", "gawk", "iconv", "cat", "tee", "format-hex")

// pkPipedToPrinter: every command c is piped into is a printing filter
// that does not decode (base64 -d of a secret is a file being restored)
// and the output is not redirected into a file.
func pkPipedToPrinter(c *shell.Cmd, x *rules.Ctx) bool {
	for _, n := range c.PipedTo {
		if !pkPrintFilters.Has(n) {
			return false
		}
	}
	all := rules.PkAll(x)
	for i := range all {
		o := &all[i]
		if !rules.PkContains(o.PipedFrom, c.Name) || !rules.PkContains(c.PipedTo, o.Name) {
			continue
		}
		if o.Flag('d', "--decode") || o.Flag('D') || o.Name == "xxd" && o.Flag('r', "-revert") {
			return false
		}
		for _, r := range o.Redirs {
			if r.Op == ">" || r.Op == ">>" || r.Op == "&>" {
				return false
			}
		}
	}
	return true
}

// pkFilteredHarmless: c's output goes through grep & co. with a pattern
// that does not look for secrets (env | grep -i proxy).
func pkFilteredHarmless(c *shell.Cmd, x *rules.Ctx) bool {
	found := false
	for i := range rules.PkAll(x) {
		o := &x.All.Cmds[i]
		if !rules.PkContains(o.PipedFrom, c.Name) {
			continue
		}
		switch o.Name {
		case "grep", "egrep", "fgrep", "rg", "findstr", "select-string", "sls", "where-object", "?":
		case "wc", "sort", "head", "tail", "less", "more", "cut", "awk", "sed", "jq", "uniq", "tr":
			continue
		default:
			return false
		}
		if o.Flag('v', "--invert-match") || rules.PkWinFlag(o, "notmatch") || o.Name == "findstr" && rules.PkWinFlag(o, "v") {
			return false // shows every line but the pattern's
		}
		pos := rules.PkPos(o.Args, pkVFCreds4)
		pat := ""
		if v, ok := rules.PkVal(o, "-e", "--regexp", "-Pattern", "-pattern"); ok {
			pat = v
		} else if len(pos) > 0 {
			pat = pos[0]
		}
		lp := strings.ToLower(pat)
		if pat == "" || rules.PkDyn(pat) || rules.PkSecretVar(pat) || strings.Contains(lp, "key") || strings.Contains(lp, "token") || strings.Contains(lp, "secret") || strings.Contains(lp, "pass") || strings.Contains(lp, "aws") || strings.Contains(lp, "api") || strings.Contains(lp, "auth") || strings.Contains(lp, "cred") || strings.Contains(lp, "pwd") || lp == "." || lp == ".*" {
			return false
		}
		if !pkPlainWord(strings.TrimPrefix(pat, "^")) {
			return false // '=', '.', 'A|.', '[A-Z]': a pattern that matches nearly every line
		}
		found = true
	}
	return found
}

// pkPlainWord: at least three letters, digits, _ or - and nothing else.
func pkPlainWord(s string) bool {
	if len(s) < 3 {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		if !(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '-') {
			return false
		}
	}
	return true
}

// Programs pkSecretCmd knows; anything else is skipped cheaply.
var pkSecretCmdNames = rules.PkSet("security", "secret-tool", "pass", "gopass", "op", "bw", "lpass", "vault", "keyring", "vaultcmd", "cmdkey", "netsh", "sops", "ansible-vault", "doppler", "gpg", "gpg2", "kubectl", "oc", "aws", "az", "gcloud", "heroku", "git", "reg", "gh", "glab", "doctl",
	"printenv", "env", "set", "export", "declare", "typeset", "history", "get-history", "h", "ghy", "get-childitem", "gci", "dir", "ls", "get-item", "gi")

// Flag sets hoisted out of the rules (built once, not per command).
var (
	pkVFCreds1 = rules.PkSet("-d", "--data", "--data-binary", "--data-ascii", "--data-urlencode", "--data-raw", "-F", "--form", "--form-string", "-T", "--upload-file", "--json", "-H", "--header", "-b", "--cookie")
	pkVFCreds2 = rules.PkSet("-i", "-F", "-o", "-e", "-P", "-p", "-l", "-c", "--password-file", "--rsh", "-s", "-S", "-J", "--config", "--profile", "-a", "--attach")
	pkVFCreds3 = rules.PkSet("-i", "-e", "-F", "-o", "-t", "--target-directory", "-m", "--mode", "-P", "--destination", "-destination")
	pkVFCreds4 = rules.PkSet("-e", "-f", "--regexp", "-m", "-A", "-B", "-C")
)

// pkSecretHunt: grep & co. searching the home folder or the whole disk for
// keys, passwords or tokens (in the project it is ordinary code search).
func pkSecretHunt(c *shell.Cmd, x *rules.Ctx) string {
	switch c.Name {
	case "grep", "egrep", "fgrep", "rg", "ag", "ack", "findstr", "select-string", "sls":
	default:
		return ""
	}
	pos := rules.PkPos(c.Args, pkVFGrepHunt)
	pat, _ := rules.PkVal(c, "-e", "--regexp", "-Pattern", "-pattern")
	if pat == "" && len(pos) > 0 {
		pat, pos = pos[0], pos[1:]
	}
	lp := strings.ToLower(pat)
	// api[_-]?key, pass(word|wd), BEGIN.*PRIVATE: the words without the
	// pattern's punctuation.
	bare := strings.Map(func(r rune) rune {
		if strings.ContainsRune("[]()?*+.\\_-^$|{} ", r) {
			return -1
		}
		return r
	}, lp)
	if rules.PkAnyOf(lp, []string{"private key", "password", "passwd", "secret", "api_key", "apikey", "api-key", "token", "aws_access", "begin rsa", "begin openssh", "credential", "akia"}) == "" &&
		rules.PkAnyOf(bare, []string{"privatekey", "password", "passwd", "secret", "apikey", "token", "awsaccess", "beginrsa", "beginopenssh", "credential", "akia"}) == "" {
		return ""
	}
	home := strings.ToLower(strings.TrimRight(x.Home, "/"))
	targets := pos
	if v, ok := rules.PkVal(c, "-Path", "-path", "-LiteralPath", "-literalpath"); ok {
		targets = append(targets, v) // Select-String -Path C:\Users\me\*\*.txt
	}
	if len(targets) == 0 {
		targets = []string{x.Cwd}
	}
	proj := strings.ToLower(strings.TrimRight(rules.PkAbs(x.Project, x), "/"))
	for _, t := range targets {
		p := strings.TrimRight(rules.PkAbs(t, x), "/")
		if p == "" && !rules.PkDyn(t) || p == home || p == "c:" || p == "/home" || p == "/users" || p == "/root" || p == "/etc" || p == "/var" {
			return "secrets found by searching the home folder or the whole disk"
		}
		// A folder of the home outside the project (~/.config, ~/Documents,
		// C:\Users\me\*): the user's settings and files, not code.
		lpth := strings.ToLower(p)
		inHome := home != "" && strings.HasPrefix(lpth, home+"/") || strings.HasPrefix(lpth, "c:/users/") || strings.HasPrefix(lpth, "/home/") || strings.HasPrefix(lpth, "/users/") || strings.HasPrefix(lpth, "/root/")
		if inHome && !(proj != "" && (lpth == proj || strings.HasPrefix(lpth, proj+"/"))) && !rules.PkDyn(t) {
			return "secrets found by searching " + t + ", a folder of the home outside the project"
		}
	}
	return ""
}

var pkVFGrepHunt = rules.PkSet("-e", "--regexp", "-f", "--file", "-m", "--max-count", "-A", "-B", "-C", "--include", "--exclude", "--exclude-dir", "-g", "--glob", "-t", "--type", "-T", "--type-not", "-Pattern", "-pattern", "-Path", "-path")

// pkWritesHeredoc: cat > .env.test <<EOF writes a here-doc into a file;
// the file named after > is written, not read.
func pkWritesHeredoc(c *shell.Cmd) bool {
	if len(c.Operands()) > 0 {
		return false
	}
	in, out := false, false
	for _, r := range c.Redirs {
		switch r.Op {
		case "<<", "<<-", "<<<":
			in = true
		case ">", ">>", ">|":
			out = true
		}
	}
	return in && out
}

// pkFileSent: a network sender elsewhere in the line names file t (curl
// -F f=@t, -T t, --data-binary @t, scp t host:, nc host < t).
func pkFileSent(t string, c *shell.Cmd, x *rules.Ctx) bool {
	if t == "" || strings.Contains(t, shell.Dyn) {
		return false
	}
	for _, o := range pkLineSenders(c, x) {
		for _, a := range o.Args {
			if a == t || strings.HasSuffix(a, "@"+t) || strings.HasSuffix(a, "<"+t) || strings.HasSuffix(a, "="+t) {
				return true
			}
		}
		for _, r := range o.Redirs {
			if r.Op == "<" && r.Target == t {
				return true
			}
		}
	}
	return false
}

// pkWriteTarget: w (a raw word, possibly with its operator: >>.env, 2>log)
// is the target of one of c's output redirections.
func pkWriteTarget(c *shell.Cmd, w string) bool {
	t := strings.TrimLeft(w, "0123456789&>|")
	if t == "" {
		return false
	}
	for _, r := range c.Redirs {
		switch r.Op {
		case ">", ">>", "&>", "&>>", ">|":
			if r.Target == t || r.Target == w {
				return true
			}
		}
	}
	return false
}

// pkIntoExport: c runs inside a command substitution that is the argument
// of export (export $(grep -v '^#' .env | xargs)), piped at most through
// filters: what it prints is loaded into the environment, not shown. The
// splitter drops the export itself, so the whole line (x.Script) says it.
func pkIntoExport(c *shell.Cmd, x *rules.Ctx) bool {
	if c.Scope == "" || x == nil || c.Raw == "" || !strings.Contains(x.Script, "export $("+c.Raw) {
		return false
	}
	for _, p := range c.PipedTo {
		switch p {
		case "xargs", "grep", "sed", "tr", "cut", "sort", "awk", "echo":
		default:
			return false
		}
	}
	// The project's own env files only (.env, .env.local, config/.env):
	// a file of the home (~/.aws/credentials) or elsewhere stays a read.
	for _, a := range c.Args {
		if strings.HasPrefix(a, "~") || strings.HasPrefix(a, "/") || strings.HasPrefix(a, "..") || strings.Contains(a, "$") || rules.PkDyn(a) || strings.Contains(a, `\`) || strings.Contains(a, ":") {
			return false
		}
	}
	return true
}
