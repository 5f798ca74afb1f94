package guard

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/judge/typesafe"
)

func paths(t *testing.T) config.Paths {
	dir := t.TempDir()
	t.Setenv(config.HomeEnv, dir)
	t.Setenv("TYPESAFE_API_KEY", "")
	p, err := config.DefaultPaths()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestOpenCreatesConfigAndWires(t *testing.T) {
	p := paths(t)
	home := t.TempDir()
	g, err := Open(Options{Paths: p, Home: home})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if _, err := os.Stat(p.Config); err != nil {
		t.Fatalf("config not created: %v", err)
	}
	if !g.Config().Enabled || g.Audit == nil || g.Judge == nil {
		t.Fatalf("not wired: %+v", g)
	}
	if !strings.Contains(g.RemoteNote, "no TypeSafe API key") {
		t.Errorf("RemoteNote = %q", g.RemoteNote)
	}
	// Write to a system file: a red line through the wired judge.
	v := g.Judge.Judge(context.Background(), judge.State{Tool: "Write", FilePath: "/etc/sudoers", Cwd: "/home/dev/proj"})
	if v.Level != judge.Block {
		t.Errorf("verdict = %+v", v)
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(p.CacheDir, "judgments.json")); err != nil {
		t.Errorf("cache not saved on Close: %v", err)
	}
}

func TestOpenRemoteChoice(t *testing.T) {
	p := paths(t)
	home := t.TempDir()
	g, err := Open(Options{Paths: p, Mock: true, Home: home})
	if err != nil || !strings.Contains(g.RemoteNote, "mock") {
		t.Fatalf("mock: %v %q", err, g.RemoteNote)
	}
	g.Close()
	g, _ = Open(Options{Paths: p, Offline: true, Home: home})
	if !strings.Contains(g.RemoteNote, "offline") {
		t.Errorf("offline: %q", g.RemoteNote)
	}
	g.Close()
	os.WriteFile(filepath.Join(home, ".agentguardrc"), []byte("api_key=k-123456\n"), 0o600)
	g, _ = Open(Options{Paths: p, Home: home, NewRemote: typesafe.Remote})
	if !strings.Contains(g.RemoteNote, "TypeSafe") || strings.Contains(g.RemoteNote, "k-123456") {
		t.Errorf("with key: %q", g.RemoteNote)
	}
	g.Close()
	// A program that builds no remote judge says so rather than judging
	// as if none were configured.
	g, _ = Open(Options{Paths: p, Home: home})
	if !strings.Contains(g.RemoteNote, "no remote judge: this program has no client") {
		t.Errorf("with key, no NewRemote: %q", g.RemoteNote)
	}
	g.Close()
	// Offline wins over a key.
	g, _ = Open(Options{Paths: p, Offline: true, Home: home})
	if !strings.Contains(g.RemoteNote, "offline") {
		t.Errorf("offline with key: %q", g.RemoteNote)
	}
	g.Close()
}

func TestOpenBrokenFiles(t *testing.T) {
	p := paths(t)
	os.MkdirAll(p.CacheDir, 0o700)
	os.WriteFile(filepath.Join(p.CacheDir, "judgments.json"), []byte("{trunc"), 0o600)
	g, err := Open(Options{Paths: p, Offline: true, Home: t.TempDir()})
	if err != nil {
		t.Fatalf("a corrupt cache must not be fatal: %v", err)
	}
	if !strings.Contains(g.CacheNote, "corrupt") {
		t.Errorf("CacheNote = %q", g.CacheNote)
	}
	g.Close()
	os.WriteFile(p.Config, []byte(`{"enabled": "yes"}`), 0o600)
	if _, err := Open(Options{Paths: p, Offline: true}); err == nil {
		t.Fatal("a broken config was accepted")
	}
	// An explicit config overrides the file.
	c := config.Default()
	c.Enabled = false
	g, err = Open(Options{Paths: p, Offline: true, Config: c, Home: t.TempDir()})
	if err != nil || g.Config().Enabled {
		t.Fatalf("override: %v", err)
	}
	g.Close()
}

func TestSetConfigAppliesCacheLimits(t *testing.T) {
	p := paths(t)
	g, err := Open(Options{Paths: p, Offline: true, Home: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for i := 0; i < 5; i++ {
		g.cache.Put(judge.Key(judge.State{Tool: "Bash", Command: strings.Repeat("x", i+1)}), 1, 0)
	}
	c := g.Config().Clone()
	c.Cache.MaxEntries = 2
	c.BlockRisk = 2.9
	g.SetConfig(c)
	if g.cache.Len() != 2 || g.Config().BlockRisk != 2.9 {
		t.Fatalf("len %d, block_risk %v", g.cache.Len(), g.Config().BlockRisk)
	}
	g.SetConfig(nil) // ignored
	if g.Config() != c {
		t.Fatal("SetConfig(nil) replaced the config")
	}
}
