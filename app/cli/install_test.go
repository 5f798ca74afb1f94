package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-guard/agent-guard/app/autostart"
)

func TestInstallVerbs(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("AGENT_GUARD_HOME", filepath.Join(home, "guard"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	hook := filepath.Join(t.TempDir(), "agent-guard-hook")
	if err := os.WriteFile(hook, []byte("x"), 0o755); err != nil {
		t.Fatal(err)
	}
	zcodeCfg := filepath.Join(home, ".zcode", "cli", "config.json")
	// A config with a 30 s approval timeout sets the hook's timing.
	if err := os.MkdirAll(filepath.Join(home, "guard"), 0o700); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(home, "guard", "config.json"), []byte(`{"approval":{"timeout_seconds":30}}`), 0o600)

	steps := []struct {
		args     []string
		code     int
		out      []string // in stdout
		err      string   // in stderr
		zcodeCfg bool     // ZCode's config exists afterwards
	}{
		{[]string{"install"}, 1, nil, "found no agent host here", false},
		{[]string{"install", "--nosuchhost"}, 2, nil, "flag provided but not defined: -nosuchhost", false},
		{[]string{"install", "--zcode", "extra"}, 2, nil, `unexpected argument "extra"`, false},
		{[]string{"install", "--zcode", "--hook", hook + ".missing"}, 1, nil, "--hook " + hook + ".missing", false},
		{[]string{"install", "--zcode", "--workspace", filepath.Join(home, "nope"), "--hook", hook}, 1, nil, "is not an existing folder", false},
		{[]string{"install", "--zcode", "--dry-run", "--hook", hook}, 0,
			[]string{"# ZCode (user): " + zcodeCfg + " (dry run, nothing written)", `"timeoutMs": 55000`, `"45s"`}, "", false},
		{[]string{"install", "--zcode", "--hook", hook}, 0,
			[]string{"ZCode (user): installed " + hook, "hook deadline 45s, host timeout 55s (approval timeout 30s"}, "", true},
		{[]string{"install", "--zcode", "--hook", hook}, 0, []string{"ZCode (user): already installed"}, "", true},
		{[]string{"uninstall", "--claude"}, 0, []string{"no agent-guard hook in"}, "", true},
		{[]string{"uninstall", "--zcode", "--dry-run"}, 0, []string{"(dry run, nothing written)", `"PreToolUse": []`}, "", true},
		{[]string{"uninstall", "--zcode"}, 0, []string{"removed the agent-guard hook from " + zcodeCfg, "backup: " + zcodeCfg + ".bak-"}, "", true},
	}
	for _, s := range steps {
		var out, errb bytes.Buffer
		code := Run(Env{Stdout: &out, Stderr: &errb}, s.args)
		name := strings.Join(s.args, " ")
		if code != s.code {
			t.Errorf("%s: exit %d, want %d\nstdout: %s\nstderr: %s", name, code, s.code, out.String(), errb.String())
		}
		for _, w := range s.out {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%s: stdout lacks %q:\n%s", name, w, out.String())
			}
		}
		if !strings.Contains(errb.String(), s.err) {
			t.Errorf("%s: stderr lacks %q:\n%s", name, s.err, errb.String())
		}
		if _, err := os.Stat(zcodeCfg); (err == nil) != s.zcodeCfg {
			t.Errorf("%s: ZCode config exists = %v, want %v", name, err == nil, s.zcodeCfg)
		}
	}
	b, _ := os.ReadFile(zcodeCfg)
	if strings.Contains(string(b), "agent-guard-hook") {
		t.Errorf("hook still in ZCode config after uninstall:\n%s", b)
	}
}

func TestInstallAutostart(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("AGENT_GUARD_HOME", filepath.Join(home, "guard"))
	var out bytes.Buffer
	if code := Run(Env{Stdout: &out, Stderr: &out}, []string{"install", "--autostart", "--dry-run"}); code != 0 || autostart.Enabled() {
		t.Fatalf("dry run: exit %d, enabled %v\n%s", code, autostart.Enabled(), out.String())
	}
	if code := Run(Env{Stdout: &out, Stderr: &out}, []string{"install", "--autostart"}); code != 0 || !autostart.Enabled() {
		t.Fatalf("install --autostart: exit %d, enabled %v\n%s", code, autostart.Enabled(), out.String())
	}
	if code := Run(Env{Stdout: &out, Stderr: &out}, []string{"uninstall", "--autostart"}); code != 0 || autostart.Enabled() {
		t.Fatalf("uninstall --autostart: exit %d, enabled %v\n%s", code, autostart.Enabled(), out.String())
	}
}
