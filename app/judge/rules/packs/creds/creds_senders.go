package creds

// Network senders for the credentials pack: which commands can carry data
// off the machine, and which of their words are uploads.

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Network senders: anything that can carry data off the machine.
var pkSenders = rules.PkSet("curl", "wget", "wget2", "nc", "ncat", "netcat", "socat", "telnet", "ftp", "tftp", "lftp", "sftp", "scp", "ssh", "http", "https", "httpie", "xh", "curlie",
	"invoke-webrequest", "iwr", "invoke-restmethod", "irm", "mail", "mailx", "sendmail", "mutt", "s-nail", "msmtp", "send-mailmessage", "smbclient", "rclone", "start-bitstransfer", "bitsadmin",
	"aria2c", "axel", "git", "pastebinit", "wormhole", "croc", "transfer", "nslookup", "dig", "host", "ping", "drill", "openssl", "rsync", "aws", "gsutil", "gh", "az", "azcopy", "tailscale", "magic-wormhole", "python", "python3", "node")

// pkIsSender reports whether c sends data over the network (to somewhere
// other than this machine).
func pkIsSender(c *shell.Cmd) bool {
	if !pkSenders.Has(c.Name) {
		return false
	}
	ops := c.Operands()
	switch c.Name {
	case "nslookup", "dig", "host", "ping", "drill":
		for _, a := range c.Args {
			if rules.PkDyn(a) {
				return true // DNS exfiltration through a substituted name
			}
		}
		return false
	case "openssl":
		return len(ops) > 0 && (ops[0] == "s_client")
	case "rsync":
		return pkRemoteSpec(ops)
	case "aws":
		for _, o := range ops {
			if strings.HasPrefix(strings.ToLower(o), "s3://") {
				return len(ops) > 2 && (ops[1] == "cp" || ops[1] == "sync" || ops[1] == "mv") && strings.HasPrefix(strings.ToLower(ops[len(ops)-1]), "s3://")
			}
		}
		return false
	case "gsutil":
		return len(ops) > 1 && strings.HasPrefix(strings.ToLower(ops[len(ops)-1]), "gs://")
	case "gh":
		return len(ops) > 1 && ops[0] == "gist" && (ops[1] == "create" || ops[1] == "new" || ops[1] == "edit") || len(ops) > 0 && ops[0] == "api" || len(ops) > 1 && ops[0] == "secret" && ops[1] == "set" ||
			// a release's assets, an issue's or a pull request's text are published
			len(ops) > 1 && ops[0] == "release" && (ops[1] == "upload" || ops[1] == "create" || ops[1] == "edit") ||
			len(ops) > 1 && (ops[0] == "issue" || ops[0] == "pr") && (ops[1] == "create" || ops[1] == "comment" || ops[1] == "edit" || ops[1] == "new")
	case "az":
		return len(ops) > 2 && ops[0] == "storage" && (rules.PkContains(ops, "upload") || rules.PkContains(ops, "upload-batch"))
	case "tailscale":
		return len(ops) > 1 && ops[0] == "file" && ops[1] == "cp"
	case "git":
		return rules.PkContains(ops, "push") // a secret copied into the repo and pushed
	case "python", "python3":
		return rules.PkHas(c, "http.server") // serving the folder to the network
	case "node":
		return false
	case "curl", "wget", "wget2", "http", "https", "httpie", "xh", "curlie", "invoke-webrequest", "iwr", "invoke-restmethod", "irm":
		urls := 0
		for _, o := range ops {
			if strings.Contains(o, "://") || strings.Contains(o, ".") && !strings.HasPrefix(o, "@") && !strings.Contains(o, "/") || strings.Contains(o, ":") && !strings.HasPrefix(o, "@") {
				urls++
				if !rules.PkLocalHost(o) {
					return true
				}
			}
		}
		if v, ok := rules.PkWinVal(c, "uri"); ok && !rules.PkLocalHost(v) {
			return true
		}
		return urls == 0 // cannot tell where it goes
	}
	return true
}

func pkRemoteSpec(ops []string) bool {
	for _, o := range ops {
		if strings.HasPrefix(o, "rsync://") {
			return true
		}
		if i := strings.IndexByte(o, ':'); i > 1 && !strings.HasPrefix(o, "/") {
			return true
		}
	}
	return false
}

// Value-taking options of rsync and scp (their -a/-p/-l/-c take none).
var (
	pkVFRsync = rules.PkSet("-e", "--rsh", "--password-file", "--exclude", "--include", "--exclude-from", "--include-from", "--filter", "-f", "-T", "--temp-dir", "--port", "--log-file", "--chmod", "--chown", "-M", "--remote-option", "--files-from", "--compare-dest", "--copy-dest", "--link-dest", "--partial-dir", "--backup-dir", "--suffix", "--bwlimit", "--timeout", "--max-size", "--min-size", "--rsync-path")
	pkVFScp   = rules.PkSet("-i", "-F", "-o", "-c", "-l", "-P", "-S", "-J", "-D", "-X")
)

// pkDevNet reports an output redirection of c to bash's /dev/tcp or
// /dev/udp: the command's output goes over the network.
func pkDevNet(c *shell.Cmd) bool {
	for _, r := range c.Redirs {
		if r.Op == "<" || r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<" {
			continue
		}
		t := strings.ToLower(r.Target)
		if strings.HasPrefix(t, "/dev/tcp/") || strings.HasPrefix(t, "/dev/udp/") {
			return true
		}
	}
	return false
}

// pkSenderData returns the words a sender uploads (files and data values).
func pkSenderData(c *shell.Cmd) []string {
	var out []string
	for _, r := range c.Redirs {
		if r.Op == "<" {
			out = append(out, r.Target)
		}
	}
	args := c.Args
	if c.Name == "sftp" || c.Name == "ftp" || c.Name == "lftp" || c.Name == "smbclient" || c.Name == "tftp" {
		// sftp host <<< 'put ~/.aws/credentials', lftp -c 'open x; put .env',
		// smbclient //h/s -c 'put key': the files the session's put sends.
		var scripts []string
		for _, r := range c.Redirs {
			if r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<" {
				scripts = append(scripts, r.Target)
			}
		}
		for i, a := range args {
			if (a == "-c" || a == "-e") && i+1 < len(args) {
				scripts = append(scripts, args[i+1])
			}
		}
		for _, f := range pkPutFiles(scripts) {
			out = append(out, "@"+f)
		}
	}
	switch c.Name {
	case "curl", "curlie":
		dataFlags := pkVFCreds1
		for i := 0; i < len(args); i++ {
			a := args[i]
			name, val, glued := strings.Cut(a, "=")
			if strings.HasPrefix(a, "--") && glued && dataFlags.Has(name) {
				out = append(out, val)
				continue
			}
			if dataFlags.Has(a) && i+1 < len(args) {
				v := args[i+1]
				if a == "-T" || a == "--upload-file" {
					v = "@" + v
				}
				out = append(out, v)
				i++
				continue
			}
			if len(a) > 2 && (strings.HasPrefix(a, "-d") || strings.HasPrefix(a, "-F") || strings.HasPrefix(a, "-T")) && a[1] != '-' {
				v := a[2:]
				if a[1] == 'T' {
					v = "@" + v
				}
				out = append(out, v)
			}
		}
		return pkOnlyFiles(out)
	case "wget", "wget2":
		for i, a := range args {
			for _, f := range []string{"--post-file", "--body-file", "--post-data", "--body-data"} {
				if a == f && i+1 < len(args) {
					out = append(out, "@"+args[i+1])
				} else if strings.HasPrefix(a, f+"=") {
					out = append(out, "@"+a[len(f)+1:])
				}
			}
		}
		return pkOnlyFiles(out)
	case "http", "https", "httpie", "xh":
		for _, a := range args {
			if strings.Contains(a, "@") && !strings.Contains(a, "://") {
				out = append(out, a[strings.LastIndex(a, "@"):])
			}
		}
		return pkOnlyFiles(out)
	case "invoke-webrequest", "iwr", "invoke-restmethod", "irm":
		if v, ok := rules.PkWinVal(c, "infile"); ok {
			out = append(out, "@"+v)
		}
		if v, ok := rules.PkWinVal(c, "body"); ok {
			out = append(out, "@"+v)
		}
		return pkOnlyFiles(out)
	case "ssh", "nslookup", "dig", "host", "ping", "drill", "openssl", "python", "python3", "git":
		return pkOnlyFiles(out)
	}
	// scp, rsync, nc, rclone, aws s3 cp...: operands except identity files
	// and the destination.
	skip := pkVFCreds2
	switch c.Name {
	case "rsync":
		skip = pkVFRsync // -a, -p, -l, -c are plain switches there
	case "scp", "sftp":
		skip = pkVFScp // -p preserves times; -P is the port
	}
	ops := rules.PkPos(args, skip)
	if c.Name == "scp" || c.Name == "rsync" || c.Name == "sftp" || c.Name == "rclone" || c.Name == "aws" || c.Name == "gsutil" || c.Name == "azcopy" {
		if len(ops) > 0 {
			ops = ops[:len(ops)-1]
		}
	}
	if c.Name == "mail" || c.Name == "mailx" || c.Name == "mutt" || c.Name == "s-nail" {
		if v, ok := rules.PkVal(c, "-a", "-A", "--attach"); ok {
			out = append(out, "@"+v)
		}
	}
	for _, o := range ops {
		out = append(out, "@"+o)
	}
	return pkOnlyFiles(out)
}

// pkOnlyFiles keeps the words that name files ("@file", "name=@file",
// "<file") and strips the marker.
func pkOnlyFiles(ws []string) []string {
	var out []string
	for _, w := range ws {
		if i := strings.LastIndex(w, "=@"); i >= 0 {
			out = append(out, w[i+2:])
		} else if i := strings.LastIndex(w, "=<"); i >= 0 {
			out = append(out, w[i+2:])
		} else if strings.HasPrefix(w, "@") || strings.HasPrefix(w, "<") {
			out = append(out, w[1:])
		} else if !strings.ContainsAny(w, " =:&") && (strings.Contains(w, "/") || strings.HasPrefix(w, ".")) {
			out = append(out, w) // a redirect target
		}
	}
	return out
}

// pkPutFiles are the local files put/mput/reput/append commands of an
// (s)ftp or smbclient session script send.
func pkPutFiles(scripts []string) []string {
	var out []string
	for _, sc := range scripts {
		for _, line := range strings.FieldsFunc(sc, func(r rune) bool { return r == '\n' || r == ';' }) {
			f := strings.Fields(line)
			if len(f) < 2 {
				continue
			}
			switch strings.ToLower(f[0]) {
			case "put", "mput", "reput", "append", "send":
				for _, w := range f[1:] {
					if !strings.HasPrefix(w, "-") {
						out = append(out, w)
						if strings.ToLower(f[0]) != "mput" {
							break
						}
					}
				}
			}
		}
	}
	return out
}
