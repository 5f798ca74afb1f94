//go:build !linux && !nogui

package ui

import "errors"

// notifyNative is Linux-only; elsewhere a short-lived child window
// process sends the notification through Fyne.
func notifyNative(title, body string) error { return errors.ErrUnsupported }
