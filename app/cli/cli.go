// Package cli runs agent-guard's command-line verbs. Each verb lives in
// its own file and registers itself, so verbs stay independent.
package cli

import (
	"fmt"
	"io"
	"os"
	"sort"
)

// Env is what a verb may touch: its arguments and standard streams.
type Env struct {
	Args   []string
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

type verb struct {
	summary string
	run     func(Env) int
}

var verbs = map[string]verb{}

// register adds a verb; called from init in each verb's file. A verb
// with no summary is hidden from the usage (one only other programs run).
func register(name, summary string, run func(Env) int) {
	verbs[name] = verb{summary, run}
}

// Main runs args[0] as a verb and returns the exit code: 0 ok, 1 the verb
// found a problem, 2 bad usage.
func Main(args []string) int {
	env := Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(env.Stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	v, ok := verbs[args[0]]
	if !ok {
		fmt.Fprintf(env.Stderr, "agent-guard: unknown command %q\n\n", args[0])
		usage(env.Stderr)
		return 2
	}
	env.Args = args[1:]
	return v.run(env)
}

// Run is Main with explicit streams, for tests.
func Run(env Env, args []string) int {
	if len(args) == 0 {
		usage(env.Stderr)
		return 2
	}
	v, ok := verbs[args[0]]
	if !ok {
		fmt.Fprintf(env.Stderr, "agent-guard: unknown command %q\n", args[0])
		return 2
	}
	env.Args = args[1:]
	return v.run(env)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: agent-guard [command] [flags]")
	fmt.Fprintln(w, "\nWith no command, agent-guard starts the tray app.\n\ncommands:")
	names := make([]string, 0, len(verbs))
	for n, v := range verbs {
		if v.summary != "" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, verbs[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'agent-guard <command> -h' for a command's flags.")
}
