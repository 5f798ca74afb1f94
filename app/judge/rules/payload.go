package rules

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Programs that run code handed to them as an argument: keystrokes typed
// into a terminal multiplexer, a terminal window's command, a nix shell's
// --run. The code is judged as a command line of its own; only its
// finding (prefixed with the carrier) speaks, so `tmux send-keys 'make
// test' Enter` passes and `tmux send-keys 'rm -rf ~' Enter` is the rm.

func init() {
	on(rulePayload, "tmux", "screen", "xterm", "uxterm", "urxvt", "konsole", "gnome-terminal", "alacritty",
		"terminator", "xfce4-terminal", "tilix", "mate-terminal", "lxterminal", "nix-shell", "nix")
	on(ruleVMExec, "vagrant", "multipass")
	on(rulePayload, "concurrently", "nodemon", "watchexec", "hyperfine", "chokidar", "onchange", "tsc-watch", "entr", "reflex",
		"cross-env", "cross-env-shell", "dotenv", "env-cmd", "start-server-and-test", "server-test")
}

func rulePayload(c *shell.Cmd, x *Ctx) (Finding, bool) {
	code, id, where, ok := payloadOf(c)
	if !ok {
		return Finding{}, false
	}
	if strings.TrimSpace(code) == "" {
		return Finding{}, false
	}
	f := BashOn(code, x.Cwd, x.Home, x.M.deeper())
	if f.score() >= 1.5 || f.RedLine {
		f.Rule = id + "/" + f.Rule
		f.Reason = where + ": " + f.Reason
		f.Marked = c.Raw
		return f, true
	}
	return pkAllow(c, f.Risk, id, where+": "+oneLineCut(strings.TrimSpace(code), 80))
}

// payloadOf finds the code c hands to another program.
func payloadOf(c *shell.Cmd) (code, id, where string, ok bool) {
	switch c.Name {
	case "tmux":
		return tmuxPayload(c.Args)
	case "screen":
		return screenPayload(c.Args)
	case "nix-shell":
		for i, a := range c.Args {
			if (a == "--run" || a == "--command") && i+1 < len(c.Args) {
				return c.Args[i+1], "nix.run", "runs in a nix shell", true
			}
		}
	case "nix":
		// nix develop -c CMD..., nix shell PKGS --command CMD...
		for i, a := range c.Args {
			if a == "-c" || a == "--command" {
				return pkJoinArgv(c.Args[i+1:]), "nix.run", "runs in a nix shell", true
			}
		}
	case "concurrently", "nodemon", "watchexec", "hyperfine", "chokidar", "onchange", "tsc-watch", "entr", "reflex",
		"cross-env", "cross-env-shell", "dotenv", "env-cmd", "start-server-and-test", "server-test":
		if code := devRunnerCode(c.Name, c.Args); code != "" {
			return code, "dev.runs", c.Name + " runs", true
		}
		return "", "", "", false
	default:
		// Terminal windows: -e/-x/--command/-- take the command, to the end.
		for i, a := range c.Args {
			switch a {
			case "-e", "-x", "--command", "--execute", "--":
				return pkJoinArgv(c.Args[i+1:]), "term.exec", "runs in a new terminal window", true
			}
			if v, ok := strings.CutPrefix(a, "--command="); ok {
				return v, "term.exec", "runs in a new terminal window", true
			}
		}
	}
	return "", "", "", false
}

// pkJoinArgv is the command line an argv stands for: one word is taken as
// a line (terminals and ssh hand a single string to a shell), several are
// quoted one by one.
func pkJoinArgv(words []string) string {
	if len(words) == 1 {
		return words[0]
	}
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = pkShQuote(w)
	}
	return strings.Join(q, " ")
}

// tmux subcommands whose operands are a shell command, and the options of
// each that take a value.
var (
	tmuxShellCmds = pkSet("new-session", "new", "new-window", "neww", "split-window", "splitw", "respawn-pane",
		"respawnp", "respawn-window", "respawnw", "run-shell", "run", "display-popup", "popup", "pipe-pane", "pipep")
	tmuxVals = pkSet("-t", "-s", "-n", "-c", "-e", "-F", "-x", "-y", "-l", "-f", "-N", "-d", "-w", "-h", "-b",
		"-T", "-S", "-L")
	// Options that take no value, though their letter takes one elsewhere.
	tmuxFlags = map[string]*Set{
		"new-session": pkSet("-d", "-A", "-D", "-E", "-P", "-X"), "new": pkSet("-d", "-A", "-D", "-E", "-P", "-X"),
		"new-window": pkSet("-a", "-b", "-d", "-k", "-P", "-S"), "neww": pkSet("-a", "-b", "-d", "-k", "-P", "-S"),
		"split-window": pkSet("-b", "-d", "-f", "-h", "-v", "-I", "-P", "-Z"), "splitw": pkSet("-b", "-d", "-f", "-h", "-v", "-I", "-P", "-Z"),
		"run-shell": pkSet("-b", "-C"), "run": pkSet("-b", "-C"), "pipe-pane": pkSet("-I", "-O", "-o"), "pipep": pkSet("-I", "-O", "-o"),
		"display-popup": pkSet("-B", "-C", "-E", "-k"), "popup": pkSet("-B", "-C", "-E", "-k"),
		"respawn-pane": pkSet("-k"), "respawnp": pkSet("-k"), "respawn-window": pkSet("-k"), "respawnw": pkSet("-k"),
	}
	// Key names tmux send-keys reads as a key that ends a line.
	tmuxEnter = pkSet("enter", "c-m", "kpenter", "c-j", "^m", "^j")
)

func tmuxPayload(args []string) (code, id, where string, ok bool) {
	i := 0
	for i < len(args) && strings.HasPrefix(args[i], "-") { // tmux's own options: -L sock, -S path, -f file
		if args[i] == "-L" || args[i] == "-S" || args[i] == "-f" || args[i] == "-T" {
			i++
		}
		i++
	}
	if i >= len(args) {
		return "", "", "", false
	}
	sub, rest := args[i], args[i+1:]
	switch {
	case sub == "send-keys" || sub == "send":
		literal := false
		j := 0
		for j < len(rest) && strings.HasPrefix(rest[j], "-") && len(rest[j]) > 1 {
			a := rest[j]
			if strings.Contains(a, "X") || strings.Contains(a, "H") {
				return "", "", "", false // copy-mode commands or hex codes, not typed text
			}
			if strings.Contains(a, "l") {
				literal = true
			}
			if a == "-t" || a == "-N" || a == "-c" {
				j++
			}
			j++
		}
		var b strings.Builder
		for _, k := range rest[j:] {
			switch {
			case !literal && tmuxEnter.Has(strings.ToLower(k)):
				b.WriteByte('\n')
			case !literal && strings.EqualFold(k, "space"):
				b.WriteByte(' ')
			default:
				b.WriteString(k)
			}
		}
		return b.String(), "term.keys", "typed into a terminal", true
	case tmuxShellCmds.Has(sub):
		flags := tmuxFlags[sub]
		j := 0
		for j < len(rest) && strings.HasPrefix(rest[j], "-") && len(rest[j]) > 1 {
			if rest[j] == "--" {
				j++
				break
			}
			if tmuxVals.Has(rest[j]) && !flags.Has(rest[j]) {
				j++
			}
			j++
		}
		if j >= len(rest) {
			return "", "", "", false
		}
		return pkJoinArgv(rest[j:]), "term.exec", "tmux " + sub + " runs", true
	}
	return "", "", "", false
}

// screenVals are screen's options that take a separate value.
var screenVals = pkSet("-S", "-c", "-e", "-h", "-p", "-T", "-t", "-s", "-x", "-r", "-R", "-D", "-d")

func screenPayload(args []string) (code, id, where string, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-X" {
			// screen -X stuff "text": typed into the session; \n and ^M end a line.
			rest := args[i+1:]
			if len(rest) >= 2 && rest[0] == "stuff" {
				t := strings.NewReplacer(`\n`, "\n", `\r`, "\n", `^M`, "\n", `^J`, "\n", "\r", "\n").Replace(strings.Join(rest[1:], " "))
				return t, "term.keys", "typed into a terminal", true
			}
			return "", "", "", false
		}
		if !strings.HasPrefix(a, "-") {
			// screen [options] CMD ARGS: a new window runs CMD.
			return pkJoinArgv(args[i:]), "term.exec", "runs in a screen session", true
		}
		if len(a) > 2 && a[1] != '-' && screenVals.Has("-"+a[len(a)-1:]) {
			a = "-" + a[len(a)-1:] // -dmS name: the cluster's last letter takes the value
		}
		if screenVals.Has(a) && i+1 < len(args) && !strings.HasPrefix(args[i+1], "-") {
			if a == "-r" || a == "-R" || a == "-x" || a == "-d" || a == "-D" {
				return "", "", "", false // attaches to a session
			}
			i++
		}
	}
	return "", "", "", false
}

// sshSplit reads ssh's words as OpenSSH does: options, the destination,
// options again (ssh re-reads them after the host), then the remote
// command verbatim, flags included: `ssh host rm -rf /data` runs
// "rm -rf /data" there. OpenSSH joins the words with spaces and the
// remote shell parses the result.
func sshSplit(args []string) (host string, cmd []string, ok bool) {
	i := 0
	skip := func() {
		for i < len(args) {
			a := args[i]
			if a == "--" {
				i++
				return
			}
			if len(a) < 2 || a[0] != '-' {
				return
			}
			// A cluster whose last letter takes a value (-p 22, -vp22 inline).
			if last := "-" + a[len(a)-1:]; pkVFEveryday4.Has(last) || pkVFEveryday4.Has(a) {
				if pkVFEveryday4.Has(a[:2]) && len(a) > 2 {
					i++ // -p22: the value is attached
					continue
				}
				i++
			}
			i++
		}
	}
	skip()
	if i >= len(args) {
		return "", nil, false
	}
	host = args[i]
	i++
	skip()
	// An option after the host that wants a value the line lacks (ssh h -B)
	// counts one past the end.
	return host, args[min(i, len(args)):], true
}

// remoteDelete: code deletes files (what fileEffects would count on this
// machine). On another host none of it can be read, so even a build
// folder's delete is a question there. (Writes stay allowed: piping a
// file to `ssh host 'cat > x'` is how files are sent.)
func remoteDelete(code string) (string, bool) {
	a := shell.Analyze(code)
	x := &Ctx{Cwd: "~", Home: "~", All: &a, Project: "~"}
	for i := range a.Cmds {
		ic := &a.Cmds[i]
		for _, e := range fileEffects(ic, x) {
			if e.kind == "delete" {
				return oneLineCut(ic.Raw, 80) + " deletes files", true
			}
		}
		if ic.Name == "git" && len(ic.Args) > 0 && ic.Args[0] == "clean" {
			return oneLineCut(ic.Raw, 80) + " deletes untracked files", true
		}
	}
	return "", false
}

// Developer tools whose arguments are command lines they run: their
// options that carry a command, their options that take another value.
var (
	devCodeOpts = map[string]*Set{
		"nodemon":   pkSet("--exec", "-x"),
		"chokidar":  pkSet("--command", "-c"),
		"tsc-watch": pkSet("--onSuccess", "--onFailure", "--onFirstSuccess", "--onCompilationStarted", "--onCompilationComplete", "--onEmit"),
		"hyperfine": pkSet("--prepare", "-p", "--setup", "-s", "--cleanup", "-c", "--conclude"),
	}
	devValOpts = map[string]*Set{
		"concurrently": pkSet("-n", "--names", "-c", "--prefix-colors", "-p", "--prefix", "-l", "--prefix-length", "-s", "--success",
			"--restart-tries", "--restart-after", "-t", "--timestamp-format", "--name-separator", "--default-input-target", "-m", "--max-processes", "--passthrough-arguments", "--pad-prefix"),
		"nodemon":   pkSet("-e", "--ext", "-w", "--watch", "-i", "--ignore", "-d", "--delay", "--signal", "--config", "-V"),
		"watchexec": pkSet("-e", "--exts", "-w", "--watch", "-i", "--ignore", "-f", "--filter", "-d", "--debounce", "--delay-run", "-s", "--signal", "--stop-signal", "--stop-timeout", "--shell", "--project-origin", "--workdir", "-E", "--env", "--on-busy-update", "--emit-events-to"),
		"hyperfine": pkSet("-w", "--warmup", "-m", "--min-runs", "-M", "--max-runs", "-r", "--runs", "-S", "--shell", "-u", "--time-unit", "--style", "--sort",
			"--export-asciidoc", "--export-csv", "--export-json", "--export-markdown", "--export-orgmode", "-n", "--command-name", "--output", "--input", "-L", "--parameter-list", "-P", "--parameter-scan", "-D", "--parameter-step-size"),
		"env-cmd":  pkSet("-f", "--file", "-e", "--environments", "-r", "--rc-file"),
		"dotenv":   pkSet("-e", "-v", "-p", "-c"),
		"reflex":   pkSet("-r", "--regex", "-R", "--inverse-regex", "-g", "--glob", "-G", "--inverse-glob", "-c", "--config", "-d", "--decoration"),
		"chokidar": pkSet("-d", "--debounce", "-t", "--throttle", "-i", "--ignore", "--polling-interval", "--poll-interval-binary"),
	}
)

// devRunnerCode is the code a developer tool runs, one command a line.
func devRunnerCode(name string, args []string) string {
	codeOpts, vals := devCodeOpts[name], devValOpts[name]
	var lines, ops []string
	dashdash := -1
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			dashdash = i
			break
		}
		opt, v, eq := strings.Cut(a, "=")
		if strings.HasPrefix(a, "-") && len(a) > 1 {
			switch {
			case codeOpts.Has(opt) && eq:
				lines = append(lines, v)
			case codeOpts.Has(opt) && i+1 < len(args):
				lines = append(lines, args[i+1])
				i++
			case vals.Has(opt) && !eq && i+1 < len(args):
				i++
				if name == "hyperfine" && (opt == "-L" || opt == "--parameter-list") && i+1 < len(args) {
					i++ // -L NAME VALUES
				}
			}
			continue
		}
		ops = append(ops, a)
	}
	switch name {
	case "cross-env", "dotenv", "env-cmd", "onchange", "cross-env-shell":
		// Wrappers: their options and NAME=value words, then the command
		// verbatim (its own flags included).
		var rest []string
		switch {
		case dashdash >= 0:
			rest = args[dashdash+1:]
		case name != "onchange": // onchange GLOBS -- CMD: without --, no command
			i := 0
			for i < len(args) {
				a := args[i]
				if strings.HasPrefix(a, "-") && len(a) > 1 {
					if vals.Has(a) {
						i++
					}
					i++
					continue
				}
				if k, _, ok := strings.Cut(a, "="); ok && k != "" && !strings.ContainsAny(k, "/ ") {
					i++
					continue
				}
				break
			}
			rest = args[i:]
		}
		for len(rest) > 0 && strings.Contains(rest[0], "=") && !strings.HasPrefix(rest[0], "=") {
			rest = rest[1:]
		}
		if len(rest) > 0 && name == "cross-env-shell" {
			lines = append(lines, strings.Join(rest, " "))
		} else if len(rest) > 0 {
			lines = append(lines, pkJoinArgv(rest))
		}
	case "entr":
		// entr [-acdnprz] UTILITY ARGS...: the utility and its arguments
		// (entr's own flags take no value); with -s the one operand is
		// shell code.
		i := 0
		shellCode := false
		for i < len(args) && len(args[i]) > 1 && args[i][0] == '-' {
			shellCode = shellCode || strings.IndexByte(args[i], 's') > 0
			i++
		}
		switch {
		case i >= len(args):
		case shellCode:
			lines = append(lines, args[i])
		default:
			lines = append(lines, pkJoinArgv(args[i:]))
		}
	case "reflex":
		if dashdash >= 0 {
			lines = append(lines, pkJoinArgv(args[dashdash+1:]))
		}
	case "watchexec":
		if dashdash >= 0 {
			lines = append(lines, pkJoinArgv(args[dashdash+1:]))
		} else if len(ops) > 0 {
			lines = append(lines, strings.Join(ops, " "))
		}
	case "concurrently", "hyperfine":
		for _, o := range ops {
			if t, ok := strings.CutPrefix(o, "npm:"); ok && name == "concurrently" {
				o = "npm run " + t
			}
			lines = append(lines, o)
		}
	case "start-server-and-test", "server-test":
		// START URL TEST [URL TEST...]: the commands sit at the even places.
		for i, o := range ops {
			if i%2 == 0 {
				lines = append(lines, o)
			}
		}
	}
	return strings.Join(lines, "\n")
}

// pkComposeExec judges the command `compose exec SERVICE CMD` runs in a
// service's running container like docker exec's: that container is not
// a throwaway one (a database's data folder lives in it), so deleting in
// it counts, as it does for docker exec.
func pkComposeExec(c *shell.Cmd, args []string) (Finding, bool) {
	i := 0
	for i < len(args) && len(args[i]) > 1 && args[i][0] == '-' {
		if pkComposeRunVal.Has(args[i]) && !strings.Contains(args[i], "=") {
			i++
		}
		i++
	}
	if i+1 >= len(args) {
		return Finding{}, false
	}
	x := &Ctx{Cwd: "/", Home: "/root"}
	f, ok := pkEval(pkInner(c, args[i+1:]), x)
	if !ok || f.score() < 1.5 && !f.RedLine {
		return Finding{}, false
	}
	f.Rule = "compose.exec/" + f.Rule
	f.Reason = "inside a running service container: " + f.Reason
	f.Marked = c.Raw
	return f, true
}

// ruleVMExec: a command run in a local VM (vagrant ssh -c CMD, multipass
// exec VM -- CMD) is judged like ssh's remote command, except that
// vagrant's /vagrant is the host's project folder, synced both ways: what
// the command does there happens to the project.
func ruleVMExec(c *shell.Cmd, x *Ctx) (Finding, bool) {
	code := ""
	switch c.Name {
	case "vagrant":
		if len(c.Args) == 0 || c.Args[0] != "ssh" {
			return Finding{}, false
		}
		for i, a := range c.Args {
			if (a == "-c" || a == "--command") && i+1 < len(c.Args) {
				code = c.Args[i+1]
			} else if v, ok := strings.CutPrefix(a, "--command="); ok {
				code = v
			}
		}
	case "multipass":
		if len(c.Args) < 2 || c.Args[0] != "exec" {
			return Finding{}, false
		}
		for i, a := range c.Args {
			if a == "--" {
				code = pkJoinArgv(c.Args[i+1:])
			}
		}
		if code == "" {
			code = pkJoinArgv(c.Args[2:])
		}
	}
	if strings.TrimSpace(code) == "" || c.Depth >= pkMaxDepth {
		return Finding{}, false
	}
	if c.Name == "vagrant" && strings.Contains(code, "/vagrant") && x.Cwd != "" && !strings.Contains(x.Cwd, shell.Dyn) {
		local := strings.ReplaceAll(code, "/vagrant", strings.TrimRight(x.Cwd, "/"))
		if f := BashOn(local, x.Cwd, x.Home, x.M.deeper()); f.score() >= 1.5 || f.RedLine {
			f.Rule = "vm.exec/" + f.Rule
			f.Reason = "in the VM, on the project folder it shares (/vagrant): " + f.Reason
			f.Marked = c.Raw
			return f, true
		}
	}
	return judgeElsewhere(c, code, "vm.exec", "in the VM")
}

// judgeElsewhere judges code that runs on another machine (ssh, a VM):
// its own finding under the route ("ssh/fs.delete-home"), else a delete
// that cannot be counted there; ok=false when neither has anything to say.
func judgeElsewhere(c *shell.Cmd, code, route, where string) (Finding, bool) {
	f := Bash(code, "~", "~")
	if f.score() >= 1.5 || f.RedLine {
		f.Rule = route + "/" + f.Rule
		f.Reason = where + ": " + f.Reason
		f.Marked = c.Raw
		return f, true
	}
	if what, ok := remoteDelete(code); ok {
		return pkRet(c, 1.6, 0.3, "net.ssh-remote-delete", where+": "+what+"; nothing there can be counted or checked for what it would lose")
	}
	return Finding{}, false
}
