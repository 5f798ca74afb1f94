package hostproto

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Cline and Antigravity CLI. Sources: docs.cline.bot hook reference
// (PreToolUse input, {"cancel","contextModification","errorMessage"}
// output) and Cline's tool names (execute_command {command},
// write_to_file {path, content}, replace_in_file {path, diff},
// use_mcp_tool {server_name, tool_name, arguments}); Antigravity CLI's
// event {toolCall{name,args}, conversationId, workspacePaths} and
// run_command {CommandLine, Cwd} as the npm package cc-safety-net 2.4.5
// reads them (its antigravity-cli hook), deny as {"decision","reason"}.
var (
	Cline = register(Host{Name: "cline", Display: "Cline", ask: false,
		parse:    parseCline,
		render:   renderCline,
		silent:   func() Output { return renderCline(Allow, "") },
		FailOpen: `a hook that fails, times out or prints no JSON is not documented to block; agent-guard always answers {"cancel": ...} and there is no ask`})

	Antigravity = register(Host{Name: "antigravity", Display: "Antigravity CLI", ask: false,
		parse:    parseAntigravity,
		render:   denyOnly(renderGemini),
		FailOpen: `"ask" and its permission overrides are unreliable (google-antigravity/antigravity-cli#1059); what a failed or timed-out hook does is not documented, so agent-guard answers deny as JSON and prints nothing to allow`})
)

// clineTools are Cline's tool names; read_file, list_files and the like
// are not judged.
var clineTools = toolTable{"execute_command": shell, "write_to_file": write, "new_rule": write, "replace_in_file": edit, "apply_patch": patch}

func parseCline(data []byte) (Event, bool, error) {
	f, err := readObject(data, "PreToolUse")
	if err != nil {
		return Event{}, true, err
	}
	if name := f.str("hookName"); name != "" && name != PreToolUse {
		return Event{HookEventName: name}, false, nil
	}
	ev := Event{HookEventName: PreToolUse, SessionID: f.str("taskId"), Cwd: f.firstString("workspaceRoots")}
	if f.raw("preToolUse") == nil {
		return ev, true, fmt.Errorf("event: preToolUse is missing (Cline sends {hookName, preToolUse{toolName, parameters}}); is the hook file named PreToolUse?")
	}
	pre, err := f.object("preToolUse")
	if err != nil {
		return ev, true, err
	}
	tool := pre.str("toolName")
	ev.ToolName = tool
	if tool == "" {
		return ev, true, fmt.Errorf("event: preToolUse.toolName is missing")
	}
	in, err := pre.object("parameters")
	if err != nil {
		return ev, true, err
	}
	if strings.EqualFold(tool, "use_mcp_tool") {
		args, err := in.object("arguments")
		if err != nil {
			return ev, true, err
		}
		return ev, true, toCommon(&ev, mcp, mcpName(in.str("server_name"), in.str("tool_name")), args)
	}
	if strings.EqualFold(tool, "attempt_completion") {
		// Cline runs the command attempt_completion may carry (to show
		// the result: "open index.html"); without one it runs nothing.
		if in.str("command") == "" {
			return ev, false, nil
		}
		return ev, true, toCommon(&ev, shell, tool, fields{"command": in["command"]})
	}
	k := clineTools.kind(tool)
	if k == notJudged {
		return notMapped(&ev, tool, in, nil)
	}
	if strings.EqualFold(tool, "replace_in_file") {
		p := in.str(pathKeys...)
		if p == "" {
			return ev, true, fmt.Errorf("event: replace_in_file call without a file path")
		}
		diff := in.str("diff")
		edits := searchReplace(diff)
		if len(edits) == 0 { // a diff we cannot split: judge its whole text as the new text
			edits = []editInput{{FilePath: p, NewString: diff}}
		}
		if len(edits) == 1 {
			ev.ToolName, ev.ToolInput = "Edit", marshal(editInput{p, edits[0].OldString, edits[0].NewString})
			return ev, true, nil
		}
		type e struct {
			OldString string `json:"old_string"`
			NewString string `json:"new_string"`
		}
		list := make([]e, len(edits))
		for i, x := range edits {
			list[i] = e{x.OldString, x.NewString}
		}
		ev.ToolName, ev.ToolInput = "MultiEdit", marshal(struct {
			FilePath string `json:"file_path"`
			Edits    []e    `json:"edits"`
		}{p, list})
		return ev, true, nil
	}
	return ev, true, toCommon(&ev, k, tool, in)
}

// searchReplace splits Cline's replace_in_file diff into its blocks:
// "------- SEARCH" (or "<<<<<<< SEARCH"), the old text, "=======", the
// new text, "+++++++ REPLACE" (or ">>>>>>> REPLACE").
func searchReplace(diff string) []editInput {
	var out []editInput
	var old, nw []string
	state := 0 // 0 outside, 1 search, 2 replace
	for _, line := range strings.Split(strings.ReplaceAll(diff, "\r\n", "\n"), "\n") {
		t := strings.TrimSpace(line)
		switch {
		case state == 0 && strings.HasSuffix(t, " SEARCH") && (strings.HasPrefix(t, "-------") || strings.HasPrefix(t, "<<<<<<<")):
			state, old, nw = 1, nil, nil
		case state == 1 && t == "=======":
			state = 2
		case state == 2 && strings.HasSuffix(t, " REPLACE") && (strings.HasPrefix(t, "+++++++") || strings.HasPrefix(t, ">>>>>>>")):
			out = append(out, editInput{OldString: strings.Join(old, "\n"), NewString: strings.Join(nw, "\n")})
			state = 0
		case state == 1:
			old = append(old, line)
		case state == 2:
			nw = append(nw, line)
		}
	}
	return out
}

type clineOutput struct {
	Cancel       bool   `json:"cancel"`
	ErrorMessage string `json:"errorMessage,omitempty"`
}

// renderCline always answers with JSON: {"cancel": false} to proceed.
func renderCline(decision, reason string) Output {
	if decision == Allow {
		return Output{Stdout: jsonLine(clineOutput{})}
	}
	return Output{Stdout: jsonLine(clineOutput{true, reason})}
}

// antigravityTools: run_command is the shell; the file tools are judged by
// their target (their argument names are PascalCase).
var antigravityTools = toolTable{"run_command": shell, "write_to_file": write, "replace_file_content": edit, "multi_replace_file_content": edit}

func parseAntigravity(data []byte) (Event, bool, error) {
	f, err := readObject(data, "PreToolUse")
	if err != nil {
		return Event{}, true, err
	}
	if name := f.str("hook_event_name", "hookEventName", "event"); name != "" && name != PreToolUse {
		return Event{HookEventName: name}, false, nil
	}
	ev := Event{HookEventName: PreToolUse, SessionID: f.str("conversationId"), Cwd: f.firstString("workspacePaths")}
	if f.raw("toolCall") == nil {
		return ev, true, fmt.Errorf("event: toolCall is missing (Antigravity CLI sends {toolCall{name, args}, conversationId, workspacePaths}); is the hook installed under PreToolUse?")
	}
	tc, err := f.object("toolCall")
	if err != nil {
		return ev, true, err
	}
	tool := tc.str("name")
	ev.ToolName = tool
	if tool == "" {
		return ev, true, fmt.Errorf("event: toolCall.name is missing")
	}
	k := antigravityTools.kind(tool)
	args, err := tc.object("args", "arguments")
	if k == notJudged {
		return notMapped(&ev, tool, args, err)
	}
	if err != nil {
		return ev, true, err
	}
	if k == mcp {
		return ev, true, toCommon(&ev, k, tool, args)
	}
	in := fields{}
	for key, v := range args {
		in[key] = v
	}
	// Antigravity's PascalCase names, to the common ones.
	rename := map[string]string{"CommandLine": "command", "Cwd": "cwd", "TargetFile": "file_path", "CodeContent": "content",
		"TargetContent": "old_string", "ReplacementContent": "new_string"}
	for from, to := range rename {
		if v, ok := args[from]; ok {
			if _, has := in[to]; !has {
				in[to] = v
			}
		}
	}
	if chunks := args["ReplacementChunks"]; k == edit && chunks != nil {
		var list []struct {
			TargetContent      string `json:"TargetContent"`
			ReplacementContent string `json:"ReplacementContent"`
		}
		if json.Unmarshal(chunks, &list) == nil && len(list) > 0 {
			edits := make([]map[string]string, len(list))
			for i, c := range list {
				edits[i] = map[string]string{"old_string": c.TargetContent, "new_string": c.ReplacementContent}
			}
			in["edits"] = marshal(edits)
		}
	}
	return ev, true, toCommon(&ev, k, tool, in)
}

// Amp has no process hooks that we could establish (its permission rules'
// "delegate" protocol is not in any public source we found): agent-guard
// installs an Amp plugin instead, the integration cc-safety-net 2.4.5
// ships (amp.on("tool.call") answering {action: "allow"} or
// {action: "reject-and-continue", message}). Our plugin sends the hook
// {tool, input, threadId, cwd} plus {command, dir} when Amp's own
// helper (shellCommandFromToolCall) says the call runs a shell command,
// and reads back the opencode-style {"decision","reason"}.
var Amp = register(Host{Name: "amp", Display: "Amp", ask: false,
	parse:    parseAmp,
	render:   renderOpenCode,
	FailOpen: "plugins run in-process; agent-guard's plugin rejects the call unless the hook answers allow or has no opinion, so a crashed, missing or slow hook blocks"})

// ampTools are Amp's tool names (Bash {cmd, cwd}, edit_file {path,
// old_str, new_str}, create_file {path, content}); the shell is found by
// Amp's own helper first.
var ampTools = toolTable{"bash": shell, "edit_file": edit, "create_file": write, "apply_patch": patch}

func parseAmp(data []byte) (Event, bool, error) {
	f, err := readObject(data, "tool.call")
	if err != nil {
		return Event{}, true, err
	}
	ev := Event{HookEventName: PreToolUse, SessionID: f.str("threadId"), Cwd: f.str("cwd")}
	tool := f.str("tool")
	ev.ToolName = tool
	if tool == "" {
		return ev, true, fmt.Errorf("event: tool is missing (agent-guard's Amp plugin sends {tool, input, threadId, cwd}); reinstall with agent-guard install --amp")
	}
	if cmd := f.str("command"); cmd != "" { // Amp's helper read a shell command out of this call
		in := fields{"command": marshal(cmd)}
		if dir := f.str("dir"); dir != "" {
			in["cwd"] = marshal(dir)
		}
		return ev, true, toCommon(&ev, shell, tool, in)
	}
	k := ampTools.kind(tool)
	in, err := f.object("input")
	if k == notJudged {
		return notMapped(&ev, tool, in, err)
	}
	if err != nil {
		return ev, true, err
	}
	return ev, true, toCommon(&ev, k, tool, in)
}
