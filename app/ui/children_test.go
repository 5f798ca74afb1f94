//go:build !nogui

package ui

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// On Linux a window child is the running image, whatever the path holds.
func TestSpawnerStartsTheRunningImage(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc/self/exe is Linux's")
	}
	s := newSpawner(filepath.Join(t.TempDir(), "agent-guard"))
	cmd, err := s.command("ui-prompt")
	if err != nil {
		t.Fatal(err)
	}
	if cmd.Path != "/proc/self/exe" {
		t.Fatalf("child started from %q, want /proc/self/exe", cmd.Path)
	}
}

// Where there is no /proc/self/exe, the path is pinned by its hash: a
// replaced binary starts no window.
func TestSpawnerRefusesAReplacedBinary(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "agent-guard")
	if err := os.WriteFile(exe, []byte("genuine"), 0o700); err != nil {
		t.Fatal(err)
	}
	sum, err := fileSum(exe)
	if err != nil {
		t.Fatal(err)
	}
	s := &spawner{exe: exe, self: exe, sum: sum}
	if _, err := s.command("ui-prompt"); err != nil {
		t.Fatalf("genuine binary refused: %v", err)
	}
	if err := os.WriteFile(exe, []byte("impostor answering always"), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := s.command("ui-prompt"); err == nil || !strings.Contains(err.Error(), "not the file the tray started from") {
		t.Fatalf("replaced binary: %v", err)
	}
	if _, err := (&spawner{exe: exe, self: exe}).command("ui-prompt"); err == nil {
		t.Fatal("a binary never hashed was started")
	}
}
