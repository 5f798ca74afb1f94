package assets

import (
	"bytes"
	"image/png"
	"runtime"
	"testing"
)

func TestIconsDecode(t *testing.T) {
	for _, tc := range []struct {
		name string
		data []byte
		size int
	}{
		{"icon", Icon, 512}, {"on", TrayOnPNG, 64}, {"off", TrayOffPNG, 64}, {"pending", TrayPendingPNG, 64}, {"unguarded", TrayUnguardedPNG, 64},
	} {
		img, err := png.Decode(bytes.NewReader(tc.data))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if b := img.Bounds(); b.Dx() != tc.size || b.Dy() != tc.size {
			t.Fatalf("%s: %v, want %dx%d", tc.name, b, tc.size, tc.size)
		}
	}
}

func TestTrayIconPerState(t *testing.T) {
	on, off, pend := TrayIcon(StateOn), TrayIcon(StateOff), TrayIcon(StatePending)
	ung := TrayIcon(StateUnguarded)
	if bytes.Equal(on, off) || bytes.Equal(on, pend) || bytes.Equal(off, pend) || bytes.Equal(ung, pend) || bytes.Equal(ung, on) {
		t.Fatal("tray states share an icon")
	}
	if !bytes.Equal(TrayIcon("bogus"), pend) {
		t.Fatal("unknown state must show the pending (attention) icon")
	}
	if runtime.GOOS != "windows" && !bytes.Equal(on, TrayOnPNG) {
		t.Fatal("non-Windows tray must get PNG")
	}
	for _, ico := range [][]byte{trayOnICO, trayOffICO, trayPendingICO, trayUnguardedICO} {
		if !bytes.HasPrefix(ico, []byte{0, 0, 1, 0, 1, 0}) || !bytes.Contains(ico, []byte("\x89PNG")) {
			t.Fatal("ICO header or embedded PNG missing")
		}
	}
}
