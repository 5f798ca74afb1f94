package rules

import (
	"os"
	"path/filepath"
	"testing"
)

// A pattern with many wildcards is still expanded, a level at a time, and
// a guard file it reaches on disk blocks; one that reaches nothing of the
// guard does not.
func TestManyWildcardGlob(t *testing.T) {
	home := t.TempDir()
	for _, f := range []string{".config/agent-guard/config.json", ".config/app/conf.json", ".cache/x/c.json"} {
		p := filepath.Join(home, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	cwd := filepath.Join(home, "proj")
	for pat, want := range map[string]bool{
		home + "/.c*/a*-g*/c*.json": true,
		home + "/.c*/a*p/c*.js?n":   false,
		home + "/.c*/?/c*.j*":       false,
	} {
		if _, got := Protected(pat, cwd, home); got != want {
			t.Errorf("Protected(%q) = %v, want %v", pat, got, want)
		}
	}
	if got := boundedGlob(filepath.FromSlash(home+"/.c*/a*-g*/c*.json"), 1); len(got) != 0 {
		t.Errorf("boundedGlob with one folder read = %v, want nothing (the bound stops it)", got)
	}
}
