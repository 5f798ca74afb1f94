// Package disktest builds real temporary git repositories and files for
// tests of the judge's disk state: git itself is run (with a temp HOME
// and no system config), nothing is faked.
package disktest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Repo is a temporary git work tree.
type Repo struct {
	T   testing.TB
	Dir string
}

// Git runs git in dir with an isolated configuration.
func Git(t testing.TB, dir string, args ...string) string {
	t.Helper()
	home := filepath.Join(filepath.Dir(dir), ".githome-"+filepath.Base(dir))
	os.MkdirAll(home, 0o700)
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+filepath.Join(home, "gitconfig"),
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.invalid")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// NewRepo makes an empty repository in a new temp folder.
func NewRepo(t testing.TB) *Repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("these tests need git on PATH: %v", err)
	}
	dir := filepath.Join(t.TempDir(), "proj")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	Git(t, dir, "init", "-q", "-b", "main")
	return &Repo{T: t, Dir: dir}
}

// NewRepoAt makes an empty repository in dir (created if missing), for
// repositories nested in a folder or in another work tree.
func NewRepoAt(t testing.TB, dir string) *Repo {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	Git(t, dir, "init", "-q", "-b", "main")
	return &Repo{T: t, Dir: dir}
}

// Write creates rel (and its folders) with content.
func (r *Repo) Write(rel, content string) string {
	r.T.Helper()
	return WriteFile(r.T, r.Dir, rel, content)
}

// Commit adds everything (respecting .gitignore) and commits.
func (r *Repo) Commit(msg string) {
	r.T.Helper()
	Git(r.T, r.Dir, "add", "-A")
	Git(r.T, r.Dir, "commit", "-q", "-m", msg)
}

// Git runs git in the repository.
func (r *Repo) Git(args ...string) string { r.T.Helper(); return Git(r.T, r.Dir, args...) }

// WriteFile writes dir/rel, creating folders.
func WriteFile(t testing.TB, dir, rel, content string) string {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
