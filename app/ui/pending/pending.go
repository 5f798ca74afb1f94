//go:build !nogui

// Package pending is the queue window: every approval waiting, with who
// asks (host, session, workspace), the tool and the call, and per item
// Show (bring its dialog forward), Deny and "Deny all from this session".
// It runs as the tray's own child: the tray sends the list (proto
// PendingList lines) and alone acts on the window's requests; nothing
// else can drive it.
package pending

import (
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	. "github.com/agent-guard/agent-guard/app/ui/i18n"
	"github.com/agent-guard/agent-guard/app/ui/proto"
	"github.com/agent-guard/agent-guard/app/ui/table"
)

var columns = []string{"host", "session", "workspace", "tool", "call", "waiting"}

var widths = []float32{110, 110, 200, 90, 330, 70}

// View is the queue window.
type View struct {
	Window              fyne.Window
	Items               []proto.PendingRow
	now                 func() time.Time
	send                func(proto.PendingAction)
	table               *widget.Table
	sel                 int
	empty               *widget.Label
	show, deny, denyAll *widget.Button
}

// New builds the window; send carries the user's requests to the tray.
func New(a fyne.App, now func() time.Time, send func(proto.PendingAction)) *View {
	if now == nil {
		now = time.Now
	}
	v := &View{Window: a.NewWindow("agent-guard — " + T("Pending approvals")), now: now, send: send, sel: -1}
	v.table = table.New(func() int { return len(v.Items) }, columns, widths,
		func(id widget.TableCellID, l *widget.Label) { l.SetText(v.Cell(id.Row, id.Col)) })
	v.table.OnSelected = func(id widget.TableCellID) { v.pick(id.Row) }
	act := func(action string) func() {
		return func() {
			if v.sel < 0 || v.sel >= len(v.Items) {
				return
			}
			it := v.Items[v.sel]
			v.send(proto.PendingAction{Action: action, ID: it.ID, Host: it.Host, Session: it.Session})
		}
	}
	v.show = widget.NewButton(T("Show"), act(proto.PendingShow))
	v.deny = widget.NewButton(T("Deny"), act(proto.PendingDeny))
	v.denyAll = widget.NewButton(T("Deny all from this session"), act(proto.PendingDenySession))
	v.deny.Importance = widget.DangerImportance
	v.empty = widget.NewLabel(T("Nothing is waiting."))
	bottom := container.NewHBox(v.empty, layout.NewSpacer(), v.show, v.denyAll, v.deny)
	v.Window.SetContent(container.NewBorder(nil, container.NewPadded(bottom), nil, nil, v.table))
	v.Window.Resize(fyne.NewSize(940, 360))
	v.SetItems(nil)
	return v
}

// SetItems replaces the list (the tray sends it on every queue change).
func (v *View) SetItems(items []proto.PendingRow) {
	var keep uint64
	if v.sel >= 0 && v.sel < len(v.Items) {
		keep = v.Items[v.sel].ID
	}
	v.Items = items
	v.sel = -1
	v.table.UnselectAll()
	for i, it := range items {
		if it.ID == keep {
			v.table.Select(widget.TableCellID{Row: i, Col: 0})
		}
	}
	v.pick(v.sel)
	v.table.Refresh()
}

func (v *View) pick(i int) {
	v.sel = i
	for _, b := range []*widget.Button{v.show, v.deny, v.denyAll} {
		if i < 0 || i >= len(v.Items) {
			b.Disable()
		} else {
			b.Enable()
		}
	}
	if i >= 0 && i < len(v.Items) && v.Items[i].Session == "" {
		v.denyAll.Disable()
	}
	// The line beside the buttons says what they are for.
	switch {
	case len(v.Items) == 0:
		v.empty.SetText(T("Nothing is waiting."))
	case i < 0 || i >= len(v.Items):
		v.empty.SetText(T("Pick a call to deny it or its whole session; allowing is done in the dialog."))
	default:
		v.empty.SetText("")
	}
}

// Select picks row i (tests, screenshots).
func (v *View) Select(i int) { v.table.Select(widget.TableCellID{Row: i, Col: 0}) }

// Cell is the text of one cell.
func (v *View) Cell(row, col int) string {
	if row < 0 || row >= len(v.Items) {
		return ""
	}
	it := v.Items[row]
	switch col {
	case 0:
		return it.HostName
	case 1:
		return it.Session
	case 2:
		return it.Workspace
	case 3:
		return it.Tool
	case 4:
		return it.Call
	case 5:
		d := v.now().Sub(it.Since).Round(time.Second)
		return fmt.Sprintf("%d:%02d", int(d.Minutes()), int(d.Seconds())%60)
	}
	return ""
}
