package server

import (
	"os"
	"runtime"
)

// OneProcessor runs the process's Go code on one processor (GOMAXPROCS
// 1) unless the user set GOMAXPROCS. The server is idle between calls, and
// each call wakes it: with a second processor the runtime also wakes an
// idle thread to spin looking for work, which measured about 20 % more
// CPU per request (223 vs 179 us back to back, 375 vs 299 us spaced 2 ms,
// by schedstat at load 6 to 8) for nothing: judging a call takes tens of
// microseconds, and the hooks' own process starts, not the server, bound
// the throughput under concurrent hooks. Waiting is not blocked by it: an
// approval dialog waiting on a human, a hook's hang-up watch or a disk
// read parks its goroutine without holding the processor
// (TestSlowApprovalDoesNotBlockOthers runs with -cpu 1 too), and a long
// judgment is preempted every 10 ms like any goroutine.
func OneProcessor() {
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
}
