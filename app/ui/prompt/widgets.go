//go:build !nogui

package prompt

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// keyButton is a button that denies on Enter and Esc even while it has
// focus (a focused widget gets keys before the canvas does), and that
// draws a thick ring while focused: Fyne's own focus tint is too faint to
// see which button Space would press.
type keyButton struct {
	widget.Button
	onDeny func()
	ring   *canvas.Rectangle
}

func newKeyButton(label string, icon fyne.Resource, tapped, onDeny func()) *keyButton {
	b := &keyButton{onDeny: onDeny, ring: canvas.NewRectangle(color.Transparent)}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ring.StrokeWidth = 3
	b.ring.CornerRadius = theme.InputRadiusSize() + 3
	b.ExtendBaseWidget(b)
	return b
}

func (b *keyButton) TypedKey(ev *fyne.KeyEvent) {
	if denyKey(ev.Name) {
		b.onDeny()
		return
	}
	b.Button.TypedKey(ev)
}

func (b *keyButton) FocusGained() {
	b.ring.StrokeColor = theme.Color(theme.ColorNameFocus)
	if c, ok := b.ring.StrokeColor.(color.NRGBA); ok {
		c.A = 0xff // the theme's focus colour is translucent
		b.ring.StrokeColor = c
	}
	b.ring.Refresh()
	b.Button.FocusGained()
}

func (b *keyButton) FocusLost() {
	b.ring.StrokeColor = color.Transparent
	b.ring.Refresh()
	b.Button.FocusLost()
}

// HasRing reports whether the focus ring is drawn (tests).
func (b *keyButton) HasRing() bool { return b.ring.StrokeColor != color.Transparent }

// focusRing draws b's ring around it.
func focusRing(b *keyButton) fyne.CanvasObject {
	return container.NewStack(b.ring, container.New(ringPad{}, b))
}

// ringPad leaves room for the ring around the button.
type ringPad struct{}

func (ringPad) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(4, 4))
		o.Resize(size.SubtractWidthHeight(8, 8))
	}
}

func (ringPad) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	return s.AddWidthHeight(8, 8)
}

// thinBar is a slim countdown bar; it turns to the warning colour in the
// last fifth of the time.
type thinBar struct {
	frac        float64
	track, fill *canvas.Rectangle
	box         *fyne.Container
}

func newThinBar() *thinBar {
	b := &thinBar{
		track: canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground)),
		fill:  canvas.NewRectangle(theme.Color(theme.ColorNamePrimary)),
	}
	b.track.CornerRadius, b.fill.CornerRadius = 3, 3
	b.box = container.New(b, b.track, b.fill)
	return b
}

// Value is the fraction of time left, 0..1.
func (b *thinBar) Value() float64 { return b.frac }

func (b *thinBar) set(f float64) {
	b.frac = max(0, min(1, f))
	if b.frac < 0.2 {
		b.fill.FillColor = theme.Color(theme.ColorNameWarning)
	} else {
		b.fill.FillColor = theme.Color(theme.ColorNamePrimary)
	}
	b.box.Refresh()
}

func (b *thinBar) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	const h = 6
	y := (size.Height - h) / 2
	b.track.Resize(fyne.NewSize(size.Width, h))
	b.track.Move(fyne.NewPos(0, y))
	b.fill.Resize(fyne.NewSize(size.Width*float32(b.frac), h))
	b.fill.Move(fyne.NewPos(0, y))
}

func (b *thinBar) MinSize([]fyne.CanvasObject) fyne.Size { return fyne.NewSize(120, 6) }
