//go:build !nogui

// Package recent is the Recent decisions window: the last audit lines,
// newest first, with time, decision, level, tool, command and decider.
package recent

import (
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/agent-guard/agent-guard/app/audit"
)

// Limit is how many audit lines the window shows.
const Limit = 50

// Columns of the table.
var Columns = []string{"Time", "Decision", "Level", "Tool", "Command / input", "Decider"}

var widths = []float32{80, 80, 72, 70, 420, 70}

// Row renders one entry as the table's cells.
func Row(e audit.Entry) []string {
	ts := e.TS.Local().Format("15:04:05")
	if time.Since(e.TS) > 20*time.Hour {
		ts = e.TS.Local().Format("Jan 2 15:04")
	}
	in := strings.Join(strings.Fields(e.Input), " ")
	return []string{ts, e.Decision, e.Level, e.Tool, in, e.Decider}
}

// View is the window.
type View struct {
	Window fyne.Window
	Rows   [][]string // newest first
	table  *widget.Table
}

// New shows entries (oldest first, as audit.ReadLast returns them)
// newest first. title and note head the window ("" for the defaults).
func New(a fyne.App, entries []audit.Entry, title, note string) *View {
	if title == "" {
		title = "agent-guard — recent decisions"
	}
	v := &View{Window: a.NewWindow(title)}
	for i := len(entries) - 1; i >= 0 && len(v.Rows) < Limit; i-- {
		v.Rows = append(v.Rows, Row(entries[i]))
	}
	if note == "" {
		note = fmt.Sprintf("The last %d decisions, newest first. Full log: Open audit log in the tray menu.", len(v.Rows))
	}
	v.table = widget.NewTableWithHeaders(
		func() (int, int) { return len(v.Rows), len(Columns) },
		func() fyne.CanvasObject { l := widget.NewLabel(""); l.Truncation = fyne.TextTruncateEllipsis; return l },
		func(id widget.TableCellID, o fyne.CanvasObject) {
			l := o.(*widget.Label)
			cell := v.Rows[id.Row][id.Col]
			l.SetText(cell)
			l.Importance = widget.MediumImportance
			if id.Col == 1 {
				switch cell {
				case "deny":
					l.Importance = widget.DangerImportance
				case "allow":
					l.Importance = widget.SuccessImportance
				case "ask":
					l.Importance = widget.WarningImportance
				}
			}
			l.Refresh()
		})
	v.table.ShowHeaderColumn = false
	v.table.CreateHeader = func() fyne.CanvasObject {
		return widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	v.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Row < 0 && id.Col >= 0 {
			o.(*widget.Label).SetText(Columns[id.Col])
		}
	}
	for i, w := range widths {
		v.table.SetColumnWidth(i, w)
	}
	var body fyne.CanvasObject = v.table
	if len(v.Rows) == 0 {
		body = widget.NewLabel("No decisions yet: the audit log is empty.")
	}
	head := widget.NewLabel(note)
	head.Wrapping = fyne.TextWrapWord
	v.Window.SetContent(container.NewBorder(head, nil, nil, nil, body))
	v.Window.Resize(fyne.NewSize(880, 520))
	return v
}
