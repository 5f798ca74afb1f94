package testbin

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestInstall(t *testing.T) {
	t.Setenv(Env, "")
	if ok, err := Install(filepath.Join(t.TempDir(), "agent-guard")); ok || err != nil {
		t.Fatalf("without %s: %v %v; want false, nil (the caller builds)", Env, ok, err)
	}
	pre := t.TempDir()
	t.Setenv(Env, pre)
	dst := filepath.Join(t.TempDir(), "sub", "agent-guard")
	if ok, err := Install(dst); !ok || err == nil || !strings.Contains(err.Error(), "not there") {
		t.Fatalf("missing prebuilt: %v %v; want an error", ok, err)
	}
	if err := os.WriteFile(filepath.Join(pre, "agent-guard"), []byte("binary"), 0o755); err != nil {
		t.Fatal(err)
	}
	if ok, err := Install(dst); !ok || err != nil {
		t.Fatalf("Install: %v %v", ok, err)
	}
	if b, err := os.ReadFile(dst); err != nil || string(b) != "binary" {
		t.Fatalf("copied %q %v", b, err)
	}
}
