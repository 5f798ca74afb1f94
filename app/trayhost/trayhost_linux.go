package trayhost

import (
	"fmt"

	"github.com/godbus/dbus/v5"
)

// Present reports whether a tray host is there; err says why it could
// not be checked (no session bus: then there is no host either).
func Present() (bool, error) {
	// A connection of its own: the shared one is cached for the process
	// and would not see a bus that came or went.
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return false, fmt.Errorf("no D-Bus session bus (%v)", err)
	}
	defer conn.Close()
	var has bool
	if err := conn.BusObject().Call("org.freedesktop.DBus.NameHasOwner", 0, Watcher).Store(&has); err != nil {
		return false, fmt.Errorf("cannot ask the session bus for %s (%v)", Watcher, err)
	}
	return has, nil
}
