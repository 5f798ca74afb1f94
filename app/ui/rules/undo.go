//go:build !nogui

package rules

import (
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/agent-guard/agent-guard/app/config"
	. "github.com/agent-guard/agent-guard/app/ui/i18n"
)

// UndoView is the notice after "Always…": what is now allowed, in which
// scope, and an Undo that removes exactly those approvals.
type UndoView struct {
	Window fyne.Window
	Undo   *widget.Button
	label  *widget.Label
}

// NewUndo builds the notice; it closes itself after stay.
func NewUndo(a fyne.App, path string, ids, lines []string, scope string, stay time.Duration) *UndoView {
	v := &UndoView{Window: a.NewWindow("agent-guard — " + T("Always-allow rule added"))}
	v.label = widget.NewLabel(T("Always-allow rule added") + " (" + scope + "):\n" + strings.Join(lines, "\n"))
	v.label.Wrapping = fyne.TextWrapWord
	v.Undo = widget.NewButton(T("Undo"), nil)
	v.Undo.Importance = widget.HighImportance
	v.Undo.OnTapped = func() {
		if _, err := config.Update(path, RemoveIDs(ids)); err != nil {
			v.label.SetText(err.Error())
			return
		}
		v.label.SetText(T("Removed again."))
		v.Undo.Disable()
		go func() { time.Sleep(2 * time.Second); fyne.Do(v.Window.Close) }()
	}
	v.Window.SetContent(container.NewPadded(container.NewBorder(nil,
		container.NewHBox(layout.NewSpacer(), widget.NewButton(T("Close"), v.Window.Close), v.Undo), nil, nil, v.label)))
	v.Window.Resize(fyne.NewSize(460, 140))
	if stay > 0 {
		go func() { time.Sleep(stay); fyne.Do(v.Window.Close) }()
	}
	return v
}
