package install

// opencode has no process hooks: its plugins run in-process. Ours is a
// small plugin file that spawns agent-guard-hook for every tool call and
// throws (blocks the call) unless the hook answers allow or has no
// opinion. The whole file is ours: install writes it, uninstall removes it.
const opencodeMarker = "// agent-guard plugin: written by `agent-guard install --opencode`"

const opencodeTemplate = opencodeMarker + `; ` + "`agent-guard uninstall --opencode`" + ` removes it.
// Runs agent-guard-hook before every tool call. A hook that cannot start,
// fails, times out or answers anything but allow blocks the call.
import { spawn } from "node:child_process";

const HOOK = %s;
const ARGS = %s;
const TIMEOUT_MS = %d;

function ask(event) {
  return new Promise((resolve) => {
    let out = "", err = "", done = false;
    const finish = (r) => { if (!done) { done = true; clearTimeout(timer); resolve(r); } };
    let child;
    try {
      child = spawn(HOOK, ARGS, { stdio: ["pipe", "pipe", "pipe"] });
    } catch (e) {
      return finish({ code: -1, out, err: String(e) });
    }
    const timer = setTimeout(() => { child.kill(); finish({ code: -1, out, err: "no answer within " + TIMEOUT_MS + " ms" }); }, TIMEOUT_MS);
    child.stdout.on("data", (d) => { out += d; });
    child.stderr.on("data", (d) => { err += d; });
    child.on("error", (e) => finish({ code: -1, out, err: String(e) }));
    child.on("close", (code) => finish({ code, out, err }));
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(event));
  });
}

export const AgentGuard = async ({ directory }) => ({
  "tool.execute.before": async (input, output) => {
    const r = await ask({ tool: input.tool, sessionID: input.sessionID, callID: input.callID, cwd: directory, args: output.args });
    if (r.code !== 0) {
      throw new Error("agent-guard: the hook failed (" + (r.err || "exit " + r.code).trim() + "); the call is blocked. Run 'agent-guard doctor'.");
    }
    const text = r.out.trim();
    if (text === "") return; // a tool agent-guard does not judge
    let d;
    try { d = JSON.parse(text); } catch (e) { d = null; }
    if (!d || d.decision !== "allow") {
      throw new Error((d && d.reason) || "agent-guard: unreadable answer from the hook; the call is blocked.");
    }
  },
});
`

// opencodePlugin is opencode's plugin file (jsplugin.go).
var opencodePlugin = jsPlugin{host: OpenCode, marker: opencodeMarker, template: opencodeTemplate, register: `"tool.execute.before"`, label: "plugin"}
