package rules

import (
	"fmt"
	"sort"
	"strings"
)

// Git MCP servers (the reference mcp-server-git, git-mcp-server and the
// like) name git's own commands: git_status, git_add, git_commit,
// git_checkout, git_push {force}, git_reset {mode: hard}. Each call is
// the git command line it stands for, judged by the git rules in the
// repository it names: committing is everyday, a forced push to main is
// the red line it is in the shell. The tool's verb alone confirmed all.

// mcpGitKeys: argument -> how it enters the command line: "cwd" (the
// repository), "-x" a flag when true, "-x=" a flag with the value, "op"
// an operand, "ops" a list of operands, "mode" --<value>.
var mcpGitKeys = map[string]string{
	"repo_path": "cwd", "repoPath": "cwd", "path": "cwd", "repo": "cwd", "repository": "cwd", "cwd": "cwd", "directory": "cwd",
	"message": "-m=", "files": "ops", "paths": "ops", "file": "op", "branch_name": "op", "branchName": "op", "branch": "op",
	"base_branch": "op", "baseBranch": "op", "start_point": "op", "remote": "op", "target": "op", "revision": "op",
	"commit": "op", "ref": "op", "name": "op", "force": "--force", "mode": "mode", "all": "--all", "delete": "--delete",
	"set_upstream": "--set-upstream", "setUpstream": "--set-upstream", "tags": "--tags", "max_count": "-n=", "maxCount": "-n=",
	"dry_run": "--dry-run", "dryRun": "--dry-run", "context_lines": "-U=", "amend": "--amend", "staged": "--cached",
	"directories": "-d", "ignored": "-x", "hard": "--hard", "no_verify": "--no-verify", "timestamp": "", "start_timestamp": "",
	"end_timestamp": "", "author": "", "branch_type": "", "contains": "", "not_contains": "",
}

// mcpGitVerbs: the tool name after git_ -> git's words.
var mcpGitVerbs = map[string][]string{
	"status": {"status"}, "diff": {"diff"}, "diff_unstaged": {"diff"}, "diff_staged": {"diff", "--cached"}, "log": {"log"},
	"show": {"show"}, "add": {"add"}, "commit": {"commit"}, "reset": {"reset"}, "checkout": {"checkout"},
	"create_branch": {"branch"}, "branch": {"branch"}, "push": {"push"}, "pull": {"pull"}, "fetch": {"fetch"},
	"init": {"init"}, "clean": {"clean"}, "stash": {"stash"}, "merge": {"merge"}, "rebase": {"rebase"}, "tag": {"tag"},
	"remote": {"remote"}, "clone": {"clone"}, "cherry_pick": {"cherry-pick"}, "blame": {"blame"}, "switch": {"switch"},
}

func mcpGit(tool, args, cwd, home string) (Finding, bool) {
	lt := strings.ToLower(tool)
	if !strings.HasPrefix(lt, "git_") {
		return Finding{}, false
	}
	verb, ok := mcpGitVerbs[lt[4:]]
	if !ok {
		return Finding{}, false
	}
	in, ok := mcpArgsMap(args)
	if !ok {
		return Finding{}, false
	}
	keys := make([]string, 0, len(in))
	unknown := false
	for k := range in {
		if _, known := mcpGitKeys[k]; !known {
			unknown = true // more than this reading knows: only a block of what it knows counts
			continue
		}
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return mcpGitOrder(keys[i]) < mcpGitOrder(keys[j]) })
	words := append([]string{"git"}, verb...)
	dir := cwd
	var ops []string
	for _, k := range keys {
		how, v := mcpGitKeys[k], in[k]
		s := fmt.Sprint(v)
		switch {
		case how == "":
		case how == "cwd":
			if s != "" && s != "." {
				dir = s
				if !isAbs(slashify(s)) && cwd != "" {
					dir = cwd + "/" + s
				}
			}
		case how == "ops":
			list, _ := v.([]any)
			for _, e := range list {
				if es, ok := e.(string); ok {
					ops = append(ops, shellQuote(es))
				}
			}
		case how == "op":
			if s != "" {
				ops = append(ops, shellQuote(s))
			}
		case how == "mode":
			if s != "" {
				words = append(words, "--"+shellQuote(strings.TrimPrefix(s, "--")))
			}
		case strings.HasSuffix(how, "="):
			words = append(words, strings.TrimSuffix(how, "="), shellQuote(s))
		default:
			if b, ok := v.(bool); ok && b {
				words = append(words, how)
			}
		}
	}
	if strings.Contains(dir, "'") {
		return Finding{}, false
	}
	if len(ops) > 0 && (verb[0] == "add" || verb[0] == "checkout" && len(ops) > 1) {
		words = append(words, "--")
	}
	line := strings.Join(append(words, ops...), " ")
	return mcpAsLine(line, dir, home, "the git MCP tool runs `"+line+"`: ", "mcp.git", unknown)
}

// mcpGitOrder puts the remote before the branch and the base last, the
// order git reads its operands in.
func mcpGitOrder(k string) int {
	switch k {
	case "remote":
		return 0
	case "branch_name", "branchName", "branch", "name":
		return 1
	case "base_branch", "baseBranch", "start_point":
		return 2
	}
	return 3
}
