package hostproto

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// ShellEvent is the event the host sends before running command in cwd,
// in its own dialect: what doctor and the end-to-end tests feed the real
// hook to prove that host's deny is honoured.
func (h Host) ShellEvent(command, cwd, session string) []byte {
	var v any
	switch h.Name {
	case "windsurf":
		v = map[string]any{"agent_action_name": "pre_run_command", "trajectory_id": session, "execution_id": session + "-1",
			"timestamp": "2026-01-01T00:00:00Z", "tool_info": map[string]string{"command_line": command, "cwd": cwd}}
	case "cursor":
		v = map[string]any{"hook_event_name": "beforeShellExecution", "conversation_id": session, "generation_id": session + "-1",
			"workspace_roots": []string{cwd}, "command": command, "cwd": cwd}
	case "copilot":
		args, _ := json.Marshal(map[string]string{"command": command})
		v = map[string]any{"timestamp": 1767225600000, "cwd": cwd, "toolName": "bash", "toolArgs": string(args)}
	case "gemini":
		v = map[string]any{"hook_event_name": "BeforeTool", "session_id": session, "cwd": cwd, "timestamp": "2026-01-01T00:00:00Z",
			"tool_name": "run_shell_command", "tool_input": map[string]string{"command": command}}
	case "qwen":
		v = claudeShell("run_shell_command", command, cwd, session, PreToolUse)
	case "kiro":
		v = claudeShell("execute_bash", command, cwd, session, "preToolUse")
	case "droid":
		v = claudeShell("Execute", command, cwd, session, PreToolUse)
	case "auggie":
		v = claudeShell("launch-process", command, cwd, session, PreToolUse)
	case "kimi":
		v = claudeShell("Shell", command, cwd, session, PreToolUse)
	case "opencode":
		v = map[string]any{"tool": "bash", "sessionID": session, "cwd": cwd, "args": map[string]string{"command": command}}
	case "cline":
		v = map[string]any{"clineVersion": "3.36.0", "hookName": PreToolUse, "timestamp": "1767225600000", "taskId": session,
			"workspaceRoots": []string{cwd}, "userId": "", "preToolUse": map[string]any{"toolName": "execute_command",
				"parameters": map[string]string{"command": command, "requires_approval": "false"}}}
	case "antigravity":
		v = map[string]any{"conversationId": session, "workspacePaths": []string{cwd}, "transcriptPath": "", "stepIdx": 1,
			"toolCall": map[string]any{"name": "run_command", "args": map[string]any{"CommandLine": command, "Cwd": cwd}}}
	case "amp":
		v = map[string]any{"tool": "Bash", "threadId": session, "cwd": cwd, "input": map[string]string{"cmd": command, "cwd": cwd},
			"command": command, "dir": cwd}
	default: // zcode, claude, codex
		v = claudeShell("Bash", command, cwd, session, PreToolUse)
	}
	return marshal(v)
}

func claudeShell(tool, command, cwd, session, event string) map[string]any {
	return map[string]any{"hook_event_name": event, "session_id": session, "cwd": cwd, "tool_name": tool,
		"tool_input": map[string]string{"command": command}, "permission_mode": "bypassPermissions"}
}

// HostDecision reads a hook's output the way the host does and says what
// the host will do: allow (run the tool), ask, or deny. err says the
// output is not one the host understands; decision is then what the host
// does with such output (its fail-open or fail-closed behaviour).
func (h Host) HostDecision(o Output) (decision, reason string, err error) {
	stdout := bytes.TrimSpace(o.Stdout)
	exit2 := func() (string, string, error) {
		return Deny, strings.TrimSpace(string(o.Stderr)), nil
	}
	switch h.Name {
	case "windsurf", "kiro", "auggie":
		switch o.Code {
		case 2:
			return exit2()
		case 0:
			return Allow, "", nil
		}
		return Allow, "", fmt.Errorf("exit code %d is not a block on %s: the tool runs", o.Code, h.Display)
	case "opencode", "amp": // agent-guard's plugins: anything but allow or silence blocks
		if o.Code != 0 {
			return Deny, strings.TrimSpace(string(o.Stderr)), nil
		}
		if len(stdout) == 0 {
			return Allow, "", nil
		}
		var d opencodeOutput
		if json.Unmarshal(stdout, &d) != nil || d.Decision != Allow {
			return Deny, d.Reason, nil
		}
		return Allow, d.Reason, nil
	}
	if o.Code == 2 && h.Name != "codex" && h.Name != "cursor" {
		return exit2()
	}
	if o.Code != 0 {
		if h.Name == "cursor" {
			return Deny, "", fmt.Errorf("exit code %d is a hook failure; failClosed makes it a refusal", o.Code)
		}
		return Allow, "", fmt.Errorf("exit code %d is a hook failure on %s: the tool runs", o.Code, h.Display)
	}
	if len(stdout) == 0 {
		if h.Name == "cursor" {
			return Deny, "", fmt.Errorf("no answer; failClosed makes it a refusal")
		}
		return Allow, "", nil // no opinion: the host's own policy decides
	}
	bad := func(e error) (string, string, error) {
		if h.Name == "cursor" {
			return Deny, "", fmt.Errorf("unreadable answer %q (%v); failClosed makes it a refusal", stdout, e)
		}
		return Allow, "", fmt.Errorf("unreadable answer %q (%v): %s runs the tool", stdout, e, h.Display)
	}
	switch h.Name {
	case "cline":
		var d struct {
			Cancel              bool   `json:"cancel"`
			ContextModification string `json:"contextModification"`
			ErrorMessage        string `json:"errorMessage"`
		}
		if err := strictJSON(stdout, &d); err != nil {
			return bad(err)
		}
		if d.Cancel {
			return Deny, d.ErrorMessage, nil
		}
		return Allow, "", nil
	case "gemini", "antigravity":
		var d geminiOutput
		if err := strictJSON(stdout, &d); err != nil {
			return bad(err)
		}
		if d.Decision == "block" {
			d.Decision = Deny
		}
		return d.Decision, d.Reason, nil
	case "cursor":
		var d cursorOutput
		if err := strictJSON(stdout, &d); err != nil {
			return bad(err)
		}
		return d.Permission, d.AgentMessage, nil
	case "copilot":
		var d copilotOutput
		if err := strictJSON(stdout, &d); err != nil {
			return bad(err)
		}
		return d.PermissionDecision, d.PermissionDecisionReason, nil
	}
	var d claudeOutput
	if err := strictJSON(stdout, &d); err != nil || d.HookSpecificOutput.HookEventName != PreToolUse {
		return bad(err)
	}
	dec := d.HookSpecificOutput.PermissionDecision
	if h.Name == "codex" && dec != Deny {
		return Allow, "", fmt.Errorf("%q is not supported by Codex: the hook counts as failed and the tool runs", dec)
	}
	return dec, d.HookSpecificOutput.PermissionDecisionReason, nil
}

func strictJSON(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("more than one JSON value")
	}
	return nil
}
