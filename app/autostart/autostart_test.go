package autostart

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

func TestEnableDisableXDG(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		t.Skip("XDG autostart is the Linux/BSD backend")
	}
	for _, tt := range []struct {
		name string
		xdg  bool
	}{{"home .config", false}, {"XDG_CONFIG_HOME", true}} {
		t.Run(tt.name, func(t *testing.T) {
			home := t.TempDir()
			t.Setenv("HOME", home)
			want := filepath.Join(home, ".config", "autostart", "agent-guard.desktop")
			if tt.xdg {
				xdg := filepath.Join(t.TempDir(), "cfg")
				t.Setenv("XDG_CONFIG_HOME", xdg)
				want = filepath.Join(xdg, "autostart", "agent-guard.desktop")
			} else {
				t.Setenv("XDG_CONFIG_HOME", "")
			}
			if Enabled() {
				t.Fatal("Enabled before Enable")
			}
			if err := Disable(); err != nil {
				t.Fatalf("Disable without an entry: %v", err)
			}
			exe := "/opt/agent guard/agent-guard"
			if err := Enable(exe); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(want)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(b), "Exec=\"/opt/agent guard/agent-guard\"\n") || !strings.HasPrefix(string(b), "[Desktop Entry]\n") {
				t.Errorf("desktop entry:\n%s", b)
			}
			if !Enabled() {
				t.Error("not Enabled after Enable")
			}
			if err := Enable(exe); err != nil { // twice is fine
				t.Fatal(err)
			}
			if err := Disable(); err != nil {
				t.Fatal(err)
			}
			if Enabled() {
				t.Error("Enabled after Disable")
			}
			if _, err := os.Stat(want); !os.IsNotExist(err) {
				t.Errorf("%s still there", want)
			}
		})
	}
}

func TestHiddenEntryIsDisabled(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		t.Skip("XDG autostart is the Linux/BSD backend")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	if err := Enable("/usr/bin/agent-guard"); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(home, ".config", "autostart", "agent-guard.desktop")
	b, _ := os.ReadFile(p)
	if err := os.WriteFile(p, append(b, "Hidden=true\n"...), 0o600); err != nil {
		t.Fatal(err)
	}
	if Enabled() {
		t.Error("an entry the desktop switched off (Hidden=true) counts as enabled")
	}
}

func TestEnableRejectsRelativePath(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	if err := Enable("agent-guard"); err == nil {
		t.Error("relative exe accepted")
	}
}

func TestEntryContents(t *testing.T) {
	tests := []struct{ name, got, want string }{
		{"desktop escapes", desktopEntry(`/a/$b "c"/100%/d\e`), `Exec="/a/\$b \"c\"/100%%/d\\e"`},
		{"plist program", launchAgent(`/Applications/A&B <x>.app/Contents/MacOS/agent-guard`), `<string>/Applications/A&amp;B &lt;x&gt;.app/Contents/MacOS/agent-guard</string>`},
		{"plist label", launchAgent("/x"), "<key>Label</key>\n\t<string>ai.agentguard.tray</string>"},
		{"plist run at load", launchAgent("/x"), "<key>RunAtLoad</key>\n\t<true/>"},
		{"run value quoted", runValue(`C:\Program Files\agent-guard\agent-guard.exe`), `"C:\Program Files\agent-guard\agent-guard.exe"`},
	}
	for _, tt := range tests {
		if !strings.Contains(tt.got, tt.want) {
			t.Errorf("%s: %q lacks %q", tt.name, tt.got, tt.want)
		}
	}
}
