package sharedfile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A reader's short hold must not make a replace fail: Windows refuses a
// rename over an open file with "Access is denied" (the server reading
// accepted.json while `config accept` replaced it), so the replace waits
// it out. On Unix it goes ahead at once.
func TestReplaceWhileOpen(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "accepted.json")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, ".accepted.json.tmp")
	if err := os.WriteFile(tmp, []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	if old, _ := io.ReadAll(f); string(old) != "old" {
		t.Errorf("the reader sees %q, want old", old)
	}
	released := time.AfterFunc(100*time.Millisecond, func() { f.Close() })
	defer released.Stop()
	if err := Replace(tmp, path); err != nil {
		t.Fatalf("replace while a reader holds the file for 100ms: %v", err)
	}
	if got, err := ReadFile(path); err != nil || string(got) != "new" {
		t.Errorf("ReadFile after the replace = %q, %v; want new", got, err)
	}
}

func TestRetryStopsAtOtherErrors(t *testing.T) {
	calls := 0
	err := Retry(func() error { calls++; return fs.ErrNotExist }, time.Second)
	if !errors.Is(err, fs.ErrNotExist) || calls != 1 {
		t.Errorf("Retry = %v after %d calls; want ErrNotExist after 1", err, calls)
	}
	if _, err := ReadFile(filepath.Join(t.TempDir(), "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile of a missing file = %v, want ErrNotExist", err)
	}
}
