package install

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

// ampPlugin is Amp's plugin file (jsplugin.go).
var ampPlugin = jsPlugin{host: Amp, marker: ampMarker, template: ampTemplate, register: `amp.on("tool.call"`, label: "Amp plugin"}
