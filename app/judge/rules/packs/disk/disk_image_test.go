package disk_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/rules/rulestest"
)

// Files versus devices: mkfs, dd, wipefs, parted... on a regular file (or
// a new file in the project) format an image, not a disk; a device node,
// also behind a symlink with a file-like name, is a disk.
func TestDiskImageVersusDevice(t *testing.T) {
	t.Setenv("AGENT_GUARD_HOME", t.TempDir())
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "disk.img"), make([]byte, 4096), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ cmd, want string }{
		{"mkfs.ext4 disk.img", "allow"},
		{"mkfs.ext4 ./new.img", "allow"},
		{"mkfs -t ext4 -L data disk.img", "allow"},
		{"mkfs.vfat -n BOOT disk.img", "allow"},
		{"mkfs.ext4 -n /dev/sda1", "allow"}, // mke2fs -n: dry run
		{"mkfs.ext4 --help", "allow"},
		{"format disk --help", "allow"},
		{"parted disk.img mklabel gpt", "allow"},
		{"wipefs -a disk.img", "allow"},
		{"dd if=/dev/zero of=disk.img bs=1M count=64", "allow"},
		{"mkfs.ext4 /dev/sda1", "block"},
		{"mkfs.vfat -n BOOT /dev/sdc1", "block"},
		{"wipefs -a /dev/sdb", "block"},
		{"mkfs.ext4 $DEV", "block"},
		{"mkfs.ext4 /etc/fstab", "block"},
	}
	// A block device behind a file-like name is a disk (when this machine
	// has a block device to point at).
	if dev := firstBlockDevice(); dev != "" {
		if err := os.Symlink(dev, filepath.Join(dir, "loop.img")); err == nil {
			cases = append(cases, struct{ cmd, want string }{"mkfs.ext4 loop.img", "block"},
				struct{ cmd, want string }{"dd if=/dev/zero of=loop.img bs=1M count=1", "block"})
		}
	} else {
		t.Log("no block device in /dev: the symlink-to-device cases are not run here")
	}
	for _, c := range cases {
		f := rules.Bash(c.cmd, dir, "/home/dev")
		if got := rulestest.Level(f); got != c.want {
			t.Errorf("%q in %s: got %s (%s: %s), want %s", c.cmd, dir, got, f.Rule, f.Reason, c.want)
		}
	}
}

func firstBlockDevice() string {
	es, _ := os.ReadDir("/dev")
	for _, e := range es {
		p := filepath.Join("/dev", e.Name())
		if st, err := os.Stat(p); err == nil && st.Mode()&os.ModeDevice != 0 && st.Mode()&os.ModeCharDevice == 0 {
			return p
		}
	}
	return ""
}
