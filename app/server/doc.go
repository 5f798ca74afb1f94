// Package server is the pipe server inside agent-guard: it accepts hook
// connections, judges each event, routes a confirm under full access to
// the Asker (the tray's dialog), renders the host decision, writes the
// audit line and answers. See Asker for the approval contract.
package server
