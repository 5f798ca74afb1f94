//go:build !windows && !darwin

package autostart

import (
	"os"
	"path/filepath"
	"strings"
)

// entryPath is $XDG_CONFIG_HOME/autostart/agent-guard.desktop
// (~/.config/autostart when XDG_CONFIG_HOME is unset or relative).
func entryPath() (string, error) {
	if d := os.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "autostart", Name+".desktop"), nil
	}
	return homeJoin(".config", "autostart", Name+".desktop")
}

// enabled also honours a user who switched the entry off in their
// desktop's settings (Hidden=true) rather than deleting it.
func enabled() bool {
	p, err := entryPath()
	if err != nil || !exists(p) {
		return false
	}
	b, err := os.ReadFile(p)
	return err == nil && !strings.Contains(string(b), "\nHidden=true")
}

// entryContent is the login file written for exe.
func entryContent(exe string) string { return desktopEntry(exe) }
