//go:build !nogui

// Package recent is the Recent decisions window: the last audit lines,
// newest first, one row each (time, host, session, tool, command, level,
// decision, decider, rule), filtered by level and host, with a detail pane
// that shows everything the log holds about the selected one (the whole
// digest, the reason, the answer, the working folder and session) and
// copies it to the clipboard.
package recent

import (
	"slices"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/agent-guard/agent-guard/app/audit"
	"github.com/agent-guard/agent-guard/app/ui/table"
)

var widths = []float32{72, 112, 84, 64, 288, 72, 100, 110, 140}

// View is the window.
type View struct {
	Window  fyne.Window
	Entries []audit.Entry // newest first
	Filter  Filter
	Shown   []int // indexes into Entries that pass Filter, in order
	// Selected is the index into Entries of the entry in the detail
	// pane, -1 for none.
	Selected int

	app      fyne.App
	now      time.Time
	hosts    []string // host names in the host filter, after "all hosts"
	table    *widget.Table
	levelSel *widget.Select
	hostSel  *widget.Select
	count    *widget.Label
	status   *widget.Label
	copyBtn  *widget.Button
	detail   *fyne.Container
	scroll   *container.Scroll
}

var levelValues = []string{"", "allow", "confirm", "block"}

// New shows entries (oldest first, as audit.ReadLast returns them)
// newest first. title and note head the window ("" for the defaults).
func New(a fyne.App, entries []audit.Entry, title, note string) *View {
	if title == "" {
		title = T(sTitle)
	}
	v := &View{Window: a.NewWindow(title), app: a, now: time.Now(), Selected: -1}
	v.Entries = Newest(entries, Limit)
	v.hosts = Hosts(v.Entries)
	v.Shown = v.Filter.Apply(v.Entries)
	if note == "" {
		note = T(sNote, map[string]any{"N": len(v.Entries)})
	}
	head := widget.NewLabel(note)
	head.Wrapping = fyne.TextWrapWord

	var body fyne.CanvasObject
	if len(v.Entries) == 0 {
		body = widget.NewLabel(T(sEmpty))
	} else {
		body = container.NewBorder(v.filterBar(), nil, nil, nil, v.split())
	}
	v.Window.SetContent(container.NewBorder(head, nil, nil, nil, body))
	// Ctrl+C (Cmd+C) copies the selected entry, as the button does.
	v.Window.Canvas().AddShortcut(&fyne.ShortcutCopy{}, func(fyne.Shortcut) { v.copyDetail() })
	v.Window.Resize(fyne.NewSize(1080, 640))
	return v
}

func (v *View) filterBar() fyne.CanvasObject {
	levels := []string{T(sAllLevels), T(sAllow), T(sConfirm), T(sBlock)}
	v.levelSel = widget.NewSelect(levels, func(s string) {
		f := v.Filter
		f.Level = levelValues[max(0, slices.Index(levels, s))]
		v.SetFilter(f)
	})
	v.levelSel.SetSelectedIndex(0)
	hosts := []string{T(sAllHosts)}
	for _, h := range v.hosts {
		hosts = append(hosts, HostName(h))
	}
	v.hostSel = widget.NewSelect(hosts, func(s string) {
		f := v.Filter
		f.Host = ""
		if i := slices.Index(hosts, s); i > 0 {
			f.Host = v.hosts[i-1]
		}
		v.SetFilter(f)
	})
	v.hostSel.SetSelectedIndex(0)
	v.count = widget.NewLabel("")
	v.status = widget.NewLabel("")
	v.copyBtn = widget.NewButton(T(sCopy), v.copyDetail)
	v.copyBtn.Disable()
	v.updateCount()
	return container.NewHBox(widget.NewLabel(T(sLevelLabel)), v.levelSel, widget.NewLabel(T(sHostLabel)), v.hostSel,
		v.count, layout.NewSpacer(), v.status, v.copyBtn)
}

func (v *View) split() fyne.CanvasObject {
	v.table = table.New(func() int { return len(v.Shown) }, Columns, widths, v.updateCell)
	v.table.OnSelected = func(id widget.TableCellID) {
		if id.Row >= 0 && id.Row < len(v.Shown) {
			v.show(v.Shown[id.Row])
		}
	}
	v.detail = container.New(layout.NewFormLayout())
	v.scroll = container.NewVScroll(v.detail)
	v.show(-1)
	s := container.NewVSplit(v.table, v.scroll)
	s.Offset = 0.42
	return s
}

func (v *View) updateCell(id widget.TableCellID, l *widget.Label) {
	if id.Row < 0 || id.Row >= len(v.Shown) {
		l.SetText("")
		return
	}
	e := v.Entries[v.Shown[id.Row]]
	l.Importance = widget.MediumImportance
	if id.Col == ColDecision {
		switch e.Decision {
		case "deny":
			l.Importance = widget.DangerImportance
		case "allow":
			l.Importance = widget.SuccessImportance
			if e.Approval == audit.ApprovalAlways {
				l.Importance = widget.HighImportance // a rule now passes calls like it
			}
		case "ask":
			l.Importance = widget.WarningImportance
		}
	}
	l.SetText(Cells(e, v.now)[id.Col])
}

// SetFilter shows only the entries f matches; a selection it hides is
// cleared.
func (v *View) SetFilter(f Filter) {
	v.Filter = f
	v.Shown = f.Apply(v.Entries)
	if v.table == nil {
		return
	}
	v.table.Refresh()
	v.updateCount()
	// Keep the selection in view and marked when the filter still shows it.
	if r := slices.Index(v.Shown, v.Selected); r >= 0 {
		v.table.Select(widget.TableCellID{Row: r, Col: ColInput})
		return
	}
	v.table.UnselectAll()
	v.show(-1)
}

func (v *View) updateCount() {
	switch {
	case v.count == nil:
	case len(v.Shown) == 0:
		v.count.SetText(T(sNoMatch))
	default:
		v.count.SetText(T(sShown, map[string]any{"N": len(v.Shown), "M": len(v.Entries)}))
	}
}

// Select shows the row-th shown entry in the detail pane, as a click on
// it does.
func (v *View) Select(row int) {
	if v.table != nil && row >= 0 && row < len(v.Shown) {
		v.table.Select(widget.TableCellID{Row: row, Col: ColInput})
	}
}

// show fills the detail pane with Entries[i] (-1: the hint).
func (v *View) show(i int) {
	v.Selected = i
	v.detail.RemoveAll()
	if v.status != nil {
		v.status.SetText("")
	}
	if i < 0 {
		v.detail.Add(widget.NewLabel(""))
		v.detail.Add(widget.NewLabel(T(sPick)))
		if v.copyBtn != nil {
			v.copyBtn.Disable()
		}
		v.detail.Refresh()
		return
	}
	for _, f := range Detail(v.Entries[i]) {
		key := widget.NewLabelWithStyle(f.Key, fyne.TextAlignTrailing, fyne.TextStyle{Bold: true})
		val := widget.NewLabel(f.Value)
		val.Wrapping = fyne.TextWrapWord
		if f.Mono {
			// Commands have long words (paths, URLs): break anywhere.
			val.TextStyle.Monospace = true
			val.Wrapping = fyne.TextWrapBreak
		}
		v.detail.Add(key)
		v.detail.Add(val)
	}
	v.detail.Refresh()
	v.scroll.ScrollToTop()
	if v.copyBtn != nil {
		v.copyBtn.Enable()
	}
}

// DetailText is the selected entry's detail as copied ("" for none).
func (v *View) DetailText() string {
	if v.Selected < 0 {
		return ""
	}
	return DetailText(v.Entries[v.Selected])
}

func (v *View) copyDetail() {
	if t := v.DetailText(); t != "" && v.status != nil {
		v.app.Clipboard().SetContent(t)
		v.status.SetText(T(sCopied))
	}
}
