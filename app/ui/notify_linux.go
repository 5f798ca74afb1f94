//go:build !nogui

package ui

import (
	"github.com/godbus/dbus/v5"
)

// notifyNative sends a desktop notification over the session bus
// (org.freedesktop.Notifications), without cgo and without Fyne.
func notifyNative(title, body string) error {
	conn, err := dbus.SessionBus()
	if err != nil {
		return err
	}
	obj := conn.Object("org.freedesktop.Notifications", "/org/freedesktop/Notifications")
	call := obj.Call("org.freedesktop.Notifications.Notify", 0,
		"agent-guard", uint32(0), "dialog-warning", title, body,
		[]string{}, map[string]dbus.Variant{"urgency": dbus.MakeVariant(byte(1))}, int32(10000))
	return call.Err
}
