package self

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// A package manager told to remove agent-guard takes the guard's
// binaries away, as rm of them would: brew uninstall agent-guard, npm
// uninstall -g agent-guard, winget uninstall agent-guard.

func init() {
	pack.On(rulePkgUninstall, "brew", "port", "apt", "apt-get", "aptitude", "dnf", "yum", "zypper", "pacman", "yay", "paru",
		"apk", "snap", "flatpak", "nix-env", "nix", "winget", "scoop", "choco", "npm", "pnpm", "yarn", "bun", "pipx", "pip",
		"pip3", "uv", "cargo", "gem", "uninstall-package", "remove-appxpackage", "msiexec", "dpkg", "rpm")
}

// uninstallVerbs are the words that remove a package.
var uninstallVerbs = map[string]bool{"uninstall": true, "remove": true, "rm": true, "un": true, "r": true, "erase": true,
	"purge": true, "autoremove": true, "-r": true, "-rs": true, "-rns": true, "-rsn": true, "--remove": true, "-e": true,
	"--uninstall": true, "/x": true, "/uninstall": true, "--purge": true, "-p": true, "delete": true, "uninstall-package": true}

func rulePkgUninstall(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	removes := c.Name == "uninstall-package" || c.Name == "remove-appxpackage"
	named := false
	for _, a := range c.Args {
		la := strings.ToLower(a)
		if uninstallVerbs[la] || c.Name == "pacman" && strings.HasPrefix(la, "-r") {
			removes = true
		}
		if guardPackage(la) {
			named = true
		}
	}
	if !removes || !named {
		return rules.Finding{}, false
	}
	return rules.PkGuardStop(c, c.Name+" removing agent-guard")
}

// guardPackage: the argument is the guard's own package (agent-guard,
// agent-guard@1.2, @agent-guard/cli, github.com/agent-guard/...), not
// another package whose name starts the same (agent-guardrails).
func guardPackage(a string) bool {
	if strings.HasPrefix(a, "github.com/agent-guard/") || strings.HasPrefix(a, "@agent-guard/") {
		return true
	}
	for _, sep := range []string{"@", "==", "=", ":"} {
		if i := strings.Index(a, sep); i > 0 {
			a = a[:i]
		}
	}
	switch strings.TrimSuffix(a, ".exe") {
	case "agent-guard", "agentguard", "agent_guard", "agent-guard-hook", "agent-guard-judge", "agent guard":
		return true
	}
	return false
}
