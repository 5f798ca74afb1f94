package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
)

// Amp: its permission rules can "delegate" to a program, but we found no
// public description of what that program is sent or must answer, so
// agent-guard uses Amp's plugin API instead, as the npm package
// cc-safety-net (2.4.5) does: a plugin in ~/.config/amp/plugins whose
// default export registers amp.on("tool.call", ...) and answers
// {action: "allow"} or {action: "reject-and-continue", message}. Ours
// runs agent-guard-hook synchronously (spawnSync: no reliance on Amp
// awaiting a promise) and rejects unless the hook answers allow or has no
// opinion. The whole file is ours, like opencode's plugin.
const ampMarker = "// agent-guard plugin for Amp: written by `agent-guard install --amp`"

const ampTemplate = ampMarker + `; ` + "`agent-guard uninstall --amp`" + ` removes it.
// Runs agent-guard-hook before every tool call. A hook that cannot start,
// fails, times out or answers anything but allow rejects the call.
import { spawnSync } from "node:child_process";

const HOOK = %s;
const ARGS = %s;
const TIMEOUT_MS = %d;

function shellCommand(amp, event) {
  try {
    const c = amp.helpers.shellCommandFromToolCall(event);
    return c && typeof c.command === "string" && c.command !== "" ? c : null;
  } catch (e) {
    return null;
  }
}

function workspace(amp) {
  try {
    const uri = amp.system && amp.system.workspaceRoot;
    return uri ? String(amp.helpers.filePathFromURI(uri)) : "";
  } catch (e) {
    return "";
  }
}

function reject(message) {
  return { action: "reject-and-continue", message };
}

function judge(amp, event) {
  const sh = shellCommand(amp, event);
  const call = {
    tool: event && event.tool,
    input: event && event.input,
    threadId: event && event.thread && event.thread.id,
    cwd: workspace(amp),
    command: sh ? sh.command : undefined,
    dir: sh && typeof sh.dir === "string" ? sh.dir : undefined,
  };
  const r = spawnSync(HOOK, ARGS, { input: JSON.stringify(call), encoding: "utf8", timeout: TIMEOUT_MS, windowsHide: true });
  if (r.error || r.status !== 0) {
    const why = r.error ? String(r.error.message || r.error) : ((r.stderr || "").trim() || "exit " + r.status);
    return reject("agent-guard: the hook failed (" + why + "); the call is blocked. Tell the user to run 'agent-guard doctor'.");
  }
  const text = (r.stdout || "").trim();
  if (text === "") return { action: "allow" }; // a tool agent-guard does not judge
  let d = null;
  try { d = JSON.parse(text); } catch (e) { d = null; }
  if (!d || d.decision !== "allow") {
    return reject((d && d.reason) || "agent-guard: unreadable answer from the hook; the call is blocked.");
  }
  return { action: "allow" };
}

export default function (amp) {
  amp.on("tool.call", (event) => {
    try {
      return judge(amp, event);
    } catch (e) {
      return reject("agent-guard: the plugin failed (" + String(e) + "); the call is blocked.");
    }
  });
}
`

func ampPlugin(h Hook) ([]byte, error) {
	return []byte(fmt.Sprintf(ampTemplate, mustMarshal(h.Path), mustMarshal(h.hookArgs(Amp)), h.HostTimeout.Milliseconds())), nil
}

func isAmpPlugin(data []byte) bool {
	return bytes.HasPrefix(bytes.TrimLeft(data, "\ufeff \n"), []byte(ampMarker))
}

func applyAmp(data []byte, h Hook) ([]byte, error) {
	if len(bytes.TrimSpace(data)) > 0 && !isAmpPlugin(data) {
		return nil, fmt.Errorf("the file is not agent-guard's plugin (it does not start with %q); move it away, nothing was changed", ampMarker)
	}
	return ampPlugin(h)
}

var (
	ampHook    = lazyre.New(`(?m)^const HOOK = (.*);$`)
	ampArgs    = lazyre.New(`(?m)^const ARGS = (.*);$`)
	ampTimeout = lazyre.New(`(?m)^const TIMEOUT_MS = (\d+);$`)
)

func inspectAmp(data []byte) (*Installed, error) {
	if !isAmpPlugin(data) {
		return nil, nil
	}
	in := &Installed{Enabled: true, Count: 1}
	if m := ampHook.Re().FindSubmatch(data); m != nil {
		_ = json.Unmarshal(m[1], &in.Command)
	}
	if m := ampArgs.Re().FindSubmatch(data); m != nil {
		_ = json.Unmarshal(m[1], &in.Args)
	}
	in.Deadline = hookView{Args: in.Args}.deadline()
	if m := ampTimeout.Re().FindSubmatch(data); m != nil {
		var ms int64
		fmt.Sscan(string(m[1]), &ms)
		in.HostTimeout = time.Duration(ms) * time.Millisecond
	}
	if in.Command == "" || !strings.Contains(string(data), `amp.on("tool.call"`) {
		return nil, fmt.Errorf("agent-guard's Amp plugin file is damaged; reinstall with agent-guard install --amp")
	}
	return in, nil
}
