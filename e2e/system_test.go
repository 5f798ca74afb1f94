//go:build unix

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// install --system (as root, into a temp prefix) copies both binaries into
// a root-owned folder, re-points the installed hook there, and doctor says
// which mode is in force.
func TestInstallSystem(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("install --system needs root (CI and the dev machines run as root)")
	}
	t.Parallel()
	e := newEnv(t)
	// A user install: the binaries in a folder a user (uid 65534) owns.
	userBin := filepath.Join(t.TempDir(), "bin")
	if err := os.MkdirAll(userBin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{guardBin, hookBin} {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(userBin, filepath.Base(src))
		if err := os.WriteFile(dst, data, 0o755); err != nil {
			t.Fatal(err)
		}
		os.Chown(dst, 65534, 65534)
	}
	os.Chown(userBin, 65534, 65534)
	if out, code := e.guardVerb(t, "", "install", "--claude", "--hook", filepath.Join(userBin, "agent-guard-hook")); code != 0 {
		t.Fatalf("install --claude (%d):\n%s", code, out)
	}
	if out, _ := e.guardVerb(t, "", "doctor", "--claude"); !strings.Contains(out, "install mode: user") {
		t.Fatalf("doctor before --system:\n%s", out)
	}
	prefix := filepath.Join(t.TempDir(), "lib", "agent-guard")
	out, code := e.guardVerb(t, "", "install", "--system", "--prefix", prefix)
	if code != 0 {
		t.Fatalf("install --system (%d):\n%s", code, out)
	}
	for _, name := range []string{"agent-guard", "agent-guard-hook"} {
		fi, err := os.Stat(filepath.Join(prefix, name))
		if err != nil {
			t.Fatal(err)
		}
		st := fi.Sys().(*syscall.Stat_t)
		if st.Uid != 0 || fi.Mode().Perm() != 0o755 {
			t.Errorf("%s: uid %d mode %v, want root 0755", name, st.Uid, fi.Mode().Perm())
		}
	}
	settings, _ := os.ReadFile(filepath.Join(e.home, ".claude", "settings.json"))
	if !strings.Contains(string(settings), filepath.Join(prefix, "agent-guard-hook")) || !strings.Contains(string(settings), "--guard") {
		t.Fatalf("the hook was not re-pointed:\n%s", settings)
	}
	// The root-owned hook still answers (fallback: no server here).
	out, _ = e.guardVerb(t, "", "doctor", "--claude")
	if !strings.Contains(out, "install mode: system") {
		t.Fatalf("doctor after --system:\n%s", out)
	}
}
