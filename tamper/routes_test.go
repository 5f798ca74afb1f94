package tamper_test

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agent-guard/agent-guard/app/judge/corpus"
)

const disable = `{"enabled": false, "red_lines_when_disabled": false}`

// writeTar makes a real tar (gzip when the name ends in .tgz) holding files.
func writeTar(t *testing.T, p string, files map[string]string) {
	t.Helper()
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var gz *gzip.Writer
	w := any(f).(interface{ Write([]byte) (int, error) })
	if strings.HasSuffix(p, ".tgz") {
		gz = gzip.NewWriter(f)
		w = gz
	}
	tw := tar.NewWriter(w)
	for name, body := range files {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write([]byte(body))
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if gz != nil {
		gz.Close()
	}
}

func writeZip(t *testing.T, p string, files map[string]string) {
	t.Helper()
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	for name, body := range files {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
}

// Interpreter code writing a guard path built from pieces.
func TestInterpreterWrites(t *testing.T) {
	e := newEnv(t)
	e.expect(t, "self",
		bash(`python3 -c "import os;open(os.path.join(os.path.expanduser('~'),'.claude','settings.json'),'w').write('{}')"`),
		bash(`node -e "require('fs').writeFileSync(require('path').join(require('os').homedir(),'.claude','settings.json'),'{}')"`),
	)
	for _, v := range e.check(t, bash(`python3 -c "import os;d=os.path.join(os.environ['HOME'],'.cl'+'aude');open(d+'/settings.json','w').write('{}')"`)) {
		if v.Level == "allow" {
			t.Errorf("a guard path built from pieces was allowed: %s %s", v.Rule, v.Reason)
		}
	}
}

// Every indirect rewrite of the hook config or the guard's config is a
// self-protection block, judged by what is on disk.
func TestIndirectRewritesOfConfigs(t *testing.T) {
	e := newEnv(t)
	e.file(t, "stage/.claude/settings.json", "{}")
	e.file(t, "settings.json", "{}")
	e.file(t, "x/settings.json", "{}")
	e.file(t, "fake/agent-guard/config.json", disable)
	e.file(t, "fakehome/.config/agent-guard/config.json", disable)
	writeTar(t, filepath.Join(e.work, "x.tar"), map[string]string{".config/agent-guard/config.json": disable})
	writeTar(t, filepath.Join(e.work, "y.tgz"), map[string]string{"./.claude/settings.json": "{}"})
	writeZip(t, filepath.Join(e.work, "x.zip"), map[string]string{".claude/settings.json": "{}", "README": "hi"})
	writeTar(t, filepath.Join(e.work, "g.tar"), map[string]string{"config.json": disable})
	e.expect(t, "self",
		bash("cp -r stage/. ~"),
		bash("cp -a stage/.claude ~/"),
		bash("cp settings.json ~/.claude/"),
		bash("rsync -a x/ ~/.claude/"),
		bash("tar -xf x.tar -C ~"),
		bash("tar xzf y.tgz --directory="+e.home),
		bash("unzip -o x.zip -d ~"),
		bash("cp -r fake/. ~/.config/"),
		bash("cp -r fakehome/. $HOME"),
		bash("tar -xf g.tar -C "+e.guardHome),
		bash("echo {} > ~/.claude/setting?.json"),
		bash("cp x/settings.json ~/.cl*/settings.json"),
		bash("mv settings.json ~/.claude/settings.json"),
	)
	// When the content cannot be known, a copy into a folder holding the
	// guard's files is at least confirm.
	for _, v := range e.check(t, bash("cp -r missing/. ~"), bash("tar -xf missing.tar -C ~")) {
		if v.Level == "allow" {
			t.Errorf("a copy of unknown content into ~ was allowed: %s %s", v.Rule, v.Reason)
		}
	}
}

// A symlink to a protected file: making it is blocked, and a Write
// through one made earlier is blocked too (the real path is judged).
func TestSymlinkRoutes(t *testing.T) {
	e := newEnv(t)
	settings := filepath.Join(e.home, ".claude", "settings.json")
	e.expect(t, "self",
		bash("ln -s ~/.claude/settings.json notes.json"),
		bash("ln -s "+settings+" notes.json"),
		bash("ln -s ~/.claude link-to-claude"),
	)
	if err := os.Symlink(settings, filepath.Join(e.work, "notes.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(e.home, ".claude"), filepath.Join(e.work, "dir")); err != nil {
		t.Fatal(err)
	}
	e.expect(t, "self",
		call{Tool: "Write", Input: map[string]any{"file_path": filepath.Join(e.work, "notes.json"), "content": "{}"}},
		call{Tool: "Edit", Input: map[string]any{"file_path": "notes.json", "old_string": "a", "new_string": "b"}},
		call{Tool: "Write", Input: map[string]any{"file_path": filepath.Join(e.work, "dir", "settings.json"), "content": "{}"}},
		call{Tool: "mcp__fs__write_file", Input: map[string]any{"path": filepath.Join(e.work, "notes.json"), "content": "{}"}},
		bash("echo '{}' > notes.json"),
		bash("echo '{}' > dir/settings.local.json"),
	)
}

// The installed binaries and their folder: chmod, mv, rm, build outputs
// over them, and starting them (or a copy) with a verb that serves or
// changes the guard.
func TestBinaryRoutes(t *testing.T) {
	e := newEnv(t)
	copyBin := filepath.Join(e.work, "innocent")
	data, err := os.ReadFile(guardBin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(copyBin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	e.expect(t, "self",
		bash("chmod -x "+binDir),
		bash("chmod 000 "+hookBin),
		bash("mv "+binDir+" /tmp/elsewhere"),
		bash("rm -rf "+binDir),
		bash("rm -f "+filepath.Join(binDir, "agent-guard*")),
		bash("go build -o "+hookBin+" ./cmd/fake"),
		bash("go build -o "+binDir+"/ ./cmd/agent-guard-hook"),
		bash("cp ./target/release/fake "+hookBin),
		// the fallback judge the hook execs from its own folder
		bash("cp ./fake "+filepath.Join(binDir, "agent-guard-judge")),
		bash("go build -o "+filepath.Join(binDir, "agent-guard-judge")+" ./cmd/fake"),
		bash(guardBin+" serve --headless"),
		bash(guardBin),
		bash("nohup "+guardBin+" serve --headless --pipe /tmp/x.sock &"),
		bash("./innocent serve --headless"),
		bash(copyBin+" config accept"),
	)
	e.expect(t, "allow",
		bash(guardBin+" check --cmd 'ls'"),
		bash(guardBin+" status"),
		bash(guardBin+" report --since 3d"),
		bash(guardBin+" version"),
		bash("./innocent check --cmd ls"),
	)
}

// Signals to the guard by pid are resolved at judge time; other pids and
// jobs are not self-protection.
func TestKillByPid(t *testing.T) {
	e := newEnv(t)
	srv := e.server(t)
	sleep := exec.Command("sleep", "300")
	if err := sleep.Start(); err != nil {
		t.Skip("no sleep binary: ", err)
	}
	t.Cleanup(func() { sleep.Process.Kill(); sleep.Wait() })
	pid := strconv.Itoa(srv.Process.Pid)
	if _, err := os.Stat("/proc/self/exe"); err != nil {
		t.Skip("no /proc: pids cannot be resolved on this system")
	}
	e.expect(t, "self",
		bash("kill "+pid),
		bash("kill -9 "+pid),
		bash("kill -s KILL "+pid),
		bash("kill -- "+pid),
	)
	e.expect(t, "not-block",
		bash("kill "+strconv.Itoa(sleep.Process.Pid)),
		bash("kill %1"),
	)
}

// AGENT_GUARD_* set for later sessions, and deletes of the audit log by
// glob or through an archive.
func TestEnvAndAuditRoutes(t *testing.T) {
	e := newEnv(t)
	audit := filepath.Join(e.guardHome, "audit.jsonl")
	e.file(t, audit, `{"ts":"x"}`+"\n")
	e.expect(t, "self",
		bash(`setx AGENT_GUARD_HOME C:\Temp\empty`),
		bash("echo 'export AGENT_GUARD_HOME=/tmp/empty' >> ~/.bashrc"),
		bash("echo 'export AGENT_GUARD_HOME=/tmp/empty' | tee -a ~/.profile"),
		call{Tool: "Write", Input: map[string]any{"file_path": filepath.Join(e.home, ".config", "environment.d", "g.conf"), "content": "AGENT_GUARD_HOME=/tmp/x\n"}},
		bash("rm "+filepath.Join(e.guardHome, "audit*")),
		bash("rm "+filepath.Join(filepath.Dir(e.guardHome), "gu*", "*.jsonl")),
		bash("tar --remove-files -czf /tmp/a.tgz "+audit),
		bash("zip -m /tmp/a.zip "+audit),
		bash("truncate -s 0 "+audit),
	)
}

// A config the agent writes cannot switch self-protection off: with
// enabled false and red_lines_when_disabled false in force, the routes
// still block.
func TestSelfProtectionSurvivesDisabledConfig(t *testing.T) {
	e := newEnv(t)
	e.file(t, filepath.Join(e.guardHome, "config.json"), disable)
	e.expect(t, "self",
		bash("rm -rf ~/.claude"),
		bash("pkill -f agent-guard"),
		bash("rm -rf "+binDir),
		call{Tool: "Write", Input: map[string]any{"file_path": filepath.Join(e.home, ".claude", "settings.json"), "content": "{}"}},
	)
}

// The rules see the whole Write content and MCP arguments.
func TestWholeContentJudged(t *testing.T) {
	e := newEnv(t)
	sql := "SELECT 1 -- " + strings.Repeat("x", 3000) + "\n; DROP DATABASE prod"
	e.expect(t, "block", call{Tool: "mcp__db__query", Input: map[string]any{"sql": sql}})
	script := "#!/bin/sh\n" + strings.Repeat("echo step\n", 500) + "rm -rf ~\n"
	for _, v := range e.check(t, call{Tool: "Write", Input: map[string]any{"file_path": filepath.Join(e.work, "deploy.sh"), "content": script}}) {
		if v.Level == "allow" {
			t.Errorf("a script with rm -rf ~ after 5 KB was allowed: %s %s", v.Rule, v.Reason)
		}
	}
}

// Everyday work stays allowed: the real cases from the issue on a real
// disk, and the whole everyday corpus through the real binary.
func TestEverydayWorkStaysAllowed(t *testing.T) {
	e := newEnv(t)
	e.file(t, "src/main.go", "package main\n")
	e.file(t, "src/lib/a.go", "package lib\n")
	os.MkdirAll(filepath.Join(e.work, "vendor"), 0o755)
	writeTar(t, filepath.Join(e.work, "deps.tar"), map[string]string{"github.com/x/y/y.go": "package y\n", "modules.txt": "# x\n"})
	e.expect(t, "allow",
		bash("cp -r src/. build/"),
		bash("tar -xf deps.tar -C vendor/"),
		bash("go build -o bin/app ./cmd/app"),
		bash("kill %1"),
		bash("ln -s src/main.go main.go"),
		bash("chmod +x "+binDir),
		bash("rm -rf ~/.cache/*"),
		bash("agent-guard check --cmd 'git status'"),
	)
	// The everyday corpus of the rules, judged by the real binary here
	// (at most its level: the real guard home and files on disk may only
	// lower what the text alone gives).
	cases, err := corpus.Load("../app/judge/rules/testdata/everyday.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var calls []call
	for _, c := range cases {
		calls = append(calls, bash(c.Cmd))
	}
	rank := map[string]int{"allow": 0, "confirm": 1, "block": 2}
	bad := 0
	for i, v := range e.check(t, calls...) {
		_, max := cases[i].Want()
		if max == "" {
			max = "block"
		}
		if rank[v.Level] > rank[max] {
			bad++
			t.Errorf("everyday %q: got %s %s (%s), want at most %s", cases[i].Cmd, v.Level, v.Rule, v.Reason, max)
		}
	}
	if len(cases) < 50 {
		t.Fatalf("everyday corpus has only %d cases", len(cases))
	}
	t.Logf("%d everyday cases, %d above their level", len(cases), bad)
}

// A copy lands files where the agent host loads code (Claude Code's
// plugins, Gemini CLI's and Qwen Code's extensions, opencode's plugins):
// each landing path is judged as the write it is, so a plugin with its own
// hooks copied in asks the user (guard.host-plugin), like a Write there.
func TestCopiesIntoHostPluginFolders(t *testing.T) {
	e := newEnv(t)
	e.file(t, "kit/plugins/p/hooks/hooks.json", `{"hooks":{"SessionStart":[]}}`)
	e.file(t, "kit/plugins/p/.claude-plugin/plugin.json", `{"name":"p"}`)
	e.file(t, "ext/gemini-extension.json", `{"name":"x"}`)
	e.file(t, "notes/agents/reviewer.md", "# reviewer\n")
	for _, v := range e.check(t,
		bash("rsync -a kit/ ~/.claude/"),
		bash("cp -r kit/plugins ~/.claude/"),
		bash("cp -r ext ~/.gemini/extensions/"),
		bash("cp -r ext/. ~/.qwen/extensions/x/"),
		call{Tool: "Write", Input: map[string]any{"file_path": filepath.Join(e.home, ".claude", "plugins", "p", "hooks", "hooks.json"), "content": "{}"}},
	) {
		if v.Level == "allow" {
			t.Errorf("a copy into a host's plugin folder was allowed: %s %s", v.Rule, v.Reason)
		}
	}
	// what the host reads as text, not code, stays everyday work
	e.expect(t, "allow", bash("rsync -a notes/ ~/.claude/"))
}
