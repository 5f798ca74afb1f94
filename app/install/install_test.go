package install

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

var (
	testHook = Hook{Path: "/opt/agent-guard/agent-guard-hook", Timing: TimingFor(120)}
	testNow  = time.Date(2026, 11, 30, 3, 15, 0, 0, time.UTC)
)

const (
	ourZCode  = `{"matcher":"Bash|Write|Edit|mcp__.*","hooks":[{"type":"process","command":"/opt/agent-guard/agent-guard-hook","args":["--host","zcode","--deadline","135s"],"timeoutMs":145000}]}`
	ourClaude = `{"matcher":"Bash|Write|Edit|mcp__.*","hooks":[{"type":"command","command":"\"/opt/agent-guard/agent-guard-hook\" --host claude --deadline 135s","timeout":145}]}`
	auditHook = `{"type":"process","command":"/usr/local/bin/audit-log","timeoutMs":5000}`
	lintHook  = `{"type":"process","command":"npx","args":["eslint"]}`
	oldZCode  = `{"type":"process","command":"/old/place/agent-guard-hook","args":["--host","zcode","--deadline","45s"],"timeoutMs":60000}`
)

func compact(t *testing.T, s []byte) string {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, s); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, s)
	}
	return b.String()
}

func TestInstallFile(t *testing.T) {
	tests := []struct {
		name     string
		host     string
		existing *string // nil: no file
		want     string  // compact JSON of the result, exact key order
		changed  bool
	}{
		{"zcode none", ZCode, nil,
			`{"hooks":{"enabled":true,"events":{"PreToolUse":[` + ourZCode + `]}}}`, true},
		{"zcode empty object", ZCode, ptr(`{}`),
			`{"hooks":{"enabled":true,"events":{"PreToolUse":[` + ourZCode + `]}}}`, true},
		{"zcode zero-byte file", ZCode, ptr(""),
			`{"hooks":{"enabled":true,"events":{"PreToolUse":[` + ourZCode + `]}}}`, true},
		{"zcode other hooks before and after keep their order, ours goes last", ZCode,
			ptr(`{"hooks":{"enabled":true,"events":{"PreToolUse":[{"matcher":"Bash","hooks":[` + auditHook + `]},{"matcher":"Write|Edit","hooks":[` + lintHook + `]}],"PostToolUse":[{"matcher":"*","hooks":[` + auditHook + `]}]}}}`),
			`{"hooks":{"enabled":true,"events":{"PreToolUse":[{"matcher":"Bash","hooks":[` + auditHook + `]},{"matcher":"Write|Edit","hooks":[` + lintHook + `]},` + ourZCode + `],"PostToolUse":[{"matcher":"*","hooks":[` + auditHook + `]}]}}}`, true},
		{"zcode old entry (old path, old timeout) is replaced and moved last", ZCode,
			ptr(`{"hooks":{"enabled":true,"events":{"PreToolUse":[{"matcher":"Bash|Write|Edit|mcp__.*","hooks":[` + oldZCode + `]},{"matcher":"Bash","hooks":[` + auditHook + `]}]}}}`),
			`{"hooks":{"enabled":true,"events":{"PreToolUse":[{"matcher":"Bash","hooks":[` + auditHook + `]},` + ourZCode + `]}}}`, true},
		{"zcode old entry sharing a group leaves the other hook there", ZCode,
			ptr(`{"hooks":{"events":{"PreToolUse":[{"matcher":".*","hooks":[` + lintHook + `,` + oldZCode + `]}]}}}`),
			`{"hooks":{"events":{"PreToolUse":[{"matcher":".*","hooks":[` + lintHook + `]},` + ourZCode + `]},"enabled":true}}`, true},
		{"zcode windows path of an old install is ours too", ZCode,
			ptr(`{"hooks":{"enabled":true,"events":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"process","command":"C:\\Tools\\AGENT-GUARD-HOOK.EXE"}]}]}}}`),
			`{"hooks":{"enabled":true,"events":{"PreToolUse":[` + ourZCode + `]}}}`, true},
		{"zcode unrelated keys and values stay byte for byte", ZCode,
			ptr(`{"model":"glm-4.6","theme":{"dark":true,"size":1.50},"note":"\u003cb\u003e & <i>","hooks":{"enabled":false,"custom":[1,2]},"zzz":null}`),
			`{"model":"glm-4.6","theme":{"dark":true,"size":1.50},"note":"\u003cb\u003e & <i>","hooks":{"enabled":true,"custom":[1,2],"events":{"PreToolUse":[` + ourZCode + `]}},"zzz":null}`, true},
		{"zcode already installed is not rewritten", ZCode,
			ptr(`{"hooks":{"enabled":true,"events":{"PreToolUse":[{"matcher":"Bash","hooks":[` + auditHook + `]},` + ourZCode + `]}}}`),
			`{"hooks":{"enabled":true,"events":{"PreToolUse":[{"matcher":"Bash","hooks":[` + auditHook + `]},` + ourZCode + `]}}}`, false},
		{"claude none", Claude, nil,
			`{"hooks":{"PreToolUse":[` + ourClaude + `]}}`, true},
		{"claude with other hooks and unrelated keys", Claude,
			ptr(`{"permissions":{"allow":["Bash(git status)"]},"env":{"FOO":"1"},"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"~/bin/check.sh"}]}],"Stop":[{"hooks":[{"type":"command","command":"say done"}]}]}}`),
			`{"permissions":{"allow":["Bash(git status)"]},"env":{"FOO":"1"},"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"~/bin/check.sh"}]},` + ourClaude + `],"Stop":[{"hooks":[{"type":"command","command":"say done"}]}]}}`, true},
		{"claude old entry with old timeout is replaced and moved last", Claude,
			ptr(`{"hooks":{"PreToolUse":[{"matcher":"Bash|Write|Edit|mcp__.*","hooks":[{"type":"command","command":"\"/old/agent-guard-hook\" --host claude --deadline 45s","timeout":60}]},{"matcher":"Edit","hooks":[{"type":"command","command":"fmt.sh"}]}]}}`),
			`{"hooks":{"PreToolUse":[{"matcher":"Edit","hooks":[{"type":"command","command":"fmt.sh"}]},` + ourClaude + `]}}`, true},
		{"claude already installed is not rewritten", Claude,
			ptr(`{"hooks":{"PreToolUse":[` + ourClaude + `]}}`),
			`{"hooks":{"PreToolUse":[` + ourClaude + `]}}`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "sub", "config.json")
			if tt.existing != nil {
				writeFile(t, path, *tt.existing)
			}
			res, err := Install(tt.host, path, testHook, Options{Now: testNow})
			if err != nil {
				t.Fatal(err)
			}
			if res.Changed != tt.changed {
				t.Errorf("Changed = %v, want %v", res.Changed, tt.changed)
			}
			got := readFile(t, path)
			if c := compact(t, got); c != tt.want {
				t.Errorf("file =\n%s\nwant\n%s", c, tt.want)
			}
			wantBackup := ""
			if tt.existing != nil && tt.changed {
				wantBackup = path + ".bak-20261130-031500"
				if b := readFile(t, wantBackup); string(b) != *tt.existing {
					t.Errorf("backup = %q, want the old file %q", b, *tt.existing)
				}
			}
			if res.Backup != wantBackup {
				t.Errorf("Backup = %q, want %q", res.Backup, wantBackup)
			}
			if tt.existing != nil && !tt.changed && string(got) != *tt.existing {
				t.Errorf("unchanged install rewrote the file: %q", got)
			}
			assertNoStrays(t, filepath.Dir(path), wantBackup != "")

			// Idempotent: a second run changes nothing and leaves one entry.
			res2, err := Install(tt.host, path, testHook, Options{Now: testNow.Add(time.Second)})
			if err != nil || res2.Changed || res2.Backup != "" {
				t.Errorf("second install: changed=%v backup=%q err=%v", res2.Changed, res2.Backup, err)
			}
			if n := strings.Count(string(readFile(t, path)), "agent-guard-hook"); n != 1 {
				t.Errorf("%d entries of ours after two installs", n)
			}
		})
	}
}

// The layout of the user's file is kept: its indent unit, and our keys in
// the documented order.
func TestInstallKeepsIndent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	writeFile(t, path, "{\n\t\"model\": \"opus\"\n}\n")
	if _, err := Install(Claude, path, testHook, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	want := "{\n\t\"model\": \"opus\",\n\t\"hooks\": {\n\t\t\"PreToolUse\": [\n\t\t\t{\n\t\t\t\t\"matcher\": \"Bash|Write|Edit|mcp__.*\",\n\t\t\t\t\"hooks\": [\n\t\t\t\t\t{\n\t\t\t\t\t\t\"type\": \"command\",\n\t\t\t\t\t\t\"command\": \"\\\"/opt/agent-guard/agent-guard-hook\\\" --host claude --deadline 135s\",\n\t\t\t\t\t\t\"timeout\": 145\n\t\t\t\t\t}\n\t\t\t\t]\n\t\t\t}\n\t\t]\n\t}\n}\n"
	if got := string(readFile(t, path)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestInstallTimingFromApprovalTimeout(t *testing.T) {
	h := Hook{Path: `/x/agent-guard-hook`, Timing: TimingFor(30)}
	out, err := Apply(ZCode, nil, h)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(compact(t, out), `"args":["--host","zcode","--deadline","45s"],"timeoutMs":55000`) {
		t.Errorf("timing not derived from a 30 s approval timeout: %s", out)
	}
	in, err := Inspect(ZCode, out)
	if err != nil || in == nil || in.Deadline != 45*time.Second || in.HostTimeout != 55*time.Second || !in.Enabled {
		t.Errorf("Inspect = %+v, %v", in, err)
	}
}

func TestInstallRefusesBrokenFiles(t *testing.T) {
	tests := []struct{ name, content, wantErr string }{
		{"invalid JSON", "{\n  \"model\": \"glm\",\n  \"hooks\": {\"enabled\": true,}\n}\n", "line 3, column 29"},
		{"truncated", `{"hooks": {`, "line 1, column 11"},
		{"top level array", `[1]`, "top level is not a JSON object"},
		{"hooks not an object", `{"hooks": []}`, "hooks is not a JSON object"},
		{"PreToolUse not an array", `{"hooks": {"events": {"PreToolUse": {}}}}`, "hooks.events.PreToolUse is not a JSON array"},
		{"duplicate key", `{"hooks": {}, "hooks": {}}`, `duplicate key "hooks"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.json")
			writeFile(t, path, tt.content)
			_, err := Install(ZCode, path, testHook, Options{Now: testNow})
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), path) {
				t.Fatalf("err = %v, want it to name %s and say %q", err, path, tt.wantErr)
			}
			if got := string(readFile(t, path)); got != tt.content {
				t.Errorf("broken file was changed to %q", got)
			}
			assertNoStrays(t, filepath.Dir(path), false)
		})
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.json")
	writeFile(t, path, `{"a":1}`)
	res, err := Install(ZCode, path, testHook, Options{DryRun: true, Now: testNow})
	if err != nil || !res.Changed || res.Backup != "" {
		t.Fatalf("dry run: %+v %v", res, err)
	}
	if c := compact(t, res.Content); c != `{"a":1,"hooks":{"enabled":true,"events":{"PreToolUse":[`+ourZCode+`]}}}` {
		t.Errorf("dry-run content = %s", c)
	}
	if got := string(readFile(t, path)); got != `{"a":1}` {
		t.Errorf("dry run changed the file: %q", got)
	}
	assertNoStrays(t, dir, false)
	missing := filepath.Join(dir, "none", "config.json")
	if _, err := Install(Claude, missing, testHook, Options{DryRun: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(missing)); !os.IsNotExist(err) {
		t.Errorf("dry run created %s", filepath.Dir(missing))
	}
}

func TestUninstallFile(t *testing.T) {
	tests := []struct {
		name, host, existing, want string
		removed                    int
	}{
		{"zcode ours alone: its group goes, the rest stays", ZCode,
			`{"x":1,"hooks":{"enabled":true,"events":{"PreToolUse":[{"matcher":"Bash","hooks":[` + auditHook + `]},` + ourZCode + `]}}}`,
			`{"x":1,"hooks":{"enabled":true,"events":{"PreToolUse":[{"matcher":"Bash","hooks":[` + auditHook + `]}]}}}`, 1},
		{"zcode ours in a shared group: only ours goes", ZCode,
			`{"hooks":{"events":{"PreToolUse":[{"matcher":".*","hooks":[` + lintHook + `,` + oldZCode + `]}]}}}`,
			`{"hooks":{"events":{"PreToolUse":[{"matcher":".*","hooks":[` + lintHook + `]}]}}}`, 1},
		{"zcode only ours", ZCode,
			`{"hooks":{"enabled":true,"events":{"PreToolUse":[` + ourZCode + `]}}}`,
			`{"hooks":{"enabled":true,"events":{"PreToolUse":[]}}}`, 1},
		{"claude", Claude,
			`{"env":{},"hooks":{"PreToolUse":[` + ourClaude + `,{"matcher":"Bash","hooks":[{"type":"command","command":"x"}]}]}}`,
			`{"env":{},"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"x"}]}]}}`, 1},
		{"not installed: untouched", Claude, `{"env": {}}`, `{"env":{}}`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "config.json")
			writeFile(t, path, tt.existing)
			res, err := Uninstall(tt.host, path, Options{Now: testNow})
			if err != nil {
				t.Fatal(err)
			}
			if res.Removed != tt.removed || res.Changed != (tt.removed > 0) {
				t.Errorf("Removed=%d Changed=%v, want %d", res.Removed, res.Changed, tt.removed)
			}
			got := readFile(t, path)
			if c := compact(t, got); c != tt.want {
				t.Errorf("file =\n%s\nwant\n%s", c, tt.want)
			}
			if tt.removed == 0 {
				if string(got) != tt.existing || res.Backup != "" {
					t.Errorf("nothing to remove, yet file=%q backup=%q", got, res.Backup)
				}
				return
			}
			if b := readFile(t, path+".bak-20261130-031500"); string(b) != tt.existing {
				t.Errorf("backup = %q", b)
			}
		})
	}
	missing := filepath.Join(t.TempDir(), "none.json")
	if res, err := Uninstall(ZCode, missing, Options{}); err != nil || res.Changed {
		t.Errorf("uninstall of a missing file: %+v %v", res, err)
	}
	if _, err := os.Stat(missing); !os.IsNotExist(err) {
		t.Errorf("uninstall created %s", missing)
	}
}

func TestBackupNeverOverwrites(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	writeFile(t, path, `{}`)
	if _, err := Install(ZCode, path, testHook, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	res, err := Uninstall(ZCode, path, Options{Now: testNow}) // same second
	if err != nil {
		t.Fatal(err)
	}
	if res.Backup != path+".bak-20261130-031500-2" {
		t.Errorf("second backup = %q", res.Backup)
	}
	if string(readFile(t, path+".bak-20261130-031500")) != `{}` {
		t.Error("first backup was overwritten")
	}
}

func TestInspectLaterHooks(t *testing.T) {
	data := `{"hooks":{"enabled":true,"events":{"PreToolUse":[` + ourZCode +
		`,{"matcher":"Read","hooks":[{"type":"process","command":"/bin/readonly-logger"}]}` +
		`,{"matcher":"Bash","hooks":[{"type":"process","command":"/bin/yes-man"}]}]}}}`
	in, err := Inspect(ZCode, []byte(data))
	if err != nil || in == nil {
		t.Fatalf("Inspect: %+v %v", in, err)
	}
	if len(in.Later) != 1 || !strings.Contains(in.Later[0], "/bin/yes-man") {
		t.Errorf("Later = %q, want only the Bash hook", in.Later)
	}
	if in.Command != testHook.Path || in.Deadline != 135*time.Second || in.HostTimeout != 145*time.Second || in.Count != 1 {
		t.Errorf("Inspect = %+v", in)
	}
	none, err := Inspect(Claude, []byte(`{}`))
	if none != nil || err != nil {
		t.Errorf("Inspect of an empty config = %+v, %v", none, err)
	}
	claude, err := Inspect(Claude, []byte(`{"hooks":{"PreToolUse":[`+ourClaude+`]}}`))
	if err != nil || claude == nil || claude.Command != testHook.Path || claude.Deadline != 135*time.Second || claude.HostTimeout != 145*time.Second {
		t.Errorf("Inspect claude = %+v, %v", claude, err)
	}
}

func TestClaudeRefusesUnquotablePath(t *testing.T) {
	_, err := Apply(Claude, nil, Hook{Path: `/home/a"b/agent-guard-hook`, Timing: TimingFor(120)})
	if err == nil {
		t.Fatal("a path with a double quote was accepted into a shell command")
	}
}

// TestFindHook checks what makes a hook path usable on this OS. Windows
// has no execute bit (any regular .exe runs) and its symbolic links need a
// privilege most users lack (wine 8 cannot follow them either), so those
// two cases are Unix-only; the rest hold everywhere.
func TestFindHook(t *testing.T) {
	unix := runtime.GOOS != "windows"
	tests := []struct {
		name  string
		only  bool // false: the case does not apply on this OS
		setup func(t *testing.T, hook string) (arg string)
		want  string // "" accepted (the hook's own path); else part of the error
	}{
		{"missing file", true, func(t *testing.T, hook string) string { return hook }, "--hook"},
		{"a folder in its place", true, func(t *testing.T, hook string) string {
			if err := os.Mkdir(hook, 0o700); err != nil {
				t.Fatal(err)
			}
			return hook
		}, "not a regular file"},
		{"a plain file, runnable on Windows", !unix, func(t *testing.T, hook string) string {
			writeFile(t, hook, "MZ")
			return hook
		}, ""},
		{"not executable", unix, func(t *testing.T, hook string) string {
			writeFile(t, hook, "#!/bin/true\n")
			return hook
		}, "not executable"},
		{"executable", unix, func(t *testing.T, hook string) string {
			writeFile(t, hook, "#!/bin/true\n")
			if err := os.Chmod(hook, 0o755); err != nil {
				t.Fatal(err)
			}
			return hook
		}, ""},
		{"a symlink to it resolves to the real file", unix, func(t *testing.T, hook string) string {
			writeFile(t, hook, "#!/bin/true\n")
			if err := os.Chmod(hook, 0o755); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(t.TempDir(), "link")
			if err := os.Symlink(hook, link); err != nil {
				t.Fatal(err)
			}
			return link
		}, ""},
		// The test binary has no hook beside it.
		{"none next to agent-guard", true, func(*testing.T, string) string { return "" }, "next to agent-guard"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !tt.only {
				t.Skipf("does not apply on %s", runtime.GOOS)
			}
			hook := filepath.Join(t.TempDir(), HookBinary())
			got, err := FindHook(tt.setup(t, hook))
			if real, rerr := filepath.EvalSymlinks(hook); rerr == nil {
				hook = real // the temp folder itself may sit behind a link (macOS /var, Windows 8.3 names)
			}
			switch {
			case tt.want == "" && (err != nil || got != hook):
				t.Errorf("FindHook = %q, %v; want %q", got, err, hook)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("FindHook = %q, %v; want an error with %q", got, err, tt.want)
			}
		})
	}
}

func ptr(s string) *string { return &s }

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// assertNoStrays checks that only the config (and a backup, if expected)
// are in dir: no temp files left by the atomic write.
func assertNoStrays(t *testing.T, dir string, backup bool) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	want := 1
	if backup {
		want = 2
	}
	if len(entries) > want {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("stray files in %s: %v", dir, names)
	}
}
