package cli

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/agent-guard/agent-guard/app/config"
)

func init() {
	register("config", "review a config change that weakens the guard: config show-pending | accept | reject", runConfig)
}

// runConfig is the terminal side of "weakening the config needs a
// person": a change of config.json that lowers protection waits (see
// config.Resolve) until the user accepts it here or in the tray. The
// judge blocks `config accept` when an agent runs it; this verb still
// shows each change and wants "yes" typed, so nothing is accepted blind.
func runConfig(env Env) int {
	usage := func() int {
		fmt.Fprintln(env.Stderr, "usage: agent-guard config show-pending | accept | reject\n"+
			"  show-pending  list the changes of config.json that wait for you\n"+
			"  accept        show them and, when you type yes, put them in force\n"+
			"  reject        drop them: config.json is rewritten to the config in force")
		return 2
	}
	if len(env.Args) != 1 {
		return usage()
	}
	paths, err := config.DefaultPaths()
	if err != nil {
		fmt.Fprintln(env.Stderr, "agent-guard config:", err)
		return 1
	}
	look := config.Resolve
	if env.Args[0] == "show-pending" {
		look = config.Peek // a look changes nothing
	}
	st, err := look(paths.Config)
	if err != nil {
		fmt.Fprintln(env.Stderr, "agent-guard config:", err)
		return 1
	}
	switch env.Args[0] {
	case "show-pending":
		printPending(env.Stdout, paths.Config, st)
		return 0
	case "accept":
		if !st.Pending() {
			printPending(env.Stdout, paths.Config, st)
			return 0
		}
		printPending(env.Stdout, paths.Config, st)
		fmt.Fprintf(env.Stdout, "Type yes to put these %d change(s) in force, anything else to keep them waiting: ", len(st.Held))
		if !confirmed(env.Stdin) {
			fmt.Fprintln(env.Stdout, "\nNothing accepted; the changes still wait ('agent-guard config reject' drops them).")
			return 1
		}
		if _, err := config.Accept(paths.Config, st.DiskSum, config.ByTerminal); err != nil {
			fmt.Fprintln(env.Stderr, "agent-guard config:", err)
			return 1
		}
		fmt.Fprintln(env.Stdout, "Accepted: the config in", paths.Config, "is in force now (a running guard picks it up at once).")
		return 0
	case "reject":
		if !st.Pending() {
			printPending(env.Stdout, paths.Config, st)
			return 0
		}
		if _, err := config.Reject(paths.Config); err != nil {
			fmt.Fprintln(env.Stderr, "agent-guard config:", err)
			return 1
		}
		fmt.Fprintf(env.Stdout, "Rejected %d change(s): %s now holds the config in force again.\n", len(st.Held), paths.Config)
		return 0
	}
	return usage()
}

func printPending(w io.Writer, path string, st config.State) {
	if !st.Pending() {
		by := st.By
		if by == "" {
			by = "nobody yet: the defaults, or the file as it is"
		}
		fmt.Fprintf(w, "No config change waits for you; %s is in force (recorded by %s).\n", path, by)
		return
	}
	fmt.Fprintf(w, "%d change(s) in %s lower the guard's protection and wait for you:\n", len(st.Held), path)
	for _, c := range st.Held {
		fmt.Fprintf(w, "  - %s\n", c.Text)
	}
	fmt.Fprintln(w, "Until you accept them, the guard keeps the config in force without them.")
	fmt.Fprintln(w, "If you did not make these changes yourself, an agent may have: run 'agent-guard config reject'.")
}

func confirmed(r io.Reader) bool {
	if r == nil {
		return false
	}
	line, _ := bufio.NewReader(r).ReadString('\n')
	return strings.EqualFold(strings.TrimSpace(line), "yes")
}
