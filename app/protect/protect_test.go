package protect

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/install"
	"github.com/agent-guard/agent-guard/app/peer"
	"github.com/agent-guard/agent-guard/app/pipe"
)

// The set holds what the guard's own code says it uses: config paths,
// the socket, the hook command a host config runs, the autostart entry.
func TestComputeFromTheGuardsOwnPaths(t *testing.T) {
	home := t.TempDir()
	gh := filepath.Join(t.TempDir(), "guard")
	sock := filepath.Join(t.TempDir(), "s", "agent-guard.sock")
	t.Setenv("HOME", home)
	t.Setenv(config.HomeEnv, gh)
	t.Setenv(pipe.Env, sock)
	t.Setenv("XDG_CONFIG_HOME", "")
	bin := filepath.Join(t.TempDir(), "bin")
	hook := filepath.Join(bin, "agent-guard-hook")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, b := range []string{hook, filepath.Join(bin, "agent-guard")} {
		if err := os.WriteFile(b, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	claude := filepath.Join(home, ".claude", "settings.json")
	os.MkdirAll(filepath.Dir(claude), 0o755)
	// The command as JSON text: a Windows path's backslashes are escaped.
	cmdJSON, _ := json.Marshal(hook + " --deadline 135s")
	cfg := `{"hooks":{"PreToolUse":[{"matcher":"Bash|Write|Edit|mcp__.*","hooks":[{"type":"command","command":` + string(cmdJSON) + `,"timeout":145}]}]}}`
	if err := os.WriteFile(claude, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	ps, _ := config.DefaultPaths()
	s := Compute(Sources{Home: home, Cwd: "/work/proj", Exe: "/usr/bin/true"})
	want := map[string]Kind{
		ps.Config: GuardFiles, ps.Audit: AuditLog, filepath.Join(ps.CacheDir, "x"): GuardCache,
		sock: Socket, sock + "-ctl": Socket, hook: Binary, filepath.Join(bin, "agent-guard"): Binary,
		claude: HookConfig, filepath.Join(home, ".zcode", "cli", "config.json"): HookConfig,
		"/work/proj/.zcode/config.json": HookConfig, "/work/proj/.claude/settings.local.json": HookConfig,
		filepath.Join(home, ".config", "autostart", "agent-guard.desktop"): Autostart,
		filepath.Join(home, ".config", "agent-guard", "config.json"):       GuardFiles,
		// the hook's fallback judge, protected though not there: creating
		// one would hand the hook an impostor
		peer.JudgeBeside(hook): Binary,
	}
	// Cline's hook file (its user and its project folder) and Antigravity
	// CLI's hooks.json, from install's own table.
	for _, host := range []string{install.Cline, install.Antigravity} {
		ps, err := install.ConfigPaths(home, host)
		if err != nil || len(ps) != 1 {
			t.Fatalf("%s: %v %v", host, ps, err)
		}
		want[ps[0]] = HookConfig
		for _, w := range install.WorkspaceConfigPaths("/work/proj", host) {
			want[w] = HookConfig
		}
	}
	if _, ok := want[filepath.Join("/work/proj", ".clinerules", "hooks", "PreToolUse")]; !ok && filepath.Separator == '/' {
		t.Fatalf("the Cline workspace hook file is missing from install's table: %v", want)
	}
	for p, k := range want {
		e, ok := s.Lookup(p)
		if !ok || e.Kind != k {
			t.Errorf("Lookup(%s) = %+v, %v; want kind %s", p, e, ok, k)
		}
	}
	for _, p := range []string{filepath.Join(home, "notes.txt"), "/work/proj/main.go", filepath.Join(bin, "other")} {
		if e, ok := s.Lookup(p); ok {
			t.Errorf("Lookup(%s) = %+v, want not protected", p, e)
		}
	}
	if es := s.Under(bin); len(es) < 2 {
		t.Errorf("Under(%s) = %v, want both binaries", bin, es)
	}
	if es := s.Under(home); len(es) == 0 {
		t.Errorf("Under(home) is empty")
	}
	if es := s.Under("/work/proj/src"); len(es) != 0 {
		t.Errorf("Under(src) = %v, want none", es)
	}
}

// The running executable is protected when it is one of ours, with the
// other binary beside it; a test binary is not.
func TestBinariesOfTheJudgingProcess(t *testing.T) {
	dir := t.TempDir()
	tray, hook := filepath.Join(dir, "agent-guard"), filepath.Join(dir, "agent-guard-hook")
	for _, b := range []string{tray, hook} {
		os.WriteFile(b, []byte("x"), 0o755)
	}
	got := strings.Join(binaries(tray), ",")
	if !strings.Contains(got, tray) || !strings.Contains(got, hook) || !strings.Contains(got, peer.JudgeBeside(hook)) {
		t.Errorf("binaries(%s) = %s, want both and the judge's place", tray, got)
	}
	// The judge, judging in the fallback, protects the hook beside it.
	if got := strings.Join(binaries(peer.JudgeBeside(hook)), ","); !strings.Contains(got, hook) || !strings.Contains(got, tray) {
		t.Errorf("binaries(judge) = %s, want the hook and the tray", got)
	}
	if b := binaries(filepath.Join(dir, "protect.test")); len(b) != 0 {
		t.Errorf("a non-guard executable gave %v", b)
	}
}

// A Go binary built from this module is a guard binary under any name
// (this test binary is one); a shell script is not.
func TestIsGuardBinaryByBuildInfo(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(t.TempDir(), "innocent")
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(copyPath, data, 0o755)
	s := &Set{}
	if !s.IsGuardBinary(copyPath) {
		t.Errorf("a copy of a binary built from %s is not recognised", Module)
	}
	script := filepath.Join(t.TempDir(), "x.sh")
	os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755)
	if s.IsGuardBinary(script) || s.IsGuardBinary("/bin/sh") {
		t.Errorf("a script or /bin/sh taken for the guard")
	}
}

// GuardPID sees this process (a binary of the module) and not pid 1's
// init or a sleep.
func TestGuardPID(t *testing.T) {
	// GuardPID reads /proc, Linux only (README, Threat model). Not a stat
	// of /proc/self/exe on other systems: under wine, \proc is Linux's
	// /proc through the Z: drive, and its pids are not Windows pids.
	if runtime.GOOS != "linux" {
		t.Skip("GuardPID resolves pids from /proc, on Linux only")
	}
	if _, err := os.Stat("/proc/self/exe"); err != nil {
		t.Skip("no /proc on this system: GuardPID cannot resolve pids here")
	}
	s := &Set{}
	if _, ok := s.GuardPID(os.Getpid()); !ok {
		t.Errorf("GuardPID(own pid) = false; this test binary is built from %s", Module)
	}
	if _, ok := s.GuardPID(1 << 30); ok {
		t.Errorf("a pid that does not exist was taken for the guard")
	}
}

// Windows spellings of a protected path find it: either separator, any
// case, %VAR%, $env:VAR and ${env:VAR} of the variables the paths come
// from.
func TestLookupWindowsSpellings(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("APPDATA", filepath.Join(home, "AppData", "Roaming"))
	t.Setenv("LOCALAPPDATA", filepath.Join(home, "AppData", "Local"))
	t.Setenv(config.HomeEnv, filepath.Join(home, "AppData", "Roaming", "agent-guard"))
	s := Compute(Sources{Home: home, Exe: "/usr/bin/true"})
	win := strings.ReplaceAll(home, "/", `\`)
	for _, p := range []string{
		`%USERPROFILE%\.claude\settings.json`,
		`$env:USERPROFILE\.CLAUDE\Settings.json`,
		`%APPDATA%\agent-guard\config.json`,
		`$env:APPDATA/agent-guard/config.json`,
		`${env:LOCALAPPDATA}\agent-guard\x`,
		strings.ToUpper(win) + `\APPDATA\ROAMING\AGENT-GUARD\CONFIG.JSON`,
		win + `\.zcode\cli\..\cli\config.json`,
	} {
		if _, ok := s.Lookup(p); !ok {
			t.Errorf("Lookup(%s) = not protected; want found", p)
		}
	}
	for _, p := range []string{`%APPDATA%\other\config.json`, `%USERPROFILE%\notes.txt`} {
		if e, ok := s.Lookup(p); ok {
			t.Errorf("Lookup(%s) = %+v; want not protected", p, e)
		}
	}
}

// A user-level hook file is mirrored under the project only for hosts that
// read it there: Cline's Documents/Cline/Hooks and Amp's and opencode's
// plugin folders have no project twin (Cline's is .clinerules/hooks).
func TestProjectTwins(t *testing.T) {
	home, cwd := "/home/dev", "/home/dev/proj"
	var got []string
	for _, hc := range hostConfigTable(home, cwd) {
		if hc.workspace {
			got = append(got, hc.path)
		}
	}
	joined := strings.Join(got, "\n")
	for _, want := range []string{"/home/dev/proj/.claude/settings.json", "/home/dev/proj/.clinerules/hooks/"} {
		if !strings.Contains(filepath.ToSlash(joined), want) {
			t.Errorf("project paths lack %s:\n%s", want, joined)
		}
	}
	for _, never := range []string{"proj/Documents/Cline", "proj/.config/amp", "proj/.config/opencode"} {
		if strings.Contains(filepath.ToSlash(joined), never) {
			t.Errorf("project paths mirror a user-only folder %s:\n%s", never, joined)
		}
	}
}
