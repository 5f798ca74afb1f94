//go:build !nogui

package ui

import (
	"sync"
	"testing"
	"time"
)

// A menu rebuild closes every item's click channel (systray's Remove) and
// the menu's stop channel, in either order. Neither is a click: before
// this, a rebuild pressed items at random, "Allow once" of a pending call
// included (seen as a call allowed by nobody in the Xvfb tests).
func TestMenuRebuildIsNotAClick(t *testing.T) {
	cases := []struct {
		name                    string
		clicks                  int
		closeStopFirst, closeCh bool
	}{
		{"real clicks count", 3, false, false},
		{"item removed, then stop", 0, false, true},
		{"stop, then item removed", 0, true, true},
		{"clicks then removal", 2, false, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for round := 0; round < 200; round++ { // the old bug was a coin toss per receive
				ch, stop := make(chan struct{}), make(chan struct{})
				var mu sync.Mutex
				got := 0
				seen := make(chan struct{}, 8)
				done := make(chan struct{})
				go func() {
					listen("pending-1-allow", ch, stop, func(string) { mu.Lock(); got++; mu.Unlock(); seen <- struct{}{} })
					close(done)
				}()
				for i := 0; i < tc.clicks; i++ {
					ch <- struct{}{}
					<-seen // handled before anything else happens
				}
				if tc.closeStopFirst {
					close(stop)
					close(ch)
				} else {
					if tc.closeCh {
						close(ch)
					}
					close(stop)
				}
				select {
				case <-done:
				case <-time.After(5 * time.Second):
					t.Fatal("listen did not return after the rebuild")
				}
				mu.Lock()
				n := got
				mu.Unlock()
				if n != tc.clicks {
					t.Fatalf("round %d: %d clicks seen, want %d", round, n, tc.clicks)
				}
			}
		})
	}
}
