package peer

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// CheckJudge runs only a regular file beside the hook, owned like it and
// not writable by everyone; the hook denies on anything else.
func TestCheckJudge(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, judge string)
		want  error // nil, ErrJudge or fs.ErrNotExist
		unix  bool  // owner bits: not on Windows
	}{
		{"a regular file", func(t *testing.T, j string) { write(t, j, 0o755) }, nil, false},
		{"missing", func(t *testing.T, j string) {}, fs.ErrNotExist, false},
		{"a folder", func(t *testing.T, j string) { mkdir(t, j) }, ErrJudge, false},
		{"a link to a program elsewhere", func(t *testing.T, j string) {
			other := filepath.Join(t.TempDir(), "impostor")
			write(t, other, 0o755)
			if err := os.Symlink(other, j); err != nil {
				t.Skip("no symlinks here:", err)
			}
			if _, err := os.Lstat(j); err != nil {
				// wine makes the link but cannot stat it back; real
				// Windows and Unix can.
				t.Skip("a symlink made here cannot be read back:", err)
			}
		}, ErrJudge, false},
		{"writable by every user", func(t *testing.T, j string) {
			write(t, j, 0o755)
			if err := os.Chmod(j, 0o777); err != nil {
				t.Fatal(err)
			}
		}, ErrJudge, true},
		{"another user's file", func(t *testing.T, j string) {
			write(t, j, 0o755)
			if os.Geteuid() != 0 {
				t.Skip("only root can give a file away")
			}
			if err := os.Chown(j, 4242, 4242); err != nil {
				t.Fatal(err)
			}
		}, ErrJudge, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.unix && runtime.GOOS == "windows" {
				t.Skip("owner bits are a Unix check")
			}
			dir := t.TempDir()
			hook := filepath.Join(dir, "agent-guard-hook")
			write(t, hook, 0o755)
			judge := JudgeBeside(hook)
			if filepath.Dir(judge) != dir || filepath.Base(judge) != JudgeName() {
				t.Fatalf("judge at %s, want %s in %s", judge, JudgeName(), dir)
			}
			c.setup(t, judge)
			err := CheckJudge(judge, hook)
			if c.want == nil && err != nil || c.want != nil && !errors.Is(err, c.want) {
				t.Fatalf("CheckJudge: %v, want %v", err, c.want)
			}
		})
	}
}

func write(t *testing.T, p string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, mode); err != nil { // past the umask
		t.Fatal(err)
	}
}

func mkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.Mkdir(p, 0o755); err != nil {
		t.Fatal(err)
	}
}
