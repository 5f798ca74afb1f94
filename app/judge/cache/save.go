package cache

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/internal/filelock"
)

// Replacing the cache file: the tray and every hook's fallback save the
// same file, and on Windows a rename over a file fails (access denied,
// sharing violation) while another rename onto it is under way or while
// any program holds it open (a Load in another agent-guard process, an
// antivirus scan, a backup tool). So a save takes a
// cross-process lock on a file beside the cache, which keeps our own
// writers from colliding, and retries a refused replace for a bounded
// time, which outlasts a short foreign hold. Load opens the file with
// FILE_SHARE_DELETE (refused_windows.go) so it can coexist with a rename
// under way, and retries a refused open briefly. Unix never refuses.
// The retries and the shared open live in app/internal/sharedfile.
const lockSuffix = ".lock"

// lockWaitFor bounds the wait for the save lock (a var for tests).
var lockWaitFor = 2 * time.Second

// writeLocked atomically replaces path with data under the save lock.
func writeLocked(path string, data []byte) error {
	unlock, err := lockSave(path + lockSuffix)
	if err != nil {
		return err
	}
	defer unlock()
	return config.WriteFileAtomic(path, data) // retries a refused replace itself
}

// lockSave takes the save lock file, waiting at most lockWaitFor: a
// process that holds it forever (a stuck writer, or an agent's flock on
// it) costs one skipped save, never a hung hook. A wait given up on is
// left to its goroutine, which releases the lock as soon as it gets it.
func lockSave(path string) (func(), error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("cannot open the save lock %s: %v", path, err)
	}
	got := make(chan error) // unbuffered: a send only when someone still waits
	abandoned := make(chan struct{})
	go func() {
		err := filelock.Lock(f)
		select {
		case got <- err:
		case <-abandoned:
			if err == nil {
				filelock.Unlock(f)
			}
			f.Close()
		}
	}()
	timer := time.NewTimer(lockWaitFor)
	defer timer.Stop()
	select {
	case err := <-got:
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("cannot lock %s: %v", path, err)
		}
		return func() {
			filelock.Unlock(f)
			f.Close()
		}, nil
	case <-timer.C:
		close(abandoned)
		return nil, fmt.Errorf("%s is held by another process for over %v; cache not saved this time", path, lockWaitFor)
	}
}
