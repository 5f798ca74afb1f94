package everyday

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// A package installed straight from a URL or a git repository (pip install
// git+https://..., npm install github:u/r, cargo install --git URL) runs
// its build and install scripts (setup.py, npm's install scripts, build.rs)
// from code no registry holds: curl | sh in one step, so the same question
// (confirm). Registry names, local folders and package files built in the
// project stay everyday; a file downloaded earlier in the line is
// remote.download-run.

func init() {
	pack.On(rulePkgURL, "pip", "pip3", "uv", "pipx", "npm", "pnpm", "yarn", "bun", "cargo", "python", "python3", "py")
}

// pkgURLVerbs: the words after the program (and its sub-tool) that install.
var pkgURLVerbs = map[string]bool{"install": true, "i": true, "add": true, "inject": true, "in": true, "isntall": true}

// pkgURLValueFlags take the next word as their value: an index, a find-links
// page, a requirements file, a target folder (none of them a package spec).
var pkgURLValueFlags = map[string]bool{"-i": true, "--index-url": true, "--extra-index-url": true, "-f": true,
	"--find-links": true, "-c": true, "--constraint": true, "-r": true, "--requirement": true, "-t": true,
	"--target": true, "--prefix": true, "--root": true, "--python": true, "-p": true, "--trusted-host": true,
	"--cert": true, "--proxy": true, "--platform": true, "--python-version": true, "--src": true,
	"--registry": true, "--cache": true, "--tag": true, "-w": true, "--workspace": true, "--filter": true,
	"--branch": true, "--rev": true, "--version": true, "--index": true, "--path": true, "--features": true,
	"-F": true, "-j": true, "--jobs": true, "--index-strategy": true, "--default-index": true}

func rulePkgURL(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	args := c.Args
	switch c.Name {
	case "python", "python3", "py":
		// python -m pip install ...
		i := rules.PkIndex(args, "-m")
		if i < 0 || i+1 >= len(args) || args[i+1] != "pip" && args[i+1] != "pip3" {
			return rules.Finding{}, false
		}
		args = args[i+2:]
	case "uv":
		if len(args) == 0 || args[0] != "pip" && args[0] != "tool" && args[0] != "add" {
			return rules.Finding{}, false
		}
		if args[0] != "add" {
			args = args[1:]
		}
	}
	v := -1
	for i, a := range args {
		if !strings.HasPrefix(a, "-") {
			if pkgURLVerbs[strings.ToLower(a)] {
				v = i
			}
			break
		}
	}
	if v < 0 {
		return rules.Finding{}, false
	}
	npmLike := c.Name == "npm" || c.Name == "pnpm" || c.Name == "yarn" || c.Name == "bun"
	rest := args[v+1:]
	for i, a := range rest {
		spec := a
		if a == "--git" && i+1 < len(rest) {
			spec = rest[i+1] // cargo install --git URL
		} else if g, ok := strings.CutPrefix(a, "--git="); ok {
			spec = g
		} else if strings.HasPrefix(a, "-") {
			continue
		} else if i > 0 && pkgURLValueFlags[rest[i-1]] {
			continue // --index-url https://mirror/simple: where names are looked up, not a package
		}
		if pkgRemoteSpec(spec, npmLike) {
			return rules.PkRet(c, 2, 0.3, "pkg.install-url", c.Name+" installs "+spec+" straight from a URL or a git repository: its install scripts run code no registry holds, as curl | sh does")
		}
	}
	return rules.Finding{}, false
}

// pkgRemoteSpec: a package spec that names a download or a repository.
func pkgRemoteSpec(s string, npmLike bool) bool {
	l := strings.ToLower(strings.TrimSpace(s))
	if strings.Contains(l, shell.Dyn) {
		return false // a run-time spec is the dynamic rules' question
	}
	for _, p := range []string{"http://", "https://", "git+", "git://", "ssh://", "git@", "github:", "gitlab:", "bitbucket:", "gist:"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	if _, url, ok := strings.Cut(l, "@"); ok && strings.Contains(url, "://") {
		return true // pip's "name @ https://..." and npm's "name@https://..."
	}
	if npmLike && !strings.HasPrefix(l, "@") && !strings.HasPrefix(l, ".") && !strings.HasPrefix(l, "/") &&
		!strings.HasPrefix(l, "~") && !strings.Contains(l, ":") && strings.Count(l, "/") == 1 &&
		!strings.HasSuffix(l, ".tgz") && !strings.HasSuffix(l, ".tar.gz") {
		return true // npm install user/repo is GitHub's user/repo
	}
	return false
}
