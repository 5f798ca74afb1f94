package cli

import "fmt"

// The window verbs (`agent-guard window rules`, `agent-guard settings`,
// `recent`, `pending`) open the tray's windows; the GUI binary handles
// them before the CLI (app/ui.RunChild). They are registered here so the
// usage lists them, and so a headless build says why it cannot.
func init() {
	register("window", "open a tray window: settings, rules, recent, pending or status", noWindows)
	for _, v := range []string{"settings", "recent", "pending"} {
		register(v, "", noWindows)
	}
}

func noWindows(env Env) int {
	fmt.Fprintln(env.Stderr, "agent-guard: this build has no windows (built with -tags nogui); edit the config with 'agent-guard config', see decisions in the audit log, or install the desktop build")
	return 1
}
