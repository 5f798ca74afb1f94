package install

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/hosts/*.after and *.removed from the code (review the diff!)")

var guardHook = Hook{Path: "/opt/agent-guard/agent-guard-hook", Guard: "/opt/agent-guard/agent-guard", Timing: TimingFor(120)}

// windowsForm are the hosts whose entry is written in another form on
// Windows (a PowerShell line with backslashed paths): their golden file
// there is <host>.after.windows. Copilot CLI runs the powershell field on
// Windows; Cursor, Gemini CLI and Codex run their one command through PowerShell;
// Cline's hook file is a PowerShell script there.
var windowsForm = map[string]bool{Copilot: true, Cursor: true, Gemini: true, Codex: true, Cline: true}

// Every host, over a golden config that holds other people's keys and
// hooks: install gives exactly <host>.after (ours last, theirs kept),
// again changes nothing, the old file is backed up, Inspect finds our
// entry in every list with the right timing, and uninstall gives exactly
// <host>.removed.
func TestHostsGolden(t *testing.T) {
	for _, host := range AllHosts() {
		t.Run(host, func(t *testing.T) {
			base := filepath.Join("testdata", "hosts", host)
			before, err := os.ReadFile(base + ".before")
			if err != nil {
				t.Fatalf("every host needs a golden config: %v", err)
			}
			path := filepath.Join(t.TempDir(), "cfg", "config")
			if len(before) > 0 {
				writeFile(t, path, string(before))
			}
			res, err := Install(host, path, guardHook, Options{Now: testNow})
			if err != nil {
				t.Fatal(err)
			}
			got := readFile(t, path)
			after := base + ".after"
			if windowsForm[host] && runtime.GOOS == "windows" {
				after += ".windows"
			}
			golden(t, after, got)
			if host == Cline && runtime.GOOS != "windows" {
				if fi, err := os.Stat(path); err != nil || fi.Mode().Perm()&0o100 == 0 {
					t.Errorf("the Cline hook file is not executable: %v %v", fi, err)
				}
			}

			if !res.Changed {
				t.Error("first install reported no change")
			}
			if len(before) > 0 {
				if b := readFile(t, path+".bak-20261130-031500"); !bytes.Equal(b, before) {
					t.Errorf("backup %q differs from the old file", b)
				}
			}
			res2, err := Install(host, path, guardHook, Options{Now: testNow.Add(time.Second)})
			if err != nil || res2.Changed || res2.Backup != "" {
				t.Errorf("second install: changed=%v backup=%q err=%v", res2.Changed, res2.Backup, err)
			}
			if again := readFile(t, path); !bytes.Equal(again, got) {
				t.Errorf("second install rewrote the file")
			}

			in, err := Inspect(host, got)
			if err != nil || in == nil {
				t.Fatalf("Inspect: %+v %v", in, err)
			}
			want := guardHook.ForHost(host)
			if filepath.ToSlash(in.Command) != guardHook.Path || in.Deadline != want.Deadline || in.HostTimeout != want.HostTimeout || !in.Enabled || len(in.Missing) > 0 {
				t.Errorf("Inspect = %+v, want deadline %v host timeout %v", in, want.Deadline, want.HostTimeout)
			}
			if in.Deadline >= in.HostTimeout {
				t.Errorf("deadline %v is not under the host's timeout %v", in.Deadline, in.HostTimeout)
			}
			args := filepath.ToSlash(strings.Join(in.Args, " "))
			if !strings.Contains(args, "--host "+host+" --deadline "+seconds(want.Deadline)+" --guard ") || !strings.Contains(args, guardHook.Guard) {
				t.Errorf("entry args %q lack --host %s --deadline --guard", args, host)
			}

			ures, err := Uninstall(host, path, Options{Now: testNow.Add(2 * time.Second)})
			if err != nil || ures.Removed == 0 {
				t.Fatalf("uninstall: %+v %v", ures, err)
			}
			if host == OpenCode || host == Cline || host == Amp {
				if _, err := os.Stat(path); !os.IsNotExist(err) {
					t.Errorf("uninstall left the plugin file: %v", err)
				}
				return
			}
			golden(t, base+".removed", readFile(t, path))
			if n, _ := Inspect(host, readFile(t, path)); n != nil {
				t.Errorf("after uninstall Inspect still finds %+v", n)
			}
			ures2, err := Uninstall(host, path, Options{})
			if err != nil || ures2.Changed {
				t.Errorf("second uninstall: %+v %v", ures2, err)
			}
		})
	}
}

// A broken file is left exactly as it was, with an error that names the
// file and says where it is broken.
func TestHostsRefuseBrokenFiles(t *testing.T) {
	broken := map[string]struct{ content, want string }{
		Kimi:     {"hooks = [ { event = \"PreToolUse\" } ]\n", "line 1: hooks is defined"},
		OpenCode: {"export const Mine = 1;\n", "not agent-guard's plugin"},
		Amp:      {"export default function (amp) {}\n", "not agent-guard's plugin"},
		Cline:    {"#!/bin/sh\necho '{\"cancel\":false}'\n", "another PreToolUse hook"},
	}
	for _, host := range AllHosts() {
		b, ok := broken[host]
		if !ok {
			b.content, b.want = "{\n  \"hooks\": {\n    \"x\": 1,\n  }\n}\n", "line 4, column 3"
		}
		t.Run(host, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config")
			writeFile(t, path, b.content)
			_, err := Install(host, path, guardHook, Options{Now: testNow})
			if err == nil || !strings.Contains(err.Error(), b.want) || !strings.Contains(err.Error(), path) {
				t.Fatalf("err = %v, want it to name %s and say %q", err, path, b.want)
			}
			if got := string(readFile(t, path)); got != b.content {
				t.Errorf("broken file was changed to %q", got)
			}
			assertNoStrays(t, filepath.Dir(path), false)
		})
	}
}

func TestKimiUnterminatedBlockRefused(t *testing.T) {
	data := "a = 1\n" + kimiBegin + "\n[[hooks]]\n"
	if _, err := Apply(Kimi, []byte(data), guardHook); err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("err = %v", err)
	}
}

func TestTargetsEveryHostAndDetect(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("USERPROFILE", home)
	t.Setenv("CODEX_HOME", "")
	t.Setenv("COPILOT_HOME", "")
	t.Setenv("KIMI_CODE_HOME", "")
	t.Setenv("XDG_CONFIG_HOME", "")
	if found, err := Detect(); err != nil || len(found) != 0 {
		t.Fatalf("empty home: %v %v", found, err)
	}
	for _, d := range []string{".codex", ".cursor", filepath.Join(".codeium", "windsurf"), filepath.Join(".kiro", "agents")} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	writeFile(t, filepath.Join(home, ".kiro", "agents", "b.json"), "{}")
	writeFile(t, filepath.Join(home, ".kiro", "agents", "a.json"), "{}")
	found, err := Detect()
	if err != nil || strings.Join(found, ",") != "codex,cursor,kiro,windsurf" {
		t.Fatalf("Detect = %v %v", found, err)
	}
	ts, err := TargetsFor(AllHosts(), "")
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, tg := range ts {
		seen[tg.Host]++
		if !strings.HasPrefix(tg.Path, home) || tg.Label == "" {
			t.Errorf("target %+v is not under the home folder", tg)
		}
		if ManualStep(tg.Host) == "" {
			t.Errorf("%s has no manual step to print", tg.Host)
		}
	}
	for _, h := range AllHosts() {
		if seen[h] == 0 {
			t.Errorf("no target for %s", h)
		}
	}
	if seen[Kiro] != 2 {
		t.Errorf("kiro targets = %d, want one per agent file", seen[Kiro])
	}
	t.Setenv("CODEX_HOME", filepath.Join(home, "elsewhere"))
	if p, _ := ConfigPaths(home, Codex); p[0] != filepath.Join(home, "elsewhere", "hooks.json") {
		t.Errorf("CODEX_HOME ignored: %v", p)
	}
}

func TestFindGuard(t *testing.T) {
	dir := t.TempDir()
	hook := filepath.Join(dir, HookBinary())
	guard := filepath.Join(dir, "agent-guard")
	if strings.HasSuffix(hook, ".exe") {
		guard += ".exe"
	}
	writeFile(t, guard, "#!/bin/true\n")
	os.Chmod(guard, 0o755)
	if got, err := FindGuard("", hook); err != nil || got != guard {
		t.Errorf("beside the hook: %q %v", got, err)
	}
	if _, err := FindGuard(filepath.Join(dir, "none"), hook); err == nil {
		t.Error("a missing explicit --guard was accepted")
	}
	// Nothing beside the hook: the running binary (this test) is used.
	exe, _ := os.Executable()
	exe, _ = filepath.EvalSymlinks(exe)
	if got, err := FindGuard("", filepath.Join(t.TempDir(), HookBinary())); err != nil || got != exe {
		t.Errorf("fallback to os.Executable: %q %v, want %q", got, err, exe)
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *updateGolden {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("golden %s: %v (run go test -update and review)", path, err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n got:\n%s\nwant:\n%s", path, got, want)
	}
}

func TestPathWarning(t *testing.T) {
	old := runtimeGOOS
	t.Cleanup(func() { runtimeGOOS = old })
	runtimeGOOS = "windows"
	if PathWarning(`C:/Users/a/bin/agent-guard-hook.exe`) != "" {
		t.Error("a plain path warned")
	}
	if w := PathWarning(`C:/Program Files/agent-guard/agent-guard-hook.exe`); !strings.Contains(w, "PowerShell") {
		t.Errorf("a path with a space: %q", w)
	}
	runtimeGOOS = "linux"
	if PathWarning(`/opt/my tools/agent-guard-hook`) != "" {
		t.Error("warned off Windows")
	}
}

func TestKiroNewAgent(t *testing.T) {
	out, err := Apply(Kiro, nil, guardHook)
	if err != nil {
		t.Fatal(err)
	}
	c := compact(t, out)
	if !strings.HasPrefix(c, `{"name":"agent-guard","description":`) || !strings.Contains(c, `"hooks":{"preToolUse":[{"command":"/opt/agent-guard/agent-guard-hook --host kiro`) {
		t.Errorf("new Kiro agent: %s", c)
	}
}

// On Windows Cline runs PreToolUse.ps1: the shim is PowerShell, pipes
// stdin to the hook as UTF-8, and reads back like the sh one.
func TestClineWindowsShim(t *testing.T) {
	old := runtimeGOOS
	t.Cleanup(func() { runtimeGOOS = old })
	runtimeGOOS = "windows"
	h := Hook{Path: "C:/Users/o'brien/ag/agent-guard-hook.exe", Guard: "C:/Users/o'brien/ag/agent-guard.exe", Timing: TimingFor(120)}
	out, err := Apply(Cline, nil, h)
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	for _, want := range []string{"[Console]::In.ReadToEnd() | & 'C:/Users/o''brien/ag/agent-guard-hook.exe' --host cline --deadline 25s --guard 'C:/Users/o''brien/ag/agent-guard.exe'",
		"$OutputEncoding = [System.Text.UTF8Encoding]::new($false)", "exit $LASTEXITCODE", `Write-Output '{"cancel":true,`} {
		if !strings.Contains(text, want) {
			t.Errorf("PowerShell shim lacks %q:\n%s", want, text)
		}
	}
	in, err := Inspect(Cline, out)
	if err != nil || in == nil || in.Command != h.Path || in.Deadline != 25*time.Second || strings.Join(in.Args, " ") != "--host cline --deadline 25s --guard "+h.Guard {
		t.Errorf("Inspect = %+v %v", in, err)
	}
	if p, _ := ConfigPaths(`C:\Users\o`, Cline); filepath.Base(p[0]) != "PreToolUse.ps1" {
		t.Errorf("Windows hook file %v", p)
	}
	if p := WorkspaceConfigPaths("/w", Cline); len(p) != 1 || filepath.Base(p[0]) != "PreToolUse.ps1" {
		t.Errorf("Windows workspace hook file %v", p)
	}
}

// Antigravity runs a hook set only while it is "enabled": a disabled set
// of ours is reported (doctor asks to reinstall) and install turns it on;
// a user's own set named otherwise is never touched.
func TestAntigravityEnabled(t *testing.T) {
	off := `{"agent-guard": {"enabled": false, "PreToolUse": [{"hooks": [{"type": "command", "command": "/opt/agent-guard/agent-guard-hook --host antigravity --deadline 135s", "timeout": 145}]}]}, "mine": {"enabled": false, "PreToolUse": []}}`
	in, err := Inspect(Antigravity, []byte(off))
	if err != nil || in == nil || in.Enabled {
		t.Fatalf("disabled set: %+v %v", in, err)
	}
	out, err := Apply(Antigravity, []byte(off), guardHook)
	if err != nil {
		t.Fatal(err)
	}
	c := compact(t, out)
	if !strings.Contains(c, `"agent-guard":{"enabled":true,"PreToolUse":[{"hooks":[{"type":"command","command":"/opt/agent-guard/agent-guard-hook --host antigravity`) || !strings.Contains(c, `"mine":{"enabled":false,"PreToolUse":[]}`) {
		t.Errorf("after install: %s", c)
	}
	if in, _ := Inspect(Antigravity, out); in == nil || !in.Enabled {
		t.Errorf("after install Inspect = %+v", in)
	}
	if _, err := Apply(Antigravity, []byte(`{"agent-guard": "x"}`), guardHook); err == nil || !strings.Contains(err.Error(), "agent-guard is not a JSON object") {
		t.Errorf("a non-object set: %v", err)
	}
}

// splitCommand reads back the lines install writes, Windows forms too.
func TestSplitCommand(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"/opt/ag/agent-guard-hook --host x --guard /opt/ag/agent-guard", []string{"/opt/ag/agent-guard-hook", "--host", "x", "--guard", "/opt/ag/agent-guard"}},
		{`"/home/a b/agent-guard-hook" --guard "/home/a b/agent-guard"`, []string{"/home/a b/agent-guard-hook", "--guard", "/home/a b/agent-guard"}},
		{`& 'C:\Users\张 三\agent-guard-hook.exe' --host cursor --guard 'C:\Users\O''Brien\agent-guard.exe'`,
			[]string{`C:\Users\张 三\agent-guard-hook.exe`, "--host", "cursor", "--guard", `C:\Users\O'Brien\agent-guard.exe`}},
		{`C:\Users\张三\agent-guard-hook.exe --host codex`, []string{`C:\Users\张三\agent-guard-hook.exe`, "--host", "codex"}},
		{"  ", nil},
	} {
		if got := splitCommand(c.in); !slices.Equal(got, c.want) {
			t.Errorf("splitCommand(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
