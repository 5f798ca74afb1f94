package hostproto

import (
	"fmt"
	"strings"
)

// The hosts beyond ZCode and Claude Code. Each entry is its tool names,
// its event names and its output dialect; shared.md (hosts.md) has the
// sources, and the README's Hosts section what each can and cannot guard.
var (
	Codex = register(Host{Name: "codex", Display: "Codex CLI", ask: false,
		parse:    claudeLike(toolTable{"bash": shell, "shell": shell, "exec_command": shell, "local_shell": shell, "apply_patch": patch}, PreToolUse),
		render:   denyOnly(renderClaude),
		FailOpen: `"ask" is unsupported and "allow" without updatedInput is a hook failure: both run the tool; so do invalid JSON, a crash, a timeout and (on Windows) exit 2. agent-guard answers deny as JSON only and prints nothing to allow`})

	Gemini = register(Host{Name: "gemini", Display: "Gemini CLI", ask: false,
		parse:    claudeLike(toolTable{"run_shell_command": shell, "write_file": write, "replace": edit, "edit": edit}, "BeforeTool"),
		render:   denyOnly(renderGemini),
		FailOpen: "exit codes other than 0 and 2 are warnings and the tool runs; a timeout (default 60 s) runs it too; there is no ask"})

	Cursor = register(Host{Name: "cursor", Display: "Cursor", ask: false,
		parse:    parseCursor,
		render:   renderCursor,
		silent:   func() Output { return renderCursor(Allow, "") },
		FailOpen: "without failClosed: true a hook that crashes, times out or prints nothing lets the action run; agent-guard installs every entry with failClosed: true"})

	Copilot = register(Host{Name: "copilot", Display: "GitHub Copilot CLI", ask: false,
		parse:    claudeLike(toolTable{"bash": shell, "powershell": shell, "shell": shell, "create": write, "write": write, "edit": edit, "str_replace_editor": edit, "apply_patch": patch}, "preToolUse", PreToolUse),
		render:   denyOnly(renderCopilot),
		FailOpen: "a hook that fails (non-zero exit, timeout after timeoutSec, bad output) is logged and skipped: the tool runs"})

	Windsurf = register(Host{Name: "windsurf", Display: "Windsurf", ask: false,
		parse:    parseWindsurf,
		render:   denyOnly(renderExit2),
		FailOpen: "only exit code 2 blocks; any other exit code, a crash or a timeout lets Cascade proceed; there is no ask"})

	Qwen = register(Host{Name: "qwen", Display: "Qwen Code", ask: false,
		parse:    claudeLike(toolTable{"run_shell_command": shell, "bash": shell, "write_file": write, "edit": edit, "replace": edit}, PreToolUse),
		render:   renderClaude,
		FailOpen: `"ask" was treated as deny (QwenLM/qwen-code#6321); a hook error or timeout lets the tool run`})

	Kiro = register(Host{Name: "kiro", Display: "Kiro CLI", ask: false,
		parse:    claudeLike(toolTable{"execute_bash": shell, "execute_cmd": shell, "shell": shell, "fs_write": edit, "write": edit}, "preToolUse", PreToolUse),
		render:   denyOnly(renderExit2),
		FailOpen: "only exit code 2 blocks; other exit codes are warnings and the tool runs; there is no ask"})

	Droid = register(Host{Name: "droid", Display: "Factory Droid", ask: false,
		parse:    claudeLike(toolTable{"execute": shell, "bash": shell, "create": write, "write": write, "edit": edit, "multiedit": edit, "applypatch": patch, "apply_patch": patch}, PreToolUse),
		render:   renderClaude,
		FailOpen: "Claude-shaped: a hook that exits with anything but 0 or 2, crashes or times out does not block; whether ask is honoured is not documented"})

	Auggie = register(Host{Name: "auggie", Display: "Augment (Auggie)", ask: false,
		parse:    claudeLike(toolTable{"launch-process": shell, "bash": shell, "save-file": write, "str-replace-editor": edit, "write": write, "edit": edit}, PreToolUse),
		render:   denyOnly(renderExit2),
		FailOpen: "documented blocking is exit code 2 with the reason on stderr; other failures are not documented to block"})

	Kimi = register(Host{Name: "kimi", Display: "Kimi Code", ask: false,
		parse:    claudeLike(toolTable{"bash": shell, "shell": shell, "writefile": write, "write": write, "strreplacefile": edit, "edit": edit}, PreToolUse),
		render:   renderBoth,
		FailOpen: "hook errors, timeouts and non-zero exits fail open: the tool runs"})

	OpenCode = register(Host{Name: "opencode", Display: "opencode", ask: false,
		parse:    parseOpenCode,
		render:   renderOpenCode,
		FailOpen: "hooks are in-process plugins; agent-guard's plugin throws (blocks) unless the hook answers allow or has no opinion, so a crashed or missing hook blocks"})
)

// claudeLike parses a Claude-shaped event (snake_case or camelCase) whose
// event name is one of events (or absent) and maps tools by table.
func claudeLike(tools toolTable, events ...string) func([]byte) (Event, bool, error) {
	return func(data []byte) (Event, bool, error) {
		f, err := readObject(data, events[0])
		if err != nil {
			return Event{}, true, err
		}
		name := f.str("hook_event_name", "hookEventName")
		if name != "" && !oneOf(name, events) {
			return Event{HookEventName: name}, false, nil
		}
		if f.raw("toolResult", "tool_response", "tool_result") != nil {
			return Event{HookEventName: name}, false, nil // a post-tool event sent without its name
		}
		ev := commonFields(f)
		ev.HookEventName = PreToolUse
		tool := f.str("tool_name", "toolName")
		ev.ToolName = tool
		if tool == "" {
			return ev, true, fmt.Errorf("event: tool_name is missing")
		}
		k := tools.kind(tool)
		// Gemini describes an MCP call in mcp_context as well; trust it
		// when the tool name is not in mcp__server__tool form.
		var mctx fields
		if k == notJudged {
			if c, err := f.object("mcp_context"); err == nil && c.str("server_name") != "" {
				mctx, k = c, mcp
			}
		}
		in, err := f.object("tool_input", "toolInput", "toolArgs", "tool_args", "arguments")
		if k == notJudged {
			return notMapped(&ev, tool, in, err)
		}
		if err != nil && k == patch {
			// A patch tool whose input is the patch text itself (Codex's
			// freeform apply_patch). Anything else that is not an object
			// stays unreadable: the hook denies.
			if text := f.str("tool_input", "toolInput", "toolArgs", "tool_args", "arguments"); strings.Contains(text, "*** Begin Patch") ||
				strings.Contains(text, "\n+++ ") && strings.HasPrefix(strings.TrimSpace(text), "--- ") || strings.HasPrefix(text, "diff --git ") {
				in, err = fields{"command": marshal(text)}, nil
			}
		}
		if err != nil {
			return ev, true, err
		}
		if (k == edit || k == write) && viewCommand(in) {
			return ev, false, nil // an editor tool's "view": a read, not ours
		}
		if mctx != nil {
			tool = mcpName(mctx.str("server_name"), mctx.str("tool_name", "name"))
		}
		return ev, true, toCommon(&ev, k, tool, in)
	}
}

func commonFields(f fields) Event {
	return Event{
		SessionID:      f.str("session_id", "sessionId", "conversation_id", "trajectory_id", "sessionID"),
		Cwd:            f.firstString("cwd", "workspace_roots", "workspaceRoots"),
		PermissionMode: f.str("permission_mode", "permissionMode"),
		ToolUseID:      f.str("tool_use_id", "toolUseId", "tool_call_id", "toolCallId", "execution_id", "generation_id"),
	}
}

func oneOf(s string, list []string) bool {
	for _, l := range list {
		if strings.EqualFold(s, l) {
			return true
		}
	}
	return false
}

// Cursor: beforeShellExecution {command, cwd}, beforeMCPExecution
// {tool_name, tool_input, url|command}, and the catch-all preToolUse
// {tool_name, tool_input} (shell tool "Shell").
var cursorTools = toolTable{"shell": shell, "terminal": shell, "run_terminal_cmd": shell, "write": write, "edit": edit, "edit_file": edit, "search_replace": edit, "strreplace": edit, "multiedit": edit, "delete": shell, "delete_file": shell}

func parseCursor(data []byte) (Event, bool, error) {
	f, err := readObject(data, "preToolUse")
	if err != nil {
		return Event{}, true, err
	}
	ev := commonFields(f)
	name := f.str("hook_event_name", "hookEventName")
	switch name {
	case "beforeShellExecution":
		ev.HookEventName = PreToolUse
		return ev, true, toCommon(&ev, shell, "shell command", f)
	case "beforeMCPExecution":
		ev.HookEventName = PreToolUse
		in, err := f.object("tool_input", "arguments")
		if err != nil {
			return ev, true, err
		}
		server := f.str("server_name", "server", "mcp_server_name")
		if server == "" {
			server = serverFrom(f.str("url"), f.str("command"))
		}
		return ev, true, toCommon(&ev, mcp, mcpName(server, f.str("tool_name")), in)
	case "preToolUse", "":
		ev.HookEventName = PreToolUse
	default:
		return Event{HookEventName: name}, false, nil
	}
	tool := f.str("tool_name")
	if tool == "" {
		return ev, true, fmt.Errorf("event: tool_name is missing")
	}
	ev.ToolName = tool
	in, err := f.object("tool_input")
	if err != nil {
		return ev, true, err
	}
	if srv, t, ok := strings.Cut(strings.TrimPrefix(tool, "MCP:"), ":"); strings.HasPrefix(tool, "MCP:") && ok {
		return ev, true, toCommon(&ev, mcp, mcpName(srv, t), in)
	}
	k := cursorTools.kind(tool)
	if k == notJudged {
		return notMapped(&ev, tool, in, nil)
	}
	if strings.HasPrefix(strings.ToLower(tool), "delete") { // a deletion is judged as the rm that does it
		p := in.str(pathKeys...)
		if p == "" {
			return ev, true, fmt.Errorf("event: %s call without a file path", tool)
		}
		in = fields{"command": marshal("rm -- " + shellQuote(p))}
	}
	return ev, true, toCommon(&ev, k, tool, in)
}

// serverFrom names an MCP server Cursor identifies only by its URL or
// its launch command: the URL's host, or the command's program.
func serverFrom(url, command string) string {
	if url != "" {
		rest := url
		if _, after, ok := strings.Cut(url, "://"); ok {
			rest = after
		}
		host, _, _ := strings.Cut(rest, "/")
		return host
	}
	if w := strings.Fields(command); len(w) > 0 {
		return base(w[0])
	}
	return ""
}

// Windsurf: {agent_action_name, trajectory_id, execution_id, tool_info}.
func parseWindsurf(data []byte) (Event, bool, error) {
	f, err := readObject(data, "pre_run_command")
	if err != nil {
		return Event{}, true, err
	}
	name := f.str("agent_action_name")
	ev := commonFields(f)
	ev.HookEventName = PreToolUse
	info, err := f.object("tool_info")
	if err != nil {
		return ev, true, err
	}
	if c := info.str("cwd"); c != "" {
		ev.Cwd = c
	}
	switch name {
	case "pre_run_command":
		return ev, true, toCommon(&ev, shell, name, info)
	case "pre_write_code":
		return ev, true, toCommon(&ev, edit, name, info)
	case "pre_mcp_tool_use":
		args, err := info.object("mcp_tool_arguments")
		if err != nil {
			return ev, true, err
		}
		return ev, true, toCommon(&ev, mcp, mcpName(info.str("mcp_server_name"), info.str("mcp_tool_name")), args)
	case "":
		return ev, true, fmt.Errorf("event: agent_action_name is missing")
	}
	return Event{HookEventName: name}, false, nil
}

// opencode: agent-guard's own plugin sends {tool, args, sessionID, cwd}.
var opencodeTools = toolTable{"bash": shell, "write": write, "edit": edit, "multiedit": edit, "patch": patch, "apply_patch": patch}

func parseOpenCode(data []byte) (Event, bool, error) {
	f, err := readObject(data, "tool.execute.before")
	if err != nil {
		return Event{}, true, err
	}
	ev := commonFields(f)
	ev.HookEventName = PreToolUse
	tool := f.str("tool")
	ev.ToolName = tool
	if tool == "" {
		return ev, true, fmt.Errorf("event: tool is missing")
	}
	k := opencodeTools.kind(tool)
	in, err := f.object("args")
	if k == notJudged {
		return notMapped(&ev, tool, in, err)
	}
	if err != nil {
		return ev, true, err
	}
	return ev, true, toCommon(&ev, k, tool, in)
}

// denyOnly prints nothing for allow: on these hosts an explicit allow is
// unsupported (Codex fails it open) or skips the host's own checks, and
// no output with exit 0 is "proceed as you would".
func denyOnly(render func(decision, reason string) Output) func(string, string) Output {
	return func(decision, reason string) Output {
		if decision == Allow {
			return Output{}
		}
		return render(decision, reason)
	}
}

type geminiOutput struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason"`
}

func renderGemini(decision, reason string) Output {
	return Output{Stdout: jsonLine(geminiOutput{decision, reason})}
}

type cursorOutput struct {
	Permission   string `json:"permission"`
	UserMessage  string `json:"user_message,omitempty"`
	AgentMessage string `json:"agent_message,omitempty"`
}

// renderCursor always answers: with failClosed an empty answer is a refusal.
func renderCursor(decision, reason string) Output {
	if decision == Allow {
		return Output{Stdout: jsonLine(cursorOutput{Permission: Allow})}
	}
	return Output{Stdout: jsonLine(cursorOutput{decision, reason, reason})}
}

type copilotOutput struct {
	PermissionDecision       string `json:"permissionDecision"`
	PermissionDecisionReason string `json:"permissionDecisionReason"`
}

func renderCopilot(decision, reason string) Output {
	return Output{Stdout: jsonLine(copilotOutput{decision, reason})}
}

// renderBoth denies in both of Kimi Code's documented ways at once: the
// Claude-style JSON and exit 2 with the reason on stderr, so either reading
// blocks. Allow stays the plain Claude-style JSON with exit 0.
func renderBoth(decision, reason string) Output {
	o := renderClaude(decision, reason)
	if decision != Allow {
		o.Stderr, o.Code = []byte(reason+"\n"), 2
	}
	return o
}

// renderExit2 is the exit-code dialect: exit 2 blocks, stderr is the reason.
func renderExit2(decision, reason string) Output {
	return Output{Stderr: []byte(reason + "\n"), Code: 2}
}

type opencodeOutput struct {
	Decision string `json:"decision"`
	Reason   string `json:"reason,omitempty"`
}

func renderOpenCode(decision, reason string) Output {
	if decision == Allow {
		return Output{Stdout: jsonLine(opencodeOutput{Decision: Allow})}
	}
	return Output{Stdout: jsonLine(opencodeOutput{decision, reason})}
}
