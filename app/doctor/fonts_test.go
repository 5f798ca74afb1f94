package doctor

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// fontconfigWith writes a fontconfig file whose only font folder is a
// fresh temp dir holding fonts (copied), and points FONTCONFIG_FILE at it.
func fontconfigWith(t *testing.T, fonts ...string) {
	t.Helper()
	dir := t.TempDir()
	fontDir, cache := filepath.Join(dir, "fonts"), filepath.Join(dir, "cache")
	if err := os.MkdirAll(fontDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range fonts {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(fontDir, filepath.Base(f)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	conf := filepath.Join(dir, "fonts.conf")
	xml := `<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig><dir>` + fontDir + `</dir><cachedir>` + cache + `</cachedir></fontconfig>`
	if err := os.WriteFile(conf, []byte(xml), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("FONTCONFIG_FILE", conf)
	t.Setenv("FONTCONFIG_PATH", dir)
}

// cjkFontFile is a CJK font file of this machine, found with the system's
// fontconfig before the test replaces it.
func cjkFontFile(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("fc-list", ":lang=zh", "file").Output()
	if err != nil {
		t.Skipf("fc-list: %v (apt-get install fontconfig)", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if f := strings.TrimSuffix(strings.TrimSpace(line), ":"); f != "" {
			return f
		}
	}
	t.Skip("no CJK font installed to test with (scripts/deps.sh installs fonts-wqy-microhei)")
	return ""
}

func TestCheckFonts(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("fontconfig is asked on Linux only")
	}
	cjk := cjkFontFile(t)
	dejavu := "" // a font without Chinese, when there is one
	if out, err := exec.Command("fc-match", "-f", "%{file}", "DejaVu Sans").Output(); err == nil && !strings.Contains(string(out), "wqy") {
		dejavu = string(out)
	}
	tests := []struct {
		name  string
		setup func(t *testing.T)
		ok    bool
		want  string
	}{
		{"empty font dir", func(t *testing.T) { fontconfigWith(t) }, false,
			"FIX fonts: no font that draws Chinese is installed (fc-list :lang=zh lists none): the approval dialog would show Chinese commands, file names and labels as empty boxes; install one: sudo apt-get install fonts-wqy-microhei (or fonts-noto-cjk)"},
		{"latin font only", func(t *testing.T) {
			if dejavu == "" {
				fontconfigWith(t)
				return
			}
			fontconfigWith(t, dejavu)
		}, false, "FIX fonts: no font that draws Chinese"},
		{"a CJK font", func(t *testing.T) { fontconfigWith(t, cjk) }, true, "OK  fonts: Chinese can be drawn ("},
		{"no fc-list", func(t *testing.T) { t.Setenv("PATH", t.TempDir()) }, true,
			"NOTE fonts: fc-list (fontconfig) is not installed, so whether Chinese can be drawn is unknown"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.setup(t)
			var b bytes.Buffer
			r := &report{w: &b}
			checkFonts(context.Background(), r)
			if !strings.HasPrefix(b.String(), tt.want) || r.failed == tt.ok {
				t.Fatalf("got %q (failed %v), want %q", b.String(), r.failed, tt.want)
			}
		})
	}
}

// Windows and macOS ship CJK fonts: nothing to ask.
func TestCheckFontsSystems(t *testing.T) {
	for goos, want := range map[string]string{"windows": "OK  fonts: Windows ships fonts that draw Chinese", "darwin": "OK  fonts: macOS ships fonts that draw Chinese"} {
		t.Setenv("PATH", t.TempDir()) // no fc-list is needed
		var b bytes.Buffer
		r := &report{w: &b}
		checkFontsOn(context.Background(), r, goos)
		if !strings.HasPrefix(b.String(), want) || r.failed {
			t.Errorf("%s: %q", goos, b.String())
		}
	}
}
