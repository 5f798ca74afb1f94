package self

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// The guard's socket handed to a program as an argument (go run
// ./fakeserver -listen $XDG_RUNTIME_DIR/agent-guard/agent-guard.sock,
// python3 srv.py /tmp/agent-guard-1000/agent-guard.sock): a program given
// the socket's path binds it, squats it or removes it, unless it only
// looks at it or connects as a client. The hook trusts no server the OS
// does not identify as the guard, but a squatted path keeps the real one
// from serving (no dialogs, no user config).

func init() { pack.OnAny(ruleSocketArg) }

// socketDirRe: the socket folder in the temp folder, agent-guard-UID.
var socketDirRe = lazyre.New(`(^|/)agent-guard-(\d+|_dyn_[a-z0-9_]*)(/|$)`)

// socketLookers only inspect a path or connect to it.
var socketLookers = map[string]bool{"ls": true, "stat": true, "test": true, "[": true, "[[": true, "file": true,
	"cat": true, "ss": true, "netstat": true, "lsof": true, "readlink": true, "realpath": true, "echo": true,
	"printf": true, "grep": true, "egrep": true, "rg": true, "find": true, "du": true, "namei": true, "getfacl": true,
	"socat": true, "nc": true, "ncat": true, "netcat": true, "curl": true, "get-item": true, "gi": true,
	"test-path": true, "get-childitem": true, "gci": true, "dir": true, "write-output": true, "fuser": true,
	"agent-guard": true, "agent-guard-hook": true, "agent-guard-judge": true, "wc": true, "head": true, "tail": true}

func ruleSocketArg(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if socketLookers[c.Name] || c.DynName {
		return rules.Finding{}, false
	}
	for _, a := range c.Args {
		v := a
		if i := strings.IndexAny(v, "=:"); i > 0 && i < len(v)-1 && !(i == 1 && v[1] == ':') {
			v = v[i+1:] // -listen=PATH, unix:PATH
		}
		if !strings.Contains(strings.ToLower(v), "agent-guard") {
			continue // the cheap test first
		}
		lv := strings.ToLower(rules.Slashify(v))
		if !strings.Contains(lv, ".sock") && !strings.Contains(lv, "/run/user/") && !socketDirRe.MatchString(lv) {
			continue // the socket or its folder by their shape, not any agent-guard under /tmp (a build's binary)
		}
		f, ok := rules.Protected(v, x.Cwd, x.Home)
		if !ok || f.Rule != "self.guard-socket" {
			continue
		}
		f.Reason = c.Name + " is given " + v + ", agent-guard's socket: a program handed the socket binds, squats or removes it; " + f.Reason
		f.Marked = c.Raw
		return f, true
	}
	return rules.Finding{}, false
}
