//go:build !nogui

// Package table builds the list the Pending, Rules and Recent windows
// share: a Fyne table with one bold header row in the person's language,
// cells cut with an ellipsis (the detail pane shows them whole) and fixed
// column widths.
package table

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/agent-guard/agent-guard/app/ui/i18n"
)

// New returns the table. rows says how many rows there are now; columns
// are the English header texts (translated through i18n); update fills
// one cell's label.
func New(rows func() int, columns []string, widths []float32, update func(id widget.TableCellID, l *widget.Label)) *widget.Table {
	t := widget.NewTableWithHeaders(
		func() (int, int) { return rows(), len(columns) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TableCellID, o fyne.CanvasObject) { update(id, o.(*widget.Label)) })
	t.ShowHeaderColumn = false
	t.CreateHeader = func() fyne.CanvasObject {
		return widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	t.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Row < 0 && id.Col >= 0 && id.Col < len(columns) {
			o.(*widget.Label).SetText(i18n.T(columns[id.Col]))
		}
	}
	for i, w := range widths {
		t.SetColumnWidth(i, w)
	}
	return t
}
