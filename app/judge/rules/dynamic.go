package rules

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/facts"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// What cannot be read statically is at least confirm: a command name from
// a variable or substitution, code fed to a shell from a download or a
// decoder, a line that does not parse. Fork bombs are a red line.

func init() {
	on(ruleShell, facts.Shells()...)
	on(ruleShell, "eval", "source", ".", "cmd", "powershell", "pwsh", "powershell_ise", "iex", "invoke-expression",
		"su", "script", "sg", "watch", "flock", "parallel", "runuser")
}

// dynFinding judges what the walker could not see into.
func dynFinding(c *shell.Cmd) (Finding, bool) {
	switch {
	case c.DynName:
		name := strings.ReplaceAll(c.Raw, shell.Dyn, "$?")
		return Finding{Risk: 2, Violation: 0.4, Rule: "dyn.command-name", Marked: c.Raw,
			Reason: "the program to run is only known at run time (" + name + "); it cannot be checked"}, true
	case c.HiddenCode:
		name := c.Name
		if c.Path != "" {
			name = dlShown(c.Path) // ./i.exe, .\i.ps1: keep the extension
		}
		return Finding{Risk: 2.2, Violation: 0.5, Rule: "dyn.hidden-code", Marked: c.Raw,
			Reason: name + " runs code that cannot be read before it runs (downloaded, decoded or from a variable)"}, true
	case c.Decoded && (c.FedCode || c.Obfuscated):
		// Code it runs (sh x.sh, bash -c "$(...)", eval) or its own name
		// came out of a decoder; a decoded argument (echo "$(... -d)") is data.
		return Finding{Risk: 2.2, Violation: 0.5, Rule: "dyn.decoded-script", Marked: c.Raw,
			Reason: c.Name + " runs a script the line decoded from an encoding (base64, hex...): encoded to hide it from review"}, true
	case c.Obfuscated:
		return Finding{Risk: 1.6, Violation: 0.4, Rule: "dyn.obfuscated-name", Marked: c.Raw,
			Reason: "the program name " + c.Name + " is spelled to hide it (quotes, escapes or substitutions inside the name)"}, true
	}
	return Finding{}, false
}

// ruleShell: a shell or code runner whose code was opened up is as safe
// as that code (the nested commands are judged on their own). eval and
// iex always have their code opened (FedCode) or hidden (HiddenCode) by
// the walk (shell/command.go), so they never reach the switch below.
func ruleShell(c *shell.Cmd, x *Ctx) (Finding, bool) {
	if c.HiddenCode {
		return dynFinding(c)
	}
	if c.FedCode {
		return Finding{Rule: "shell.nested", Reason: c.Name + " runs code that is judged command by command", Marked: c.Raw}, true
	}
	switch c.Name {
	case "source", ".":
		return Finding{Risk: 0.5, Rule: "shell.source", Reason: c.Name + " runs a script file in this shell", Marked: c.Raw, Uncertain: true}, true
	case "su", "runuser", "sg":
		return Finding{Risk: 1.5, Violation: 0.3, Rule: "shell.switch-user", Reason: c.Name + " opens a shell as another user", Marked: c.Raw}, true
	}
	if len(c.Operands()) > 0 {
		// bash script.sh: a script file of the project.
		return Finding{Risk: 0.5, Rule: "shell.script", Reason: c.Name + " runs a script file that is not shown here", Marked: c.Raw, Uncertain: true}, true
	}
	for _, w := range c.Wrappers {
		// runas is left out: its own rule in the walk reads its command.
		if facts.IsUnixElevator(w) || w == "gsudo" {
			return Finding{Risk: 1.5, Violation: 0.3, Rule: "shell.root-shell", Reason: w + " " + c.Name + " opens a shell as root", Marked: c.Raw}, true
		}
	}
	return Finding{Rule: "shell.interactive", Reason: c.Name + " without code", Marked: c.Raw}, true
}

func forkBombFinding(a *shell.Analysis) Finding {
	return Finding{Risk: 3, Violation: 0.95, RedLine: true, Rule: "dyn.fork-bomb", Marked: a.ForkBomb,
		Reason: "a fork bomb or endless spawn loop: it exhausts the machine's processes until it has to be rebooted"}
}

func parseErrFinding(a *shell.Analysis, script string) Finding {
	return Finding{Risk: 2, Violation: 0.2, Rule: "shell.parse-error", Marked: script, Uncertain: true,
		Reason: "the command cannot be fully read (" + a.Err.Error() + "); what cannot be read cannot be judged"}
}
