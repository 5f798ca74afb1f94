//go:build !linux

package trayhost

// Present is always true off Linux: Windows and macOS always have a tray
// (notification area, menu bar).
func Present() (bool, error) { return true, nil }
