//go:build !nogui

// Package accept is the window that asks the user to accept a change of
// config.json that lowers the guard's protection (see config.Resolve). It
// runs in a child process of the tray; its only answer goes to stdout,
// the pipe the tray made for it. Deny has the focus; Enter and Esc deny;
// only a click on Accept (or Space on it after Tab) accepts.
package accept

import (
	"fmt"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Verb is the hidden verb that starts this window as a tray child.
const Verb = "ui-accept"

// Request is what the tray sends: the changes in words.
type Request struct {
	ConfigPath string   `json:"config_path"`
	Changes    []string `json:"changes"`
}

// Actions of the Reply.
const (
	ActionAccept = "accept"
	ActionDeny   = "deny"
)

// Reply is the window's one answer.
type Reply struct {
	Action string `json:"action"`
}

// Title starts with "agent-guard", as every window of ours does.
func Title(n int) string {
	return fmt.Sprintf("agent-guard — accept %d config change(s) that lower protection?", n)
}

// View is the window and its buttons (exported for tests).
type View struct {
	Window       fyne.Window
	Deny, Accept *keyButton
	once         sync.Once
	answer       func(Reply)
}

// keyButton denies on Enter and Esc even while it has the focus.
type keyButton struct {
	widget.Button
	deny func()
}

func newKeyButton(label string, icon fyne.Resource, tapped, deny func()) *keyButton {
	b := &keyButton{deny: deny}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

func (b *keyButton) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyEscape, fyne.KeyReturn, fyne.KeyEnter:
		b.deny()
		return
	}
	b.Button.TypedKey(ev)
}

// New builds the window. answer is called exactly once; closing the
// window leaves the change waiting (no answer is sent).
func New(a fyne.App, req Request, answer func(Reply)) *View {
	v := &View{answer: answer}
	w := a.NewWindow(Title(len(req.Changes)))
	v.Window = w
	deny := func() { v.Answered(ActionDeny) }
	denyBtn := newKeyButton("Deny: keep the config in force (Enter, Esc)", theme.CancelIcon(), deny, deny)
	denyBtn.Importance = widget.HighImportance
	acceptBtn := newKeyButton("Accept these changes", theme.ConfirmIcon(), func() { v.Answered(ActionAccept) }, deny)
	acceptBtn.Importance = widget.LowImportance
	v.Deny, v.Accept = denyBtn, acceptBtn

	var list strings.Builder
	for _, c := range req.Changes {
		fmt.Fprintf(&list, "• %s\n", c)
	}
	changes := widget.NewLabel(strings.TrimSpace(list.String()))
	changes.Wrapping = fyne.TextWrapWord
	head := widget.NewLabel(fmt.Sprintf("%s was changed on disk. These changes lower the guard's protection, so they are not in force until you accept them:", req.ConfigPath))
	head.Wrapping = fyne.TextWrapWord
	warn := widget.NewLabel("If you did not make them yourself, an agent may have. Deny puts the file back to the config in force.")
	warn.Wrapping = fyne.TextWrapWord
	warn.TextStyle = fyne.TextStyle{Bold: true}
	content := container.NewBorder(head, container.NewVBox(warn, container.NewHBox(denyBtn, acceptBtn)), nil, nil,
		container.NewVScroll(changes))
	w.SetContent(content)
	w.Resize(fyne.NewSize(620, 360))
	w.Canvas().SetOnTypedKey(func(ev *fyne.KeyEvent) {
		switch ev.Name {
		case fyne.KeyEscape, fyne.KeyReturn, fyne.KeyEnter:
			deny()
		}
	})
	if dw, ok := w.(desktop.Window); ok {
		dw.RequestAlwaysOnTop()
	}
	return v
}

// FocusDeny gives Deny the keyboard focus (call after Show).
func (v *View) FocusDeny() { v.Window.Canvas().Focus(v.Deny) }

// Answered sends the answer once and closes the window.
func (v *View) Answered(action string) {
	v.once.Do(func() {
		v.answer(Reply{Action: action})
		v.Window.Close()
	})
}
