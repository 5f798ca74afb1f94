package cache

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/internal/filelock"
)

// saved returns a cache holding n fresh entries, saved to path.
func saved(t *testing.T, path string, n int) *Cache {
	t.Helper()
	c := New(time.Hour, 100)
	for i := range n {
		c.Put(key(i), 1, 0.1)
	}
	if err := c.Save(path); err != nil {
		t.Fatalf("save: %v", err)
	}
	return c
}

// On Windows a rename over a file that someone holds open without
// FILE_SHARE_DELETE (os.Open's handle, an antivirus scan) is refused; a
// save must outlast such a short hold instead of failing.
func TestSaveOutlastsAReaderHoldingTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), FileName)
	saved(t, path, 1)
	holder, err := os.Open(path) // no FILE_SHARE_DELETE on Windows
	if err != nil {
		t.Fatal(err)
	}
	released := make(chan struct{})
	go func() {
		time.Sleep(300 * time.Millisecond)
		holder.Close()
		close(released)
	}()
	saved(t, path, 3)
	<-released
	c := New(time.Hour, 100)
	if err := c.Load(path); err != nil || c.Len() != 3 {
		t.Fatalf("after the save: Len %d, %v; want the 3 new entries", c.Len(), err)
	}
}

// A save lock held forever (a stuck process, or an agent's flock on the
// file) costs one save, never a hang.
func TestSaveGivesUpOnAStuckLock(t *testing.T) {
	old := lockWaitFor
	lockWaitFor = 200 * time.Millisecond
	defer func() { lockWaitFor = old }()
	path := filepath.Join(t.TempDir(), FileName)
	saved(t, path, 1)
	lf, err := os.OpenFile(path+lockSuffix, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lf.Close()
	if err := filelock.Lock(lf); err != nil {
		t.Fatal(err)
	}
	c := New(time.Hour, 10)
	c.Put(key(9), 1, 0.1)
	t0 := time.Now()
	err = c.Save(path)
	if err == nil || !strings.Contains(err.Error(), "held by another process") {
		t.Fatalf("save under a stuck lock = %v; want a 'held by another process' error", err)
	}
	if d := time.Since(t0); d > 5*time.Second {
		t.Errorf("save waited %v for a stuck lock; want about %v", d, lockWaitFor)
	}
	if err := filelock.Unlock(lf); err != nil {
		t.Fatal(err)
	}
	// The abandoned wait must have let go of the lock again.
	if err := c.Save(path); err != nil {
		t.Fatalf("save after the lock was released: %v", err)
	}
}

const childEnv = "CACHE_TEST_CHILD_SAVER"

// TestChildSaver is the body of a child process in
// TestConcurrentSavesFromProcesses; on its own it does nothing.
func TestChildSaver(t *testing.T) {
	spec := os.Getenv(childEnv)
	if spec == "" {
		t.Skip("only runs as a child saver")
	}
	path, nStr, _ := strings.Cut(spec, "|")
	n, _ := strconv.Atoi(nStr)
	if err := saveAndLoad(path, n); err != nil {
		t.Fatal(err)
	}
}

func saveAndLoad(path string, n int) error {
	c := New(time.Hour, 50)
	for i := range n {
		c.Put(key(i), float64(i%4), 0.2)
		if err := c.Save(path); err != nil {
			return fmt.Errorf("save %d: %v", i, err)
		}
		if err := New(time.Hour, 50).Load(path); err != nil {
			return fmt.Errorf("load %d: %v", i, err)
		}
	}
	return nil
}

// The tray and every hook's fallback save the same file: saves and loads
// from several processes at once must all succeed and leave a whole file.
func TestConcurrentSavesFromProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	path := filepath.Join(t.TempDir(), FileName)
	const procs, each = 3, 40
	var cmds []*exec.Cmd
	var outs []*bytes.Buffer
	for range procs {
		cmd := exec.Command(os.Args[0], "-test.run=^TestChildSaver$", "-test.count=1")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s|%d", childEnv, path, each))
		out := &bytes.Buffer{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds, outs = append(cmds, cmd), append(outs, out)
	}
	if err := saveAndLoad(path, each); err != nil {
		t.Errorf("parent: %v", err)
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Errorf("child saver %d: %v\n%s", i, err, outs[i])
		}
	}
	c := New(time.Hour, 50)
	if err := c.Load(path); err != nil || c.Len() == 0 {
		t.Fatalf("file after concurrent saves: Len %d, %v", c.Len(), err)
	}
}
