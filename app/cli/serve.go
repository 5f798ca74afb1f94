package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/guard"
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
	g, err := guard.Open(guard.Options{Paths: paths, Offline: *offline})
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
	go func() {
		err := config.Watch(ctx, paths.Config, func(c *config.Config) {
			g.SetConfig(c)
			fmt.Fprintln(env.Stderr, "agent-guard: config reloaded from", paths.Config)
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
