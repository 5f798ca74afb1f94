package cli

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/agent-guard/agent-guard/app/autostart"
	"github.com/agent-guard/agent-guard/app/install"
)

func init() {
	register("install", "add the guard's hook to your agent hosts (every one found, or --HOST), start the tray at login", runInstall)
}

// hostFlags are the flags install, uninstall and doctor share: one per
// host (--zcode, --claude, --codex, ...) and ZCode's --workspace.
type hostFlags struct {
	on        map[string]*bool
	workspace *string
}

// hostFlagHelp is where each host's hook goes, for -h.
var hostFlagHelp = map[string]string{
	install.ZCode:       "ZCode, user level (~/.zcode/cli/config.json)",
	install.Claude:      "Claude Code (~/.claude/settings.json)",
	install.Codex:       "Codex CLI (~/.codex/hooks.json; trust it in /hooks afterwards)",
	install.Gemini:      "Gemini CLI (~/.gemini/settings.json)",
	install.Cursor:      "Cursor (~/.cursor/hooks.json, failClosed)",
	install.Copilot:     "GitHub Copilot CLI (~/.copilot/hooks/agent-guard.json, bash and powershell)",
	install.Windsurf:    "Windsurf (~/.codeium/windsurf/hooks.json)",
	install.Qwen:        "Qwen Code (~/.qwen/settings.json)",
	install.Kiro:        "Kiro CLI (every agent in ~/.kiro/agents)",
	install.Droid:       "Factory droid (~/.factory/hooks.json)",
	install.Auggie:      "Augment Auggie (~/.augment/settings.json)",
	install.Kimi:        "Kimi Code (~/.kimi-code/config.toml)",
	install.OpenCode:    "opencode (a plugin in ~/.config/opencode/plugins)",
	install.Cline:       "Cline (a hook file, ~/Documents/Cline/Hooks/PreToolUse; PreToolUse.ps1 on Windows)",
	install.Amp:         "Amp (a plugin in ~/.config/amp/plugins)",
	install.Antigravity: "Antigravity CLI (~/.gemini/config/hooks.json, hook set \"agent-guard\")",
}

func addHostFlags(fs *flag.FlagSet) hostFlags {
	h := hostFlags{on: map[string]*bool{}}
	for _, name := range install.AllHosts() {
		h.on[name] = fs.Bool(name, false, hostFlagHelp[name])
	}
	h.workspace = fs.String("workspace", "", "ZCode workspace `DIR` (DIR/.zcode/config.json) instead of the user level")
	return h
}

// named lists the hosts given by flag, sorted.
func (h hostFlags) named() []string {
	var ns []string
	for _, name := range install.AllHosts() {
		if *h.on[name] {
			ns = append(ns, name)
		}
	}
	return ns
}

func (h hostFlags) any() bool { return len(h.named()) > 0 || *h.workspace != "" }

// targets are the named hosts' configs, or with no host named every host
// found on this machine (its config folder exists).
func (h hostFlags) targets() ([]install.Target, bool, error) {
	if h.any() {
		ts, err := install.TargetsFor(h.named(), *h.workspace)
		return ts, false, err
	}
	found, err := install.Detect()
	if err != nil {
		return nil, true, err
	}
	if len(found) == 0 {
		return nil, true, fmt.Errorf("found no agent host here (looked for the config folders of %s); name one, e.g. --claude", strings.Join(install.AllHosts(), ", "))
	}
	ts, err := install.TargetsFor(found, "")
	return ts, true, err
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
	fs := newFlags(env, "install", "[--HOST ...] [--workspace DIR] [--autostart] [--dry-run] [--hook PATH] [--guard PATH]\n(no host flag: every host found on this machine)")
	hosts := addHostFlags(fs)
	auto := fs.Bool("autostart", false, "start the tray at login")
	dry := fs.Bool("dry-run", false, "print the resulting files, change nothing")
	hook := fs.String("hook", "", "agent-guard-hook `PATH` (default: next to this agent-guard)")
	guard := fs.String("guard", "", "agent-guard `PATH` the hook verifies the server against (default: beside the hook, else this agent-guard)")
	if code := parse(fs, env.Args); code >= 0 {
		return code
	}
	fail := func(err error) int { fmt.Fprintln(env.Stderr, "agent-guard install:", err); return 1 }

	// --autostart alone installs no hook; any host flag, or none at all, does.
	if hosts.any() || !*auto {
		targets, detected, err := hosts.targets()
		if err != nil {
			return fail(err)
		}
		if detected {
			fmt.Fprintf(env.Stdout, "no host named: installing into every host found here (%s)\n", strings.Join(hostList(targets), ", "))
		}
		cfg, cfgPath, err := install.ReadConfig()
		if err != nil {
			return fail(fmt.Errorf("%v\n(the hook's timeouts come from approval.timeout_seconds there; fix the config first)", err))
		}
		hookPath, err := install.FindHook(*hook)
		if err != nil {
			return fail(err)
		}
		guardPath, err := install.FindGuard(*guard, hookPath)
		if err != nil {
			return fail(err)
		}
		h := install.HookFor(hookPath, cfg)
		h.Guard = guardPath
		if w := install.PathWarning(hookPath, guardPath); w != "" {
			fmt.Fprintln(env.Stdout, "warning:", w)
		}
		// Not fatal: the hook denies when it cannot judge, so a missing
		// judge is safe, but the user must hear of it now.
		if _, err := install.FindJudge(hookPath); err != nil {
			fmt.Fprintln(env.Stderr, "warning:", strings.TrimPrefix(err.Error(), "install: "))
		}
		failed := 0
		for _, t := range targets {
			res, err := install.Install(t.Host, t.Path, h, install.Options{DryRun: *dry})
			if err != nil {
				// One broken host config must not stop the others.
				fmt.Fprintf(env.Stderr, "agent-guard install: %s: %v\n", t.Label, err)
				failed++
				continue
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
			if res.Changed && !*dry {
				if step := install.ManualStep(t.Host); step != "" {
					fmt.Fprintf(env.Stdout, "  next: %s\n", step)
				}
			}
			if ht := h.ForHost(t.Host); ht.Deadline != h.Deadline {
				fmt.Fprintf(env.Stdout, "  %s has no hook timeout setting (it waits about %gs): the hook answers within %gs, so the approval dialog has that long\n",
					t.Label, ht.HostTimeout.Seconds(), ht.Deadline.Seconds())
			}
		}
		fmt.Fprintf(env.Stdout, "hook deadline %gs, host timeout %gs (approval timeout %ds in %s); the hook verifies %s\n",
			h.Deadline.Seconds(), h.HostTimeout.Seconds(), cfg.Approval.TimeoutSeconds, cfgPath, guardPath)
		if failed > 0 {
			return 1
		}
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

func hostList(ts []install.Target) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range ts {
		if !seen[t.Host] {
			seen[t.Host] = true
			out = append(out, install.Display(t.Host))
		}
	}
	return out
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
