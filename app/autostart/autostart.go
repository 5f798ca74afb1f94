// Package autostart starts the tray at login: an XDG autostart entry on
// Linux and other Unixes, a LaunchAgent on macOS, the HKCU Run key on
// Windows. The tray menu's "Start at login" and `install --autostart` use
// it. Everything here is pure Go (no cgo) so the hook-side builds stay
// cgo-free.
package autostart

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Name is the entry's name (desktop file, Run value).
const Name = "agent-guard"

// Label is the macOS LaunchAgent label and file name.
const Label = "ai.agentguard.tray"

// Enable starts exe (an absolute path to the tray binary) at login.
func Enable(exe string) error {
	if !filepath.IsAbs(exe) {
		return fmt.Errorf("autostart: %q is not an absolute path", exe)
	}
	return enable(exe)
}

// Disable removes the login entry; no entry is not an error.
func Disable() error { return disable() }

// Enabled reports whether a login entry exists.
func Enabled() bool { return enabled() }

// desktopEntry is the XDG autostart file for exe. Exec quoting follows the
// Desktop Entry spec: the path in double quotes with " ` $ \ escaped, and
// % doubled because Exec gives it a meaning.
func desktopEntry(exe string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "`", "\\`", `$`, `\$`, `%`, `%%`)
	return "[Desktop Entry]\n" +
		"Type=Application\n" +
		"Name=agent-guard\n" +
		"Comment=Safety gate for AI coding agents\n" +
		"Exec=\"" + r.Replace(exe) + "\"\n" +
		"Terminal=false\n" +
		"X-GNOME-Autostart-enabled=true\n"
}

// launchAgent is the macOS LaunchAgent plist for exe.
func launchAgent(exe string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;")
	return `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
<dict>
	<key>Label</key>
	<string>` + Label + `</string>
	<key>ProgramArguments</key>
	<array>
		<string>` + r.Replace(exe) + `</string>
	</array>
	<key>RunAtLoad</key>
	<true/>
	<key>ProcessType</key>
	<string>Interactive</string>
</dict>
</plist>
`
}

// runValue is the Windows Run key's command line for exe.
func runValue(exe string) string { return `"` + exe + `"` }
