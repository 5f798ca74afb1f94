package session

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestStoreSharedAcrossInstancesAndTTL(t *testing.T) {
	dir := filepath.Join(t.TempDir(), DirName)
	a := Open(dir, time.Hour)
	f := filepath.Join(t.TempDir(), "x.sh")
	os.WriteFile(f, []byte("echo hi\n"), 0o644)
	if err := a.Add("s1", Record{
		Files: map[string]File{f: {Hash: HashString("echo hi\n"), Created: true}},
		Names: map[string]Name{"tidy": {Program: "rm"}, "ll": {Code: "rm -rf ~"}},
	}); err != nil {
		t.Fatal(err)
	}
	// Another process (the hook's fallback) opens the same folder.
	b := Open(dir, time.Hour)
	v := b.View("s1")
	if _, prog, ok := v.Defined("tidy"); !ok || prog != "rm" {
		t.Errorf("tidy: %q %v", prog, ok)
	}
	if code, _, ok := v.Defined("ll"); !ok || code != "rm -rf ~" {
		t.Errorf("ll: %q %v", code, ok)
	}
	if !v.Scratch(f) {
		t.Error("the agent's own unchanged file is scratch")
	}
	os.WriteFile(f, []byte("echo changed by the user\n"), 0o644)
	if b.View("s1").Scratch(f) {
		t.Error("a file changed since the agent wrote it is no longer scratch")
	}
	if _, _, ok := b.View("other").Defined("tidy"); ok {
		t.Error("sessions must not share names")
	}
	// After the TTL the session is dropped.
	b.now = func() time.Time { return time.Now().Add(2 * time.Hour) }
	if _, _, ok := b.View("s1").Defined("tidy"); ok {
		t.Error("an expired session is still remembered")
	}
}

func TestStoreBounds(t *testing.T) {
	s := Open(filepath.Join(t.TempDir(), DirName), time.Hour)
	names := map[string]Name{}
	for i := 0; i < MaxNames+50; i++ {
		names["n"+time.Duration(i).String()] = Name{Code: "true"}
	}
	if err := s.Add("s", Record{Names: names}); err != nil {
		t.Fatal(err)
	}
	if n := len(s.View("s").d.Names); n != MaxNames {
		t.Errorf("%d names kept, want %d", n, MaxNames)
	}
	// A corrupt file is ignored, not fatal.
	os.WriteFile(s.path("s"), []byte("{not json"), 0o600)
	if _, _, ok := Open(s.dir, time.Hour).View("s").Defined("n0s"); ok {
		t.Error("a corrupt session file must read as empty")
	}
}
