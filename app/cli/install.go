package cli

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agent-guard/agent-guard/app/autostart"
	"github.com/agent-guard/agent-guard/app/install"
)

func init() {
	register("install", "add the guard's hook to ZCode / Claude Code, start the tray at login", runInstall)
}

// hostFlags are the flags install, uninstall and doctor share.
type hostFlags struct {
	zcode, claude *bool
	workspace     *string
}

func addHostFlags(fs *flag.FlagSet) hostFlags {
	return hostFlags{
		zcode:     fs.Bool("zcode", false, "ZCode, user level (~/.zcode/cli/config.json)"),
		claude:    fs.Bool("claude", false, "Claude Code (~/.claude/settings.json)"),
		workspace: fs.String("workspace", "", "ZCode workspace `DIR` (DIR/.zcode/config.json) instead of the user level"),
	}
}

func (h hostFlags) any() bool { return *h.zcode || *h.claude || *h.workspace != "" }

func (h hostFlags) targets() ([]install.Target, error) {
	return install.Targets(*h.zcode, *h.claude, *h.workspace)
}

func newFlags(env Env, name, usage string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(env.Stderr, "usage: agent-guard %s %s\n", name, usage)
		fs.PrintDefaults()
	}
	return fs
}

// parse returns -1 to go on, else the exit code (0 for -h, 2 for bad usage).
func parse(fs *flag.FlagSet, args []string) int {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(fs.Output(), "agent-guard %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		fs.Usage()
		return 2
	}
	return -1
}

func runInstall(env Env) int {
	fs := newFlags(env, "install", "--zcode [--workspace DIR] | --claude [--autostart] [--dry-run] [--hook PATH]")
	hosts := addHostFlags(fs)
	auto := fs.Bool("autostart", false, "start the tray at login")
	dry := fs.Bool("dry-run", false, "print the resulting files, change nothing")
	hook := fs.String("hook", "", "agent-guard-hook `PATH` (default: next to this agent-guard)")
	if code := parse(fs, env.Args); code >= 0 {
		return code
	}
	if !hosts.any() && !*auto {
		fs.Usage()
		return 2
	}
	fail := func(err error) int { fmt.Fprintln(env.Stderr, "agent-guard install:", err); return 1 }

	if hosts.any() {
		targets, err := hosts.targets()
		if err != nil {
			return fail(err)
		}
		cfg, cfgPath, err := install.ReadConfig()
		if err != nil {
			return fail(fmt.Errorf("%v\n(the hook's timeouts come from approval.timeout_seconds there; fix the config first)", err))
		}
		hookPath, err := install.FindHook(*hook)
		if err != nil {
			return fail(err)
		}
		h := install.HookFor(hookPath, cfg)
		for _, t := range targets {
			res, err := install.Install(t.Host, t.Path, h, install.Options{DryRun: *dry})
			if err != nil {
				return fail(err)
			}
			switch {
			case *dry:
				fmt.Fprintf(env.Stdout, "# %s: %s (dry run, nothing written)\n%s", t.Label, res.Path, res.Content)
			case !res.Changed:
				fmt.Fprintf(env.Stdout, "%s: already installed in %s\n", t.Label, res.Path)
			default:
				fmt.Fprintf(env.Stdout, "%s: installed %s into %s\n", t.Label, hookPath, res.Path)
				if res.Backup != "" {
					fmt.Fprintf(env.Stdout, "  backup of the old file: %s\n", res.Backup)
				}
			}
			if t.Host == install.Claude && res.Changed && !*dry {
				fmt.Fprintln(env.Stdout, "  Claude Code reads its hooks when a session starts: restart running sessions.")
			}
		}
		fmt.Fprintf(env.Stdout, "hook deadline %gs, host timeout %gs (approval timeout %ds in %s)\n",
			h.Deadline.Seconds(), h.HostTimeout.Seconds(), cfg.Approval.TimeoutSeconds, cfgPath)
	}

	if *auto {
		exe, err := selfPath()
		if err != nil {
			return fail(err)
		}
		if *dry {
			fmt.Fprintf(env.Stdout, "would start %s at login (dry run)\n", exe)
		} else if err := autostart.Enable(exe); err != nil {
			return fail(fmt.Errorf("autostart: %v", err))
		} else {
			fmt.Fprintf(env.Stdout, "the tray starts at login: %s\n", exe)
		}
	}
	if !*dry {
		fmt.Fprintln(env.Stdout, "next: start agent-guard (the tray), then run 'agent-guard doctor'")
	}
	return 0
}

// selfPath is the running agent-guard, symlinks resolved, for autostart.
func selfPath() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	return exe, nil
}
