//go:build !nogui

package ui

import (
	"context"
	"fmt"
	"os"

	"github.com/agent-guard/agent-guard/app/pipe"
	"github.com/agent-guard/agent-guard/app/trayhost"
	"github.com/agent-guard/agent-guard/app/ui/proto"
)

// startWindows wires the tray's windows that are not in its menu: the
// queue window, the control socket that lets terminal verbs open windows,
// and the status window when the desktop has no tray host.
func startWindows(ctx context.Context, t *controller, sp *spawner, nt *notifier, pr *prompter, pipeName string) {
	pw := &pendingWindow{start: sp.start, q: t.q, raise: pr.raise}
	open := func(verb string) error {
		switch verb {
		case "pending":
			return pw.show()
		case "rules":
			return t.window(rulesPayload(t.paths.Config))
		case "recent":
			return t.window(recentPayload(t.paths.Audit))
		case "settings":
			return t.window(settingsPayload(t.paths.Config))
		case "status":
			return t.window(proto.VerbStatus, struct{}{})
		}
		return fmt.Errorf("unknown window %q", verb)
	}
	t.openPending = pw.show
	go func() {
		if err := serveControl(ctx, pipe.ControlName(pipeName), open); err != nil {
			fmt.Fprintln(os.Stderr, "agent-guard: no control socket (terminal verbs cannot reach the tray):", err)
		}
	}()
	go func() {
		if ok, why := trayhost.Present(); !ok {
			msg := "This desktop shows no tray icons (no StatusNotifier host), so agent-guard's icon will not appear. A small status window opens instead; from a terminal: agent-guard window settings | rules | recent | pending."
			if why != nil {
				msg += " (" + why.Error() + ")"
			}
			nt.send("agent-guard: no tray icon", msg)
			if err := open("status"); err != nil {
				fmt.Fprintln(os.Stderr, "agent-guard: cannot open the status window:", err)
			}
		}
	}()
}
