package publish

// Publishing: anything that ships code or artifacts to a public or shared
// registry is confirm (it cannot really be taken back); unpublishing and
// deleting repositories is block. Dry runs are allowed.

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

func init() {
	pack.On(rulePublishJS, "npm", "yarn", "pnpm", "bun")
	pack.On(ruleCargoPublish, "cargo")
	pack.On(ruleTwine, "twine", "flit", "hatch", "pdm", "uv", "poetry", "maturin")
	pack.On(ruleGem, "gem")
	pack.On(ruleGh, "gh", "glab")
	pack.On(ruleMvnPublish, "mvn", "mvnw", "gradle", "gradlew", "sbt", "lein")
	pack.On(ruleDotnetPublish, "dotnet", "nuget")
	pack.On(rulePublishMisc, "vsce", "ovsx", "lerna", "changeset", "semantic-release", "goreleaser", "pod", "jfrog", "jf", "release-it", "np")
	pack.On(ruleMixPublish, "mix")
}

func pkDry(c *shell.Cmd) bool {
	return rules.PkDryFlag(c, nil, "--dry-run", "--dryrun", "--snapshot", "--skip-publish") || rules.PkHas(c, "-n") && c.Name == "cargo"
}

func rulePublishJS(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	pos := rules.PkPos(c.Args, pkVFPublish1)
	if len(pos) == 0 {
		return rules.Finding{}, false
	}
	v := strings.ToLower(pos[0])
	if (c.Name == "yarn" || c.Name == "bun") && v == "npm" && len(pos) > 1 {
		v = strings.ToLower(pos[1])
	}
	switch v {
	case "publish":
		if pkDry(c) {
			return rules.PkAllow(c, 0, "publish.dry-run", "dry run: nothing is published")
		}
		return rules.PkRet(c, 2, 0.3, "publish."+c.Name, "publishes a package to a registry; it cannot really be taken back")
	case "unpublish":
		return rules.PkRet(c, 2.7, 0.5, "publish.unpublish", "removes a published package that others may depend on")
	case "deprecate", "undeprecate":
		return rules.PkRet(c, 2, 0.3, "publish.deprecate", "marks published versions deprecated for every user")
	case "dist-tag", "owner", "access", "team", "org", "hook", "token":
		if len(pos) > 1 {
			switch strings.ToLower(pos[1]) {
			case "ls", "list":
				return rules.PkAllow(c, 0, "publish.read", "lists registry settings")
			}
		}
		if v == "token" && len(pos) > 1 && strings.EqualFold(pos[1], "create") {
			return rules.PkRet(c, 1.8, 0.4, "creds.npm-token", "creates a registry token")
		}
		return rules.PkRet(c, 2, 0.3, "publish.registry-settings", "changes who owns or what users get from a published package")
	}
	return rules.Finding{}, false
}

func ruleCargoPublish(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	pos := rules.PkPos(c.Args, pkVFPublish2)
	if len(pos) == 0 {
		return rules.Finding{}, false
	}
	switch strings.ToLower(pos[0]) {
	case "publish":
		if pkDry(c) {
			return rules.PkAllow(c, 0, "publish.dry-run", "dry run: nothing is published")
		}
		return rules.PkRet(c, 2, 0.3, "publish.cargo", "publishes a crate; versions on crates.io are permanent")
	case "yank":
		if c.Flag(0, "--undo") {
			return rules.PkRet(c, 1.5, 0.1, "publish.cargo-unyank", "restores a yanked crate version")
		}
		return rules.PkRet(c, 2.2, 0.3, "publish.cargo-yank", "yanks a published crate version for every user")
	case "owner":
		if c.Flag('a', "--add") || c.Flag('r', "--remove") {
			return rules.PkRet(c, 2, 0.3, "publish.cargo-owner", "changes who may publish the crate")
		}
	}
	return rules.Finding{}, false
}

func ruleTwine(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	pos := rules.PkPos(c.Args, pkVFPublish3)
	if len(pos) == 0 {
		return rules.Finding{}, false
	}
	v := strings.ToLower(pos[0])
	if c.Name == "twine" && v == "upload" || v == "publish" {
		if pkDry(c) {
			return rules.PkAllow(c, 0, "publish.dry-run", "dry run: nothing is published")
		}
		return rules.PkRet(c, 2, 0.3, "publish."+c.Name, "uploads a package to a registry; versions are permanent")
	}
	if c.Name == "twine" {
		return rules.PkAllow(c, 0, "publish.twine-check", "checks distributions")
	}
	return rules.Finding{}, false
}

func ruleGem(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	if len(ops) == 0 {
		return rules.PkAllow(c, 0, "dev.gem", "shows usage")
	}
	switch ops[0] {
	case "push":
		return rules.PkRet(c, 2, 0.3, "publish.gem", "publishes a gem to a registry")
	case "yank":
		return rules.PkRet(c, 2.2, 0.3, "publish.gem-yank", "removes a published gem version for every user")
	case "owner":
		return rules.PkRet(c, 2, 0.3, "publish.gem-owner", "changes who may publish the gem")
	case "uninstall", "cleanup":
		return rules.PkAllow(c, 1, "dev.gem-uninstall", "removes installed gems")
	}
	return rules.PkAllow(c, 1, "dev.gem", "installs or inspects gems")
}

func ruleGh(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	pos := rules.PkPos(c.Args, pkVFPublish4)
	if len(pos) == 0 {
		return rules.PkAllow(c, 0, "gh.help", "shows usage")
	}
	grp := strings.ToLower(pos[0])
	verb := ""
	if len(pos) > 1 {
		verb = strings.ToLower(pos[1])
	}
	yes := c.Flag('y', "--yes", "--confirm")
	switch grp {
	case "repo", "project":
		switch verb {
		case "delete":
			return rules.PkRet(c, 3, 0.8, "publish.gh-repo-delete", "deletes a repository with its issues, PRs and history")
		case "archive":
			return rules.PkRet(c, 2.2, 0.3, "publish.gh-repo-archive", "archives a repository (read-only for everyone)")
		case "rename", "transfer":
			return rules.PkRet(c, 2, 0.3, "publish.gh-repo-"+verb, "renames or moves a shared repository")
		case "edit":
			if v, ok := rules.PkVal(c, "--visibility"); ok && strings.EqualFold(v, "public") {
				return rules.PkRet(c, 2.3, 0.6, "publish.gh-repo-public", "makes a repository public")
			}
			return rules.PkRet(c, 1.5, 0.2, "publish.gh-repo-edit", "changes repository settings")
		case "create":
			if c.Flag(0, "--public") {
				return rules.PkRet(c, 1.5, 0.3, "publish.gh-repo-public", "creates a public repository (code becomes visible)")
			}
			return rules.PkAllow(c, 1, "gh.repo-create", "creates a repository")
		case "sync":
			if c.Flag(0, "--force") {
				return rules.PkRet(c, 2.3, 0.5, "publish.gh-repo-sync-force", "force-syncs a repository, overwriting its branch")
			}
		case "deploy-key":
			if len(pos) > 2 && strings.EqualFold(pos[2], "add") {
				return rules.PkRet(c, 2, 0.4, "creds.gh-deploy-key", "adds a key that can access the repository")
			}
		}
		return rules.PkAllow(c, 1, "gh.repo", "reads, clones or forks repositories")
	case "release":
		switch verb {
		case "create", "new", "upload", "edit":
			if c.Flag(0, "--draft") && verb == "create" {
				return rules.PkAllow(c, 1, "gh.release-draft", "creates a draft release (not published)")
			}
			return rules.PkRet(c, 2, 0.3, "publish.gh-release", "publishes a release")
		case "delete", "delete-asset":
			return rules.PkRet(c, 2.4, 0.4, "publish.gh-release-delete", "deletes a published release")
		}
		return rules.PkAllow(c, 0, "gh.release-read", "reads or downloads releases")
	case "secret", "variable":
		switch verb {
		case "delete", "remove":
			return rules.PkRet(c, 2, 0.3, "gh.secret-delete", "deletes a CI secret or variable")
		case "set":
			return rules.PkRet(c, 1.5, 0.3, "gh.secret-set", "sets a CI secret")
		}
		return rules.PkAllow(c, 0, "gh.secret-list", "lists secret names")
	case "auth":
		if verb == "token" || c.Flag('t', "--show-token") {
			return rules.PkRet(c, 1.5, 0.5, "creds.gh-token", "prints a GitHub token")
		}
		if verb == "logout" || verb == "refresh" || verb == "login" || verb == "setup-git" || verb == "switch" {
			return rules.PkAllow(c, 1, "gh.auth", "manages the local login")
		}
		return rules.PkAllow(c, 0, "gh.auth-status", "shows login state")
	case "api":
		m, _ := rules.PkVal(c, "-X", "--method")
		switch strings.ToUpper(m) {
		case "DELETE":
			for _, p := range pos[1:] {
				// DELETE repos/OWNER/REPO is gh repo delete by its endpoint.
				e := strings.Trim(strings.TrimPrefix(strings.ToLower(p), "https://api.github.com"), "/")
				if r, ok := strings.CutPrefix(e, "repos/"); ok && strings.Count(r, "/") == 1 && !strings.HasSuffix(r, "/") {
					return rules.PkRet(c, 3, 0.8, "publish.gh-repo-delete", "deletes a repository with its issues, PRs and history (DELETE "+p+")")
				}
				// DELETE repos/O/R/git/refs/heads/main is git push --delete main.
				if i := strings.Index(e, "/git/refs/heads/"); i >= 0 && strings.HasPrefix(e, "repos/") {
					switch e[i+len("/git/refs/heads/"):] {
					case "main", "master", "trunk", "develop", "production", "prod", "release":
						return rules.PkRet(c, 2.8, 0.9, "gh.api-delete-branch", "deletes the remote's "+e[i+len("/git/refs/heads/"):]+" branch through the GitHub API, as git push --delete does")
					}
				}
			}
			return rules.PkRet(c, 2.3, 0.3, "gh.api-delete", "deletes something through the GitHub API")
		case "POST", "PUT", "PATCH":
			return rules.PkRet(c, 1.5, 0.1, "gh.api-write", "changes something through the GitHub API")
		}
		if len(pos) > 1 && strings.EqualFold(pos[1], "graphql") {
			if strings.Contains(strings.ToLower(c.Raw), "mutation") {
				return rules.PkRet(c, 1.5, 0.1, "gh.api-write", "runs a GraphQL mutation on GitHub")
			}
			return rules.PkAllow(c, 0, "gh.api-read", "queries the GitHub GraphQL API")
		}
		if c.Flag('f', "--raw-field", "--field", "--input") || rules.PkHas(c, "-F") {
			return rules.PkRet(c, 1.5, 0.1, "gh.api-write", "changes something through the GitHub API (fields imply POST)")
		}
		return rules.PkAllow(c, 0, "gh.api-read", "reads the GitHub API")
	case "pr", "mr":
		switch verb {
		case "merge":
			if c.Flag(0, "--admin") {
				return rules.PkRet(c, 2, 0.4, "gh.pr-merge-admin", "merges bypassing branch protection")
			}
			return rules.PkAllow(c, 1.2, "gh.pr-merge", "merges a pull request")
		case "close":
			if c.Flag('d', "--delete-branch") {
				return rules.PkAllow(c, 1.2, "gh.pr-close", "closes a pull request and deletes its branch")
			}
		}
		return rules.PkAllow(c, 1, "gh.pr", "works with pull requests")
	case "issue":
		if verb == "delete" {
			return rules.PkRet(c, 2.2, 0.3, "gh.issue-delete", "deletes an issue permanently")
		}
		return rules.PkAllow(c, 1, "gh.issue", "works with issues")
	case "run", "workflow", "cache", "ci", "pipeline", "schedule":
		if verb == "disable" {
			return rules.PkRet(c, 1.6, 0.2, "gh."+grp+"-disable", "disables a CI workflow: its checks and deploys stop running")
		}
		if verb == "delete" || verb == "cancel" && grp == "pipeline" {
			return rules.PkRet(c, 1.5, 0.1, "gh."+grp+"-delete", "deletes CI runs or caches")
		}
		if verb == "run" && grp == "workflow" {
			return rules.PkRet(c, 1.5, 0.2, "gh.workflow-run", "starts a CI workflow (may deploy)")
		}
		return rules.PkAllow(c, 1, "gh."+grp, "works with CI runs")
	case "gist":
		if verb == "delete" {
			return rules.PkRet(c, 2, 0.2, "gh.gist-delete", "deletes a gist")
		}
		if verb == "create" || verb == "new" {
			if c.Flag('p', "--public") {
				return rules.PkRet(c, 1.5, 0.3, "publish.gist-public", "publishes files as a public gist")
			}
			return rules.PkAllow(c, 1, "gh.gist-create", "uploads files as a secret gist")
		}
		return rules.PkAllow(c, 0, "gh.gist", "reads gists")
	case "ssh-key", "gpg-key":
		if verb == "add" || verb == "delete" {
			return rules.PkRet(c, 2, 0.4, "creds.gh-key", "changes the keys that can act as this account")
		}
		return rules.PkAllow(c, 0, "gh.key-list", "lists keys")
	case "extension", "ext":
		if verb == "install" {
			return rules.PkUnsure(c, 1, "gh.extension-install", "installs a third-party gh extension")
		}
	case "label":
		if verb == "delete" {
			return rules.PkRet(c, 1.5, 0.1, "gh.label-delete", "deletes a label from every issue")
		}
	}
	_ = yes
	return rules.PkAllow(c, 0, "gh.read", "reads GitHub state")
}

func ruleMvnPublish(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	for _, o := range c.Operands() {
		lo := strings.ToLower(o)
		switch {
		case lo == "deploy" && (c.Name == "mvn" || c.Name == "mvnw"), lo == "deploy:deploy", lo == "deploy:deploy-file", strings.HasPrefix(lo, "release:perform"),
			lo == "publish" || strings.HasPrefix(lo, "publishto") && !strings.Contains(lo, "mavenlocal") || strings.HasSuffix(lo, ":publish") || lo == "uploadarchives" || lo == "publishplugins" || lo == "publishsigned" || lo == "+publish" || lo == "+publishsigned" || lo == "deploy" && c.Name == "lein" || lo == "jib" || strings.HasSuffix(lo, ":jib") || lo == "closeandreleasesonatypestagingrepository" || lo == "closeandreleasestagingrepositories":
			return rules.PkRet(c, 2, 0.3, "publish."+c.Name, "publishes artifacts to a shared repository")
		}
	}
	return rules.Finding{}, false
}

func ruleDotnetPublish(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	if c.Name == "dotnet" {
		if len(ops) >= 2 && ops[0] == "nuget" {
			ops = ops[1:]
		} else {
			return rules.Finding{}, false
		}
	}
	if len(ops) == 0 {
		return rules.Finding{}, false
	}
	switch ops[0] {
	case "push":
		return rules.PkRet(c, 2, 0.3, "publish.nuget", "publishes a package to a feed")
	case "delete":
		return rules.PkRet(c, 2.6, 0.5, "publish.nuget-delete", "removes a published package")
	}
	return rules.Finding{}, false
}

func rulePublishMisc(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	switch c.Name {
	case "vsce", "ovsx":
		if len(ops) > 0 && ops[0] == "unpublish" {
			return rules.PkRet(c, 2.7, 0.5, "publish.unpublish", "removes a published extension")
		}
		if len(ops) > 0 && ops[0] == "publish" {
			return rules.PkRet(c, 2, 0.3, "publish."+c.Name, "publishes an extension")
		}
		return rules.PkAllow(c, 0, "dev."+c.Name, "packages or inspects an extension")
	case "lerna", "changeset":
		if len(ops) > 0 && (ops[0] == "publish" || c.Name == "changeset" && ops[0] == "publish") {
			if pkDry(c) {
				return rules.PkAllow(c, 0, "publish.dry-run", "dry run")
			}
			return rules.PkRet(c, 2, 0.3, "publish."+c.Name, "publishes packages to a registry")
		}
		return rules.PkAllow(c, 1, "dev."+c.Name, "monorepo tooling")
	case "semantic-release", "release-it", "np":
		if pkDry(c) || c.Flag('d', "--dry-run") {
			return rules.PkAllow(c, 0, "publish.dry-run", "dry run")
		}
		return rules.PkRet(c, 2, 0.3, "publish."+c.Name, "cuts and publishes a release")
	case "goreleaser":
		if len(ops) > 0 && (ops[0] == "check" || ops[0] == "build" || ops[0] == "init" || ops[0] == "healthcheck") || pkDry(c) {
			return rules.PkAllow(c, 1, "dev.goreleaser", "builds locally")
		}
		return rules.PkRet(c, 2, 0.3, "publish.goreleaser", "publishes a release")
	case "pod":
		if len(ops) >= 2 && ops[0] == "trunk" && (ops[1] == "push" || ops[1] == "delete" || ops[1] == "deprecate") {
			return rules.PkRet(c, 2, 0.3, "publish.pod", "publishes or removes a pod")
		}
		return rules.PkAllow(c, 1, "dev.pod", "installs pods")
	case "jfrog", "jf":
		for _, o := range ops {
			if o == "upload" || o == "u" || o == "delete" || o == "del" || o == "publish" || o == "bp" || o == "build-publish" || o == "dp" || o == "docker-push" {
				return rules.PkRet(c, 2, 0.3, "publish.jfrog", "uploads to or deletes from a shared repository")
			}
		}
		return rules.PkAllow(c, 1, "dev.jfrog", "artifactory tooling")
	}
	return rules.Finding{}, false
}

func ruleMixPublish(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	ops := rules.PkLowOps(c)
	if len(ops) > 0 {
		switch ops[0] {
		case "hex.publish":
			return rules.PkRet(c, 2, 0.3, "publish.hex", "publishes a package to Hex")
		case "hex.retire", "hex.revert":
			return rules.PkRet(c, 2.2, 0.3, "publish.hex-retire", "retires or reverts a published version")
		case "ecto.drop":
			return rules.PkRet(c, 2.9, 0.7, "db.ecto-drop", "drops the database")
		case "ecto.reset":
			return rules.PkRet(c, 2.4, 0.4, "db.ecto-reset", "drops and recreates the database")
		case "ecto.rollback":
			return rules.PkRet(c, 1.8, 0.2, "db.rollback", "rolls back migrations")
		}
	}
	return rules.PkAllow(c, 1, "dev.mix", "Elixir build tool")
}

// Flag sets hoisted out of the rules (built once, not per command).
var (
	pkVFPublish1 = rules.PkSet("--registry", "--tag", "--access", "--otp", "-w", "--workspace", "--filter", "-F", "--prefix", "-C", "--cwd", "--dir")
	pkVFPublish2 = rules.PkSet("-p", "--package", "--token", "--registry", "--index", "--manifest-path", "--vers", "--version")
	pkVFPublish3 = rules.PkSet("-r", "--repository", "--repository-url", "-u", "--username", "-p", "--password", "--index", "--token", "--publish-url", "--username", "--build")
	pkVFPublish4 = rules.PkSet("-R", "--repo", "-t", "--title", "-b", "--body", "-F", "--body-file", "-n", "--notes", "--notes-file", "-L", "--limit", "-q", "--jq", "-X", "--method", "-f", "--raw-field", "--field", "-H", "--header", "--template", "-s", "--state", "-l", "--label", "-a", "--assignee", "-B", "--base", "--head", "-w", "--workflow", "-b", "--branch", "--target", "-r", "--ref", "--json", "-e", "--env", "-o", "--org", "-d", "--description", "--visibility", "--hostname", "-p", "--pattern", "-D", "--dir", "-u", "--user", "--milestone", "--reviewer", "--author", "--search", "-S")
)
