package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
)

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

func opencodePlugin(h Hook) ([]byte, error) {
	args := h.hookArgs(OpenCode)
	return []byte(fmt.Sprintf(opencodeTemplate, mustMarshal(h.Path), mustMarshal(args), h.HostTimeout.Milliseconds())), nil
}

func isOpencodePlugin(data []byte) bool {
	return bytes.HasPrefix(bytes.TrimLeft(data, "\ufeff \n"), []byte(opencodeMarker))
}

// applyOpencode refuses to overwrite a file at our path that is not ours.
func applyOpencode(data []byte, h Hook) ([]byte, error) {
	if len(bytes.TrimSpace(data)) > 0 && !isOpencodePlugin(data) {
		return nil, fmt.Errorf("the file is not agent-guard's plugin (it does not start with %q); move it away, nothing was changed", opencodeMarker)
	}
	return opencodePlugin(h)
}

var (
	opencodeHook    = lazyre.New(`(?m)^const HOOK = (.*);$`)
	opencodeArgs    = lazyre.New(`(?m)^const ARGS = (.*);$`)
	opencodeTimeout = lazyre.New(`(?m)^const TIMEOUT_MS = (\d+);$`)
)

func inspectOpencode(data []byte) (*Installed, error) {
	if !isOpencodePlugin(data) {
		return nil, nil
	}
	in := &Installed{Enabled: true, Count: 1}
	if m := opencodeHook.Re().FindSubmatch(data); m != nil {
		_ = json.Unmarshal(m[1], &in.Command)
	}
	if m := opencodeArgs.Re().FindSubmatch(data); m != nil {
		_ = json.Unmarshal(m[1], &in.Args)
	}
	in.Deadline = hookView{Args: in.Args}.deadline()
	if m := opencodeTimeout.Re().FindSubmatch(data); m != nil {
		var ms int64
		fmt.Sscan(string(m[1]), &ms)
		in.HostTimeout = time.Duration(ms) * time.Millisecond
	}
	if in.Command == "" || !strings.Contains(string(data), `"tool.execute.before"`) {
		return nil, fmt.Errorf("agent-guard's plugin file is damaged; reinstall with agent-guard install --opencode")
	}
	return in, nil
}
