package shell

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// eval "$(direnv hook bash)", eval "$(ssh-agent -s)", eval "$(pyenv init -)":
// the code eval runs is what a known tool prints to set up the shell
// (variables, PATH, a hook function). It cannot be read before it runs,
// but it is the tool's own, not the agent's: such an eval is everyday
// shell setup, not a program known only at run time. Only one plain call
// of a tool from the table, with words fully known, counts.

// setupMark stands for a substitution's output that is a known tool's
// shell setup code. It holds Dyn, so every other reader still sees a
// run-time value (rm -rf "$(direnv hook bash)" stays unknown).
const setupMark = Dyn + "setup"

// setupTools: program -> the first operand (or flag) that makes it print
// shell setup code; "" accepts any arguments.
var setupTools = map[string][]string{
	"direnv": {"hook", "export"}, "pyenv": {"init", "virtualenv-init"}, "rbenv": {"init"}, "nodenv": {"init"},
	"goenv": {"init"}, "jenv": {"init"}, "plenv": {"init"}, "phpenv": {"init"}, "swiftenv": {"init"},
	"pyenv-virtualenv-init": {""}, "ssh-agent": {"", "-s", "-c"}, "brew": {"shellenv"},
	"conda":      {"shell.bash", "shell.zsh", "shell.posix", "shell.fish", "shell.powershell"},
	"micromamba": {"shell"}, "mamba": {"shell"}, "starship": {"init"}, "zoxide": {"init"}, "fnm": {"env"},
	"mise": {"activate", "env"}, "rtx": {"activate"}, "opam": {"env", "config"}, "thefuck": {"--alias"},
	"keychain": {"--eval"}, "dircolors": {"", "-b", "-c"}, "luarocks": {"path"}, "atuin": {"init"},
	"oh-my-posh": {"init"}, "fzf": {"--bash", "--zsh"}, "path_helper": {"-s", "-c"}, "rustup": {"completions"},
	"minikube": {"docker-env", "podman-env"}, "docker-machine": {"env"}, "pdm": {"--pep582"}, "uv": {"generate-shell-completion"},
	"register-python-argcomplete": {""}, "nvm": {"env"}, "gh": {"completion"}, "kubectl": {"completion"},
	"helm": {"completion"}, "npm": {"completion"}, "pnpm": {"completion"}, "poetry": {"completions"},
}

// setupOutput: the substitution (first = the index of its first command)
// is one plain call of a setup tool.
func (w *walker) setupOutput(cs *syntax.CmdSubst, first int) bool {
	if len(cs.Stmts) != 1 || len(w.a.Cmds) != first+1 {
		return false
	}
	st := cs.Stmts[0]
	if _, ok := st.Cmd.(*syntax.CallExpr); !ok || st.Background || len(st.Redirs) > 0 && !onlyStderr(st.Redirs) {
		return false
	}
	c := &w.a.Cmds[first]
	if c.Dynamic() || len(c.Wrappers) > 0 || c.FedCode || c.HiddenCode {
		return false
	}
	for _, a := range c.Args {
		if strings.Contains(a, Dyn) {
			return false
		}
	}
	starts, ok := setupTools[c.Name]
	if !ok {
		return false
	}
	arg := ""
	if len(c.Args) > 0 {
		arg = c.Args[0]
	}
	for _, s := range starts {
		if s == arg || s == "" && (arg == "" || strings.HasPrefix(arg, "-") || c.Name == "register-python-argcomplete") {
			return true
		}
	}
	return false
}

// onlyStderr: redirections that only drop or move error output (2>/dev/null).
func onlyStderr(rs []*syntax.Redirect) bool {
	for _, r := range rs {
		if r.N == nil || r.N.Value != "2" {
			return false
		}
	}
	return true
}

// allSetup: every word is a setup tool's output (eval "$(a)" "$(b)").
func allSetup(args []string) bool {
	for _, a := range args {
		if a != setupMark {
			return false
		}
	}
	return len(args) > 0
}
