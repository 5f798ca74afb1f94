package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/install"
)

// The Amp plugin agent-guard installs, loaded by a real JavaScript runtime
// (node; Amp itself runs plugins on Bun) with an amp object shaped as
// cc-safety-net's Amp plugin uses it (on("tool.call"), helpers.
// shellCommandFromToolCall, helpers.filePathFromURI, system.workspaceRoot):
// a red line and an edit of the plugin file itself are rejected, git
// status and tools we do not judge are allowed, and a hook that cannot
// start rejects.
func TestAmpPlugin(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed (scripts/deps.sh installs nodejs)")
	}
	e := newEnv(t)
	e.vars = append(e.vars, "AGENT_GUARD_HOME="+t.TempDir())
	// Where install puts the plugin for the hook's environment
	// (newEnv sets XDG_CONFIG_HOME=home/xdg-config).
	plugin := filepath.Join(e.home, "xdg-config", "amp", "plugins", "agent-guard.ts")
	dir := t.TempDir()
	write := func(name, hookPath string) string {
		src, err := install.Apply(install.Amp, nil, install.Hook{Path: hookPath, Guard: guardBin, Timing: install.TimingFor(30)})
		if err != nil {
			t.Fatal(err)
		}
		// The plugin is plain JavaScript in a .ts file; node loads it as a module.
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, src, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("agent-guard.mjs", hookBin)
	broken := write("broken.mjs", filepath.Join(dir, "no-such-hook"))
	driver := filepath.Join(dir, "driver.mjs")
	os.WriteFile(driver, []byte(`
import { pathToFileURL } from "node:url";
const [plugin, tool, input] = process.argv.slice(2);
const { default: register } = await import(pathToFileURL(plugin).href);
let handler;
const amp = {
  on(name, fn) { if (name === "tool.call") handler = fn; },
  system: { workspaceRoot: "file:///home/dev/proj" },
  helpers: {
    filePathFromURI: (u) => new URL(u).pathname,
    shellCommandFromToolCall: (ev) => ev.tool === "Bash" ? { command: ev.input.cmd, dir: ev.input.cwd } : null,
  },
};
register(amp);
const r = await handler({ tool, input: JSON.parse(input), thread: { id: "T-e2e" } });
console.log(JSON.stringify(r));
`), 0o600)
	run := func(plugin, tool, input string) (string, string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, node, driver, plugin, tool, input)
		cmd.Env = e.vars
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("node: %v\n%s%s", err, out.String(), errb.String())
		}
		var r struct {
			Action  string
			Message string
		}
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("driver output %q: %v", out.String(), err)
		}
		return r.Action, r.Message
	}
	const rejected = "reject-and-continue"
	if a, msg := run(good, "Bash", `{"cmd":"rm -rf /"}`); a != rejected || !strings.Contains(msg, "agent-guard") {
		t.Errorf("red line: %s %q", a, msg)
	}
	if a, msg := run(good, "Bash", `{"cmd":"git status"}`); a != "allow" {
		t.Errorf("git status: %s %q", a, msg)
	}
	edit, _ := json.Marshal(map[string]string{"path": plugin, "old_str": "spawnSync(", "new_str": "(() => ({status: 0, stdout: ''}))("})
	if a, msg := run(good, "edit_file", string(edit)); a != rejected {
		t.Errorf("edit of the plugin itself: %s %q", a, msg)
	}
	other, _ := json.Marshal(map[string]string{"path": filepath.Join(filepath.Dir(plugin), "notes.md"), "old_str": "a", "new_str": "b"})
	if a, msg := run(good, "edit_file", string(other)); a != "allow" {
		t.Errorf("edit of a file beside the plugin: %s %q", a, msg)
	}
	if a, msg := run(good, "Read", `{"path":"/home/dev/proj/a"}`); a != "allow" {
		t.Errorf("a tool we do not judge: %s %q", a, msg)
	}
	if a, msg := run(good, "create_file", `{"path":"/etc/sudoers","content":"dev ALL=(ALL) NOPASSWD:ALL"}`); a != rejected {
		t.Errorf("create /etc/sudoers: %s %q", a, msg)
	}
	if a, msg := run(broken, "Bash", `{"cmd":"git status"}`); a != rejected || !strings.Contains(msg, "the hook failed") {
		t.Errorf("a hook that cannot start must reject: %s %q", a, msg)
	}
}
