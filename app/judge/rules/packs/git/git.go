package git

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/rules/packs/codeopts"

	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/opts"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Git pack: force pushes are red lines; anything that throws away work
// or rewrites history (reset --hard, clean -f, checkout/restore of the
// worktree, branch -D, stash drop, filter-branch, rebase...) is confirm;
// reading, committing and branching are everyday work.

func init() { pack.On(ruleGit, "git", "hub", "gh-git") }

// gitCodeKeys are config keys whose value git runs as a program.
var gitCodeKeys = []string{"core.pager", "core.sshcommand", "core.editor", "core.fsmonitor", "core.hookspath",
	"core.askpass", "diff.external", "credential.helper", "sequence.editor", "gpg.program", "protocol.ext.allow",
	"uploadpack.packobjectshook", "pager.", "alias.", ".textconv", ".command", "filter.", "merge.tool", "diff.tool"}

var gitProtected = map[string]bool{"main": true, "master": true, "trunk": true, "develop": true, "dev": true,
	"production": true, "prod": true, "release": true, "stable": true, "head": true, "gh-pages": true}

func gitF(c *shell.Cmd, risk, viol float64, rule, reason string) (rules.Finding, bool) {
	return rules.Finding{Risk: risk, Violation: viol, Rule: rule, Reason: reason, Marked: c.Raw, RedLine: viol >= rules.RedLineAt}, true
}

func ruleGit(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) { return gitJudge(c, x, c.Args, 0) }

// gitJudge reads args the way git does (opts.ParseGit: git's options, the
// subcommand, parse-options rules for its options) and judges what runs:
// configuration that runs code, an alias's expansion, then the subcommand.
func gitJudge(c *shell.Cmd, x *rules.Ctx, args []string, depth int) (rules.Finding, bool) {
	g := opts.ParseGit(args)
	if g.Sub == "" {
		return gitF(c, 0, 0, "git.read", "git without a subcommand prints usage or its version")
	}
	cfg := gitConfigs(c, &g, x)
	sub, _, _ := strings.Cut(g.Sub, " ")
	// An alias (git -c alias.x=..., GIT_CONFIG_*, git config alias.x
	// earlier in the line) runs its expansion with the words after it.
	if v, ok := gitAlias(cfg, x, sub); ok && depth < 4 {
		aliasWords := append([]string{}, g.Global.Operands[1:]...)
		if strings.HasPrefix(v, "!") {
			code := v[1:]
			if len(aliasWords) > 0 {
				code += " " + strings.Join(aliasWords, " ")
			}
			f := rules.Bash(code, x.Cwd, x.Home)
			f.Reason = "git alias " + sub + " runs shell code: " + f.Reason
			f.Marked = c.Raw
			return rules.Worst(f, rules.Finding{Risk: 1.5, Violation: 0.3, Rule: "git.alias-code", Reason: "git alias " + sub + " runs shell code: " + code, Marked: c.Raw}), true
		}
		f, _ := gitJudge(c, x, append(strings.Fields(v), aliasWords...), depth+1)
		f.Reason = "git " + sub + " is an alias for `git " + v + "`: " + f.Reason
		return worstCfg(f, c, cfg, x), true
	}
	sx := x
	if dirs := g.Global.Values("C"); len(dirs) > 0 && x != nil {
		// git -C DIR: paths and the repository are read from DIR.
		y := *x
		for _, d := range dirs {
			y.Cwd = rules.BashCd(&shell.Cmd{Name: "cd", Args: []string{d}, Raw: c.Raw}, &y)
		}
		if strings.HasPrefix(y.Cwd, "~") {
			y.Cwd = x.Home + y.Cwd[1:]
		}
		sx = &y
	}
	f, ok := gitSubJudge(c, sx, &g)
	return worstCfg(f, c, cfg, x), ok
}

// worstCfg adds the judgment of configuration values git runs as code.
func worstCfg(f rules.Finding, c *shell.Cmd, cfg []string, x *rules.Ctx) rules.Finding {
	for _, kv := range cfg {
		k, v, _ := strings.Cut(kv, "=")
		if cf, ok := gitConfigCode(c, strings.ToLower(k), v, x); ok {
			f = rules.Worst(f, cf)
		}
	}
	return f
}

func gitSubJudge(c *shell.Cmd, x *rules.Ctx, g *opts.Git) (rules.Finding, bool) {
	a := &g.Args
	sub, subsub, _ := strings.Cut(g.Sub, " ")
	words := g.Words
	rest := &shell.Cmd{Name: "git-" + sub, Args: words, Raw: c.Raw}
	if subsub != "" {
		rest.Args = append([]string{subsub}, words...)
	}
	read := func() (rules.Finding, bool) {
		return gitF(c, 0, 0, "git.read", "git "+sub+" only reads the repository")
	}
	low := func() (rules.Finding, bool) {
		return gitF(c, 1, 0, "git.local", "git "+sub+" changes the local repository in a recoverable way")
	}
	if a.ReadOnly {
		// -h, --help, --dry-run: git prints usage or what it would do.
		return gitF(c, 0, 0, "git.read", "git "+g.Sub+" with a help or dry-run option changes nothing")
	}
	switch sub {
	case "checkout", "restore", "rm", "mv", "apply", "am", "stash", "clean", "reset":
		// git checkout HEAD~5 -- .claude/settings.json writes the guard's
		// or the agent's protected files like any other writer would.
		for _, o := range a.Operands {
			if !strings.ContainsAny(o, "/.") {
				continue
			}
			if f, ok := rules.Protected(o, x.Cwd, x.Home); ok {
				return f, true
			}
		}
	}
	// Options whose value is a program git runs (locally for a local
	// remote): --upload-pack, --receive-pack, --exec, rebase -x, difftool -x.
	for _, k := range []string{"upload-pack", "receive-pack", "exec", "extcmd"} {
		for _, v := range a.Values(k) {
			if f, ok := codeopts.GitProgramValue(c, "git "+g.Sub+" --"+k, v, x); ok && (f.Score() >= 1.5 || f.RedLine) {
				return f, true
			}
		}
	}
	// --output=FILE (log, diff, format-patch) writes that file.
	if v, ok := a.Value("output"); ok && (sub == "log" || sub == "diff" || sub == "show" || sub == "archive") {
		if f := rules.FsWriteTarget(c, v, x); f.Score() >= 1.5 || f.RedLine {
			return f, true
		}
	}
	switch sub {
	case "status", "log", "diff", "show", "blame", "grep", "describe", "rev-parse", "rev-list", "ls-files",
		"ls-tree", "ls-remote", "shortlog", "cat-file", "whatchanged", "reflog-show", "name-rev", "merge-base",
		"for-each-ref", "show-ref", "show-branch", "count-objects", "check-ignore", "check-attr", "version",
		"help", "var", "fsck", "verify-commit", "verify-tag", "cherry", "range-diff", "difftool", "annotate",
		"bugreport", "instaweb", "request-pull", "format-patch", "archive", "bundle", "diff-tree", "diff-files", "diff-index":
		return read()
	case "add", "commit", "fetch", "pull", "clone", "init", "merge", "mv", "switch", "cherry-pick", "revert",
		"bisect", "apply", "am", "notes", "submodule", "worktree", "remote", "sparse-checkout", "maintenance",
		"lfs", "restore-staged", "stage", "citool", "gui", "mergetool", "pack-refs", "repack", "rerere", "send-email", "flow", "commit-tree", "hash-object", "write-tree", "read-tree", "update-index", "checkout-index", "config":
		return gitSimple(c, rest, g, x)
	case "push":
		f, ok := gitPush(c, g)
		if f.Risk < 1.5 && f.Violation < 0.5 {
			ops := a.Operands
			if len(ops) == 0 {
				ops = []string{"origin"} // git push alone: the usual remote
			}
			if gitURLLike(ops[0]) {
				// git push https://host/r.git main: a place named only here.
				if secret, ok := rules.TrackedSecret(x); ok {
					return gitF(c, 3, 0.9, "creds.exfil", "git push to "+ops[0]+", a place named only in this command, of a repository that tracks "+secret)
				}
				return gitF(c, 2, 0.4, "git.push-new-remote", "git push to "+ops[0]+", a place named only in this command: the code leaves for a new place")
			}
			{
				if u, added := gitRemoteAdded(x, ops[0]); added {
					if secret, ok := rules.TrackedSecret(x); ok {
						return gitF(c, 3, 0.9, "creds.exfil", "git push to "+ops[0]+", a remote added or re-pointed in the same command ("+u+"), of a repository that tracks "+secret)
					}
					return gitF(c, 2, 0.4, "git.push-new-remote", "git push to "+ops[0]+", a remote added or re-pointed in the same command ("+u+"): the code leaves for a new place")
				}
			}
		}
		return f, ok
	case "reset":
		if a.Has("hard") {
			return gitF(c, 2, 0.3, "git.reset-hard", "git reset --hard throws away all uncommitted changes")
		}
		if a.Has("merge", "keep") {
			return gitF(c, 1.5, 0.2, "git.reset", "git reset "+strings.Join(words, " ")+" may discard changes")
		}
		return low()
	case "clean":
		if a.Has("force") && x != nil && x.Cwd != "" && rules.FsClassify(x.Cwd, x) >= rules.FsHome && !a.Has("dry-run") {
			// The work tree is the home (a dotfiles repository) or above
			// it: every file the repository does not track is the user's
			// documents, keys and settings.
			return gitF(c, 3, 0.8, "git.clean-home", "git clean -f in "+x.Cwd+", the home folder or a folder above it: every file the repository does not track there is deleted for good")
		}
		if a.Has("force") || a.Has("interactive") {
			if a.Has("x") || a.Has("X") {
				return gitF(c, 2.2, 0.3, "git.clean", "git clean -x deletes all untracked and ignored files (including local config and data)")
			}
			return gitF(c, 2, 0.3, "git.clean", "git clean -f deletes untracked files for good")
		}
		return low()
	case "checkout":
		if a.Has("force") {
			return gitF(c, 2, 0.3, "git.checkout-force", "git checkout -f throws away uncommitted changes")
		}
		if gitCheckoutPaths(a, x) {
			return gitF(c, 2, 0.3, "git.checkout-discard", "git checkout of files overwrites them and discards their uncommitted changes")
		}
		return low()
	case "restore":
		if len(a.Operands) == 0 && !a.Has("pathspec-from-file") {
			return gitF(c, 0, 0, "git.read", "git restore without paths restores nothing (git refuses it)")
		}
		if a.Has("staged") && !a.Has("worktree") {
			return low()
		}
		return gitF(c, 2, 0.3, "git.restore", "git restore discards uncommitted changes in the working tree")
	case "branch":
		if a.Has("D") || (a.Has("delete") && a.Has("force")) {
			return gitF(c, 2, 0.3, "git.branch-delete", "git branch -D deletes a branch even if it is not merged")
		}
		if a.Has("delete", "move", "M", "copy", "C") {
			return low()
		}
		if a.Has("force") {
			return gitF(c, 1.5, 0.2, "git.branch-force", "git branch -f moves an existing branch")
		}
		return low()
	case "stash":
		switch subsub {
		case "drop", "clear":
			return gitF(c, 2, 0.3, "git.stash-drop", "git stash "+subsub+" deletes stashed work")
		}
		if len(words) > 0 && (words[0] == "drop" || words[0] == "clear") {
			return gitF(c, 2, 0.3, "git.stash-drop", "git stash "+words[0]+" deletes stashed work")
		}
		return low()
	case "filter-branch", "filter-repo":
		if sub == "filter-repo" && (a.Has("analyze") || a.Has("dry-run")) && !a.Has("force") {
			// --analyze writes reports under .git/filter-repo/analysis;
			// --dry-run only shows the rewritten history.
			return gitF(c, 0.5, 0, "git.filter-repo-read", "git filter-repo --"+map[bool]string{true: "analyze", false: "dry-run"}[a.Has("analyze")]+" reports on the history without rewriting it")
		}
		for _, k := range []string{"env-filter", "tree-filter", "index-filter", "parent-filter", "msg-filter", "commit-filter", "tag-name-filter"} {
			for _, v := range a.Values(k) {
				if f := rules.Bash(v, x.Cwd, x.Home); f.Score() >= 2.3 || f.RedLine {
					f.Reason = "git filter-branch --" + k + " runs for every commit: " + f.Reason
					f.Marked = c.Raw
					return f, true
				}
			}
		}
		return gitF(c, 2.3, 0.4, "git.rewrite-history", "git "+sub+" rewrites the whole history")
	case "reflog":
		if len(words) > 0 && (words[0] == "expire" || words[0] == "delete") {
			return gitF(c, 2, 0.4, "git.reflog-expire", "git reflog "+words[0]+" removes the safety net for lost commits")
		}
		return read()
	case "gc":
		if v, ok := a.Value("prune"); ok && v != "" {
			return gitF(c, 2, 0.3, "git.gc-prune", "git gc --prune="+v+" deletes unreachable commits for good")
		}
		return low()
	case "prune":
		return gitF(c, 1.5, 0.2, "git.prune", "git prune deletes unreachable objects for good")
	case "rebase":
		if a.Has("abort", "quit", "continue", "skip", "show-current-patch", "edit-todo") {
			return low()
		}
		return gitF(c, 2, 0.3, "git.rebase", "git rebase rewrites the branch's history")
	case "update-ref":
		if a.Has("d", "stdin") {
			return gitF(c, 2, 0.3, "git.update-ref", "git update-ref -d deletes a reference")
		}
		return gitF(c, 1.5, 0.2, "git.update-ref", "git update-ref moves a reference directly")
	case "tag":
		if a.Has("delete", "force") {
			return gitF(c, 2, 0.3, "git.tag-delete", "git tag -d/-f deletes or moves a tag")
		}
		return low()
	case "rm":
		if a.Has("cached") {
			return low()
		}
		for _, o := range a.Operands {
			if o == "." || o == "*" || o == "./*" || o == ":/" || strings.Contains(o, shell.Dyn) {
				if a.Has("r") {
					return gitF(c, 2, 0.3, "git.rm-all", "git rm -r "+o+" deletes every tracked file")
				}
			}
		}
		if a.Has("force") {
			return gitF(c, 1.2, 0.1, "git.rm-force", "git rm -f deletes files with uncommitted changes")
		}
		return low()
	case "replace", "symbolic-ref":
		return gitF(c, 1.5, 0.2, "git."+sub, "git "+sub+" rewrites references")
	}
	f, _ := gitF(c, 0.5, 0, "git.other", "git "+sub+" (a subcommand these rules do not know)")
	f.Uncertain = true
	return f, true
}

// gitCheckoutPaths: git checkout [<tree-ish>] [--] <pathspec>... overwrites
// files. Without a new branch (-b/-B/--orphan), a second operand, anything
// after "--", --pathspec-from-file, "." or a word naming an existing file
// is a path.
func gitCheckoutPaths(a *opts.Args, x *rules.Ctx) bool {
	if a.Has("pathspec-from-file") {
		return true
	}
	if after := a.AfterDashDash(); len(after) > 0 {
		return true
	}
	if a.Has("b", "B", "orphan") {
		return false
	}
	ops := a.Operands
	if len(ops) >= 2 {
		return true
	}
	for _, o := range ops {
		if o == "." || o == "*" || o == ":/" || o == "./" || strings.HasPrefix(o, "./") || strings.HasPrefix(o, ":(") {
			return true
		}
		if gitLooksLikeFile(o, x) {
			return true
		}
	}
	return false
}

// gitLooksLikeFile: an operand that exists as a file in the working
// folder, or whose name ends in a file extension (a.txt, src/app.go);
// branch and tag names rarely do (v1.2.3 ends in digits).
func gitLooksLikeFile(o string, x *rules.Ctx) bool {
	if strings.Contains(o, shell.Dyn) || strings.ContainsAny(o, "~^@") {
		return false
	}
	if x != nil && x.Cwd != "" && !strings.Contains(x.Cwd, shell.Dyn) {
		if gitHasRef(x.Cwd, o) {
			return false // a branch or tag of this repository
		}
		p := o
		if !filepath.IsAbs(p) {
			p = filepath.Join(x.Cwd, o)
		}
		if _, err := os.Lstat(p); err == nil {
			return true // a file or folder of the working tree, and no such branch
		}
	}
	base := o[strings.LastIndexByte(o, '/')+1:]
	dot := strings.LastIndexByte(base, '.')
	if dot <= 0 || dot == len(base)-1 {
		return false
	}
	ext := base[dot+1:]
	if len(ext) > 5 {
		return false
	}
	for i := 0; i < len(ext); i++ {
		if !(ext[i] >= 'a' && ext[i] <= 'z' || ext[i] >= 'A' && ext[i] <= 'Z') {
			return false
		}
	}
	return true
}

// gitSimple: everyday subcommands, with their few dangerous options.
func gitSimple(c, rest *shell.Cmd, g *opts.Git, x *rules.Ctx) (rules.Finding, bool) {
	a := &g.Args
	sub, _, _ := strings.Cut(g.Sub, " ")
	switch sub {
	case "commit":
		if a.Has("amend") {
			return gitF(c, 1, 0, "git.commit-amend", "git commit --amend rewrites the last commit")
		}
		if a.Has("no-verify") {
			return gitF(c, 1, 0, "git.commit-no-verify", "git commit --no-verify skips the commit hooks")
		}
	case "switch":
		if a.Has("force") {
			return gitF(c, 2, 0.3, "git.switch-discard", "git switch --discard-changes throws away uncommitted changes")
		}
	case "submodule":
		if len(rest.Args) > 1 && rest.Args[0] == "foreach" {
			// git submodule foreach 'code': shell code run in every submodule.
			var code []string
			for _, a := range rest.Args[1:] {
				if a != "--recursive" && a != "-q" && a != "--quiet" {
					code = append(code, a)
				}
			}
			f := rules.Bash(strings.Join(code, " "), x.Cwd, x.Home)
			if f.Risk < 1 {
				f.Risk = 1
			}
			return f, true
		}
		if len(rest.Args) > 0 && rest.Args[0] == "deinit" && rest.Flag('f', "--force", "--all") {
			return gitF(c, 2, 0.3, "git.submodule-deinit", "git submodule deinit -f removes submodule work trees")
		}
	case "worktree":
		if g.Sub == "worktree remove" && a.Has("force") {
			return gitF(c, 2, 0.3, "git.worktree-remove", "git worktree remove --force deletes a worktree with its changes")
		}
	case "remote":
		if len(rest.Args) > 0 && (rest.Args[0] == "remove" || rest.Args[0] == "rm" || rest.Args[0] == "set-url") {
			return gitF(c, 1.2, 0.1, "git.remote", "git remote "+rest.Args[0]+" changes where the repository pushes")
		}
	case "config":
		ops := rest.Operands()
		if len(ops) >= 2 {
			k := strings.ToLower(ops[0])
			if gitRunsCode(k, ops[1]) {
				if strings.HasPrefix(k, "alias.") {
					if f := rules.Bash(strings.TrimPrefix(ops[1], "!"), x.Cwd, x.Home); f.Risk >= 1.5 || f.Violation >= 0.5 {
						f.Reason = "git alias " + k + " would run: " + f.Reason
						return rules.Worst(f, rules.Finding{Risk: 1.5, Violation: 0.3, Rule: "git.config-code", Marked: c.Raw}), true
					}
				}
				return gitF(c, 2, 0.4, "git.config-code", "git config "+k+" makes git run a program: "+ops[1])
			}
			if strings.HasPrefix(k, "alias.") {
				// alias.pf 'push --force': a force push under another name.
				if f, _ := ruleGit(&shell.Cmd{Name: "git", Args: strings.Fields(ops[1]), Raw: c.Raw}, x); f.Risk >= 1.5 || f.Violation >= 0.5 {
					return gitF(c, 2, 0.5, "git.config-alias", "git config "+k+" makes `git "+strings.TrimPrefix(k, "alias.")+"` run: "+f.Reason)
				}
			}
			if strings.HasPrefix(k, "remote.") && strings.HasSuffix(k, ".push") && strings.HasPrefix(ops[1], "+") {
				return gitF(c, 2, 0.5, "git.config-force-refspec", "git config "+k+" "+ops[1]+" turns every later git push into a force push")
			}
			return gitF(c, 1, 0, "git.config", "git config sets "+k)
		}
		if rest.Flag(0, "--unset", "--unset-all", "--remove-section") {
			return gitF(c, 1, 0, "git.config", "git config removes settings")
		}
		return gitF(c, 0, 0, "git.read", "git config reads settings")
	case "bisect":
		// git bisect run CMD...: CMD runs at every step.
		if len(rest.Args) > 1 && rest.Args[0] == "run" {
			if f, ok := rules.PkEval(rules.PkInner(c, rest.Args[1:]), x); ok && (f.Score() >= 1.5 || f.RedLine) {
				f.Reason = "git bisect run runs at every step: " + f.Reason
				return f, true
			}
		}
	case "clone":
		// git clone -c core.sshCommand=... sets configuration that runs code.
		for _, kv := range a.Values("config") {
			k, v, _ := strings.Cut(kv, "=")
			if f, ok := gitConfigCode(c, strings.ToLower(k), v, x); ok && (f.Score() >= 1.5 || f.RedLine) {
				return f, true
			}
		}
	case "lfs":
		if len(rest.Args) > 0 && rest.Args[0] == "prune" {
			if rules.PkContains(rest.Args, "--dry-run") || rules.PkContains(rest.Args, "-d") {
				return gitF(c, 0.5, 0, "git.lfs-prune-dry", "git lfs prune --dry-run only lists what it would delete")
			}
			return gitF(c, 1.5, 0.2, "git.lfs-prune", "git lfs prune deletes local large-file copies")
		}
	case "pull":
		if a.Has("force") {
			return gitF(c, 1.5, 0.2, "git.pull-force", "git pull --force may overwrite local branches")
		}
	case "fetch":
		if a.Has("prune", "prune-tags", "force") {
			return gitF(c, 1, 0, "git.fetch-prune", "git fetch --prune removes stale remote-tracking branches")
		}
	}
	return gitF(c, 1, 0, "git.local", "git "+sub+" changes the local repository in a recoverable way")
}

// gitPush: force in all its spellings is a red line; deleting a remote
// branch is confirm, the main branches a red line.
func gitPush(c *shell.Cmd, g *opts.Git) (rules.Finding, bool) {
	a := &g.Args
	force := a.Has("force", "mirror")
	lease := a.Has("force-with-lease", "force-if-includes")
	del := a.Has("delete")
	prune := a.Has("prune")
	ops := a.Operands
	var refs []string
	if len(ops) > 1 {
		refs = ops[1:]
	}
	deleted := ""
	for _, r := range refs {
		switch {
		case strings.HasPrefix(r, "+"):
			force = true
		case strings.HasPrefix(r, ":") && len(r) > 1:
			deleted = r[1:]
		case strings.Contains(r, shell.Dyn):
			if del {
				deleted = r
			}
		}
		if del && deleted == "" {
			deleted = r
		}
	}
	if force {
		return gitF(c, 3, 0.9, "git.force-push", "force-push overwrites the remote's history; others' commits can be lost")
	}
	for _, w := range g.Words {
		if w == shell.Dyn {
			// git push $FLAGS origin main: an option only known at run time may be --force.
			return gitF(c, 1.8, 0.4, "git.push-dynamic", "git push with an option only known at run time (it may be --force)")
		}
		if !strings.HasPrefix(w, "-") {
			break
		}
	}
	if deleted != "" {
		b := strings.ToLower(deleted)
		b = strings.TrimPrefix(b, "refs/heads/")
		if gitProtected[b] || strings.HasPrefix(b, "release") || strings.Contains(b, shell.Dyn) {
			return gitF(c, 3, 0.9, "git.push-delete-main", "deletes the remote branch "+deleted)
		}
		return gitF(c, 2, 0.3, "git.push-delete", "deletes the remote branch or tag "+deleted)
	}
	if del {
		return gitF(c, 2, 0.3, "git.push-delete", "git push --delete deletes remote refs")
	}
	if lease {
		// The lease only spares commits this clone has not seen; onto a
		// shared branch (main, master, release...) it still rewrites the
		// history everyone builds on: the red line plain --force is.
		for _, r := range refs {
			dst := r
			if i := strings.LastIndexByte(r, ':'); i >= 0 {
				dst = r[i+1:]
			}
			b := strings.TrimPrefix(strings.ToLower(dst), "refs/heads/")
			if gitProtected[b] && b != "head" || strings.HasPrefix(b, "release/") {
				return gitF(c, 3, 0.9, "git.force-push-lease-main", "force-push (with lease) rewrites the history of the shared branch "+dst)
			}
		}
		return gitF(c, 2, 0.4, "git.force-push-lease", "force-push (with lease) rewrites the remote branch's history")
	}
	if prune {
		return gitF(c, 2, 0.3, "git.push-prune", "git push --prune deletes remote branches that do not exist locally")
	}
	return gitF(c, 1, 0, "git.push", "git push publishes commits to the remote")
}

// gitRunsCode: a config key whose value git runs as a program, with a
// value that is more than a plain program name (alias.x=!code, a pager
// with a pipe...). core.editor=vim or alias.co=checkout are not code.
func gitRunsCode(k, v string) bool {
	if strings.HasPrefix(k, "alias.") {
		return strings.HasPrefix(v, "!")
	}
	hit := false
	for _, ck := range gitCodeKeys {
		if ck != "alias." && (strings.HasPrefix(k, ck) || strings.HasSuffix(k, ck)) {
			hit = true
		}
	}
	if !hit {
		return false
	}
	switch k {
	case "core.hookspath", "core.fsmonitor", "protocol.ext.allow", "uploadpack.packobjectshook":
		return true
	}
	return strings.ContainsAny(v, ";|&$`<>()") || len(strings.Fields(v)) > 2 || strings.Contains(v, shell.Dyn)
}

func init() { pack.On(ruleHg, "hg", "svn") }

// ruleHg: Mercurial and Subversion, the few verbs that lose work.
func ruleHg(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := c.Operands()
	sub := ""
	if len(ops) > 0 {
		sub = strings.ToLower(ops[0])
	}
	if c.Name == "hg" {
		switch sub {
		case "push":
			if c.Flag('f', "--force") {
				return gitF(c, 3, 0.9, "hg.force-push", "hg push --force overwrites the remote's history")
			}
			return gitF(c, 1, 0, "hg.push", "hg push publishes commits")
		case "strip", "prune", "rollback", "histedit", "rebase", "purge", "clean":
			return gitF(c, 2, 0.3, "hg."+sub, "hg "+sub+" removes commits or files for good")
		case "update", "up", "checkout", "co":
			if c.Flag('C', "--clean") {
				return gitF(c, 2, 0.3, "hg.update-clean", "hg update --clean throws away uncommitted changes")
			}
		case "revert":
			if c.Flag('a', "--all") || c.Flag('C', "--no-backup") {
				return gitF(c, 2, 0.3, "hg.revert", "hg revert --all discards uncommitted changes")
			}
		}
		return gitF(c, 0.5, 0, "hg.other", "hg "+sub)
	}
	switch sub {
	case "revert":
		if c.Flag('R', "--recursive") || len(ops) > 1 && (ops[1] == "." || ops[1] == "*") {
			return gitF(c, 2, 0.3, "svn.revert", "svn revert -R discards uncommitted changes")
		}
	case "rm", "delete", "del", "remove":
		for _, o := range ops[1:] {
			if strings.Contains(o, "://") {
				return gitF(c, 2, 0.3, "svn.delete-remote", "svn delete on the server: "+o)
			}
		}
	}
	return gitF(c, 0.5, 0, "svn.other", "svn "+sub)
}

// gitAliasDef finds `git config [--global] alias.NAME VALUE` among the
// line's commands, so a later `git NAME` is judged as what it runs.
func gitAliasDef(x *rules.Ctx, name string) (string, bool) {
	if x == nil || x.All == nil {
		return "", false
	}
	for i := range x.All.Cmds {
		c := &x.All.Cmds[i]
		if c.Name != "git" {
			continue
		}
		config := false
		for j, a := range c.Args {
			if a == "config" {
				config = true
				continue
			}
			if config && strings.EqualFold(a, "alias."+name) && j+1 < len(c.Args) {
				return c.Args[j+1], true
			}
		}
	}
	return "", false
}

// gitRemoteAdded finds `git remote add NAME URL` for name among the
// line's commands.
func gitRemoteAdded(x *rules.Ctx, name string) (string, bool) {
	if x == nil || x.All == nil {
		return "", false
	}
	for i := range x.All.Cmds {
		c := &x.All.Cmds[i]
		if c.Name != "git" {
			continue
		}
		for j := 0; j+3 < len(c.Args); j++ {
			if c.Args[j] == "remote" && (c.Args[j+1] == "add" || c.Args[j+1] == "set-url") {
				// git remote add NAME URL, git remote set-url [--push] NAME URL
				ops := (&shell.Cmd{Args: c.Args[j+2:]}).Operands()
				if len(ops) >= 2 && ops[0] == name {
					return ops[1], true
				}
			}
		}
		for j := 0; j+2 < len(c.Args); j++ {
			// git config remote.NAME.url URL (or pushurl)
			k := strings.ToLower(c.Args[j+1])
			if c.Args[j] == "config" && (k == "remote."+strings.ToLower(name)+".url" || k == "remote."+strings.ToLower(name)+".pushurl") {
				return c.Args[j+2], true
			}
		}
	}
	return "", false
}

// gitHasRef reports whether the repository around cwd has a branch, tag
// or remote-tracking branch called name (loose refs or packed-refs).
func gitHasRef(cwd, name string) bool {
	gd := gitDirOf(cwd)
	if gd == "" || strings.Contains(name, "..") {
		return false
	}
	common := gd
	if b, err := os.ReadFile(filepath.Join(gd, "commondir")); err == nil {
		c := strings.TrimSpace(string(b))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gd, c)
		}
		common = c
	}
	for _, pre := range []string{"refs/heads/", "refs/tags/"} {
		if st, err := os.Stat(filepath.Join(common, pre+name)); err == nil && !st.IsDir() {
			return true
		}
	}
	if rs, err := os.ReadDir(filepath.Join(common, "refs", "remotes")); err == nil {
		for _, r := range rs {
			if st, err := os.Stat(filepath.Join(common, "refs", "remotes", r.Name(), name)); err == nil && !st.IsDir() {
				return true
			}
		}
	}
	f, err := os.Open(filepath.Join(common, "packed-refs"))
	if err != nil {
		return false
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, 1<<20))
	for _, l := range strings.Split(string(b), "\n") {
		_, ref, ok := strings.Cut(l, " ")
		if !ok {
			continue
		}
		if ref == "refs/heads/"+name || ref == "refs/tags/"+name ||
			strings.HasPrefix(ref, "refs/remotes/") && strings.HasSuffix(ref, "/"+name) && strings.Count(strings.TrimPrefix(ref, "refs/remotes/"), "/") == strings.Count(name, "/")+1 {
			return true
		}
	}
	return false
}

// gitDirOf finds the .git folder (or the folder a .git file points to)
// at or above dir, at most 32 levels up.
func gitDirOf(dir string) string {
	for i := 0; i < 32 && dir != ""; i++ {
		p := filepath.Join(dir, ".git")
		if st, err := os.Stat(p); err == nil {
			if st.IsDir() {
				return p
			}
			if b, err := os.ReadFile(p); err == nil {
				if g, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:"); ok {
					g = strings.TrimSpace(g)
					if !filepath.IsAbs(g) {
						g = filepath.Join(dir, g)
					}
					return g
				}
			}
			return ""
		}
		up := filepath.Dir(dir)
		if up == dir {
			break
		}
		dir = up
	}
	return ""
}

// gitURLLike: a push target spelled as a URL or scp-like address rather
// than a configured remote's name.
func gitURLLike(s string) bool {
	if strings.Contains(s, "://") {
		return true
	}
	at, colon := strings.Index(s, "@"), strings.Index(s, ":")
	return at > 0 && colon > at && !strings.Contains(s[:at], "/")
}
