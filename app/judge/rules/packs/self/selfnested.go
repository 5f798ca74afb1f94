package self

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// A nested agent: the agent starting another coding agent (claude -p,
// codex exec, gemini, an npx of one). It runs with the hooks of its
// host's config, so the guard still judges its calls, unless the line
// turns them off: a flag or -c setting that disables hooks, a settings
// source list without the user level (where our hook lives), another
// config home (CLAUDE_CONFIG_DIR, CODEX_HOME, HOME), the host's
// safe/simple modes, or AGENT_GUARD_* pointing its hook at another
// config. Those block (self.hooks-off). Flags that skip the host's own
// permission prompts confirm (guard.nested-bypass): the guard still runs
// but the host's second line of defence is gone. An agent that has no
// hook at all (aider, goose, ...) runs without the guard: confirm
// (guard.nested-unguarded).

func init() { pack.OnAny(ruleNestedAgent) }

// npxAgents maps packages that run an agent to its host name.
var npxAgents = map[string]string{"@anthropic-ai/claude-code": "claude", "@openai/codex": "codex",
	"@google/gemini-cli": "gemini", "@qwen-code/qwen-code": "qwen", "@github/copilot": "copilot",
	"opencode-ai": "opencode", "@sourcegraph/amp": "amp", "@augmentcode/auggie": "auggie"}

// unguardedAgents are coding agents with no hook the guard can sit in.
var unguardedAgents = map[string]bool{"aider": true, "goose": true, "crush": true, "plandex": true,
	"openhands": true, "interpreter": true, "gpt-engineer": true, "gpte": true, "mentat": true, "cline": true,
	"cn": true, "llm-agent": true, "open-interpreter": true, "sweagent": true, "sweep": true}

// hostEnvOff: variables that, set for any host, take its hooks or our
// hook's config away.
var hostEnvOff = []string{"HOME", "USERPROFILE", "XDG_CONFIG_HOME", "APPDATA"}

func ruleNestedAgent(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	name, args := c.Name, c.Args
	if name == "npx" || name == "bunx" || name == "pnpx" || (name == "pnpm" || name == "yarn") && len(args) > 0 && args[0] == "dlx" {
		if len(args) > 0 && args[0] == "dlx" {
			args = args[1:]
		}
		for len(args) > 0 && strings.HasPrefix(args[0], "-") {
			args = args[1:]
		}
		if len(args) == 0 {
			return rules.Finding{}, false
		}
		pkg := args[0]
		if i := strings.LastIndexByte(pkg, '@'); i > 0 {
			pkg = pkg[:i]
		}
		h, ok := npxAgents[strings.ToLower(pkg)]
		if !ok {
			return rules.Finding{}, false
		}
		name, args = h, args[1:]
	}
	if elsewhereLaunchers[strings.TrimSuffix(name, ".exe")] {
		// runas /user:x "claude -p go", psexec -s claude, wsl -e claude:
		// another account's or another system's settings, without our hook
		for _, a := range args {
			for _, w := range strings.Fields(a) {
				w = strings.ToLower(strings.TrimSuffix(rules.LastSeg(strings.Trim(w, `"'`)), ".exe"))
				if _, ok := rules.NestedHosts[w]; ok {
					return rules.Finding{Risk: 2, Violation: 0.6, Rule: "guard.nested-unguarded", Marked: c.Raw,
						Reason: "starts " + w + " through " + name + " (another account, session or system): it reads settings that hold no hook of the guard's, so its commands would run unjudged"}, true
				}
			}
		}
	}
	if hostEnvInCode(name, c) {
		return rules.HooksOffFinding(c.Raw, "code that starts an agent host with an AGENT_GUARD_* variable set"), true
	}
	if unguardedAgents[name] {
		if onlyHelp(args) || name == "goose" && gooseMigrations(args) {
			return rules.Finding{}, false
		}
		return rules.Finding{Risk: 2, Violation: 0.6, Rule: "guard.nested-unguarded", Marked: c.Raw,
			Reason: "starts " + name + ", a coding agent the guard has no hook in: its commands would run unjudged"}, true
	}
	if f, ok := nestedElsewhere(c); ok {
		return f, true
	}
	if name == "prlimit" || name == "cpulimit" {
		// prlimit --nofile=3 -- claude ...: the limit is on the host
		for i, a := range args {
			if _, ok := rules.NestedHosts[strings.ToLower(a)]; ok && i > 0 {
				return rules.HooksOffFinding(c.Raw, "starting "+a+" under "+name+starveWhy), true
			}
		}
	}
	h, ok := rules.NestedHosts[name]
	if !ok || onlyHelp(args) {
		return rules.Finding{}, false
	}
	wrappers := c.Wrappers
	if c.Depth > 0 && x.All != nil && lineRuns(x, "su", "runuser", "sudo", "doas", "machinectl") {
		wrappers = append(wrappers[:len(wrappers):len(wrappers)], "su") // su - other -c 'claude -p x'
	}
	for _, w := range wrappers {
		switch w {
		case "sudo", "doas", "su", "runuser", "pkexec", "gosu", "su-exec", "setpriv", "machinectl", "wsl", "gsudo":
			// another user's host reads that user's config, where the
			// guard's hook is not
			return rules.Finding{Risk: 2, Violation: 0.6, Rule: "guard.nested-unguarded", Marked: c.Raw,
				Reason: "starts " + name + " as another user (" + w + "): it reads that user's settings, which hold no hook of the guard's, so its commands would run unjudged"}, true
		}
	}
	if lim := starvedBy(c, x); lim != "" {
		return rules.HooksOffFinding(c.Raw, "starting "+name+" under "+lim+starveWhy), true
	}
	if lowRaw := strings.ToLower(c.Raw); strings.Contains(strings.ToLower(x.Script), "agent_guard_") &&
		(!strings.Contains(lowRaw, "agent_guard_") || rules.Contains(c.Wrappers, "env")) {
		// env -u AGENT_GUARD_PIPE claude, export -n AGENT_GUARD_HOME; codex
		return rules.HooksOffFinding(c.Raw, "starting "+name+" in a line that changes an AGENT_GUARD_* variable"), true
	}
	if x.All != nil && len(x.All.Cmds) > 1 {
		// export AGENT_GUARD_HOME=/tmp/x; claude ..., $env:X='...'; codex,
		// unset AGENT_GUARD_PIPE && gemini: the line's own environment
		// changes reach the host as a prefix would
		if v, ok := lineEnvChange(c, x, h.EnvOff()); ok {
			return rules.HooksOffFinding(c.Raw, "starting "+name+" after the line changes "+v), true
		}
	}
	for _, kv := range c.Env {
		k, _, _ := strings.Cut(kv, "=")
		uk := strings.ToUpper(k)
		if strings.HasPrefix(uk, "AGENT_GUARD_") || containsFold(h.EnvOff(), uk) || containsFold(hostEnvOff, uk) ||
			strings.Contains(uk, "HOOK") && (strings.Contains(uk, "DISABL") || strings.Contains(uk, "SKIP") || strings.Contains(uk, "NO_")) {
			return rules.HooksOffFinding(c.Raw, "starting "+name+" with "+k+" set"), true
		}
	}
	// The host's own commands that drop our hook: plugin/extension
	// uninstall or disable of agent-guard, `config set` of a hook key.
	if len(args) >= 2 {
		verb := strings.ToLower(args[0])
		if verb == "plugin" || verb == "plugins" || verb == "extensions" || verb == "extension" || verb == "mcp" || verb == "hooks" {
			switch strings.ToLower(args[1]) {
			case "uninstall", "remove", "rm", "disable", "delete":
				if rules.GuardWord(strings.Join(args[2:], " ")) || verb == "hooks" {
					return rules.HooksOffFinding(c.Raw, name+" "+verb+" "+args[1]), true
				}
			}
		}
		if f, ok := hostCLIRegisters(c, name, args, x); ok {
			return f, true
		}
		if verb == "mcp" && strings.HasPrefix(strings.ToLower(args[1]), "add") {
			return rules.Finding{}, false // the server's own flags (npx -y) are no host flags
		}
		if verb == "config" && (args[1] == "set" || args[1] == "add" || args[1] == "remove") {
			for _, k := range args[2:] {
				if !strings.HasPrefix(k, "-") {
					if lk := strings.ToLower(k); strings.Contains(lk, "hook") || hostConfigEnvKey(lk) {
						return rules.HooksOffFinding(c.Raw, name+" config "+args[1]+" "+k), true
					}
					break
				}
			}
		}
	}
	if name == "claude" && rules.HasArg(c, "--bare") {
		return rules.HooksOffFinding(c.Raw, "claude --bare (no hooks)"), true
	}
	for i, a := range args {
		la := strings.ToLower(a)
		next := ""
		if i+1 < len(args) {
			next = args[i+1]
		}
		flag, val, hasVal := strings.Cut(la, "=")
		if !hasVal {
			val = strings.ToLower(next)
		}
		switch {
		case name == "claude" && flag == "--settings":
			if v := settingsText(val, next, hasVal, a, x); rules.HooksOff(v) {
				return rules.HooksOffFinding(c.Raw, "claude --settings"), true
			}
		case name == "claude" && flag == "--setting-sources":
			if !strings.Contains(val, "user") {
				return rules.HooksOffFinding(c.Raw, "claude --setting-sources "+val+" (without user, where the guard's hook is)"), true
			}
		case name == "codex" && (flag == "--disable") && strings.Contains(val, "hooks"):
			return rules.HooksOffFinding(c.Raw, "codex --disable "+val), true
		case (flag == "-c" || flag == "--config") && rules.HooksOff(val):
			return rules.HooksOffFinding(c.Raw, name+" "+flag+" "+val), true
		}
	}
	for i, a := range args {
		la := strings.ToLower(a)
		flag, val, hasVal := strings.Cut(la, "=")
		for _, b := range h.Bypass() {
			if la == b || flag == b {
				return nestedBypass(c, name, a), true
			}
		}
		if vs, ok := h.BypassV()[flag]; ok {
			if !hasVal && i+1 < len(args) {
				val = strings.ToLower(args[i+1])
			}
			if containsFold(vs, val) {
				return nestedBypass(c, name, a+" "+val), true
			}
		}
		if strings.Contains(la, "dangerously") || strings.Contains(la, "yolo") || strings.Contains(la, "skip-permissions") {
			return nestedBypass(c, name, a), true
		}
	}
	return rules.Finding{}, false
}

func nestedBypass(c *shell.Cmd, name, flag string) rules.Finding {
	return rules.Finding{Risk: 2, Violation: 0.6, Rule: "guard.nested-bypass", Marked: c.Raw,
		Reason: "starts " + name + " with " + flag + ", which skips its permission prompts: the nested agent runs with less protection than this one"}
}

// settingsText is the JSON given to --settings, or the file it names.
func settingsText(val, next string, hasVal bool, a string, x *rules.Ctx) string {
	v := next
	if hasVal {
		_, v, _ = strings.Cut(a, "=")
	}
	if strings.HasPrefix(strings.TrimSpace(v), "{") {
		return v
	}
	if x.All != nil {
		if body, ok := x.All.Written[v]; ok {
			return body // written earlier in the same line
		}
	}
	n := rules.Normalize(v, x.Cwd, x.Home)
	if n.Dynamic() || !rules.IsAbs(n.Abs()) {
		return ""
	}
	s, _ := readSmall(n.Abs(), 1<<20)
	return s
}

func onlyHelp(args []string) bool {
	if len(args) == 0 {
		return false
	}
	for _, a := range args {
		switch strings.ToLower(a) {
		case "--help", "-h", "--version", "-v", "-V", "help", "version":
			return true
		}
	}
	return false
}

func containsFold(l []string, s string) bool {
	for _, v := range l {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}

const starveWhy = " (a hook that runs out of CPU time, open files or processes fails, and a failing hook lets the call through)"

// starvedBy names the resource limit the line puts on a nested host (and
// so on the hook it starts): ulimit earlier in the line, or systemd-run
// with a limit property; "" when there is none.
func starvedBy(c *shell.Cmd, x *rules.Ctx) string {
	if rules.Contains(c.Wrappers, "systemd-run") {
		low := strings.ToLower(c.Raw)
		for _, p := range []string{"cpuquota", "memorymax", "memoryhigh", "tasksmax", "limitnofile", "limitcpu", "limitnproc", "limitas", "cpuweight", "iow"} {
			if strings.Contains(low, p) {
				return "systemd-run -p " + p
			}
		}
	}
	if x.All == nil {
		return ""
	}
	for i := range x.All.Cmds {
		o := &x.All.Cmds[i]
		if o.Name != "ulimit" {
			continue
		}
		if v, ok := rules.StarveLimit(o.Raw); ok {
			return v // ulimit -n 4096 before it raises a limit: everyday
		}
	}
	return ""
}

// nestedElsewhere: a coding agent started where the guard's hook is not
// (a container, another machine over ssh, a pod): its commands run
// unjudged, as with an agent that has no hook.
func nestedElsewhere(c *shell.Cmd) (rules.Finding, bool) {
	where := ""
	switch c.Name {
	case "docker", "podman", "nerdctl", "finch", "lima", "colima":
		if len(c.Args) > 0 && (c.Args[0] == "run" || c.Args[0] == "exec" || c.Args[0] == "compose" || c.Args[0] == "container") {
			where = "a container"
		}
	case "ssh", "mosh", "gcloud", "aws", "az":
		where = "another machine"
	case "kubectl", "oc":
		if len(c.Args) > 0 && (c.Args[0] == "exec" || c.Args[0] == "run" || c.Args[0] == "debug") {
			where = "a pod"
		}
	case "wsl", "wsl.exe", "distrobox", "toolbox", "multipass", "vagrant":
		where = "another system"
	}
	if where == "" {
		return rules.Finding{}, false
	}
	for _, a := range c.Args {
		for _, w := range strings.Fields(a) {
			lw := strings.ToLower(w)
			if i := strings.LastIndexByte(lw, '@'); i > 0 {
				lw = lw[:i]
			}
			agent := ""
			if _, ok := rules.NestedHosts[lw]; ok {
				agent = lw
			} else if h, ok := npxAgents[lw]; ok {
				agent = h
			} else if unguardedAgents[lw] {
				agent = lw
			}
			if agent != "" {
				return rules.Finding{Risk: 2, Violation: 0.6, Rule: "guard.nested-unguarded", Marked: c.Raw,
					Reason: "starts " + agent + " in " + where + ", where the guard's hook is not installed: its commands would run unjudged"}, true
			}
		}
	}
	return rules.Finding{}, false
}

// lineEnvChange: another command of the line sets, exports or removes a
// variable the guard's hook or the host's hooks depend on (AGENT_GUARD_*,
// the host's config-home variables, HOME and its likes).
func lineEnvChange(c *shell.Cmd, x *rules.Ctx, hostOff []string) (string, bool) {
	for i := range x.All.Cmds {
		o := &x.All.Cmds[i]
		if o == c {
			continue
		}
		low := strings.ToLower(o.Raw)
		if strings.Contains(low, "agent_guard_") {
			return "an AGENT_GUARD_* variable", true
		}
		switch o.Name {
		case "export", "unset", "set", "setenv", "declare", "typeset", "env", "remove-item", "ri", "del", "rm", "set-item", "si", "$env", "":
		default:
			if !strings.HasPrefix(low, "$env:") {
				continue
			}
		}
		for _, v := range append(append([]string{}, hostOff...), hostEnvOff...) {
			lv := strings.ToLower(v)
			if strings.Contains(low, lv+"=") || strings.Contains(low, "env:"+lv) || strings.Contains(low, "unset "+lv) || strings.Contains(low, "-u "+lv) {
				return v, true
			}
		}
	}
	return "", false
}

// hostConfigEnvKey: a host settings key that sets the environment of
// what the host starts, hooks included (env.AGENT_GUARD_HOME,
// env.HOME, env.XDG_CONFIG_HOME), to a variable that moves the guard's
// or a host's config.
func hostConfigEnvKey(k string) bool {
	i := strings.LastIndexAny(k, ".:/[")
	if i < 0 || !strings.Contains(k[:i], "env") {
		return false
	}
	return shadowEnv(strings.Trim(k[i+1:], `]"'`))
}

// elsewhereLaunchers start a command as another account, in another
// session or another system (Windows' runas and PsExec, WSL).
var elsewhereLaunchers = map[string]bool{"runas": true, "psexec": true, "psexec64": true, "paexec": true,
	"wsl": true, "schtasks": false}

// hostEnvInCode: interpreter or PowerShell code that names an agent host
// and sets an AGENT_GUARD_* variable (ProcessStartInfo.EnvironmentVariables,
// subprocess.run([...], env=...), child_process.spawn(..., {env})).
func hostEnvInCode(name string, c *shell.Cmd) bool {
	if !codeCarrier(name, c) || len(c.Raw) > 64<<10 {
		return false
	}
	low := strings.ToLower(c.Raw)
	if !strings.Contains(low, "agent_guard_") {
		return false
	}
	for h := range rules.NestedHosts {
		for i := strings.Index(low, h); i >= 0; {
			end := i + len(h)
			before := i == 0 || !isWordByte(low[i-1])
			after := end >= len(low) || !isWordByte(low[end])
			if before && after {
				return true
			}
			j := strings.Index(low[end:], h)
			if j < 0 {
				break
			}
			i = end + j
		}
	}
	return false
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '_' || b == '-'
}

// hostCLIRegisters judges a host CLI registering something the host runs
// by itself later: an MCP server (claude mcp add NAME -- CMD ARGS, mcp
// add-json NAME JSON, codex/gemini mcp add): its command line is judged
// for self findings, like a run-later file. (Plugins installed from the
// command line stay allow: a policy of an earlier round, pinned in
// self_routes.jsonl; their hooks run unjudged, like an npm postinstall.)
func hostCLIRegisters(c *shell.Cmd, name string, args []string, x *rules.Ctx) (rules.Finding, bool) {
	verb, sub := strings.ToLower(args[0]), strings.ToLower(args[1])
	switch {
	case verb == "mcp" && (sub == "add" || sub == "add-json"):
		var code string
		if sub == "add-json" {
			for _, a := range args[2:] {
				if strings.HasPrefix(strings.TrimSpace(a), "{") {
					code = strings.Join(rules.MCPServerCommands(a), "\n")
				}
			}
		} else {
			rest := args[2:]
			for i, a := range rest {
				if a == "--" {
					// NAME [options] -- CMD ARGS: all after -- is the command
					rest = append([]string{"NAME"}, rest[i+1:]...)
					break
				}
			}
			var words []string
			for i := 0; i < len(rest); i++ {
				a := rest[i]
				if strings.HasPrefix(a, "-") && len(words) == 0 {
					if !strings.Contains(a, "=") && i+1 < len(rest) && (a == "-e" || a == "--env" || a == "-s" || a == "--scope" || a == "-t" || a == "--transport" || a == "-H" || a == "--header") {
						i++
					}
					continue
				}
				words = append(words, a)
			}
			if len(words) > 1 {
				code = rules.ShellJoin(words[1:]) // words[0] is the server's name
			}
		}
		if code == "" {
			return rules.Finding{}, false
		}
		if f, cmd, ok := rules.SelfInCode([]string{code}, x.Cwd, x.Home, 2*len(code)+64); ok {
			f.Reason = name + " mcp " + sub + " registers a server the host starts by itself, " + cmd + ": " + f.Reason
			f.Marked = c.Raw
			return f, true
		}
	}
	return rules.Finding{}, false
}

// gooseAgentCmds are the commands of Block's goose agent; gooseMigrate the
// drivers and commands of pressly/goose, the database migration tool of the
// same name (goose -dir db/migrations postgres "$DSN" up).
var (
	gooseAgentCmds = map[string]bool{"session": true, "s": true, "run": true, "configure": true, "info": true,
		"mcp": true, "update": true, "project": true, "p": true, "projects": true, "ps": true, "web": true,
		"recipe": true, "bench": true, "schedule": true, "sched": true, "help": true, "completion": true, "term": true, "acp": true}
	gooseMigrate = map[string]bool{"postgres": true, "mysql": true, "sqlite3": true, "sqlite": true, "mssql": true,
		"redshift": true, "tidb": true, "clickhouse": true, "vertica": true, "ydb": true, "turso": true, "starrocks": true,
		"up": true, "up-by-one": true, "up-to": true, "down": true, "down-to": true, "redo": true, "reset": true,
		"status": true, "version": true, "create": true, "fix": true, "validate": true}
)

// gooseMigrations: goose is the migration tool, not the agent: its first
// word that is not an option is a driver or a migration command (the agent
// would reject it), or a -dir option names the migrations folder. The db
// pack judges it (down, reset).
func gooseMigrations(args []string) bool {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-dir" || a == "--dir" || strings.HasPrefix(a, "-dir=") || strings.HasPrefix(a, "--dir=") {
			if a == "-dir" || a == "--dir" {
				i++
			}
			continue
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		return !gooseAgentCmds[a] && gooseMigrate[strings.ToLower(a)]
	}
	return false
}
