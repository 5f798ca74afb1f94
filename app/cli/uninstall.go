package cli

import (
	"fmt"

	"github.com/agent-guard/agent-guard/app/autostart"
	"github.com/agent-guard/agent-guard/app/install"
)

func init() {
	register("uninstall", "remove the guard's hook from your agent hosts (every one found, or --HOST)", runUninstall)
}

func runUninstall(env Env) int {
	fs := newFlags(env, "uninstall", "[--HOST ...] [--workspace DIR] [--autostart] [--dry-run]\n(no host flag: every host found on this machine)")
	hosts := addHostFlags(fs)
	auto := fs.Bool("autostart", false, "also stop starting the tray at login")
	dry := fs.Bool("dry-run", false, "print the resulting files, change nothing")
	if code := parse(fs, env.Args); code >= 0 {
		return code
	}
	fail := func(err error) int { fmt.Fprintln(env.Stderr, "agent-guard uninstall:", err); return 1 }
	failed := 0
	if hosts.any() || !*auto {
		targets, _, err := hosts.targets()
		if err != nil {
			return fail(err)
		}
		for _, t := range targets {
			res, err := install.Uninstall(t.Host, t.Path, install.Options{DryRun: *dry})
			if err != nil {
				fmt.Fprintf(env.Stderr, "agent-guard uninstall: %s: %v\n", t.Label, err)
				failed++
				continue
			}
			switch {
			case res.Removed == 0:
				fmt.Fprintf(env.Stdout, "%s: no agent-guard hook in %s; nothing to do\n", t.Label, t.Path)
			case *dry:
				fmt.Fprintf(env.Stdout, "# %s: %s (dry run, nothing written)\n%s", t.Label, res.Path, res.Content)
			case res.Content == nil:
				fmt.Fprintf(env.Stdout, "%s: removed agent-guard's file %s\n", t.Label, res.Path)
			default:
				fmt.Fprintf(env.Stdout, "%s: removed the agent-guard hook from %s (backup: %s)\n", t.Label, res.Path, res.Backup)
			}
		}
	}
	if *auto && !*dry {
		if err := autostart.Disable(); err != nil {
			return fail(fmt.Errorf("autostart: %v", err))
		}
		fmt.Fprintln(env.Stdout, "the tray no longer starts at login")
	}
	if failed > 0 {
		return 1
	}
	return 0
}
