//go:build !nogui

package ui

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/agent-guard/agent-guard/app/ui/model"
	"github.com/agent-guard/agent-guard/assets"
)

// menuWindow draws the tray menu built by package model (the same items
// the systray shows) under a desktop panel with the tray icon, with the
// pending submenu and its first item's submenu opened. It exists for
// screenshots: Xvfb has no tray host to open the real menu.
func menuWindow(a fyne.App, st model.State) fyne.Window {
	w := a.NewWindow("agent-guard — tray menu")
	items := model.Menu(st)
	iconRes := fyne.NewStaticResource("tray.png", assets.TrayIcon(model.Icon(st)))
	icon := canvas.NewImageFromResource(iconRes)
	icon.FillMode = canvas.ImageFillContain
	icon.SetMinSize(fyne.NewSize(20, 20))
	clock := canvas.NewText("14:32", color.NRGBA{0xe8, 0xea, 0xed, 0xff})
	panelBG := canvas.NewRectangle(color.NRGBA{0x1b, 0x1d, 0x20, 0xff})
	panel := container.NewStack(panelBG, container.NewPadded(container.NewHBox(layout.NewSpacer(), icon, clock)))

	c := &cascade{}
	main, rows := menuPanel(items)
	c.add(main, nil)
	// Open the pending submenu, and the first pending item's own submenu.
	for _, it := range items {
		if it.ID != model.ActPending || len(it.Children) == 0 {
			continue
		}
		sub, subRows := menuPanel(it.Children)
		c.add(sub, rows[it.ID])
		for _, ch := range it.Children {
			if len(ch.Children) > 0 {
				subsub, _ := menuPanel(ch.Children)
				c.add(subsub, subRows[ch.ID])
				break
			}
		}
	}
	desk := canvas.NewLinearGradient(color.NRGBA{0x2c, 0x3e, 0x50, 0xff}, color.NRGBA{0x4a, 0x5d, 0x73, 0xff}, 0)
	body := container.New(c, c.panels...)
	w.SetContent(container.NewStack(desk, container.NewBorder(panel, nil, nil, nil, body)))
	w.Resize(fyne.NewSize(c.width()+40, main.MinSize().Height+panel.MinSize().Height+24))
	return w
}

// menuPanel draws items like a popup menu and returns the row of each id.
func menuPanel(items []model.Item) (fyne.CanvasObject, map[string]fyne.CanvasObject) {
	rows := map[string]fyne.CanvasObject{}
	var objs []fyne.CanvasObject
	for _, it := range items {
		if it.Separator {
			objs = append(objs, widget.NewSeparator())
			continue
		}
		check := widget.NewIcon(nil)
		if it.Checkable && it.Checked {
			check.SetResource(theme.ConfirmIcon())
		}
		l := widget.NewLabel(it.Label)
		switch {
		case it.ID == model.ActStatus:
			l.TextStyle = fyne.TextStyle{Bold: true}
		case it.ID == model.ActStatus+"-last" || it.ID == model.ActConfigError:
			// Informational lines: greyed like disabled items, but readable.
			l.Importance = widget.MediumImportance
			l.TextStyle = fyne.TextStyle{Italic: true}
		case it.Disabled:
			l.Importance = widget.LowImportance
		}
		var arrow fyne.CanvasObject = layout.NewSpacer()
		if len(it.Children) > 0 {
			arrow = widget.NewIcon(theme.MenuExpandIcon())
		}
		row := container.NewBorder(nil, nil, check, arrow, l)
		rows[it.ID] = row
		objs = append(objs, row)
	}
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameMenuBackground))
	bg.CornerRadius = 6
	bg.StrokeColor = color.NRGBA{0x55, 0x58, 0x5e, 0xff}
	bg.StrokeWidth = 1
	return container.NewStack(bg, container.NewPadded(container.NewVBox(objs...))), rows
}

// cascade places the main menu at the top right and each submenu to the
// left of its parent, level with the row that opened it.
type cascade struct {
	panels  []fyne.CanvasObject
	anchors []fyne.CanvasObject // row in the previous panel (nil for the main menu)
}

func (c *cascade) add(p, anchor fyne.CanvasObject) {
	c.panels = append(c.panels, p)
	c.anchors = append(c.anchors, anchor)
}

func (c *cascade) width() float32 {
	var w float32
	for _, p := range c.panels {
		w += p.MinSize().Width - 4
	}
	return w
}

func (c *cascade) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	x := size.Width - 8
	var y float32
	for i, p := range c.panels {
		ms := p.MinSize()
		if a := c.anchors[i]; a != nil {
			// The row's position is inside the previous panel's padding.
			y = c.panels[i-1].Position().Y + a.Position().Y
		}
		x -= ms.Width
		p.Resize(ms)
		p.Move(fyne.NewPos(x, y))
		x += 4 // submenus overlap their parent slightly, as real menus do
	}
}

func (c *cascade) MinSize([]fyne.CanvasObject) fyne.Size {
	var h float32
	for _, p := range c.panels {
		h = max(h, p.MinSize().Height)
	}
	return fyne.NewSize(c.width()+8, h)
}
