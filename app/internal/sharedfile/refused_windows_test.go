//go:build windows

package sharedfile

import (
	"fmt"
	"testing"
	"time"

	"golang.org/x/sys/windows"
)

// A refusal for a file in use is retried until it passes, and only for
// the time given.
func TestRetryRefused(t *testing.T) {
	calls := 0
	err := Retry(func() error {
		calls++
		if calls < 4 {
			return fmt.Errorf("rename: %w", windows.ERROR_SHARING_VIOLATION)
		}
		return nil
	}, time.Second)
	if err != nil || calls != 4 {
		t.Errorf("Retry = %v after %d calls; want nil after 4", err, calls)
	}
	start := time.Now()
	err = Retry(func() error { return windows.ERROR_ACCESS_DENIED }, 50*time.Millisecond)
	if err == nil || time.Since(start) > 2*time.Second {
		t.Errorf("Retry of a lasting refusal = %v after %v; want the error within about 50ms", err, time.Since(start))
	}
}
