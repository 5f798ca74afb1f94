// Command agent-guard-hook is the PreToolUse hook ZCode and Claude Code run
// before each Bash, Write, Edit and MCP call. See package hookbridge.
package main

import (
	"os"
	"runtime"

	"github.com/agent-guard/agent-guard/hookbridge"
)

func main() {
	ignoreSIGPIPE()
	// One processor: the hook does one thing at a time, and while it waits
	// for the fallback judge in a blocking read, a second, idle processor
	// keeps the runtime's sysmon waking every 20 to 160 us (a P in a system
	// call is not handed off while another P is idle): 0.61 ms of CPU per
	// fallback by profile on this 2-core machine, taken from the judge.
	// With one, that P is handed off, all are idle and sysmon sleeps until
	// the next timer (the deadline still fires): 0.37 ms, most of it before
	// this line runs.
	runtime.GOMAXPROCS(1)
	os.Exit(hookbridge.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
