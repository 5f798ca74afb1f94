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

// The opencode plugin agent-guard installs, loaded by a real JavaScript
// runtime (node; opencode itself runs on Bun) and called as opencode calls
// tool.execute.before: a red line throws (the call is blocked), a harmless
// command and a tool we do not judge pass, and a hook that cannot start
// blocks too.
func TestOpencodePlugin(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed (scripts/deps.sh installs nodejs)")
	}
	e := newEnv(t)
	dir := t.TempDir()
	write := func(name, hookPath string) string {
		src, err := install.Apply(install.OpenCode, nil, install.Hook{Path: hookPath, Guard: guardBin, Timing: install.TimingFor(30)})
		if err != nil {
			t.Fatal(err)
		}
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
const [plugin, tool, args] = process.argv.slice(2);
const { AgentGuard } = await import(plugin);
const hooks = await AgentGuard({ directory: "/home/dev/proj", project: {}, client: {}, $: null });
try {
  await hooks["tool.execute.before"]({ tool, sessionID: "oc-1", callID: "call-1" }, { args: JSON.parse(args) });
  console.log(JSON.stringify({ blocked: false }));
} catch (e) {
  console.log(JSON.stringify({ blocked: true, message: String(e.message) }));
}
`), 0o600)
	run := func(plugin, tool, args string) (bool, string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, node, driver, plugin, tool, args)
		cmd.Env = e.vars
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("node: %v\n%s%s", err, out.String(), errb.String())
		}
		var r struct {
			Blocked bool
			Message string
		}
		if err := json.Unmarshal(out.Bytes(), &r); err != nil {
			t.Fatalf("driver output %q: %v", out.String(), err)
		}
		return r.Blocked, r.Message
	}
	if blocked, msg := run(good, "bash", `{"command":"rm -rf /"}`); !blocked || !strings.Contains(msg, "agent-guard") {
		t.Errorf("red line: blocked=%v %q", blocked, msg)
	}
	if blocked, msg := run(good, "bash", `{"command":"git status"}`); blocked {
		t.Errorf("git status blocked: %q", msg)
	}
	if blocked, msg := run(good, "read", `{"filePath":"/home/dev/proj/a"}`); blocked {
		t.Errorf("a tool we do not judge was blocked: %q", msg)
	}
	if blocked, msg := run(good, "write", `{"filePath":"/etc/sudoers","content":"dev ALL=(ALL) NOPASSWD:ALL"}`); !blocked {
		t.Errorf("write to /etc/sudoers passed: %q", msg)
	}
	if blocked, msg := run(broken, "bash", `{"command":"git status"}`); !blocked || !strings.Contains(msg, "the hook failed") {
		t.Errorf("a hook that cannot start must block: blocked=%v %q", blocked, msg)
	}
}
