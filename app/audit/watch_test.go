package audit

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// A writer that has written twice (on Linux: watching its path from then
// on, no stat per line) still follows every way the path can stop naming
// its file: the next line lands in a new file at the path, and only that
// line is there.
func TestWatchedWriterReopens(t *testing.T) {
	cases := map[string]func(dir, path string) error{
		"renamed": func(dir, path string) error { return os.Rename(path, path+".1") },
		"deleted": func(dir, path string) error { return os.Remove(path) },
		"replaced by a rename over it": func(dir, path string) error {
			if err := os.WriteFile(filepath.Join(dir, "other"), nil, 0o600); err != nil {
				return err
			}
			return os.Rename(filepath.Join(dir, "other"), path)
		},
		"its folder renamed and a new one made": func(dir, path string) error {
			if err := os.Rename(dir, dir+".old"); err != nil {
				return err
			}
			return os.Mkdir(dir, 0o700)
		},
		"a folder above renamed and a new one made": func(dir, path string) error {
			up := filepath.Dir(dir)
			if err := os.Rename(up, up+".old"); err != nil {
				return err
			}
			return os.MkdirAll(dir, 0o700)
		},
	}
	for name, change := range cases {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "up", "home")
			path := filepath.Join(dir, "audit.jsonl")
			w, _ := Open(path)
			defer w.Close()
			for i, who := range []string{"a", "a"} {
				if err := w.Append(entry(i, who)); err != nil {
					t.Fatal(err)
				}
			}
			if runtime.GOOS == "linux" && w.watch == nil {
				t.Fatal("no watch after the second line on Linux")
			}
			if err := w.Append(entry(3, "a")); err != nil { // unchanged: the same file
				t.Fatal(err)
			}
			if got, _ := ReadLast(path, 10); len(got) != 3 {
				t.Fatalf("before the change the log holds %d lines, want 3", len(got))
			}
			cerr := change(dir, path)
			if cerr != nil && runtime.GOOS != "windows" {
				t.Fatal(cerr)
			}
			if _, err := os.Stat(path); cerr == nil && name == "deleted" && err == nil {
				// Classic delete semantics (wine; FAT and network drives):
				// the name stays until the writer's handle closes, and
				// nothing at the path can show the delete before that.
				// Windows 10's NTFS removes the name at once.
				t.Skip("the file system kept the deleted name while the log is open (classic delete semantics)")
			}
			if err := w.Append(entry(4, "b")); err != nil {
				t.Fatal(err)
			}
			got, _ := ReadLast(path, 10)
			if cerr != nil {
				// Windows may refuse to delete or replace the open log
				// (classic rename semantics, wine): then the log is
				// untouched and the line joins it.
				if len(got) != 4 || got[3].Session != "b" {
					t.Errorf("the change was refused (%v), yet the log holds %+v; want the 3 lines and b", cerr, got)
				}
				return
			}
			if len(got) != 1 || got[0].Session != "b" {
				t.Errorf("after the change the log at the path holds %+v; want only entry b", got)
			}
		})
	}
}

// A path through a symbolic link is not watched (re-pointing the link
// touches nothing watched): the writer stats per line and still follows.
func TestWriterThroughSymlinkFollowsRepointing(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges on Windows")
	}
	root := t.TempDir()
	must(t, os.Mkdir(filepath.Join(root, "one"), 0o700))
	must(t, os.Mkdir(filepath.Join(root, "two"), 0o700))
	must(t, os.Symlink("one", filepath.Join(root, "link")))
	path := filepath.Join(root, "link", "audit.jsonl")
	w, _ := Open(path)
	defer w.Close()
	for i := 0; i < 2; i++ {
		must(t, w.Append(entry(i, "a")))
	}
	if w.watch != nil {
		t.Fatal("a path through a symbolic link is watched")
	}
	must(t, os.Remove(filepath.Join(root, "link")))
	must(t, os.Symlink("two", filepath.Join(root, "link")))
	must(t, w.Append(entry(3, "b")))
	got, _ := ReadLast(filepath.Join(root, "two", "audit.jsonl"), 10)
	if len(got) != 1 || got[0].Session != "b" {
		t.Errorf("after re-pointing the link the log holds %+v; want only entry b", got)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// On Linux a log on a local filesystem (the test's temp folder: ext4 or
// tmpfs here) is appended without the lock; elsewhere with it.
func TestLockOnlyWhereNeeded(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	w, _ := Open(path)
	defer w.Close()
	must(t, w.Append(entry(1, "a")))
	var st unixStatfs
	local := runtime.GOOS == "linux" && localFS(t, path, &st)
	if w.lock == local {
		t.Fatalf("lock %v on %s (local Linux filesystem: %v)", w.lock, path, local)
	}
}
