//go:build !nogui

package ui

import (
	"sync"

	"fyne.io/systray"

	"github.com/agent-guard/agent-guard/app/ui/model"
)

// trayMenu renders model items into fyne.io/systray. Labels and checks
// are updated in place; when the structure changes (a pending item comes
// or goes) the menu is rebuilt.
type trayMenu struct {
	onClick func(id string)

	mu    sync.Mutex
	shape string
	items map[string]*systray.MenuItem
	stop  chan struct{}
}

func (m *trayMenu) apply(items []model.Item) {
	m.mu.Lock()
	defer m.mu.Unlock()
	shape := model.Shape(items)
	if shape != m.shape || m.items == nil {
		if m.stop != nil {
			close(m.stop)
			systray.ResetMenu()
		}
		m.stop = make(chan struct{})
		m.items = map[string]*systray.MenuItem{}
		m.shape = shape
		m.build(nil, items)
		return
	}
	m.update(items)
}

func (m *trayMenu) build(parent *systray.MenuItem, items []model.Item) {
	for _, it := range items {
		if it.Separator {
			if parent == nil {
				systray.AddSeparator()
			} else {
				parent.AddSeparator()
			}
			continue
		}
		var mi *systray.MenuItem
		switch {
		case parent == nil && it.Checkable:
			mi = systray.AddMenuItemCheckbox(it.Label, it.Tooltip, it.Checked)
		case parent == nil:
			mi = systray.AddMenuItem(it.Label, it.Tooltip)
		case it.Checkable:
			mi = parent.AddSubMenuItemCheckbox(it.Label, it.Tooltip, it.Checked)
		default:
			mi = parent.AddSubMenuItem(it.Label, it.Tooltip)
		}
		if it.Disabled {
			mi.Disable()
		}
		m.items[it.ID] = mi
		if len(it.Children) > 0 {
			m.build(mi, it.Children)
			continue
		}
		go listen(it.ID, mi.ClickedCh, m.stop, m.onClick)
	}
}

// listen turns an item's clicks into onClick(id) until the menu is
// rebuilt. systray closes ClickedCh when it removes the item (ResetMenu),
// and a receive from a closed channel is not a click: counting it as one
// would press whatever the item was ("Allow once" of a pending call) each
// time the menu changes shape. A click that races the rebuild (stop
// closed) is dropped too: the item it names may be gone.
func listen(id string, ch, stop <-chan struct{}, onClick func(string)) {
	for {
		select {
		case <-stop:
			return
		case _, ok := <-ch:
			if !ok {
				return
			}
			select {
			case <-stop:
				return
			default:
			}
			onClick(id)
		}
	}
}

func (m *trayMenu) update(items []model.Item) {
	for _, it := range items {
		if it.Separator {
			continue
		}
		mi := m.items[it.ID]
		if mi == nil {
			continue
		}
		mi.SetTitle(it.Label)
		if it.Tooltip != "" {
			mi.SetTooltip(it.Tooltip)
		}
		if it.Checkable && mi.Checked() != it.Checked {
			if it.Checked {
				mi.Check()
			} else {
				mi.Uncheck()
			}
		}
		if it.Disabled != mi.Disabled() {
			if it.Disabled {
				mi.Disable()
			} else {
				mi.Enable()
			}
		}
		m.update(it.Children)
	}
}
