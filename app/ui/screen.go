//go:build !nogui

package ui

import (
	"fyne.io/fyne/v2"
	"github.com/go-gl/glfw/v3.4/glfw"
)

// screenSize is the primary monitor's size in Fyne units, or zero when it
// cannot be read. Fyne has no API for it, so ask GLFW (which Fyne's
// desktop driver has initialised by the time the app has started). Call
// only from the app's started hook or a fyne.Do: GLFW is main-thread only.
func screenSize(scale float32) (s fyne.Size) {
	defer func() {
		if recover() != nil { // GLFW reports errors by panicking
			s = fyne.Size{}
		}
	}()
	m := glfw.GetPrimaryMonitor()
	if m == nil {
		return fyne.Size{}
	}
	mode := m.GetVideoMode()
	if mode == nil || mode.Width <= 0 || mode.Height <= 0 {
		return fyne.Size{}
	}
	if scale <= 0 {
		scale = 1
	}
	return fyne.NewSize(float32(mode.Width)/scale, float32(mode.Height)/scale)
}
