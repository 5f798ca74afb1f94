package rules

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/agent-guard/agent-guard/app/judge/disk/disktest"
	"github.com/agent-guard/agent-guard/app/judge/facts"
)

// padding puts a script's payload past the first 3 KB.
var padding = strings.Repeat("# a long comment line that hides nothing at all, just text\n", 60)

func TestScriptsAboutToRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "proj")
	w := func(rel, content string) { disktest.WriteFile(t, dir, rel, content) }
	w("deploy.sh", "#!/bin/bash\n"+padding+"rm -rf ~/\n")
	w("ok.sh", "#!/bin/sh\n"+padding+"go build ./...\necho done\n")
	w("t.sh", "#!/usr/bin/env bash\n"+padding+"rm -rf ~/\n")
	w("x.py", padding+"import shutil, os\nshutil.rmtree(os.path.expanduser('~'))\n")
	w("ok.py", padding+"print('hello')\n")
	w("x.js", padding+"require('fs').rmSync(require('os').homedir(), {recursive: true})\n")
	w("x.ps1", padding+"Remove-Item -Recurse -Force $env:USERPROFILE\n")
	w("x.bat", "@echo off\r\nrem cleanup\r\nrd /s /q C:\\Users\r\n")
	w("env.sh", padding+"export A=1\n")
	w("tools/wipe", "#!/bin/sh\n"+padding+"rm -rf /\n")
	if rm, err := os.ReadFile("/bin/rm"); err == nil {
		w("tidy", string(rm)) // a byte-for-byte copy of rm under another name
		os.Chmod(filepath.Join(dir, "tidy"), 0o755)
	}
	m := diskMachine()
	cases := []struct{ cmd, want string }{
		{"bash deploy.sh", "block"},
		{"sh deploy.sh", "block"},
		{"./t.sh", "block"},
		{"source t.sh", "block"},
		{". t.sh", "block"},
		{"python3 x.py", "block"},
		{"node x.js", "block"},
		{"pwsh -File x.ps1", "block"},
		{"& .\\x.ps1", "block"},
		{"cmd /c x.bat", "block"},
		{"tools/wipe", "block"},
		{"bash ok.sh", "allow"},
		{"python3 ok.py", "allow"},
		{"source env.sh", "allow"},
		{"bash missing.sh", "allow"}, // unreadable: judged as before
	}
	if _, err := os.Stat(filepath.Join(dir, "tidy")); err == nil {
		cases = append(cases, struct{ cmd, want string }{"./tidy -rf ~/", "block"})
	}
	for _, c := range cases {
		f := BashOn(c.cmd, dir, "/home/nobody", m)
		if got := levelOf(f); got != c.want {
			t.Errorf("%q: got %s %s (%s), want %s", c.cmd, got, f.Rule, f.Reason, c.want)
		}
	}
	// Text only, the same calls are not raised (nothing is read).
	if f := Bash("bash deploy.sh", dir, "/home/nobody"); levelOf(f) != "allow" {
		t.Errorf("text only: %s", f.Reason)
	}
}

func TestRecipesAboutToRun(t *testing.T) {
	good := filepath.Join(t.TempDir(), "good")
	bad := filepath.Join(t.TempDir(), "bad")
	g := func(rel, c string) { disktest.WriteFile(t, good, rel, c) }
	b := func(rel, c string) { disktest.WriteFile(t, bad, rel, c) }
	g("package.json", `{"scripts":{"build":"tsc -p .","test":"jest","pretest":"eslint ."}}`)
	b("package.json", `{"scripts":{"build":"tsc","clean":"rm -rf ~/","pretest":"rm -rf /","test":"jest"}}`)
	g("Makefile", "CC=cc\n\nall: build\n\nbuild:\n\t$(CC) -o app main.c\n\nclean:\n\trm -rf build\n")
	b("Makefile", "RM = rm -rf\nall: build\nbuild: prep\n\tcc main.c\nprep:\n\t@$(RM) ~/\nclean:\n\trm -rf build\n")
	g("justfile", "build:\n    cargo build\n")
	b("justfile", "default: wipe\nwipe:\n    rm -rf ~/\n")
	g("Taskfile.yml", "version: '3'\ntasks:\n  build:\n    cmds:\n      - go build ./...\n")
	b("Taskfile.yml", "version: '3'\ntasks:\n  build:\n    cmds:\n      - rm -rf ~/\n")
	g("conftest.py", "import pytest\n\n@pytest.fixture\ndef x():\n    return 1\n")
	b("tests/conftest.py", padding+"import shutil, os\nshutil.rmtree(os.path.expanduser('~'))\n")
	g("setup.py", "from setuptools import setup\nsetup(name='x')\n")
	b("setup.py", "import os\nos.system('rm -rf ~/')\nfrom setuptools import setup\nsetup(name='x')\n")
	g("build.rs", "fn main() { println!(\"cargo:rerun-if-changed=build.rs\"); }\n")
	b("build.rs", "use std::process::Command;\nfn main() { Command::new(\"rm\").args([\"-rf\", \"/\"]).status().unwrap(); }\n")
	g("gen.go", "package x\n\n//go:generate stringer -type=Kind\n")
	b("gen.go", "package x\n\n//go:generate rm -rf /\n")
	m := diskMachine()
	cases := []struct{ cmd, good, bad string }{
		{"npm run build", "allow", "allow"},
		{"npm test", "allow", "block"},
		{"npm run clean", "allow", "block"},
		{"yarn clean", "allow", "block"},
		{"make", "allow", "block"},
		{"make build", "allow", "block"},
		{"make clean", "allow", "allow"},
		{"make -n build | head", "allow", "allow"},
		{"just", "allow", "block"},
		{"task build", "allow", "block"},
		{"pytest -q", "allow", "block"},
		{"python -m pytest", "allow", "block"},
		{"pip install -e .", "allow", "block"},
		{"cargo build", "allow", "block"},
		{"go generate ./...", "allow", "block"},
	}
	for _, c := range cases {
		for _, side := range []struct{ dir, want string }{{good, c.good}, {bad, c.bad}} {
			f := BashOn(c.cmd, side.dir, "/home/nobody", m)
			if got := levelOf(f); got != side.want {
				t.Errorf("%q in %s: got %s %s (%s), want %s", c.cmd, filepath.Base(side.dir), got, f.Rule, f.Reason, side.want)
			}
		}
	}
}

// Content written earlier in the same line needs no disk at all.
func TestRecipesWrittenInTheLine(t *testing.T) {
	for _, c := range []struct{ cmd, want string }{
		{`npm pkg set scripts.clean="rm -rf ~/" && npm run clean`, "block"},
		{`npm pkg set scripts.build="tsc" && npm run build`, "allow"},
		{`printf 'wipe:\n\trm -rf ~/\n' > /tmp/mk && make -f /tmp/mk wipe`, "block"},
		{`printf 'all:\n\tgo build ./...\n' > /tmp/mk && make -f /tmp/mk`, "allow"},
		{`cat > Makefile <<'EOF'` + "\nx:\n\trm -rf ~/\nEOF\nmake x", "block"},
		{`make --eval='x:;rm -rf ~' x`, "block"},
		{`cp /bin/rm /tmp/tidy && /tmp/tidy -rf ~/`, "block"},
		{`cp /bin/ls /tmp/l && /tmp/l -la`, "allow"},
	} {
		f := Bash(c.cmd, "/home/dev/proj", "/home/dev")
		if got := levelOf(f); got != c.want {
			t.Errorf("%q: got %s %s (%s), want %s", c.cmd, got, f.Rule, f.Reason, c.want)
		}
	}
}

// TestSameBinary: a renamed copy of a system program is known by its
// name; the shells come from the facts table, not a list of their own.
func TestSameBinary(t *testing.T) {
	cases := []struct {
		src   string
		shell bool // any shell of facts.Shells will do (sh may be dash)
		want  string
	}{
		{"/bin/rm", false, "rm"},
		// bash itself is above disk.MaxScript (1 MiB) on most systems,
		// so the file is not read and its copy not recognised at all.
		{"/bin/dash", true, ""},
	}
	for _, c := range cases {
		b, err := os.ReadFile(c.src)
		if err != nil && (c.shell || runtime.GOOS == "windows") {
			t.Logf("%s: %v (not on this machine)", c.src, err)
			continue
		} else if err != nil {
			t.Fatal(err) // every Unix has /bin/rm
		}
		dst := filepath.Join(t.TempDir(), "tidy")
		if err := os.WriteFile(dst, b, 0o755); err != nil {
			t.Fatal(err)
		}
		got := sameBinary(dst, b)
		if c.shell && !facts.IsShell(got) || !c.shell && got != c.want {
			t.Errorf("a copy of %s is known as %q", c.src, got)
		}
	}
	if got := sameBinary("/x", []byte("\x7fELF not a real program")); got != "" {
		t.Errorf("an unknown ELF file is known as %q", got)
	}
}
