package self

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Code handed to a program that runs it later or elsewhere (a tmux or
// screen session, a crontab line) is judged as the command it is, for
// self-protection: `tmux new -d 'rm ~/.claude/settings.json'` is that rm.
// Only self findings are taken over; the rest stays with the packs that
// know those programs.

func init() { pack.OnAny(ruleSelfDeferred) }

func ruleSelfDeferred(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	var codes []string
	switch c.Name {
	case "tmux":
		if len(c.Args) > 0 {
			switch c.Args[0] {
			case "new", "new-session", "new-window", "neww", "split-window", "splitw", "respawn-pane", "respawnp", "run-shell", "run", "send-keys", "send":
				if ops := tmuxOperands(c.Args[1:]); len(ops) > 0 {
					codes = append(codes, strings.Join(ops, " "))
				}
			}
		}
	case "screen":
		for i, a := range c.Args {
			if !strings.HasPrefix(a, "-") && (i == 0 || c.Args[i-1] != "-S" && c.Args[i-1] != "-c" && c.Args[i-1] != "-L" && c.Args[i-1] != "-t") {
				codes = append(codes, rules.ShellJoin(c.Args[i:]))
				break
			}
		}
	case "git":
		// git config core.fsmonitor 'CMD', alias.x '!CMD', core.pager,
		// core.editor...: git runs the value on a later, ordinary command
		codes = append(codes, gitConfigCode(c)...)
	case "at", "batch":
		// at reads its job from stdin: what echo/printf pipe in (here-docs
		// are the code runners' route, at/...)
		codes = append(codes, lineEchoes(c, x)...)
	case "new-scheduledtaskaction":
		// New-ScheduledTaskAction -Execute PROG -Argument 'ARGS'
		exe, _ := rules.PkWinVal(c, "execute")
		arg, _ := rules.PkWinVal(c, "argument")
		if exe != "" {
			codes = append(codes, exe+" "+arg)
		}
	case "crontab":
		var body []string
		body = append(body, lineEchoes(c, x)...)
		for _, r := range c.Redirs {
			if r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<" {
				body = append(body, r.Target)
			}
		}
		if x.All != nil {
			for i := range x.All.Cmds {
				o := &x.All.Cmds[i]
				if o != c && (o.Name == "echo" || o.Name == "printf") && rules.Contains(c.PipedFrom, o.Name) {
					body = append(body, strings.Join(o.Args, "\n"))
				}
			}
		}
		for _, b := range body {
			for _, l := range strings.Split(strings.ReplaceAll(b, `\n`, "\n"), "\n") {
				if cmd := rules.CronCommand(l); cmd != "" {
					codes = append(codes, cmd)
				}
			}
		}
	}
	if f, code, ok := rules.SelfInCode(codes, x.Cwd, x.Home, len(c.Raw)+len(x.Cwd)+4095); ok {
		f.Reason = c.Name + " runs " + rules.OneLineCut(code, 80) + " later: " + f.Reason
		f.Marked = c.Raw
		return f, true
	}
	return rules.Finding{}, false
}

func tmuxOperands(args []string) []string {
	takes := map[string]bool{"-s": true, "-n": true, "-t": true, "-c": true, "-x": true, "-y": true, "-e": true, "-F": true, "-l": true}
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case takes[a]:
			i++
		case strings.HasPrefix(a, "-") && len(out) == 0:
		default:
			out = append(out, a)
		}
	}
	return out
}

// lineEchoes: what echo/printf print in the same line when c reads its
// stdin ((crontab -l; echo '...') | crontab -, echo '...' | at now), the
// subshell's echo included.
func lineEchoes(c *shell.Cmd, x *rules.Ctx) []string {
	if x.All == nil || len(c.PipedFrom) == 0 && !stdinDash(c) {
		return nil
	}
	var out []string
	for i := range x.All.Cmds {
		o := &x.All.Cmds[i]
		if o != c && (o.Name == "echo" || o.Name == "printf") && len(o.Redirs) == 0 {
			out = append(out, strings.Join(o.Args, " "))
		}
	}
	return out
}

func stdinDash(c *shell.Cmd) bool {
	for _, a := range c.Args {
		if a == "-" {
			return true
		}
	}
	return false
}

// gitConfigCodeKeys are git settings whose value git runs as a command
// (the last part of the key).
var gitConfigCodeKeys = map[string]bool{"fsmonitor": true, "pager": true, "editor": true, "sshcommand": true,
	"askpass": true, "external": true, "textconv": true, "helper": true, "cmd": true, "sequenceeditor": true,
	"command": true, "clean": true, "smudge": true, "process": true, "program": true, "hook": true}

// gitConfigCode: the command a `git config KEY VALUE` stores, if KEY is
// one git runs (an alias starting with !, or a command-valued setting).
func gitConfigCode(c *shell.Cmd) []string {
	args := c.Args
	for len(args) > 0 && args[0] != "config" {
		if args[0] == "-c" || args[0] == "-C" || args[0] == "--git-dir" || args[0] == "--work-tree" {
			if len(args) < 2 {
				return nil
			}
			args = args[2:]
			continue
		}
		if !strings.HasPrefix(args[0], "-") {
			return nil
		}
		args = args[1:]
	}
	if len(args) == 0 {
		return nil
	}
	var ops []string
	for _, a := range args[1:] {
		if a == "set" || a == "--add" || a == "--replace-all" {
			continue
		}
		if !strings.HasPrefix(a, "-") {
			ops = append(ops, a)
		}
	}
	if len(ops) < 2 {
		return nil
	}
	key := strings.ToLower(ops[0])
	val := ops[1]
	last := key[strings.LastIndexByte(key, '.')+1:]
	switch {
	case strings.HasPrefix(key, "alias.") && strings.HasPrefix(val, "!"):
		return []string{val[1:]}
	case gitConfigCodeKeys[last]:
		return []string{val}
	}
	return nil
}
