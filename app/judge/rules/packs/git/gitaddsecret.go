package git

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"path"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// git add of a secret file (.env, an SSH private key, credentials.json,
// terraform.tfstate) puts it into the repository: the next commit keeps
// it in history and the next push publishes it, past what a later
// `git rm` can take back. -f adds it even where .gitignore keeps it out.

func init() { pack.On(ruleGitAddSecret, "git") }

// gitSub returns git's subcommand index in args (after -C, -c and the
// other global options), or -1.
func gitSub(args []string) int {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			return i
		}
		if a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree" || a == "--namespace" || a == "--config-env" {
			i++
		}
	}
	return -1
}

func ruleGitAddSecret(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	i := gitSub(c.Args)
	if i < 0 || c.Args[i] != "add" && c.Args[i] != "stage" {
		return rules.Finding{}, false
	}
	var w rules.Finding
	have := false
	dashdash := false
	for j := i + 1; j < len(c.Args); j++ {
		a := c.Args[j]
		if !dashdash && a == "--" {
			dashdash = true
			continue
		}
		if !dashdash && strings.HasPrefix(a, "-") {
			if a == "--chmod" || a == "--pathspec-from-file" {
				j++
			}
			continue
		}
		k, what := rules.PkSecretPath(a, x)
		if k == rules.PkNoSecret || k == rules.PkWeak && path.Base(strings.ReplaceAll(a, `\`, "/")) == ".npmrc" {
			continue
		}
		risk, viol := 2.0, 0.5
		if k == rules.PkWeak {
			risk, viol = 1.6, 0.3
		}
		f := rules.Finding{Risk: risk, Violation: viol, Rule: "git.add-secret", Marked: c.Raw,
			Reason: "git add " + a + " stages " + what + ": once committed it stays in the history, and a push publishes it"}
		if !have || f.Worse(w) {
			w, have = f, true
		}
	}
	return w, have
}
