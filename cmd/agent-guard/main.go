// Command agent-guard is the tray app (no arguments) and the CLI verbs.
package main

import (
	"os"

	"github.com/agent-guard/agent-guard/app/cli"
)

func main() {
	if len(os.Args) < 2 {
		os.Exit(runTray())
	}
	os.Exit(cli.Main(os.Args[1:]))
}
