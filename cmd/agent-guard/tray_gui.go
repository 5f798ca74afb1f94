//go:build !nogui

package main

import (
	"fmt"
	"os"
)

// runTray starts the tray app. TODO(ui helper): call ui.Run.
func runTray() int {
	fmt.Fprintln(os.Stderr, "agent-guard: tray not built yet")
	return 2
}
