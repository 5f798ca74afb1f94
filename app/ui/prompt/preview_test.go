package prompt

import (
	"image/png"
	"os"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

func TestPreview(t *testing.T) {
	out := os.Getenv("AG_PREVIEW")
	if out == "" {
		t.Skip()
	}
	v, _, _ := newView(t, sample())
	fyne.CurrentApp().Settings().SetTheme(theme.DefaultTheme())
	v.Window.Resize(v.Window.Content().MinSize())
	f, _ := os.Create(out)
	png.Encode(f, v.Window.Canvas().Capture())
	f.Close()
}
