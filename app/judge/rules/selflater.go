package rules

import (
	"path"
	"strings"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
)

// A file that the system runs by itself later (a login entry, a systemd
// user unit or timer, a launchd agent, a crontab file, a shell start-up
// file) is code the guard will never see run: nothing asks it again when
// the unit starts or the next shell opens. Writing one whose commands
// stop, move or rewrite the guard is the same self-protection breach as
// running them now, so it blocks (scripts run by hand later only
// confirm: running them is another call the guard judges).

// laterKind names what runs the file, "" when nothing does by itself.
func laterKind(p, cwd, home string) string {
	n := normalize(p, cwd, home)
	low, base := n.low, lastSeg(n.low)
	switch {
	case hasSeq(low, ".config/autostart") && strings.HasSuffix(base, ".desktop"):
		return "the login session"
	case hasSeq(low, "start menu/programs/startup"):
		return "the Windows login"
	case base == "rc" && hasSeq(low, ".ssh") || base == ".xprofile" || base == ".xinitrc" || base == ".xsession" || base == ".xsessionrc":
		return "the next login"
	case hasSeq(low, "systemd/user") || hasSeq(low, "systemd/system") || strings.HasSuffix(base, ".service") || strings.HasSuffix(base, ".timer"):
		return "systemd"
	case hasSeq(low, "launchagents") || hasSeq(low, "launchdaemons"):
		return "launchd"
	case hasSeq(low, "var/spool/cron") || hasSeq(low, "etc/cron.d") || strings.HasPrefix(base, "crontab"):
		return "cron"
	case envFile(p, cwd, home) || base == ".bash_aliases" || base == ".zsh_aliases" || base == ".aliases":
		return "every new shell"
	case path.Base(path.Dir(low)) == "bin" && isHostCommand(base):
		// ~/.local/bin/claude: a wrapper that shadows the agent host's own
		// command runs at the host's next start
		return "the next start of " + base
	case hasSeq(low, ".git/hooks") || hasSeq(low, ".husky"):
		return "git"
	}
	return ""
}

var (
	execLineRe  = lazyre.New(`(?m)^\s*(?:Exec|TryExec|ExecStart|ExecStartPre|ExecStartPost|ExecStop|ExecStopPost|ExecReload|ExecCondition)\s*=\s*[-@:+!]*(.+)$`)
	plistArgsRe = lazyre.New(`(?s)<key>\s*ProgramArguments\s*</key>\s*<array>(.*?)</array>`)
	plistStrRe  = lazyre.New(`<string>([^<]*)</string>`)
	plistProgRe = lazyre.New(`(?s)<key>\s*Program\s*</key>\s*<string>([^<]*)</string>`)
)

// laterCode is the shell code in content that kind runs.
func laterCode(kind, content string) []string {
	var out []string
	switch kind {
	case "the login session", "systemd":
		for _, m := range execLineRe.FindAllStringSubmatch(content, 64) {
			out = append(out, m[1])
		}
	case "launchd":
		for _, m := range plistArgsRe.FindAllStringSubmatch(content, 8) {
			var words []string
			for _, s := range plistStrRe.FindAllStringSubmatch(m[1], 64) {
				words = append(words, s[1])
			}
			out = append(out, shellJoin(words))
		}
		for _, m := range plistProgRe.FindAllStringSubmatch(content, 8) {
			out = append(out, m[1])
		}
	case "cron":
		for _, l := range strings.Split(content, "\n") {
			if c := cronCommand(l); c != "" {
				out = append(out, c)
			}
		}
	case "the Windows login":
		out = append(out, lineByLineText(content))
	default:
		out = append(out, content)
	}
	return out
}

// runsLaterWrite judges content written to a file the system runs by
// itself: a self-protection finding among its commands blocks the write.
func runsLaterWrite(p, content, cwd, home string) (Finding, bool) {
	if strings.TrimSpace(content) == "" || len(content) > 64<<10 {
		return Finding{}, false
	}
	kind := laterKind(p, cwd, home)
	if kind == "" {
		return Finding{}, false
	}
	if !strings.Contains(content, "\n") {
		// an MCP call's arguments as JSON text: its newlines are escaped
		content = strings.NewReplacer(`\n`, "\n", `\"`, `"`, `\/`, "/").Replace(content)
	}
	if f, code, ok := selfInCode(laterCode(kind, content), cwd, home, len(content)); ok {
		f.Reason = "writes " + p + ", which " + kind + " runs by itself later, with " + oneLineCut(strings.TrimSpace(code), 80) + ": " + f.Reason
		f.Marked = p
		return f, true
	}
	return Finding{}, false
}

// lineByLineText keeps each non-empty line as its own command (a .cmd or
// .ps1 in the Startup folder).
func lineByLineText(content string) string {
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(content, "\r", ""), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(strings.ToLower(l), "@echo") && !strings.HasPrefix(strings.ToLower(l), "rem ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// isHostCommand: the name of an agent host's command (claude, codex, ...).
func isHostCommand(base string) bool {
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".exe"), ".cmd")
	_, ok := nestedHosts[base]
	return ok
}
