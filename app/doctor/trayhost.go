package doctor

import (
	"runtime"

	"github.com/agent-guard/agent-guard/app/trayhost"
)

// trayHost is trayhost.Present; tests replace it.
var trayHost = trayhost.Present

// checkTrayHost says whether the tray icon can appear. On Linux it needs
// a StatusNotifier host (stock GNOME has none); without one the tray
// still guards and asks, but its menu cannot be reached, so say how to
// reach its windows and how to get the icon. A NOTE, not a FIX: nothing
// is unguarded.
func checkTrayHost(r *report, getenv func(string) string) {
	if runtime.GOOS != "linux" {
		return // Windows and macOS always have a notification area / menu bar
	}
	if getenv("DISPLAY") == "" && getenv("WAYLAND_DISPLAY") == "" {
		r.note("tray icon: no desktop session here (DISPLAY and WAYLAND_DISPLAY are unset); without a desktop run 'agent-guard serve --headless' instead of the tray")
		return
	}
	ok, err := trayHost()
	if ok {
		r.ok("tray icon: this desktop has a tray host (%s on the session bus)", trayhost.Watcher)
		return
	}
	why := "no " + trayhost.Watcher + " on the session bus"
	if err != nil {
		why = err.Error()
	}
	r.note("tray icon: this desktop shows no tray icons (%s), so agent-guard's icon will not appear. "+
		"The tray still guards and asks; it opens a small status window instead, and "+
		"'agent-guard window settings|rules|recent|pending' opens its windows from a terminal. "+
		"To get the icon, install a StatusNotifier host (GNOME: the AppIndicator extension, package gnome-shell-extension-appindicator)", why)
}
