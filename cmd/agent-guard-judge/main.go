// Command agent-guard-judge is the full judge agent-guard-hook execs when
// no verified agent-guard server answers (package fallback). It is
// installed beside the hook and built without cgo or the GUI, so the
// extra process start the fallback pays stays small.
package main

import (
	"fmt"
	"os"

	"github.com/agent-guard/agent-guard/app/fallback"
)

func main() {
	if len(os.Args) < 2 || os.Args[1] != fallback.Verb {
		fmt.Fprintf(os.Stderr, "usage: agent-guard-judge %s --host H --budget-ms N [--note TEXT] [--guard PATH] < event\n(only agent-guard-hook runs it)\n", fallback.Verb)
		os.Exit(2)
	}
	code := fallback.Run(os.Args[2:], os.Stdin, os.Stdout, os.Stderr)
	// The answer is complete: closing stdout lets the hook go on while
	// this process is torn down.
	os.Stdout.Close()
	os.Exit(code)
}
