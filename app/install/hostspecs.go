package install

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Host names beyond ZCode and Claude Code, as the CLI flags and the hook's
// --host spell them (see app/hostproto).
const (
	Codex    = "codex"
	Gemini   = "gemini"
	Cursor   = "cursor"
	Copilot  = "copilot"
	Windsurf = "windsurf"
	Qwen     = "qwen"
	Kiro     = "kiro"
	Droid    = "droid"
	Auggie   = "auggie"
	Kimi     = "kimi"
	OpenCode = "opencode"
	// Cline's hook is a script file of ours (cline.go); Antigravity CLI
	// keeps named hook sets in ~/.gemini/config/hooks.json.
	Cline       = "cline"
	Antigravity = "antigravity"
	// Amp gets a plugin file of ours (amp.go).
	Amp = "amp"
)

// antigravityName is our named hook set in Antigravity CLI's hooks.json:
// {"agent-guard": {"enabled": true, "PreToolUse": [{"hooks": [...]}]}}.
const antigravityName = "agent-guard"

// Matchers: each host's names for the tools we judge (its own spelling,
// and Claude's where the host accepts both).
const (
	codexMatcher  = "Bash|apply_patch|shell|exec_command|local_shell|mcp__.*"
	geminiMatcher = "run_shell_command|write_file|replace|edit|mcp__.*"
	qwenMatcher   = "run_shell_command|write_file|edit|replace|Bash|Write|Edit|mcp__.*"
	droidMatcher  = "Execute|Bash|Create|Write|Edit|MultiEdit|ApplyPatch|mcp__.*"
	auggieMatcher = "launch-process|save-file|str-replace-editor|Bash|Write|Edit|mcp.*"
	kimiMatcher   = "Shell|Bash|WriteFile|StrReplaceFile|Write|Edit|mcp__.*"
)

// specs is every JSON host: where its lists are and how our entry reads.
// Kimi (TOML) and opencode (a plugin file) are written by their own code.
var specs = map[string]hostSpec{
	ZCode:  {name: ZCode, lists: []listSpec{{keys: []string{"hooks", "events", "PreToolUse"}, grouped: true, matcher: Matcher, entry: zcodeEntry, view: zcodeView}}},
	Claude: {name: Claude, lists: []listSpec{{keys: []string{"hooks", "PreToolUse"}, grouped: true, matcher: Matcher, entry: claudeEntry, view: claudeView}}},
	Codex:  {name: Codex, lists: []listSpec{claudeGroup("PreToolUse", codexMatcher, Codex, time.Second)}},
	Gemini: {name: Gemini, lists: []listSpec{{keys: []string{"hooks", "BeforeTool"}, grouped: true, matcher: geminiMatcher, entry: geminiEntry, view: commandView("command", "timeout", time.Millisecond)}}},
	Qwen:   {name: Qwen, lists: []listSpec{claudeGroup("PreToolUse", qwenMatcher, Qwen, time.Millisecond)}},
	Droid:  {name: Droid, lists: []listSpec{claudeGroup("PreToolUse", droidMatcher, Droid, time.Second)}},
	Auggie: {name: Auggie, lists: []listSpec{claudeGroup("PreToolUse", auggieMatcher, Auggie, time.Second)}},
	Cursor: {name: Cursor, root: []member{{"version", json.RawMessage("1")}}, lists: []listSpec{
		cursorList("preToolUse"), cursorList("beforeShellExecution"), cursorList("beforeMCPExecution")}},
	Copilot: {name: Copilot, root: []member{{"version", json.RawMessage("1")}}, lists: []listSpec{
		{keys: []string{"hooks", "preToolUse"}, entry: copilotEntry, view: copilotView}}},
	Windsurf: {name: Windsurf, lists: []listSpec{windsurfList("pre_run_command"), windsurfList("pre_write_code"), windsurfList("pre_mcp_tool_use")}},
	// Antigravity's groups have no matcher: every tool call comes to us.
	Antigravity: {name: Antigravity, lists: []listSpec{{keys: []string{antigravityName, "PreToolUse"}, grouped: true,
		entry: func(h Hook) (any, error) {
			cmd, err := plainCommand(Antigravity, h)
			if err != nil {
				return nil, err
			}
			return claudeHook{Type: "command", Command: cmd, Timeout: int64(h.HostTimeout / time.Second)}, nil
		},
		view: commandView("command", "timeout", time.Second)}}},
	Kiro: {name: Kiro, lists: []listSpec{
		{keys: []string{"hooks", "preToolUse"}, entry: kiroEntry, view: commandView("command", "timeout_ms", time.Millisecond)}}},
}

// assumedTimeout is the host's own hook timeout where its config has no
// timeout field: Windsurf kills a hook after about 30 s (one project's
// README; not in Windsurf's docs) and then proceeds, so the hook must
// answer deny before that.
// Cline's hook timeout is not in its docs either; 30 s is assumed the
// same way (a shorter deadline only costs approval-dialog time).
var assumedTimeout = map[string]time.Duration{Windsurf: 30 * time.Second, Cline: 30 * time.Second}

// ForHost fits h's timing to host: on a host whose timeout we cannot set,
// the hook's deadline is kept 5 s under the host's assumed timeout (the
// approval dialog then has that long).
func (h Hook) ForHost(host string) Hook {
	if t, ok := assumedTimeout[host]; ok && h.HostTimeout > t {
		h.HostTimeout = t
		h.Deadline = t - 5*time.Second
	}
	return h
}

// AssumedTimeout is the host timeout agent-guard assumes for host when its
// config cannot say (0 when the config says).
func AssumedTimeout(host string) time.Duration { return assumedTimeout[host] }

// claudeGroup is a Claude-shaped list: {matcher, hooks:[{type, command,
// timeout}]} with the timeout in unit.
func claudeGroup(event, matcher, host string, unit time.Duration) listSpec {
	return listSpec{keys: []string{"hooks", event}, grouped: true, matcher: matcher,
		entry: func(h Hook) (any, error) {
			cmd, err := hostCommand(host, h)
			if err != nil {
				return nil, err
			}
			return claudeHook{Type: "command", Command: cmd, Timeout: int64(h.HostTimeout / unit)}, nil
		},
		view: commandView("command", "timeout", unit)}
}

type geminiHook struct {
	Type    string `json:"type"`
	Name    string `json:"name"`
	Command string `json:"command"`
	Timeout int64  `json:"timeout"` // ms
}

func geminiEntry(h Hook) (any, error) {
	cmd, err := hostCommand(Gemini, h)
	if err != nil {
		return nil, err
	}
	return geminiHook{Type: "command", Name: "agent-guard", Command: cmd, Timeout: h.HostTimeout.Milliseconds()}, nil
}

type cursorHook struct {
	Command    string `json:"command"`
	Timeout    int64  `json:"timeout"`
	FailClosed bool   `json:"failClosed"`
}

// cursorList: every Cursor entry is failClosed, so a hook that crashes,
// hangs or prints nothing is a refusal, not a pass.
func cursorList(event string) listSpec {
	return listSpec{keys: []string{"hooks", event},
		entry: func(h Hook) (any, error) {
			cmd, err := hostCommand(Cursor, h)
			if err != nil {
				return nil, err
			}
			return cursorHook{Command: cmd, Timeout: int64(h.HostTimeout / time.Second), FailClosed: true}, nil
		},
		view: commandView("command", "timeout", time.Second)}
}

// windowsPowerShell are the hosts that run their one hook command line
// through PowerShell on Windows: Cursor (peers that ship Cursor hooks
// found an extensionless script or a bash line does not start there),
// Gemini CLI (its hook runner spawns powershell.exe -NoProfile -Command,
// or the ComSpec shell when ComSpec names PowerShell) and Codex CLI (the
// session's shell, PowerShell on Windows; cmd /C only when it knows none:
// a lone quoted path is a string to PowerShell, and the hook silently
// never runs). Their line is
// written for PowerShell there: the paths keep their backslashes, bare
// when none needs quoting (that line also runs in cmd, should a build use
// cmd), else & 'C:\Users\张 三\...\agent-guard-hook.exe' ... (a sh line
// with / or "..." does not start in PowerShell). Elsewhere, and for the
// other hosts, the plain sh line.
var windowsPowerShell = map[string]bool{Cursor: true, Gemini: true, Codex: true}

// hostCommand is host's hook command line on this OS.
func hostCommand(host string, h Hook) (string, error) {
	if runtimeGOOS == "windows" && windowsPowerShell[host] {
		return powerShellCommand(host, h)
	}
	return plainCommand(host, h)
}

// powerShellCommand is a PowerShell command line for the hook with
// Windows paths: bare when no path needs quoting, else every path in
// single quotes (' doubled) and the line started with &.
func powerShellCommand(host string, h Hook) (string, error) {
	special := false
	for _, p := range []string{h.Path, h.Guard} {
		if strings.ContainsAny(filepath.ToSlash(p), shellSpecial) {
			special = true
		}
	}
	line, err := commandLine(host, h, func(p string) string {
		p = filepath.FromSlash(p)
		if !special {
			return p
		}
		return "'" + strings.ReplaceAll(p, "'", "''") + "'"
	})
	if err != nil || !special {
		return line, err
	}
	return "& " + line, nil
}

type copilotHook struct {
	Type       string `json:"type"`
	Bash       string `json:"bash"`
	PowerShell string `json:"powershell"`
	TimeoutSec int64  `json:"timeoutSec"`
}

// copilotEntry gives both shells: Copilot CLI runs "bash" on Unix and
// "powershell" on Windows, and an entry without the one it needs is no hook.
func copilotEntry(h Hook) (any, error) {
	sh, err := plainCommand(Copilot, h)
	if err != nil {
		return nil, err
	}
	// The powershell line always quotes (it did so before Windows forms
	// were per host, and installs made then must still read as ours).
	ps, err := commandLine(Copilot, h, func(p string) string { return "'" + strings.ReplaceAll(filepath.FromSlash(p), "'", "''") + "'" })
	if err != nil {
		return nil, err
	}
	return copilotHook{Type: "command", Bash: sh, PowerShell: "& " + ps, TimeoutSec: int64(h.HostTimeout / time.Second)}, nil
}

func copilotView(raw json.RawMessage) (hookView, bool) {
	var h struct {
		Bash       string  `json:"bash"`
		PowerShell string  `json:"powershell"`
		TimeoutSec float64 `json:"timeoutSec"`
	}
	if json.Unmarshal(raw, &h) != nil {
		return hookView{}, false
	}
	line := h.Bash
	if line == "" {
		line = h.PowerShell
	}
	words := splitCommand(line)
	if len(words) == 0 {
		return hookView{}, false
	}
	timeout := 30 * time.Second // Copilot's default
	if h.TimeoutSec > 0 {
		timeout = time.Duration(h.TimeoutSec * float64(time.Second))
	}
	return hookView{words[0], words[1:], timeout}, true
}

type windsurfHook struct {
	Command    string `json:"command"`
	ShowOutput bool   `json:"show_output"`
}

func windsurfList(event string) listSpec {
	return listSpec{keys: []string{"hooks", event},
		entry: func(h Hook) (any, error) {
			cmd, err := plainCommand(Windsurf, h)
			if err != nil {
				return nil, err
			}
			return windsurfHook{Command: cmd}, nil
		},
		view: commandView("command", "", 0)}
}

// kiroAgent is the agent agent-guard creates when ~/.kiro/agents has none:
// Kiro's usual tools, its own permission prompts, our hook.
const kiroAgent = `{"name": "agent-guard", "description": "Kiro's tools, every call checked by agent-guard first", "tools": ["*"], "allowedTools": []}`

type kiroHook struct {
	Command   string `json:"command"`
	TimeoutMs int64  `json:"timeout_ms"`
}

func kiroEntry(h Hook) (any, error) {
	cmd, err := plainCommand(Kiro, h)
	if err != nil {
		return nil, err
	}
	return kiroHook{Command: cmd, TimeoutMs: h.HostTimeout.Milliseconds()}, nil
}

// commandView reads an element whose cmdKey is a command line and whose
// timeoutKey (if any) is a number in unit.
func commandView(cmdKey, timeoutKey string, unit time.Duration) func(json.RawMessage) (hookView, bool) {
	return func(raw json.RawMessage) (hookView, bool) {
		var m map[string]json.RawMessage
		if json.Unmarshal(raw, &m) != nil {
			return hookView{}, false
		}
		var line string
		if json.Unmarshal(m[cmdKey], &line) != nil {
			return hookView{}, false
		}
		words := splitCommand(line)
		if len(words) == 0 {
			return hookView{}, false
		}
		var t float64
		if timeoutKey != "" {
			_ = json.Unmarshal(m[timeoutKey], &t)
		}
		return hookView{words[0], words[1:], time.Duration(t * float64(unit))}, true
	}
}

// PathWarning says when the binaries' paths will be quoted in the hosts'
// command lines: a quoted program path starts in sh and cmd but not in
// PowerShell, and on Windows some hosts may run hooks through PowerShell.
func PathWarning(paths ...string) string {
	for _, p := range paths {
		if strings.ContainsAny(filepath.ToSlash(p), shellSpecial) && runtimeGOOS == "windows" {
			return fmt.Sprintf("%s has a space or special character, so the hosts get it quoted; a host that runs hooks through PowerShell cannot start a quoted path (Copilot CLI's powershell entry and the Cursor, Gemini CLI and Codex commands are written with & and are fine): for the others, keep agent-guard in a folder without spaces", p)
		}
	}
	return ""
}

// shellSpecial are the characters that make a path need quoting.
const shellSpecial = " \t'&|;<>()[]{}*?!#~%^,="

// runtimeGOOS is runtime.GOOS, a variable for tests.
var runtimeGOOS = runtime.GOOS

// plainCommand writes the hook's path bare when it needs no quoting (then
// the same line works in sh, cmd and PowerShell, whichever the host runs
// on Windows) and double-quoted otherwise; forward slashes either way.
func plainCommand(host string, h Hook) (string, error) {
	return commandLine(host, h, func(p string) string {
		p = filepath.ToSlash(p)
		if p != "" && !strings.ContainsAny(p, shellSpecial) {
			return p
		}
		return fmt.Sprintf("%q", p)
	})
}
