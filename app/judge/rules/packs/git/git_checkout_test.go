package git_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/rules/rulestest"
)

// git checkout <word>: a branch or tag of the repository switches
// branches; a file or folder of the working tree with no such ref is a
// path whose changes are thrown away. Read from a real repository.
func TestGitCheckoutRefOrPath(t *testing.T) {
	t.Setenv("AGENT_GUARD_HOME", t.TempDir())
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed for this test")
	}
	dir := t.TempDir()
	run := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q", "-b", "main")
	for _, f := range []string{"Makefile", "src/app.go", "docs/index.md"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("add", ".")
	run("commit", "-q", "-m", "init")
	run("branch", "docs")     // a branch named like a folder
	run("branch", "fix.typo") // a branch whose name looks like a file
	run("tag", "v1.0")
	run("pack-refs", "--all") // refs in packed-refs too
	run("branch", "loose")
	cases := []struct{ cmd, want string }{
		{"git checkout Makefile", "confirm"},
		{"git checkout src", "confirm"},
		{"git checkout docs", "allow"},
		{"git checkout fix.typo", "allow"},
		{"git checkout v1.0", "allow"},
		{"git checkout loose", "allow"},
		{"git checkout main", "allow"},
		{"git checkout -- docs", "confirm"},
		{"git checkout main Makefile", "confirm"},
	}
	for _, c := range cases {
		f := rules.Bash(c.cmd, dir, "/home/dev")
		if got := rulestest.Level(f); got != c.want {
			t.Errorf("%q: got %s (%s: %s), want %s", c.cmd, got, f.Rule, f.Reason, c.want)
		}
	}
	// git -C DIR reads DIR's repository and paths.
	for _, c := range []struct{ cmd, want string }{
		{"git -C " + dir + " checkout Makefile", "confirm"},
		{"git -C " + dir + " checkout fix.typo", "allow"},
	} {
		if f := rules.Bash(c.cmd, t.TempDir(), "/home/dev"); rulestest.Level(f) != c.want {
			t.Errorf("%q: got %s (%s), want %s", c.cmd, rulestest.Level(f), f.Reason, c.want)
		}
	}
	// From a subfolder the repository is found above it.
	if f := rules.Bash("git checkout fix.typo", filepath.Join(dir, "src"), "/home/dev"); rulestest.Level(f) != "allow" {
		t.Errorf("from src: got %s (%s)", rulestest.Level(f), f.Reason)
	}
}
