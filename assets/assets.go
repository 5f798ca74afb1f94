// Package assets embeds agent-guard's icons: a shield per tray state and
// the app icon (icon.png, also used by FyneApp.toml). The PNGs are drawn
// by scripts/genicons; regenerate them with `go run ./scripts/genicons`.
package assets

import (
	_ "embed"
	"runtime"
)

var (
	//go:embed icon.png
	Icon []byte
	//go:embed tray_on.png
	TrayOnPNG []byte
	//go:embed tray_off.png
	TrayOffPNG []byte
	//go:embed tray_pending.png
	TrayPendingPNG []byte
	//go:embed tray_unguarded.png
	TrayUnguardedPNG []byte
	//go:embed tray_unguarded.ico
	trayUnguardedICO []byte
	//go:embed tray_on.ico
	trayOnICO []byte
	//go:embed tray_off.ico
	trayOffICO []byte
	//go:embed tray_pending.ico
	trayPendingICO []byte
)

// Tray states.
const (
	StateOn      = "on"
	StateOff     = "off"
	StatePending = "pending"
	// StateUnguarded: a hook entry or a binary the guard depends on was
	// changed behind its back.
	StateUnguarded = "unguarded"
)

// TrayIcon returns the tray icon for state in the format this OS's tray
// wants: ICO on Windows, PNG elsewhere. An unknown state gets "pending"
// so a bug shows as attention, never as a calm green shield.
func TrayIcon(state string) []byte {
	win := runtime.GOOS == "windows"
	switch state {
	case StateOn:
		if win {
			return trayOnICO
		}
		return TrayOnPNG
	case StateOff:
		if win {
			return trayOffICO
		}
		return TrayOffPNG
	case StateUnguarded:
		if win {
			return trayUnguardedICO
		}
		return TrayUnguardedPNG
	}
	if win {
		return trayPendingICO
	}
	return TrayPendingPNG
}
