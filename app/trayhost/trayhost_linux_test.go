package trayhost

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// A private session bus: no watcher at first, then one (a name we own
// ourselves), then none again.
func TestPresentOnAPrivateBus(t *testing.T) {
	if _, err := exec.LookPath("dbus-daemon"); err != nil {
		t.Skip("dbus-daemon is not installed (apt-get install dbus-x11; .ci/run installs it)")
	}
	dir := t.TempDir()
	addr := "unix:path=" + filepath.Join(dir, "bus")
	d := exec.Command("dbus-daemon", "--session", "--nofork", "--address="+addr)
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Process.Kill(); _ = d.Wait() })
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", addr)
	var conn *dbus.Conn
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := dbus.Connect(addr)
		if err == nil {
			conn = c
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("bus did not come up: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	defer conn.Close()
	if ok, err := Present(); ok || err != nil {
		t.Fatalf("empty bus: present=%v err=%v", ok, err)
	}
	if r, err := conn.RequestName(Watcher, dbus.NameFlagDoNotQueue); err != nil || r != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("own %s: %v %v", Watcher, r, err)
	}
	if ok, err := Present(); !ok || err != nil {
		t.Fatalf("with a watcher: present=%v err=%v", ok, err)
	}
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+filepath.Join(dir, "none"))
	_ = os.Remove(filepath.Join(dir, "none"))
	if ok, err := Present(); ok || err == nil || !strings.Contains(err.Error(), "session bus") {
		t.Fatalf("no bus: present=%v err=%v", ok, err)
	}
}
