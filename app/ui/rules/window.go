//go:build !nogui

package rules

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"github.com/agent-guard/agent-guard/app/config"
	. "github.com/agent-guard/agent-guard/app/ui/i18n"
	"github.com/agent-guard/agent-guard/app/ui/table"
)

// Columns of the list.
var columns = []string{"kind", "pattern", "scope", "added"}

var widths = []float32{130, 380, 260, 130}

// View is the Rules window.
type View struct {
	Window fyne.Window
	Rows   []Row
	path   string
	table  *widget.Table
	sel    int
	entry  *widget.Entry
	detail *widget.Label
	status *widget.Label
	remove *widget.Button
	save   *widget.Button
}

// New opens the Rules window over the config file at path.
func New(a fyne.App, path string) *View {
	v := &View{Window: a.NewWindow("agent-guard — " + T("Rules")), path: path, sel: -1}
	v.table = table.New(func() int { return len(v.Rows) }, columns, widths,
		func(id widget.TableCellID, l *widget.Label) { l.SetText(v.cell(id.Row, id.Col)) })
	v.table.OnSelected = func(id widget.TableCellID) { v.pick(id.Row) }
	v.entry = widget.NewEntry()
	v.detail = widget.NewLabel("")
	v.detail.Wrapping = fyne.TextWrapWord
	v.status = widget.NewLabel("")
	v.remove = widget.NewButton(T("Remove"), func() { v.apply(Remove(v.Rows[v.sel])) })
	v.save = widget.NewButton(T("Save"), func() { v.apply(Edit(v.Rows[v.sel], v.entry.Text)) })
	v.remove.Importance = widget.DangerImportance
	edit := container.NewBorder(nil, nil, nil, container.NewHBox(v.save, v.remove), v.entry)
	bottom := container.NewVBox(widget.NewSeparator(), v.detail, edit, container.NewHBox(v.status, layout.NewSpacer(),
		widget.NewButton(T("Close"), v.Window.Close)))
	v.Window.SetContent(container.NewBorder(nil, bottom, nil, nil, v.table))
	v.Window.Resize(fyne.NewSize(940, 520))
	v.Reload()
	return v
}

func (v *View) cell(row, col int) string {
	if row < 0 || row >= len(v.Rows) {
		return ""
	}
	r := v.Rows[row]
	switch col {
	case 0:
		return T(kindLabel(r.Kind))
	case 1:
		if r.Value != "" && r.Kind == KindOverride {
			return r.Pattern + " = " + r.Value
		}
		return r.Pattern
	case 2:
		if r.Where == "" {
			return "everywhere"
		}
		return r.Where
	case 3:
		if r.Added == "" {
			return T("added by hand (no date)")
		}
		return r.Added
	}
	return ""
}

func kindLabel(k string) string {
	switch k {
	case KindAllow:
		return "Allowlist"
	case KindDeny:
		return "Denylist"
	case KindMCPAllow:
		return "MCP servers allowed"
	case KindOverride:
		return "MCP overrides"
	}
	return "Scoped approvals"
}

// Reload reads the config file again.
func (v *View) Reload() {
	c, err := config.Load(v.path)
	if err != nil {
		v.status.SetText(err.Error())
		c = config.Default()
	}
	v.Rows = Rows(c)
	v.sel = -1
	v.table.UnselectAll()
	v.table.Refresh()
	v.pick(-1)
	if len(v.Rows) == 0 && err == nil {
		v.status.SetText(T("No rules yet."))
	}
}

func (v *View) pick(i int) {
	v.sel = i
	if i < 0 || i >= len(v.Rows) {
		v.entry.SetText("")
		v.entry.Disable()
		v.save.Disable()
		v.remove.Disable()
		v.detail.SetText("")
		return
	}
	r := v.Rows[i]
	v.entry.SetText(r.Pattern)
	v.remove.Enable()
	if r.Editable {
		v.entry.Enable()
		v.save.Enable()
	} else {
		v.entry.Disable()
		v.save.Disable()
	}
	d := fmt.Sprintf("%s · %s", T(kindLabel(r.Kind)), r.Pattern)
	if r.Value != "" {
		d += " · " + r.Value
	}
	if r.Where != "" {
		d += " · " + r.Where
	}
	if r.Added != "" {
		d += " · " + T("added") + " " + r.Added
	}
	v.detail.SetText(d)
}

// apply saves one edit through config.Update and reloads.
func (v *View) apply(edit func(*config.Config) error) {
	if v.sel < 0 {
		return
	}
	if _, err := config.Update(v.path, edit); err != nil {
		v.Reload()
		v.status.SetText(err.Error())
		return
	}
	v.Reload()
	v.status.SetText(T("Saved."))
}
