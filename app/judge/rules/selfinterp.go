package rules

import (
	"path"
	"strings"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
	"github.com/agent-guard/agent-guard/app/judge/facts"
	"github.com/agent-guard/agent-guard/app/judge/shell"
	"github.com/agent-guard/agent-guard/app/protect"
)

// Interpreter code that builds a guard path from pieces ('.cl'+'aude',
// os.path.join(home, x, 'settings.json')) escapes the path rules, which
// need the whole name. A piece of a protected name, the home folder and a
// write call in the same code is at least confirm.

// quotedRe finds string literals in interpreter code.
var quotedRe = lazyre.New(`'([^'\n]{2,})'|"([^"\n]{2,})"`)

// ruleSelfInterpLiterals: code that writes, binds or removes files and
// names, as a whole string literal, a path of the computed protected set
// (the socket from AGENT_GUARD_PIPE, the config home, a binary), even
// when nothing in the name says agent-guard.
func ruleSelfInterpLiterals(c *shell.Cmd, x *Ctx) (Finding, bool) {
	if !selfInterp(c.Name) {
		return Finding{}, false
	}
	if low := strings.ToLower(c.Raw); strings.Contains(low, "namedpipeserverstream") && strings.Contains(low, "agent-guard") {
		// a server on the guard's named pipe: the hook would meet it first
		return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.guard-socket", Marked: c.Raw,
			Reason: "the " + c.Name + " code opens a server on agent-guard's named pipe: an agent must not stand in for its own guard; ask the user to do it"}, true
	}
	code := strings.Join(c.Args, " ")
	for _, r := range c.Redirs {
		if r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<" {
			code += "\n" + r.Target
		}
	}
	if f, ok := interpStartsGuard(c, code); ok {
		return f, true
	}
	if f, ok := selfFolded(c.Name, substEnvRefs(code, c.Env), x.Cwd, x.Home); ok {
		f.Marked = c.Raw
		return f, true
	}
	if !containsAnyOf(strings.ToLower(code), pkGuardWriteMark) {
		return Finding{}, false
	}
	for _, m := range quotedRe.FindAllStringSubmatch(code, 64) {
		lit := m[1] + m[2]
		if !isAbs(slashify(lit)) || strings.ContainsAny(lit, "{}$%") {
			continue
		}
		if f, ok := Protected(lit, x.Cwd, x.Home); ok {
			f.Reason = "the " + c.Name + " code names " + lit + " and writes or binds files: " + f.Reason
			f.Marked = c.Raw
			return f, true
		}
	}
	return Finding{}, false
}

// ruleSelfPipeServer: a named-pipe server on the guard's pipe name in
// PowerShell given to the Bash tool ($s = New-Object
// System.IO.Pipes.NamedPipeServerStream('agent-guard-dev')), where no
// interpreter name comes first: the whole line is read.
func ruleSelfPipeServer(c *shell.Cmd, x *Ctx) (Finding, bool) {
	if x.All != nil && len(x.All.Cmds) > 0 && c != &x.All.Cmds[0] {
		return Finding{}, false // the line is read once, with its first command
	}
	low := strings.ToLower(x.Script)
	if (strings.Contains(low, "]::") || strings.Contains(low, "join-path") || strings.Contains(low, "$env:") && strings.Contains(low, "+")) && len(x.Script) < 8192 {
		// [IO.File]::WriteAllText((Join-Path $HOME '.codex\hooks.json'), '{}'):
		// PowerShell building a path from pieces, read like interpreter code
		if f, ok := selfFolded("PowerShell", x.Script, x.Cwd, x.Home); ok {
			f.Marked = c.Raw
			return f, true
		}
	}
	if (strings.Contains(low, ".kill(") || strings.Contains(low, ".terminate(")) && guardWord(low) &&
		containsAnyOf(low, []string{"get-process", "gps ", "get-wmiobject", "gwmi", "get-ciminstance", "getprocessesbyname", "win32_process"}) {
		// (Get-WmiObject Win32_Process -Filter "name='agent-guard.exe'").Terminate():
		// the method call is no command of its own
		return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.kill-guard", Marked: c.Raw,
			Reason: "the line looks up agent-guard's process and calls Kill or Terminate on it: an agent must not switch off its own guard; ask the user to do it"}, true
	}
	if (strings.Contains(low, "priorityclass") || strings.Contains(low, "processoraffinity") || strings.Contains(low, ".suspend(")) &&
		guardWord(low) && containsAnyOf(low, []string{"get-process", "gps ", "get-wmiobject", "gwmi", "get-ciminstance", "getprocessesbyname", "win32_process"}) {
		// (Get-Process agent-guard).PriorityClass = 'Idle': the guard
		// answers after the host's hook timeout
		return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.debug-guard", Marked: c.Raw,
			Reason: "the line looks up agent-guard's process and lowers its priority, pins or suspends it: it would answer after the host's hook timeout; an agent must not slow or stop its own guard; ask the user"}, true
	}
	// (the cheap test first: the expression is compiled on first use, in
	// every fallback process that reaches it)
	if strings.Contains(low, "function") {
		if m := pwshHostFuncRe.FindStringSubmatch(x.Script); m != nil && (hooksOff(m[2]) || strings.Contains(strings.ToLower(m[2]), "--bare") ||
			strings.Contains(strings.ToLower(m[2]), "--setting-sources")) {
			// function claude { & (Get-Command claude -CommandType Application) --bare @args }
			return hooksOffFinding(c.Raw, "defining "+m[1]+" as a function that starts it without hooks"), true
		}
	}
	if !pipeServerWord(low) || !guardWord(low) {
		return Finding{}, false
	}
	return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.guard-socket", Marked: c.Raw,
		Reason: "the line opens a named-pipe server and names agent-guard: a server on the guard's pipe would answer the hook in its place; an agent must not stand in for its own guard; ask the user to do it"}, true
}

// pwshHostFuncRe: a PowerShell or shell function named after an agent
// host, with its body.
var pwshHostFuncRe = lazyre.New(`(?is)\bfunction\s+(claude|codex|gemini|qwen|cursor-agent|copilot|opencode|amp|auggie|droid|kimi|kiro-cli|zcode)\s*(?:\(\s*\))?\s*\{(.*?)\}`)

// selfInterp: programs that run code handed to them whose string
// literals are read for the guard's paths: every interpreter and Windows
// shell of the facts table (a POSIX shell's code is parsed as commands).
func selfInterp(name string) bool { return facts.IsInterpreter(name) || facts.IsWinShell(name) }

// guardNameParts are pieces only the guard's and the hosts' files have.
var guardNameParts = []string{"settings.json", "settings.local.json", "agent-guard", "agent_guard", "agentguard",
	"zcode", "hooks.json", "claude"}

var homeMarks = []string{"home", "~", "userprofile", "appdata", "xdg_", "expanduser", "homedir", "getenv", "environ"}

func ruleSelfInterpParts(c *shell.Cmd, x *Ctx) (Finding, bool) {
	if !selfInterp(c.Name) {
		return Finding{}, false
	}
	var b strings.Builder
	for _, a := range c.Args {
		b.WriteString(a)
		b.WriteByte(' ')
	}
	for _, r := range c.Redirs {
		if r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<" {
			b.WriteString(r.Target)
		}
	}
	code := strings.ToLower(b.String())
	part := ""
	for _, p := range guardNameParts {
		if strings.Contains(code, p) {
			part = p
			break
		}
	}
	if part == "" || !containsAnyOf(code, homeMarks) || !containsAnyOf(code, pkGuardWriteMark) {
		return Finding{}, false
	}
	return Finding{Risk: 2, Violation: 0.6, Rule: "guard.interp-parts", Marked: c.Raw,
		Reason: "the " + c.Name + " code writes files and builds a path in the home folder with " + part + " in it, which may be the agent's own guard or hook configuration"}, true
}

func containsAnyOf(s string, subs []string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// spawnMarks are how interpreter code starts a program.
var spawnMarks = []string{"subprocess", "exec", "spawn", "system(", "popen", "process.start", "start-process", "child_process", "`", "%x", "open3", "proc_open", "shell_exec", "passthru"}

// interpStartsGuard: code that starts one of the guard's binaries
// (['agent-guard', 'config', 'accept'], execvp('agent-guard', ...)) with
// a verb that is not read-only: judged like the same command line.
func interpStartsGuard(c *shell.Cmd, code string) (Finding, bool) {
	low := strings.ToLower(code)
	if !strings.Contains(low, "agent-guard") || !containsAnyOf(low, spawnMarks) {
		return Finding{}, false
	}
	lits := quotedRe.FindAllStringSubmatch(code, 64)
	for i, m := range lits {
		lit := strings.TrimSpace(m[1] + m[2])
		words := strings.Fields(lit)
		if len(words) == 0 || !protect.OwnName(path.Base(slashify(words[0]))) {
			continue
		}
		args := words[1:]
		for _, n := range lits[i+1:] {
			v := n[1] + n[2]
			if protect.OwnName(path.Base(slashify(v))) {
				continue // execvp('agent-guard', ['agent-guard', ...]): argv[0] again
			}
			args = append(args, v)
		}
		run := &shell.Cmd{Name: "agent-guard", Args: args, Raw: c.Raw}
		f := guardVerb(run, !strings.HasPrefix(strings.ToLower(path.Base(slashify(words[0]))), "agent-guard-hook"))
		if f.Rule == "guard.cli-read" {
			return Finding{}, false
		}
		f.Reason = "the " + c.Name + " code " + f.Reason
		return f, true
	}
	return Finding{}, false
}

// pipeServerWord: the text creates a named-pipe server (.NET's
// NamedPipeServerStream, Win32 CreateNamedPipe from Python's win32pipe,
// ctypes or C, Go's winio.ListenPipe, Node's net.createServer on a
// \\.\pipe\ path, npiperelay).
func pipeServerWord(low string) bool {
	return strings.Contains(low, "pipeserverstream") || strings.Contains(low, "createnamedpipe") ||
		strings.Contains(low, "listenpipe") || strings.Contains(low, "npiperelay") ||
		strings.Contains(low, "createserver") && strings.Contains(low, "pipe")
}
