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
// the systray shows) below a panel with the tray icon, with the first
// submenu that has children opened beside it. It exists for screenshots:
// Xvfb has no tray host to open the real menu.
func menuWindow(a fyne.App, st model.State) fyne.Window {
	w := a.NewWindow("agent-guard — tray menu")
	items := model.Menu(st)
	iconRes := fyne.NewStaticResource("tray.png", assets.TrayIcon(model.Icon(st)))
	icon := canvas.NewImageFromResource(iconRes)
	icon.FillMode = canvas.ImageFillContain
	icon.SetMinSize(fyne.NewSize(20, 20))
	clock := canvas.NewText("14:32", color.White)
	panelBG := canvas.NewRectangle(color.NRGBA{0x20, 0x22, 0x25, 0xff})
	panel := container.NewStack(panelBG, container.NewPadded(container.NewHBox(layout.NewSpacer(), icon, clock)))

	main := menuPanel(items)
	var sub fyne.CanvasObject = layout.NewSpacer()
	for _, it := range items {
		if len(it.Children) > 0 && !it.Disabled && it.ID == model.ActPending {
			sub = container.NewVBox(layout.NewSpacer(), menuPanel(it.Children), layout.NewSpacer())
		}
	}
	body := container.NewHBox(layout.NewSpacer(), sub, container.NewVBox(main))
	bg := canvas.NewRectangle(color.NRGBA{0x3b, 0x4a, 0x5c, 0xff})
	w.SetContent(container.NewStack(bg, container.NewBorder(panel, nil, nil, nil, container.NewPadded(body))))
	w.Resize(fyne.NewSize(860, 560))
	return w
}

func menuPanel(items []model.Item) fyne.CanvasObject {
	var rows []fyne.CanvasObject
	for _, it := range items {
		if it.Separator {
			rows = append(rows, widget.NewSeparator())
			continue
		}
		check := widget.NewIcon(nil)
		if it.Checkable && it.Checked {
			check.SetResource(theme.ConfirmIcon())
		}
		l := widget.NewLabel(it.Label)
		if it.Disabled {
			l.Importance = widget.LowImportance
		}
		if it.ID == model.ActStatus {
			l.TextStyle = fyne.TextStyle{Bold: true}
			l.Importance = widget.MediumImportance
		}
		var arrow fyne.CanvasObject = layout.NewSpacer()
		if len(it.Children) > 0 {
			arrow = widget.NewIcon(theme.MenuExpandIcon())
		}
		rows = append(rows, container.NewBorder(nil, nil, check, arrow, l))
	}
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameMenuBackground))
	bg.CornerRadius = 6
	bg.StrokeColor = theme.Color(theme.ColorNameSeparator)
	bg.StrokeWidth = 1
	list := container.NewVBox(rows...)
	return container.NewStack(bg, container.NewPadded(list))
}
