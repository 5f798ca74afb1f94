//go:build !nogui

package main

import "github.com/agent-guard/agent-guard/app/ui"

// runTray starts the tray app (systray in this process, windows in child
// processes; see package ui).
func runTray() int { return ui.Run() }

// runChild runs a hidden window verb started by the tray.
func runChild(args []string) (int, bool) { return ui.RunChild(args) }
