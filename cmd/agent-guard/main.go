// Command agent-guard is the tray app (no arguments) and the CLI verbs.
package main

import (
	"os"

	"github.com/agent-guard/agent-guard/app/cli"
	"github.com/agent-guard/agent-guard/app/server"
)

func main() {
	if len(os.Args) < 2 {
		server.OneProcessor() // the tray serves the hooks (see OneProcessor)
		os.Exit(runTray())
	}
	if os.Args[1] == "serve" {
		server.OneProcessor()
	}
	// Hidden window verbs (GUI builds only): the tray runs each window
	// as a child process of this binary.
	if code, ok := runChild(os.Args[1:]); ok {
		os.Exit(code)
	}
	os.Exit(cli.Main(os.Args[1:]))
}
