package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/guard"
	"github.com/agent-guard/agent-guard/app/judge/typesafe"
	"github.com/agent-guard/agent-guard/app/pipe"
	"github.com/agent-guard/agent-guard/app/server"
)

func init() {
	register("serve", "run the pipe server without the tray: serve --headless [--pipe NAME]", runServe)
}

// runServe is the pipe server with no GUI (servers, CI, tests). Nobody can
// be asked here, so a confirm under full access is denied by policy.
func runServe(env Env) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	headless := fs.Bool("headless", false, "serve without the tray (required: the tray is 'agent-guard' with no arguments)")
	name := fs.String("pipe", "", "pipe name or socket path (default: "+pipe.Env+" or the per-user default)")
	offline := fs.Bool("offline", false, "never call the remote judge")
	if err := fs.Parse(env.Args); err != nil {
		return 2
	}
	if !*headless || fs.NArg() > 0 {
		fmt.Fprintln(env.Stderr, "usage: agent-guard serve --headless [--pipe NAME] [--offline]\n(the server with the tray and its dialog is 'agent-guard' with no arguments)")
		return 2
	}
	paths, err := config.DefaultPaths()
	if err != nil {
		fmt.Fprintln(env.Stderr, "agent-guard:", err)
		return 1
	}
	g, err := guard.Open(guard.Options{Paths: paths, Offline: *offline, NewRemote: typesafe.Remote})
	if err != nil {
		fmt.Fprintln(env.Stderr, "agent-guard:", err)
		return 1
	}
	defer g.Close()
	if *name == "" {
		if *name, err = pipe.Name(); err != nil {
			fmt.Fprintln(env.Stderr, "agent-guard:", err)
			return 1
		}
	}
	l, err := pipe.Listen(*name)
	if err != nil {
		fmt.Fprintln(env.Stderr, "agent-guard:", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	loggedSum := ""
	go func() {
		err := config.WatchState(ctx, paths.Config, func(st config.State) {
			if !config.Same(st.InForce, g.Config()) {
				g.SetConfig(st.InForce)
				fmt.Fprintln(env.Stderr, "agent-guard: config reloaded from", paths.Config)
			}
			if st.Pending() && st.DiskSum != loggedSum {
				logHeld(env.Stderr, paths.Config, st)
			}
			loggedSum = st.DiskSum
		}, func(err error) {
			fmt.Fprintln(env.Stderr, "agent-guard: config change ignored, keeping the last good one:", err)
		})
		if err != nil {
			fmt.Fprintln(env.Stderr, "agent-guard: config changes will not be picked up:", err)
		}
	}()
	deps := server.Deps{Judge: g.Judge, Config: g.Config, Stderr: env.Stderr}
	if g.Audit != nil {
		deps.Audit = g.Audit
	}
	fmt.Fprintf(env.Stderr, "agent-guard: serving %s headless (no dialog: a confirm under full access is denied)\n", *name)
	err = server.New(deps).Serve(ctx, l)
	if cerr := g.SaveCache(); cerr != nil {
		fmt.Fprintln(env.Stderr, "agent-guard: cache not saved:", cerr)
	}
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintln(env.Stderr, "agent-guard:", err)
		return 1
	}
	return 0
}

// logHeld says why a change of config.json is not in force and how to
// accept it: there is no tray to ask, so the log is where a person looks.
func logHeld(w io.Writer, path string, st config.State) {
	fmt.Fprintf(w, "agent-guard: config change held: %d change(s) in %s lower the guard's protection and are NOT in force until you accept them:\n", len(st.Held), path)
	for _, c := range st.Held {
		fmt.Fprintf(w, "agent-guard:   - %s\n", c.Text)
	}
	fmt.Fprintln(w, "agent-guard: to accept, type 'agent-guard config accept' in your own terminal; to drop them, 'agent-guard config reject'")
}
