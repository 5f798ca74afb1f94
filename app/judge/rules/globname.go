package rules

import (
	"path"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// A program name with glob characters (/bin/r? -rf ~, /usr/bin/[r]m,
// /bin/s*d) is expanded by the shell to whatever file matches: the
// program that runs is not written out. It is judged as each dangerous
// program of tailHeads (and a few more) the pattern matches, the worst
// deciding, and is at least confirm as a hidden name.

// globExtra are dangerous programs matched besides tailHeads.
var globExtra = []string{"mkfs.ext4", "mkfs.xfs", "mkfs.vfat", "mkfs.btrfs", "mkswap", "nc", "ncat", "socat", "scp",
	"rsync", "iptables", "nft", "ufw", "userdel", "passwd", "chpasswd", "usermod", "sudo", "doas", "chattr", "setenforce", "halt"}

// globName judges c when its program name is a glob; ok=false otherwise.
func globName(c *shell.Cmd, x *Ctx) (Finding, bool) {
	if c.DynName || c.Name == "" || !strings.ContainsAny(c.Name, "?*[") || len(rulesFor(c.Name)) > 0 ||
		strings.Contains(c.Name, "::") || c.Func {
		// [IO.File]::Delete(...) is a PowerShell .NET call, not a glob.
		return Finding{}, false
	}
	pat := c.Name
	if _, err := path.Match(pat, ""); err != nil {
		return Finding{}, false
	}
	w := Finding{Risk: 1.6, Violation: 0.4, Rule: "dyn.glob-name", Marked: c.Raw,
		Reason: "the program name " + c.Name + " is a pattern the shell expands to whatever file matches; the program is not written out"}
	try := func(n string) {
		if ok, _ := path.Match(pat, n); !ok {
			return
		}
		v := *c
		v.Name, v.Obfuscated = n, false
		if f := judgeCmd(&v, x); f.Worse(w) {
			f.Rule = "dyn.glob-name/" + f.Rule
			f.Reason = c.Name + " matches " + n + ": " + f.Reason
			f.Marked = c.Raw
			w = f
		}
	}
	for _, n := range tailHeads.list {
		try(n)
	}
	for _, n := range globExtra {
		try(n)
	}
	return w, true
}
