package rules

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/opts"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Copies to another host (scp, rsync to host:path): the remote path is
// judged like a local one would be on that machine, with the rules' own
// scopes (/ and system folders are red lines, a home subfolder is not),
// relative remote paths under the remote user's home.

// remoteHome stands for the remote user's home when judging host:path.
const remoteHome = "/home/remote-user"

// remotePath splits "[user@]host:path" (not C:\x, ./a:b or a URL).
func remotePath(w string) (host, p string, ok bool) {
	if w == "" || pkDyn(w) || strings.HasPrefix(w, "/") || strings.HasPrefix(w, ".") || strings.Contains(w, "://") {
		return "", "", false
	}
	h, p, found := strings.Cut(w, ":")
	if !found || h == "" || len(h) == 1 && !strings.Contains(w, "@") || strings.ContainsAny(h, "/\\") {
		return "", "", false
	}
	if p == "" {
		p = "~"
	}
	return h, p, true
}

// remoteCtx is the context for judging paths on the remote host.
func remoteCtx(x *Ctx) *Ctx {
	return &Ctx{Cwd: remoteHome, Home: remoteHome, Project: remoteHome + "/" + shell.Dyn, All: nil}
}

// remoteWrite judges copying into host:path; del: files there that the
// source lacks are deleted (rsync --delete).
func remoteWrite(c *shell.Cmd, dst string, del bool, x *Ctx) (Finding, bool) {
	host, p, ok := remotePath(dst)
	if !ok {
		return Finding{}, false
	}
	p = strings.Replace(p, "~", remoteHome, 1)
	if !strings.HasPrefix(p, "/") {
		p = remoteHome + "/" + p
	}
	rx := remoteCtx(x)
	var f Finding
	if del {
		f = fsTargetFinding(c, p, true, "rsync --delete into "+host+":", rx)
		f = Worst(f, Finding{Risk: 2, Violation: 0.3, Rule: "fs.rsync-remote-delete", Marked: c.Raw,
			Reason: "rsync --delete to " + dst + " deletes whatever the remote folder has that the source lacks"})
	} else {
		// Deploying into /var/www or /srv of a server is everyday work;
		// the remote root, its system configuration and red lines are not.
		f = fsWriteTarget(c, p, rx)
		if !f.RedLine && f.score() < 2.5 && f.Rule != "path.etc" && !(p == "/" || p == "/.") {
			return pkUnsure(c, 1, "net.copy-remote", c.Name+" copies files to "+dst)
		}
		if p == "/" || p == "/." {
			f = Worst(f, pkF(c, 2, 0.3, "net.copy-remote-root", c.Name+" copies into the root folder of "+host+": it can overwrite system folders there"))
		}
	}
	f.Reason = "on " + host + ": " + strings.ReplaceAll(f.Reason, remoteHome, "~")
	f.Marked = c.Raw
	return f, true
}

// ruleScpDest: scp [-r] SRC... [user@]host:DIR writes into DIR there.
func ruleScpDest(c *shell.Cmd, x *Ctx) (Finding, bool) {
	a := opts.ParseFor("scp", c.Args)
	if len(a.Operands) < 2 {
		return Finding{}, false
	}
	dst := a.Operands[len(a.Operands)-1]
	if _, _, ok := remotePath(dst); ok {
		return remoteWrite(c, dst, false, x)
	}
	// scp host:file local: the local destination is a write like cp's.
	for _, s := range a.Operands[:len(a.Operands)-1] {
		if _, _, ok := remotePath(s); ok {
			return fsWriteTarget(c, dst, x), true
		}
	}
	return Finding{}, false
}
