//go:build !nogui

// Package status is the small window the tray opens when the desktop has
// no tray host (stock GNOME): it says so and offers the windows the tray
// menu would have offered.
package status

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	. "github.com/agent-guard/agent-guard/app/ui/i18n"
)

// Windows the status window offers, in order (control socket verbs).
var Windows = []string{"pending", "rules", "recent", "settings"}

var labels = map[string]string{"pending": "Pending approvals", "rules": "Rules", "recent": "Recent decisions", "settings": "Settings"}

// New builds the window; open asks the tray for one of Windows.
func New(a fyne.App, open func(verb string) error) fyne.Window {
	w := a.NewWindow("agent-guard — " + T("No tray icon"))
	msg := widget.NewLabel(T("agent-guard is running, but this desktop shows no tray icons (no StatusNotifier host). Use these buttons, or from a terminal: agent-guard window settings | rules | recent | pending."))
	msg.Wrapping = fyne.TextWrapWord
	errLabel := widget.NewLabel("")
	errLabel.Wrapping = fyne.TextWrapWord
	row := container.NewHBox()
	for _, v := range Windows {
		v := v
		row.Add(widget.NewButton(T(labels[v]), func() {
			if err := open(v); err != nil {
				errLabel.SetText(err.Error())
			}
		}))
	}
	w.SetContent(container.NewPadded(container.NewVBox(msg, row, errLabel)))
	w.Resize(fyne.NewSize(520, 160))
	return w
}
