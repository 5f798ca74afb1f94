package rules

import (
	"fmt"
	"strings"
)

// Code-forge MCP servers (GitHub's github-mcp-server and the reference
// github server, GitLab's) name the actions the gh and glab CLIs run:
// create_pull_request is gh pr create, add_issue_comment is gh issue
// comment, create_merge_request is glab mr create. Each such call is judged
// as that command line, so one action gets one verdict whichever route
// the agent takes: opening a pull request is everyday, making a new
// repository public asks, as they do in the shell. The tool's verb alone
// confirmed every one of them.
//
// Only tools whose CLI twin is certain are read here. Merges keep the
// verb's confirm: a merge into the default branch is what deploys in many
// projects (the shell's gh pr merge is allowed, a difference left as
// found). File pushes
// (push_files, create_or_update_file) keep the verb's weight: their
// content lands in a repository that CI may run, which no CLI line shows.
// A token in any argument was already stopped by mcpSecretOut.

// mcpForgeTools: tool -> the CLI's words after gh or glab.
var mcpForgeTools = map[string]string{
	// GitHub
	"create_pull_request": "pr create", "update_pull_request": "pr edit", "create_pull_request_review": "pr review",
	"create_and_submit_pull_request_review": "pr review", "create_pending_pull_request_review": "pr review",
	"submit_pending_pull_request_review": "pr review", "add_comment_to_pending_review": "pr review",
	"add_pull_request_review_comment": "pr review", "add_pull_request_review_comment_to_pending_review": "pr review",
	"request_copilot_review": "pr edit", "update_pull_request_branch": "pr update-branch",
	"create_issue": "issue create", "update_issue": "issue edit", "add_issue_comment": "issue comment",
	"add_sub_issue": "issue edit", "reprioritize_sub_issue": "issue edit", "fork_repository": "repo fork",
	"create_repository": "repo create",
	// GitLab
	"create_merge_request": "mr create", "update_merge_request": "mr update",
	"create_note": "issue note", "create_issue_note": "issue note", "update_issue_note": "issue note",
	"create_merge_request_note": "mr note", "create_merge_request_thread": "mr note", "create_draft_note": "mr note",
}

// mcpForgeNumbers: arguments that name the pull request, issue or merge
// request (the CLI's operand).
var mcpForgeNumbers = []string{"pull_number", "pullNumber", "issue_number", "issueNumber", "merge_request_iid",
	"mergeRequestIid", "issue_iid", "issueIid", "number", "iid"}

// mcpForgeText: arguments carried as the CLI's text flags, so the shell
// rules see what a body or title holds.
var mcpForgeText = map[string]string{"title": "--title", "body": "--body", "description": "--body", "comment": "--body"}

func mcpForge(server, tool, args, cwd, home string) (Finding, bool) {
	ls := strings.ToLower(server)
	cli := ""
	switch {
	case strings.Contains(ls, "github"):
		cli = "gh"
	case strings.Contains(ls, "gitlab"):
		cli = "glab"
	default:
		return Finding{}, false
	}
	lt := strings.ToLower(tool)
	if lt == "create_branch" {
		// A new branch from another: the API refuses a name that exists,
		// so nothing is overwritten (git push of a new branch).
		if b, _ := mcpArgsMap(args); b != nil {
			if name, _ := b["branch"].(string); name != "" {
				return Finding{Risk: 0, Rule: "mcp.forge", Reason: "the " + server + " MCP tool creates the new branch " + name + " (an existing branch is refused, not overwritten)"}, true
			}
		}
		return Finding{}, false
	}
	verb, ok := mcpForgeTools[lt]
	if !ok {
		return Finding{}, false
	}
	if cli == "gh" && (strings.HasPrefix(verb, "mr ") || verb == "issue note") || cli == "glab" && strings.HasPrefix(verb, "pr ") {
		return Finding{}, false // the other forge's tool name: its twin is not certain
	}
	in, ok := mcpArgsMap(args)
	if !ok {
		return Finding{}, false
	}
	words := append([]string{cli}, strings.Fields(verb)...)
	for _, k := range mcpForgeNumbers {
		if v, ok := in[k]; ok {
			words = append(words, shellQuote(fmt.Sprint(v)))
			break
		}
	}
	if verb == "repo create" {
		// A new repository is public unless the call says private: the
		// GitHub API's default, and gh's --public is the one that asks.
		name, _ := in["name"].(string)
		if name == "" {
			return Finding{}, false
		}
		words = append(words, shellQuote(name))
		if private, _ := in["private"].(bool); private {
			words = append(words, "--private")
		} else if vis, _ := in["visibility"].(string); vis == "private" || vis == "internal" {
			words = append(words, "--"+vis)
		} else {
			words = append(words, "--public")
		}
	}
	for _, k := range sortedKeys(in) {
		if flag, ok := mcpForgeText[k]; ok {
			if s, ok := in[k].(string); ok {
				words = append(words, flag, shellQuote(s))
			}
		}
	}
	line := strings.Join(words, " ")
	return mcpAsLine(line, cwd, home, "the "+server+" MCP tool does what `"+strings.Join(words[:min(len(words), 4)], " ")+"` does: ", "mcp.forge", false)
}
