package filelock

import (
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// TestExclusive: while one holder has the lock, no other open file
// description of the same file gets it (flock locks are per open file).
func TestExclusive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	var inside, worst atomic.Int32
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o600)
			if err != nil {
				t.Error(err)
				return
			}
			defer f.Close()
			for j := 0; j < 50; j++ {
				if err := Lock(f); err != nil {
					t.Error(err)
					return
				}
				n := inside.Add(1)
				if n > worst.Load() {
					worst.Store(n)
				}
				time.Sleep(100 * time.Microsecond) // widen the window a missing lock would show in
				inside.Add(-1)
				if err := Unlock(f); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if w := worst.Load(); w != 1 {
		t.Fatalf("%d holders at once; want 1", w)
	}
}
