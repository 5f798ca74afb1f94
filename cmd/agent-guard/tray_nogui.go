//go:build nogui

package main

import (
	"fmt"
	"os"
)

// runTray in a headless build explains how to run the guard instead.
func runTray() int {
	fmt.Fprintln(os.Stderr, "agent-guard: this build has no tray (built with -tags nogui); run 'agent-guard serve --headless' instead")
	return 2
}

// runChild: a headless build has no windows.
func runChild([]string) (int, bool) { return 0, false }
