package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// With no host flag, install finds the hosts present (their config
// folders), installs into each and says what it did and what is left to
// do; a broken config of one host does not stop the others. uninstall
// with no flag removes every entry again.
func TestInstallFindsHosts(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("AGENT_GUARD_HOME", filepath.Join(home, "guard"))
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("CODEX_HOME", "")
	t.Setenv("COPILOT_HOME", "")
	t.Setenv("KIMI_CODE_HOME", "")
	dir := t.TempDir()
	// The release's names: .exe on Windows (the guard is found beside the
	// hook by that name).
	exe := ""
	if runtime.GOOS == "windows" {
		exe = ".exe"
	}
	hook := filepath.Join(dir, "agent-guard-hook"+exe)
	guard := filepath.Join(dir, "agent-guard"+exe)
	for _, p := range []string{hook, guard} {
		if err := os.WriteFile(p, []byte("x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{".codex", ".cursor", ".gemini"} {
		os.MkdirAll(filepath.Join(home, d), 0o700)
	}
	broken := filepath.Join(home, ".gemini", "settings.json")
	os.WriteFile(broken, []byte("{\n  \"theme\": \n"), 0o600)

	run := func(args ...string) (string, string, int) {
		var out, errb bytes.Buffer
		code := Run(Env{Stdout: &out, Stderr: &errb}, args)
		return out.String(), errb.String(), code
	}
	out, errs, code := run("install", "--hook", hook)
	if code != 1 {
		t.Errorf("a broken Gemini config must fail the install: exit %d", code)
	}
	for _, w := range []string{
		"installing into every host found here (Codex CLI, Cursor, Gemini CLI)",
		"Codex CLI: installed " + hook + " into " + filepath.Join(home, ".codex", "hooks.json"),
		"next: Codex runs a new hook only once you trust it: open /hooks in Codex",
		"Cursor: installed ", "the hook verifies " + guard,
	} {
		if !strings.Contains(out, w) {
			t.Errorf("stdout lacks %q:\n%s", w, out)
		}
	}
	if !strings.Contains(errs, "Gemini CLI: install: "+broken) || !strings.Contains(errs, "line 2, column 12") {
		t.Errorf("stderr does not name the broken file and its position:\n%s", errs)
	}
	if b, _ := os.ReadFile(broken); string(b) != "{\n  \"theme\": \n" {
		t.Errorf("the broken file was changed: %q", b)
	}
	// Cursor's command, as its shell runs it: sh on macOS and Linux (the
	// path with /), PowerShell on Windows (the path as Windows writes it,
	// JSON-escaped in the file). The temp folder has no space, so the
	// path is bare either way.
	cursor, _ := os.ReadFile(filepath.Join(home, ".cursor", "hooks.json"))
	wantCmd := map[string]string{"windows": hook + " --host cursor "}[runtime.GOOS]
	if wantCmd == "" {
		wantCmd = filepath.ToSlash(hook) + " --host cursor "
	}
	wantGuard := "--guard " + guard
	if runtime.GOOS != "windows" {
		wantGuard = "--guard " + filepath.ToSlash(guard)
	}
	esc := strings.NewReplacer(`\`, `\\`)
	if strings.Count(string(cursor), `"failClosed": true`) != 3 || strings.Count(string(cursor), esc.Replace(wantCmd)) != 3 || !strings.Contains(string(cursor), esc.Replace(wantGuard)) {
		t.Errorf("cursor config:\n%s", cursor)
	}

	os.Remove(broken)
	out, _, code = run("install", "--hook", hook)
	if code != 0 || !strings.Contains(out, "Codex CLI: already installed") || !strings.Contains(out, "Gemini CLI: installed") {
		t.Errorf("second install: exit %d\n%s", code, out)
	}

	out, errs, code = run("uninstall")
	if code != 0 {
		t.Fatalf("uninstall: exit %d\n%s\n%s", code, out, errs)
	}
	for _, f := range []string{".codex/hooks.json", ".cursor/hooks.json", ".gemini/settings.json"} {
		b, _ := os.ReadFile(filepath.Join(home, f))
		if strings.Contains(string(b), "agent-guard-hook") {
			t.Errorf("%s still has our hook:\n%s", f, b)
		}
	}
}
