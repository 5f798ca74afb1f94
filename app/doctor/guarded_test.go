package doctor

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/depend"
)

func TestCheckGuardedReportsPendingUnguardedAndMode(t *testing.T) {
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "config.json")
	if _, err := config.Load(cfgPath); err != nil { // first run: the record
		t.Fatal(err)
	}
	var buf bytes.Buffer
	r := &report{w: &buf}
	hook := filepath.Join(dir, "agent-guard-hook")
	os.WriteFile(hook, []byte("x"), 0o700)
	if os.Geteuid() == 0 {
		os.Chown(hook, 65534, 65534) // a user's file, as without sudo
	}
	checkGuarded(r, cfgPath, []installedHook{{host: "claude", path: hook}})
	if r.failed || !strings.Contains(buf.String(), "install mode: user") {
		t.Fatalf("clean setup:\n%s", buf.String())
	}
	os.WriteFile(cfgPath, []byte(`{"enabled": false}`), 0o600)
	os.WriteFile(filepath.Join(dir, depend.StatusFile), []byte(`{"problems":["our hook entry was removed from Claude Code"]}`), 0o600)
	buf.Reset()
	r = &report{w: &buf}
	checkGuarded(r, cfgPath, nil)
	out := buf.String()
	if !r.failed || !strings.Contains(out, "1 change(s)") || !strings.Contains(out, "config show-pending") || !strings.Contains(out, "removed from Claude Code") {
		t.Fatalf("tampered setup:\n%s", out)
	}
	if c, _ := config.Peek(cfgPath); !c.InForce.Enabled {
		t.Fatal("doctor's look put the weakening in force")
	}
}
