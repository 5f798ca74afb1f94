package judge

import (
	"encoding/json"
	"path"
	"slices"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/rules"
)

// ciKeys are the YAML keys whose values a CI runner executes as shell
// code: GitHub/Gitea Actions' run:, GitLab's script lists, CircleCI's
// command:, Azure's script:/bash:, Travis' install:.
var ciKeys = map[string]bool{"run": true, "script": true, "before_script": true, "after_script": true,
	"command": true, "bash": true, "pwsh": true, "powershell": true, "install": true, "before_install": true}

// ciScripts returns the shell code a CI workflow file runs, one command
// block per entry, read from the YAML text by indentation (so a file cut
// at 2 KB or not quite valid still gives what it has): `run: cmd`, `run:
// |` and the lines indented under it, `script:` and its `- cmd` items.
func ciScripts(content string) string {
	out := yamlKeyValues(content, func(k string) bool { return ciKeys[k] }, func(nt string) string {
		if item, ok := strings.CutPrefix(nt, "- "); ok {
			nt = unquoteYAML(strings.TrimSpace(item))
		}
		if nt = strings.TrimSpace(nt); strings.HasPrefix(nt, "#") {
			return ""
		}
		return nt
	})
	return ghaExprs(strings.Join(out, "\n"))
}

// yamlKeyValues reads YAML text by indentation (a file cut short or not
// quite valid still gives what it has): for each key isKey accepts, its
// scalar value, or each line indented under it (a block or a list) as
// item makes it ("" drops the line).
func yamlKeyValues(content string, isKey func(string) bool, item func(string) string) []string {
	lines := strings.Split(strings.ReplaceAll(content, "\r\n", "\n"), "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		t := strings.TrimLeft(lines[i], " ")
		indent := len(lines[i]) - len(t)
		key, val, ok := strings.Cut(strings.TrimPrefix(t, "- "), ":")
		if !ok || !isKey(strings.TrimSpace(key)) {
			continue
		}
		if val = strings.TrimSpace(val); val != "" && !strings.HasPrefix(val, "|") && !strings.HasPrefix(val, ">") {
			out = append(out, unquoteYAML(val))
			continue
		}
		for i+1 < len(lines) {
			n := lines[i+1]
			nt := strings.TrimLeft(n, " ")
			if strings.TrimSpace(n) != "" && len(n)-len(nt) <= indent {
				break
			}
			i++
			if v := item(nt); v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// ghaExprs replaces the runner's ${{ expr }} templates, which bash could
// not parse, by variables: one holding a secret when the expression
// reads secrets (so `curl -d ${{ secrets.KEY }}` is a secret sent out).
func ghaExprs(code string) string {
	var b strings.Builder
	for {
		i := strings.Index(code, "${{")
		if i < 0 {
			break
		}
		j := strings.Index(code[i:], "}}")
		if j < 0 {
			break
		}
		b.WriteString(code[:i])
		if e := code[i : i+j]; strings.Contains(e, "secrets.") || strings.Contains(e, "(secrets)") || strings.Contains(e, "secrets[") {
			b.WriteString("${CI_SECRET_TOKEN}")
		} else {
			b.WriteString("${CI_EXPR}")
		}
		code = code[i+j+2:]
	}
	b.WriteString(code)
	return b.String()
}

// unquoteYAML strips the quotes of a one-line YAML scalar.
func unquoteYAML(v string) string {
	if len(v) >= 2 && (v[0] == '"' && v[len(v)-1] == '"' || v[0] == '\'' && v[len(v)-1] == '\'') {
		return v[1 : len(v)-1]
	}
	return v
}

// ciFile: a CI workflow file, whose run steps execute on a CI runner.
func ciFile(p string) bool {
	low := strings.ToLower(strings.ReplaceAll(p, "\\", "/"))
	base := path.Base(low)
	return (strings.HasSuffix(low, ".yml") || strings.HasSuffix(low, ".yaml")) && (strings.Contains(low, ".github/workflows/") ||
		strings.Contains(low, ".gitea/workflows/") || strings.Contains(low, ".forgejo/workflows/") || base == ".gitlab-ci.yml" ||
		strings.Contains(low, ".circleci/") || base == "azure-pipelines.yml" || base == "bitbucket-pipelines.yml" || base == ".travis.yml")
}

// ciWorth: what a workflow's step is asked about. A CI runner is a
// throwaway machine whose job is to build, publish and deploy (npm
// publish, docker push, a force-push to gh-pages, curl | sh installers
// are its everyday work); what matters there is the secrets it holds
// leaving for somewhere else.
//
// A CI workflow's step may also reach past the runner: the cloud account,
// cluster or hosting its credentials open. A step that would block as a
// command there (terraform destroy -auto-approve, aws s3 rm --recursive,
// kubectl delete ns, a backup deleted) destroys real services on every
// run of the workflow, so the write is asked (ciService); a Dockerfile's
// build container is given no such credentials.
func ciWorth(f rules.Finding, ci bool) bool {
	if ci && (f.RedLine || f.Risk >= 2.5) && ciService(f.Rule) {
		return true
	}
	if f.Violation < 0.5 {
		return false
	}
	for _, p := range []string{"creds."} {
		if strings.HasPrefix(f.Rule, p) {
			return true
		}
	}
	return false
}

// dockerFile: a Dockerfile or Containerfile (base name, lower case), whose
// RUN lines a build runs.
func dockerFile(base string) bool {
	return base == "dockerfile" || base == "containerfile" || strings.HasPrefix(base, "dockerfile.") ||
		strings.HasSuffix(base, ".dockerfile") || strings.HasSuffix(base, ".containerfile")
}

// dockerRuns returns a Dockerfile's RUN commands, one per line: the lines
// a backslash continues are joined, RUN's --mount/--network options cut,
// and an exec form ["sh", "-c", "cmd"] read as its words. Like a CI
// runner, a build container is throwaway: what matters there is the
// secrets it is given leaving (ciWorth).
func dockerRuns(content string) string {
	lines := strings.Split(strings.ReplaceAll(content, "\r\n", "\n"), "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		t := strings.TrimSpace(lines[i])
		if len(t) < 4 || !strings.EqualFold(t[:4], "run ") {
			continue
		}
		cmd := strings.TrimSpace(t[4:])
		for strings.HasSuffix(cmd, "\\") && i+1 < len(lines) {
			i++
			cmd = strings.TrimSuffix(cmd, "\\") + " " + strings.TrimSpace(lines[i])
		}
		for strings.HasPrefix(cmd, "--") {
			_, rest, _ := strings.Cut(cmd, " ")
			cmd = strings.TrimSpace(rest)
		}
		if strings.HasPrefix(cmd, "[") {
			var argv []string
			if json.Unmarshal([]byte(cmd), &argv) == nil {
				cmd = strings.Join(argv, " ")
			}
		}
		if cmd != "" {
			out = append(out, cmd)
		}
	}
	return strings.Join(out, "\n")
}

// composeFile: a Docker Compose file (base name, lower case).
func composeFile(base string) bool {
	return (strings.HasSuffix(base, ".yml") || strings.HasSuffix(base, ".yaml")) &&
		(strings.HasPrefix(base, "docker-compose") || strings.HasPrefix(base, "compose.") || strings.HasPrefix(base, "compose-"))
}

// composeReachHosts are the host paths whose mount gives a container the
// machine: its root, the Docker socket, the homes, /etc.
var composeReachHosts = map[string]bool{"/": true, "/var/run/docker.sock": true, "/run/docker.sock": true, "~": true,
	"$home": true, "${home}": true, "/home": true, "/users": true, "/root": true, "/etc": true}

// composeReach returns, as one docker run line, what a Compose file gives
// its containers of the host that docker run would be asked about:
// privileged: true, pid: host, a SYS_ADMIN or ALL capability, a mount of
// the host's root, homes, /etc or the Docker socket. Everyday services
// (ports, ./data volumes, /etc/localtime) give "".
func composeReach(content string) string {
	var flags []string
	for _, l := range strings.Split(strings.ReplaceAll(content, "\r\n", "\n"), "\n") {
		t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(l), "- "))
		t = strings.Trim(t, `"'`)
		low := strings.ToLower(t)
		switch {
		case low == "privileged: true":
			flags = append(flags, "--privileged")
		case low == "pid: host" || low == `pid: "host"`:
			flags = append(flags, "--pid=host")
		case low == "sys_admin" || low == "all" || low == "cap_sys_admin":
			flags = append(flags, "--cap-add="+strings.ToUpper(low))
		default:
			host, rest, ok := strings.Cut(t, ":")
			if !ok || rest == "" || strings.HasSuffix(host, " ") {
				continue
			}
			h := strings.ToLower(host)
			if len(h) > 1 {
				h = strings.TrimRight(h, "/")
			}
			if composeReachHosts[h] || strings.HasPrefix(h, "source: ") && composeReachHosts[strings.TrimPrefix(h, "source: ")] {
				flags = append(flags, "-v", shellQuoteWord(t))
			}
		}
	}
	if len(flags) == 0 {
		return ""
	}
	return "docker run " + strings.Join(flags, " ") + " compose-service"
}

func shellQuoteWord(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// ciPwnRequest returns the checkout of a pull request's head in a
// workflow triggered by pull_request_target (or workflow_run), which
// runs with the base repository's secrets: the "pwn request" pattern.
func ciPwnRequest(content string) string {
	if !strings.Contains(content, "pull_request_target") && !strings.Contains(content, "workflow_run") {
		return ""
	}
	for _, ref := range []string{"github.event.pull_request.head.sha", "github.event.pull_request.head.ref", "github.head_ref",
		"github.event.workflow_run.head_sha", "github.event.workflow_run.head_branch", "refs/pull/"} {
		if strings.Contains(content, ref) {
			return ref
		}
	}
	return ""
}

// hookEntries returns the commands a pre-commit or lefthook config runs
// at each commit: pre-commit's entry: of local hooks, lefthook's run:.
func hookEntries(content string) string {
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(content, "\r\n", "\n"), "\n") {
		t := strings.TrimPrefix(strings.TrimSpace(l), "- ")
		for _, k := range []string{"entry:", "run:"} {
			if v, ok := strings.CutPrefix(t, k); ok {
				if v = unquoteYAML(strings.TrimSpace(v)); v != "" && v != "|" && v != ">" {
					out = append(out, v)
				}
			}
		}
	}
	return strings.Join(out, "\n")
}

// yamlCommands returns the values of the given YAML keys, a scalar or a
// list under the key (Taskfile's cmds: and cmd:), read like ciScripts.
func yamlCommands(content string, keys ...string) string {
	out := yamlKeyValues(content, func(k string) bool { return slices.Contains(keys, k) }, func(nt string) string {
		nt = strings.TrimSpace(strings.TrimPrefix(nt, "- "))
		nt = strings.TrimSpace(strings.TrimPrefix(nt, "cmd:"))
		if nt == "" || strings.HasPrefix(nt, "#") || strings.HasPrefix(nt, "task:") {
			return ""
		}
		return unquoteYAML(nt)
	})
	return strings.Join(out, "\n")
}

// ciServicePrefixes are the rule families of commands acting on cloud
// accounts, clusters, hosting and backups rather than on the runner.
var ciServicePrefixes = []string{"tf.", "iac.", "pulumi.", "cdk.", "aws.", "gcloud.", "gsutil.", "az.", "kube.", "helm.",
	"fly.", "heroku.", "deploy.", "backup.", "supabase.", "doctl.", "vercel.", "netlify.", "db.production-wipe"}

// ciService: a rule (or a route's last step) of ciServicePrefixes.
func ciService(rule string) bool {
	if i := strings.LastIndexByte(rule, '/'); i >= 0 {
		rule = rule[i+1:]
	}
	for _, p := range ciServicePrefixes {
		if strings.HasPrefix(rule, p) {
			return true
		}
	}
	return false
}
