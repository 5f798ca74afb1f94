package rules

// Publishing: anything that ships code or artifacts to a public or shared
// registry is confirm (it cannot really be taken back); unpublishing and
// deleting repositories is block. Dry runs are allowed.

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

func init() {
	on(rulePublishJS, "npm", "yarn", "pnpm", "bun")
	on(ruleCargoPublish, "cargo")
	on(ruleTwine, "twine", "flit", "hatch", "pdm", "uv", "poetry", "maturin")
	on(ruleGem, "gem")
	on(ruleGh, "gh", "glab")
	on(ruleMvnPublish, "mvn", "mvnw", "gradle", "gradlew", "sbt", "lein")
	on(ruleDotnetPublish, "dotnet", "nuget")
	on(rulePublishMisc, "vsce", "ovsx", "lerna", "changeset", "semantic-release", "goreleaser", "pod", "jfrog", "jf", "release-it", "np")
	on(ruleMixPublish, "mix")
}

func pkDry(c *shell.Cmd) bool {
	return pkDryFlag(c, nil, "--dry-run", "--dryrun", "--snapshot", "--skip-publish") || pkHas(c, "-n") && c.Name == "cargo"
}

func rulePublishJS(c *shell.Cmd, x *Ctx) (Finding, bool) {
	pos := pkPos(c.Args, pkVFPublish1)
	if len(pos) == 0 {
		return Finding{}, false
	}
	v := strings.ToLower(pos[0])
	if (c.Name == "yarn" || c.Name == "bun") && v == "npm" && len(pos) > 1 {
		v = strings.ToLower(pos[1])
	}
	switch v {
	case "publish":
		if pkDry(c) {
			return pkAllow(c, 0, "publish.dry-run", "dry run: nothing is published")
		}
		return pkRet(c, 2, 0.3, "publish."+c.Name, "publishes a package to a registry; it cannot really be taken back")
	case "unpublish":
		return pkRet(c, 2.7, 0.5, "publish.unpublish", "removes a published package that others may depend on")
	case "deprecate", "undeprecate":
		return pkRet(c, 2, 0.3, "publish.deprecate", "marks published versions deprecated for every user")
	case "dist-tag", "owner", "access", "team", "org", "hook", "token":
		if len(pos) > 1 {
			switch strings.ToLower(pos[1]) {
			case "ls", "list":
				return pkAllow(c, 0, "publish.read", "lists registry settings")
			}
		}
		if v == "token" && len(pos) > 1 && strings.EqualFold(pos[1], "create") {
			return pkRet(c, 1.8, 0.4, "creds.npm-token", "creates a registry token")
		}
		return pkRet(c, 2, 0.3, "publish.registry-settings", "changes who owns or what users get from a published package")
	}
	return Finding{}, false
}

func ruleCargoPublish(c *shell.Cmd, x *Ctx) (Finding, bool) {
	pos := pkPos(c.Args, pkVFPublish2)
	if len(pos) == 0 {
		return Finding{}, false
	}
	switch strings.ToLower(pos[0]) {
	case "publish":
		if pkDry(c) {
			return pkAllow(c, 0, "publish.dry-run", "dry run: nothing is published")
		}
		return pkRet(c, 2, 0.3, "publish.cargo", "publishes a crate; versions on crates.io are permanent")
	case "yank":
		if c.Flag(0, "--undo") {
			return pkRet(c, 1.5, 0.1, "publish.cargo-unyank", "restores a yanked crate version")
		}
		return pkRet(c, 2.2, 0.3, "publish.cargo-yank", "yanks a published crate version for every user")
	case "owner":
		if c.Flag('a', "--add") || c.Flag('r', "--remove") {
			return pkRet(c, 2, 0.3, "publish.cargo-owner", "changes who may publish the crate")
		}
	}
	return Finding{}, false
}

func ruleTwine(c *shell.Cmd, x *Ctx) (Finding, bool) {
	pos := pkPos(c.Args, pkVFPublish3)
	if len(pos) == 0 {
		return Finding{}, false
	}
	v := strings.ToLower(pos[0])
	if c.Name == "twine" && v == "upload" || v == "publish" {
		if pkDry(c) {
			return pkAllow(c, 0, "publish.dry-run", "dry run: nothing is published")
		}
		return pkRet(c, 2, 0.3, "publish."+c.Name, "uploads a package to a registry; versions are permanent")
	}
	if c.Name == "twine" {
		return pkAllow(c, 0, "publish.twine-check", "checks distributions")
	}
	return Finding{}, false
}

func ruleGem(c *shell.Cmd, x *Ctx) (Finding, bool) {
	ops := pkLowOps(c)
	if len(ops) == 0 {
		return pkAllow(c, 0, "dev.gem", "shows usage")
	}
	switch ops[0] {
	case "push":
		return pkRet(c, 2, 0.3, "publish.gem", "publishes a gem to a registry")
	case "yank":
		return pkRet(c, 2.2, 0.3, "publish.gem-yank", "removes a published gem version for every user")
	case "owner":
		return pkRet(c, 2, 0.3, "publish.gem-owner", "changes who may publish the gem")
	case "uninstall", "cleanup":
		return pkAllow(c, 1, "dev.gem-uninstall", "removes installed gems")
	}
	return pkAllow(c, 1, "dev.gem", "installs or inspects gems")
}

func ruleGh(c *shell.Cmd, x *Ctx) (Finding, bool) {
	pos := pkPos(c.Args, pkVFPublish4)
	if len(pos) == 0 {
		return pkAllow(c, 0, "gh.help", "shows usage")
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
			return pkRet(c, 3, 0.8, "publish.gh-repo-delete", "deletes a repository with its issues, PRs and history")
		case "archive":
			return pkRet(c, 2.2, 0.3, "publish.gh-repo-archive", "archives a repository (read-only for everyone)")
		case "rename", "transfer":
			return pkRet(c, 2, 0.3, "publish.gh-repo-"+verb, "renames or moves a shared repository")
		case "edit":
			if v, ok := pkVal(c, "--visibility"); ok && strings.EqualFold(v, "public") {
				return pkRet(c, 2.3, 0.6, "publish.gh-repo-public", "makes a repository public")
			}
			return pkRet(c, 1.5, 0.2, "publish.gh-repo-edit", "changes repository settings")
		case "create":
			if c.Flag(0, "--public") {
				return pkRet(c, 1.5, 0.3, "publish.gh-repo-public", "creates a public repository (code becomes visible)")
			}
			return pkAllow(c, 1, "gh.repo-create", "creates a repository")
		case "sync":
			if c.Flag(0, "--force") {
				return pkRet(c, 2.3, 0.5, "publish.gh-repo-sync-force", "force-syncs a repository, overwriting its branch")
			}
		case "deploy-key":
			if len(pos) > 2 && strings.EqualFold(pos[2], "add") {
				return pkRet(c, 2, 0.4, "creds.gh-deploy-key", "adds a key that can access the repository")
			}
		}
		return pkAllow(c, 1, "gh.repo", "reads, clones or forks repositories")
	case "release":
		switch verb {
		case "create", "new", "upload", "edit":
			if c.Flag(0, "--draft") && verb == "create" {
				return pkAllow(c, 1, "gh.release-draft", "creates a draft release (not published)")
			}
			return pkRet(c, 2, 0.3, "publish.gh-release", "publishes a release")
		case "delete", "delete-asset":
			return pkRet(c, 2.4, 0.4, "publish.gh-release-delete", "deletes a published release")
		}
		return pkAllow(c, 0, "gh.release-read", "reads or downloads releases")
	case "secret", "variable":
		switch verb {
		case "delete", "remove":
			return pkRet(c, 2, 0.3, "gh.secret-delete", "deletes a CI secret or variable")
		case "set":
			return pkRet(c, 1.5, 0.3, "gh.secret-set", "sets a CI secret")
		}
		return pkAllow(c, 0, "gh.secret-list", "lists secret names")
	case "auth":
		if verb == "token" || c.Flag('t', "--show-token") {
			return pkRet(c, 1.5, 0.5, "creds.gh-token", "prints a GitHub token")
		}
		if verb == "logout" || verb == "refresh" || verb == "login" || verb == "setup-git" || verb == "switch" {
			return pkAllow(c, 1, "gh.auth", "manages the local login")
		}
		return pkAllow(c, 0, "gh.auth-status", "shows login state")
	case "api":
		m, _ := pkVal(c, "-X", "--method")
		switch strings.ToUpper(m) {
		case "DELETE":
			return pkRet(c, 2.3, 0.3, "gh.api-delete", "deletes something through the GitHub API")
		case "POST", "PUT", "PATCH":
			return pkRet(c, 1.5, 0.1, "gh.api-write", "changes something through the GitHub API")
		}
		if len(pos) > 1 && strings.EqualFold(pos[1], "graphql") {
			if strings.Contains(strings.ToLower(c.Raw), "mutation") {
				return pkRet(c, 1.5, 0.1, "gh.api-write", "runs a GraphQL mutation on GitHub")
			}
			return pkAllow(c, 0, "gh.api-read", "queries the GitHub GraphQL API")
		}
		if c.Flag('f', "--raw-field", "--field", "--input") || pkHas(c, "-F") {
			return pkRet(c, 1.5, 0.1, "gh.api-write", "changes something through the GitHub API (fields imply POST)")
		}
		return pkAllow(c, 0, "gh.api-read", "reads the GitHub API")
	case "pr", "mr":
		switch verb {
		case "merge":
			if c.Flag(0, "--admin") {
				return pkRet(c, 2, 0.4, "gh.pr-merge-admin", "merges bypassing branch protection")
			}
			return pkAllow(c, 1.2, "gh.pr-merge", "merges a pull request")
		case "close":
			if c.Flag('d', "--delete-branch") {
				return pkAllow(c, 1.2, "gh.pr-close", "closes a pull request and deletes its branch")
			}
		}
		return pkAllow(c, 1, "gh.pr", "works with pull requests")
	case "issue":
		if verb == "delete" {
			return pkRet(c, 2.2, 0.3, "gh.issue-delete", "deletes an issue permanently")
		}
		return pkAllow(c, 1, "gh.issue", "works with issues")
	case "run", "workflow", "cache", "ci", "pipeline", "schedule":
		if verb == "disable" {
			return pkRet(c, 1.6, 0.2, "gh."+grp+"-disable", "disables a CI workflow: its checks and deploys stop running")
		}
		if verb == "delete" || verb == "cancel" && grp == "pipeline" {
			return pkRet(c, 1.5, 0.1, "gh."+grp+"-delete", "deletes CI runs or caches")
		}
		if verb == "run" && grp == "workflow" {
			return pkRet(c, 1.5, 0.2, "gh.workflow-run", "starts a CI workflow (may deploy)")
		}
		return pkAllow(c, 1, "gh."+grp, "works with CI runs")
	case "gist":
		if verb == "delete" {
			return pkRet(c, 2, 0.2, "gh.gist-delete", "deletes a gist")
		}
		if verb == "create" || verb == "new" {
			if c.Flag('p', "--public") {
				return pkRet(c, 1.5, 0.3, "publish.gist-public", "publishes files as a public gist")
			}
			return pkAllow(c, 1, "gh.gist-create", "uploads files as a secret gist")
		}
		return pkAllow(c, 0, "gh.gist", "reads gists")
	case "ssh-key", "gpg-key":
		if verb == "add" || verb == "delete" {
			return pkRet(c, 2, 0.4, "creds.gh-key", "changes the keys that can act as this account")
		}
		return pkAllow(c, 0, "gh.key-list", "lists keys")
	case "extension", "ext":
		if verb == "install" {
			return pkUnsure(c, 1, "gh.extension-install", "installs a third-party gh extension")
		}
	case "label":
		if verb == "delete" {
			return pkRet(c, 1.5, 0.1, "gh.label-delete", "deletes a label from every issue")
		}
	}
	_ = yes
	return pkAllow(c, 0, "gh.read", "reads GitHub state")
}

func ruleMvnPublish(c *shell.Cmd, x *Ctx) (Finding, bool) {
	for _, o := range c.Operands() {
		lo := strings.ToLower(o)
		switch {
		case lo == "deploy" && (c.Name == "mvn" || c.Name == "mvnw"), lo == "deploy:deploy", lo == "deploy:deploy-file", strings.HasPrefix(lo, "release:perform"),
			lo == "publish" || strings.HasPrefix(lo, "publishto") && !strings.Contains(lo, "mavenlocal") || strings.HasSuffix(lo, ":publish") || lo == "uploadarchives" || lo == "publishplugins" || lo == "publishsigned" || lo == "+publish" || lo == "+publishsigned" || lo == "deploy" && c.Name == "lein" || lo == "jib" || strings.HasSuffix(lo, ":jib") || lo == "closeandreleasesonatypestagingrepository" || lo == "closeandreleasestagingrepositories":
			return pkRet(c, 2, 0.3, "publish."+c.Name, "publishes artifacts to a shared repository")
		}
	}
	return Finding{}, false
}

func ruleDotnetPublish(c *shell.Cmd, x *Ctx) (Finding, bool) {
	ops := pkLowOps(c)
	if c.Name == "dotnet" {
		if len(ops) >= 2 && ops[0] == "nuget" {
			ops = ops[1:]
		} else {
			return Finding{}, false
		}
	}
	if len(ops) == 0 {
		return Finding{}, false
	}
	switch ops[0] {
	case "push":
		return pkRet(c, 2, 0.3, "publish.nuget", "publishes a package to a feed")
	case "delete":
		return pkRet(c, 2.6, 0.5, "publish.nuget-delete", "removes a published package")
	}
	return Finding{}, false
}

func rulePublishMisc(c *shell.Cmd, x *Ctx) (Finding, bool) {
	ops := pkLowOps(c)
	switch c.Name {
	case "vsce", "ovsx":
		if len(ops) > 0 && ops[0] == "unpublish" {
			return pkRet(c, 2.7, 0.5, "publish.unpublish", "removes a published extension")
		}
		if len(ops) > 0 && ops[0] == "publish" {
			return pkRet(c, 2, 0.3, "publish."+c.Name, "publishes an extension")
		}
		return pkAllow(c, 0, "dev."+c.Name, "packages or inspects an extension")
	case "lerna", "changeset":
		if len(ops) > 0 && (ops[0] == "publish" || c.Name == "changeset" && ops[0] == "publish") {
			if pkDry(c) {
				return pkAllow(c, 0, "publish.dry-run", "dry run")
			}
			return pkRet(c, 2, 0.3, "publish."+c.Name, "publishes packages to a registry")
		}
		return pkAllow(c, 1, "dev."+c.Name, "monorepo tooling")
	case "semantic-release", "release-it", "np":
		if pkDry(c) || c.Flag('d', "--dry-run") {
			return pkAllow(c, 0, "publish.dry-run", "dry run")
		}
		return pkRet(c, 2, 0.3, "publish."+c.Name, "cuts and publishes a release")
	case "goreleaser":
		if len(ops) > 0 && (ops[0] == "check" || ops[0] == "build" || ops[0] == "init" || ops[0] == "healthcheck") || pkDry(c) {
			return pkAllow(c, 1, "dev.goreleaser", "builds locally")
		}
		return pkRet(c, 2, 0.3, "publish.goreleaser", "publishes a release")
	case "pod":
		if len(ops) >= 2 && ops[0] == "trunk" && (ops[1] == "push" || ops[1] == "delete" || ops[1] == "deprecate") {
			return pkRet(c, 2, 0.3, "publish.pod", "publishes or removes a pod")
		}
		return pkAllow(c, 1, "dev.pod", "installs pods")
	case "jfrog", "jf":
		for _, o := range ops {
			if o == "upload" || o == "u" || o == "delete" || o == "del" || o == "publish" || o == "bp" || o == "build-publish" || o == "dp" || o == "docker-push" {
				return pkRet(c, 2, 0.3, "publish.jfrog", "uploads to or deletes from a shared repository")
			}
		}
		return pkAllow(c, 1, "dev.jfrog", "artifactory tooling")
	}
	return Finding{}, false
}

func ruleMixPublish(c *shell.Cmd, x *Ctx) (Finding, bool) {
	ops := pkLowOps(c)
	if len(ops) > 0 {
		switch ops[0] {
		case "hex.publish":
			return pkRet(c, 2, 0.3, "publish.hex", "publishes a package to Hex")
		case "hex.retire", "hex.revert":
			return pkRet(c, 2.2, 0.3, "publish.hex-retire", "retires or reverts a published version")
		case "ecto.drop":
			return pkRet(c, 2.9, 0.7, "db.ecto-drop", "drops the database")
		case "ecto.reset":
			return pkRet(c, 2.4, 0.4, "db.ecto-reset", "drops and recreates the database")
		case "ecto.rollback":
			return pkRet(c, 1.8, 0.2, "db.rollback", "rolls back migrations")
		}
	}
	return pkAllow(c, 1, "dev.mix", "Elixir build tool")
}

// Flag sets hoisted out of the rules (built once, not per command).
var (
	pkVFPublish1 = pkSet("--registry", "--tag", "--access", "--otp", "-w", "--workspace", "--filter", "-F", "--prefix", "-C", "--cwd", "--dir")
	pkVFPublish2 = pkSet("-p", "--package", "--token", "--registry", "--index", "--manifest-path", "--vers", "--version")
	pkVFPublish3 = pkSet("-r", "--repository", "--repository-url", "-u", "--username", "-p", "--password", "--index", "--token", "--publish-url", "--username", "--build")
	pkVFPublish4 = pkSet("-R", "--repo", "-t", "--title", "-b", "--body", "-F", "--body-file", "-n", "--notes", "--notes-file", "-L", "--limit", "-q", "--jq", "-X", "--method", "-f", "--raw-field", "--field", "-H", "--header", "--template", "-s", "--state", "-l", "--label", "-a", "--assignee", "-B", "--base", "--head", "-w", "--workflow", "-b", "--branch", "--target", "-r", "--ref", "--json", "-e", "--env", "-o", "--org", "-d", "--description", "--visibility", "--hostname", "-p", "--pattern", "-D", "--dir", "-u", "--user", "--milestone", "--reviewer", "--author", "--search", "-S")
)
