package e2e

import "time"

// waitUntil polls cond for up to 60 s.
func waitUntil(cond func() bool) bool {
	for end := time.Now().Add(60 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return true
		}
	}
	return false
}
