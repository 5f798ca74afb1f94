package codeopts

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/opts"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Code run through the environment or through an option's value: the
// program reads a variable (GIT_SSH_COMMAND, PAGER, LD_PRELOAD...) or an
// option (ssh -o ProxyCommand, rsync -e, npm --script-shell) and runs
// what it names. That code is judged like any command; a program named by
// a path whose content is not shown is at least confirm.

func init() { pack.OnAny(ruleCodeEnv); pack.OnAny(ruleCodeOption) }

// codeKind says how a value runs.
type codeKind int

const (
	codeShell   codeKind = iota // shell code (the program runs sh -c VALUE)
	codeLibrary                 // a library loaded into every program started
	codeSource                  // a file the shell sources before running
	codeNodeOpt                 // NODE_OPTIONS-like: --require FILE loads code
)

// codeEnv: variables whose value a program runs.
var codeEnv = map[string]codeKind{
	"GIT_SSH_COMMAND": codeShell, "GIT_SSH": codeShell, "GIT_EXTERNAL_DIFF": codeShell, "GIT_PAGER": codeShell,
	"GIT_EDITOR": codeShell, "GIT_SEQUENCE_EDITOR": codeShell, "GIT_ASKPASS": codeShell, "GIT_PROXY_COMMAND": codeShell,
	"SSH_ASKPASS": codeShell, "SUDO_ASKPASS": codeShell, "PAGER": codeShell, "MANPAGER": codeShell, "EDITOR": codeShell,
	"VISUAL": codeShell, "PROMPT_COMMAND": codeShell, "LESSOPEN": codeShell, "LESSCLOSE": codeShell,
	"RSYNC_RSH": codeShell, "CVS_RSH": codeShell, "BROWSER": codeShell, "SYSTEMD_PAGER": codeShell,
	"LD_PRELOAD": codeLibrary, "LD_AUDIT": codeLibrary, "DYLD_INSERT_LIBRARIES": codeLibrary,
	"GIT_EXEC_PATH": codeLibrary, "GIT_TEMPLATE_DIR": codeLibrary,
	"BASH_ENV": codeSource, "ENV": codeSource, "PYTHONSTARTUP": codeSource, "ZDOTDIR": codeSource,
	"NODE_OPTIONS": codeNodeOpt, "PERL5OPT": codeNodeOpt, "RUBYOPT": codeNodeOpt,
}

func ruleCodeEnv(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	env := lineEnv(c, x)
	if len(env) == 0 {
		return rules.Finding{}, false
	}
	var w rules.Finding
	have := false
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		kind, ok := codeEnv[k]
		if !ok || strings.TrimSpace(v) == "" {
			continue
		}
		var f rules.Finding
		switch kind {
		case codeShell:
			if k == "LESSOPEN" || k == "LESSCLOSE" {
				v = strings.TrimLeft(strings.ReplaceAll(v, "%s", "file"), "|")
			}
			f, ok = gitProgramValue(c, k+"="+v, v, x)
			if !ok {
				continue
			}
		case codeLibrary:
			if v == "/dev/null" {
				continue
			}
			f = rules.PkF(c, 1.6, 0.4, "code.env-library", k+"="+v+" makes programs load or run code from "+v)
		case codeSource:
			if v == "/dev/null" {
				continue
			}
			f = rules.PkF(c, 1.6, 0.3, "code.env-source", k+"="+v+" makes the shell run "+v+" first (its content is not shown)")
		case codeNodeOpt:
			if !preloadsCode(v) {
				continue
			}
			f = rules.PkF(c, 1.6, 0.3, "code.env-preload", k+"="+v+" loads extra code into every run")
		}
		if !have || f.Worse(w) {
			w, have = f, true
		}
	}
	return w, have && (w.Score() >= 1.5 || w.RedLine)
}

// codeOption: an option whose value a program runs as a command.
type codeOption struct {
	names []string // the option's names in the program's grammar
	what  string
}

var codeOptions = map[string][]codeOption{
	"rsync": {{[]string{"rsh"}, "rsync -e"}, {[]string{"rsync-path"}, "rsync --rsync-path (on the remote host)"}},
	"scp":   {{[]string{"S"}, "scp -S"}},
	"sftp":  {{[]string{"S"}, "sftp -S"}},
	"man":   {{[]string{"P", "pager"}, "man -P"}},
	"npm":   {{[]string{"script-shell"}, "npm --script-shell"}},
	"yarn":  {{[]string{"script-shell"}, "yarn --script-shell"}},
	"pnpm":  {{[]string{"script-shell"}, "pnpm --script-shell"}},
}

var codeOptionSpecs = map[string]*opts.Spec{
	"sftp": {Opts: "4 6 A a C N p q r v B= b= c= D= F= i= J= l= o= P= R= S= s= X="},
	"man":  {Opts: "P|pager= C|config-file= M|manpath= L|locale= m|systems= S|sections= E|encoding= H|html?", Abbrev: true},
	"npm":  {Opts: "script-shell= w|workspace= prefix= C= registry="},
	"yarn": {Opts: "script-shell= cwd="},
	"pnpm": {Opts: "script-shell= C|dir= filter= F="},
}

// sshCodeKeys: ssh -o keys whose value is a local command (RemoteCommand
// runs on the remote host and is judged as such).
var sshCodeKeys = map[string]string{"proxycommand": "local", "localcommand": "local", "knownhostscommand": "local",
	"remotecommand": "remote", "permitlocalcommand": "", "proxyjump": ""}

func ruleCodeOption(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if c.Name == "ssh" || c.Name == "scp" || c.Name == "sftp" || c.Name == "rsync" {
		if f, ok := sshOptCode(c, x); ok {
			return f, true
		}
	}
	cos, ok := codeOptions[c.Name]
	if !ok {
		return rules.Finding{}, false
	}
	spec := opts.Lookup(c.Name)
	if spec == nil {
		spec = codeOptionSpecs[c.Name]
	}
	a := opts.Parse(spec, c.Args)
	var w rules.Finding
	have := false
	for _, co := range cos {
		for _, v := range a.Values(co.names...) {
			f, ok := gitProgramValue(c, co.what, v, x)
			if !ok {
				continue
			}
			if c.Name == "rsync" || c.Name == "scp" || c.Name == "sftp" {
				// rsync -e 'ssh -o ProxyCommand=...': the ssh it runs, options and all.
				if inner := strings.Fields(v); len(inner) > 0 && shell.NormName(inner[0]) == "ssh" {
					if sf, ok := sshOptCode(&shell.Cmd{Name: "ssh", Args: inner[1:], Raw: c.Raw}, x); ok {
						f = rules.Worst(f, sf)
					}
				}
			}
			if !have || f.Worse(w) {
				w, have = f, true
			}
		}
	}
	return w, have && (w.Score() >= 1.5 || w.RedLine)
}

// sshOptCode: ssh/scp/sftp/rsync -o ProxyCommand=CMD (or "ProxyCommand CMD").
func sshOptCode(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	name := c.Name
	if name == "rsync" {
		return rules.Finding{}, false // rsync's -o is --owner; its ssh options are in -e
	}
	spec := opts.Lookup(name)
	if spec == nil {
		spec = codeOptionSpecs[name]
	}
	a := opts.Parse(spec, c.Args)
	var w rules.Finding
	have := false
	for _, o := range a.Values("o") {
		k, v, ok := strings.Cut(o, "=")
		if !ok {
			k, v, _ = strings.Cut(strings.TrimSpace(o), " ")
		}
		k = strings.ToLower(strings.TrimSpace(k))
		where := sshCodeKeys[k]
		if where == "" || strings.EqualFold(strings.TrimSpace(v), "none") {
			continue
		}
		v = strings.TrimSpace(v)
		var f rules.Finding
		if where == "remote" {
			f = rules.Bash(v, "~", "~")
			f.Reason = "ssh -o RemoteCommand runs on the remote host: " + f.Reason
			f.Marked = c.Raw
		} else {
			v = strings.NewReplacer("%h", "host", "%p", "22", "%r", "user", "%n", "host").Replace(v)
			f, _ = gitProgramValue(c, "ssh -o "+k, v, x)
		}
		if !have || f.Worse(w) {
			w, have = f, true
		}
	}
	return w, have && (w.Score() >= 1.5 || w.RedLine)
}

// preloadsCode: NODE_OPTIONS / PERL5OPT / RUBYOPT words that load a module
// or file before the program (--require x, -r x, --import, --loader, -Mx).
func preloadsCode(v string) bool {
	for _, t := range strings.Fields(v) {
		switch {
		case strings.HasPrefix(t, "--require"), strings.HasPrefix(t, "--import"), strings.HasPrefix(t, "--loader"),
			strings.HasPrefix(t, "--experimental-loader"), strings.HasPrefix(t, "--eval"):
			return true
		case len(t) >= 2 && t[0] == '-' && t[1] != '-' && strings.ContainsAny(t[1:2], "rMme"):
			return true
		}
	}
	return false
}

// lineEnv is the environment a command runs with, as far as the line
// shows it: variables exported earlier in the line, then its own prefix
// and env(1) assignments (the shell package puts them in c.Env).
func lineEnv(c *shell.Cmd, x *rules.Ctx) []string { return c.Env }

// gitProgramValue judges a value git (or another tool) runs through the
// shell: its commands by the same rules, and at least confirm when it
// names a program by a path outside the system folders (./x, /tmp/x) or
// cannot be known statically.
func gitProgramValue(c *shell.Cmd, what, v string, x *rules.Ctx) (rules.Finding, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return rules.Finding{}, false
	}
	if rules.PkDyn(v) {
		return rules.PkRet(c, 1.6, 0.3, "code.option-dynamic", what+" runs a program only known at run time")
	}
	f := rules.Bash(v, x.Cwd, x.Home)
	f.Reason = what + " runs `" + v + "`: " + f.Reason
	f.Marked = c.Raw
	if w := strings.Fields(v); len(w) > 0 && codeProgramPath(w[0]) && f.Score() < 1.5 {
		f = rules.PkF(c, 1.6, 0.3, "code.option-program", what+" runs "+w[0]+", a program whose content is not shown")
	}
	return f, true
}

// codeProgramPath: a program named by a path that is not a system folder.
func codeProgramPath(p string) bool {
	p = strings.Trim(p, `"'`)
	if !strings.ContainsAny(p, "/\\") {
		return false
	}
	for _, d := range []string{"/usr/bin/", "/bin/", "/usr/local/bin/", "/usr/sbin/", "/sbin/", "/opt/homebrew/bin/", "/usr/lib/git-core/", "/usr/libexec/git-core/"} {
		if strings.HasPrefix(p, d) && !strings.Contains(p, "..") {
			return false
		}
	}
	return true
}
