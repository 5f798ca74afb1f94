// Package doctor checks an agent-guard setup end to end and says, line by
// line, what is fine ("OK") and what to do about what is not ("FIX");
// "NOTE" lines are facts the user should know that no fix changes.
package doctor

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/hostproto"
	"github.com/agent-guard/agent-guard/app/install"
	"github.com/agent-guard/agent-guard/app/peer"
	"github.com/agent-guard/agent-guard/app/pipe"
)

// Options select what to check.
type Options struct {
	ZCode, Claude bool     // check these hosts (none and no Workspace: whatever is installed)
	Hosts         []string // and these (install's host names: codex, cursor, ...)
	Workspace     string   // check this ZCode workspace
	Online        bool     // also call the TypeSafe endpoint
	Hook          string   // hook binary for the round trip when none is installed
}

// Line prefixes.
const (
	OK   = "OK  "
	FIX  = "FIX "
	NOTE = "NOTE "
)

type report struct {
	w      io.Writer
	failed bool
}

func (r *report) ok(format string, a ...any)   { r.line(OK, format, a...) }
func (r *report) note(format string, a ...any) { r.line(NOTE, format, a...) }
func (r *report) fix(format string, a ...any) {
	r.failed = true
	r.line(FIX, format, a...)
}
func (r *report) line(prefix, format string, a ...any) {
	fmt.Fprintf(r.w, "%s%s\n", prefix, fmt.Sprintf(format, a...))
}

// Run checks everything and writes one line per finding to w. It returns
// false when something needs fixing.
func Run(ctx context.Context, opt Options, w io.Writer) bool {
	r := &report{w: w}

	cfg, cfgPath, err := install.ReadConfig()
	switch {
	case err != nil:
		r.fix("config: %v", err)
		cfg = config.Default() // go on with the defaults to check the rest
	case exists(cfgPath):
		r.ok("config: %s is valid", cfgPath)
	default:
		r.ok("config: %s does not exist yet; the defaults apply (written on the tray's first start)", cfgPath)
	}

	hooks := checkHosts(r, opt, cfg)
	checkTray(ctx, r)
	checkTrayHost(r, os.Getenv)
	checkAudit(r, cfg)
	checkFonts(ctx, r) // fonts.go: can the dialog draw Chinese
	checkTypeSafe(ctx, r, opt, cfg)
	roundTrips(ctx, r, opt, hooks)
	checkGuarded(r, cfgPath, hooks) // guarded.go: pending config, unguarded, install mode
	notes(r, hooks)
	return !r.failed
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// installedHook is one host entry whose binary the round trip can run.
type installedHook struct {
	host, path string
	args       []string // the entry's arguments, as the host passes them
}

func (o Options) hosts() []string {
	hs := append([]string(nil), o.Hosts...)
	if o.ZCode {
		hs = append(hs, install.ZCode)
	}
	if o.Claude {
		hs = append(hs, install.Claude)
	}
	return hs
}

// unseen are the hosts with a manual step doctor cannot check: Codex
// runs a hook only once trusted in /hooks, Kiro only for its agent in use.
var unseen = map[string]bool{install.Codex: true, install.Kiro: true}

// checkHosts inspects each host config; it returns the installed hooks.
// With no host named, every host is looked at, and one not installed is
// mentioned only when it is on this machine (ZCode and Claude Code always).
func checkHosts(r *report, opt Options, cfg *config.Config) []installedHook {
	hosts := opt.hosts()
	explicit := len(hosts) > 0 || opt.Workspace != ""
	if !explicit {
		hosts = install.AllHosts()
	}
	targets, err := install.TargetsFor(hosts, opt.Workspace)
	if err != nil {
		r.fix("%v", err)
		return nil
	}
	present := map[string]bool{install.ZCode: true, install.Claude: true}
	if found, err := install.Detect(); err == nil {
		for _, h := range found {
			present[h] = true
		}
	}
	var found []installedHook
	var missing []install.Target
	noted := map[string]bool{}
	for _, t := range targets {
		data, err := os.ReadFile(t.Path)
		if err != nil && !os.IsNotExist(err) {
			r.fix("%s: cannot read %s: %v", t.Label, t.Path, err)
			continue
		}
		in, err := install.Inspect(t.Host, data)
		if err != nil {
			r.fix("%s: %s: %v; fix the file by hand (the host cannot read it either)", t.Label, t.Path, err)
			continue
		}
		if in == nil {
			missing = append(missing, t)
			continue
		}
		checkEntry(r, t, in, cfg)
		if h, ok := hostproto.Lookup(t.Host); ok && !noted[t.Host] {
			noted[t.Host] = true
			r.note("%s, when a hook fails: %s", h.Display, h.FailOpen)
			if unseen[t.Host] {
				r.note("%s: %s (doctor cannot see whether you did)", h.Display, install.ManualStep(t.Host))
			}
		}
		found = append(found, installedHook{t.Host, in.Command, in.Args})
	}
	switch {
	case explicit:
		for _, t := range missing {
			r.fix("%s: the agent-guard hook is not in %s: run '%s'", t.Label, t.Path, installCmd(t))
		}
	case len(found) == 0:
		r.fix("no agent is guarded: run 'agent-guard install' to guard every agent host found here, or name one ('agent-guard install --claude', --codex, --cursor, ...; a ZCode workspace is checked with 'agent-guard doctor --workspace DIR')")
	default:
		for _, t := range missing {
			if present[t.Host] {
				r.note("%s is not guarded; if you use it, run '%s'", t.Label, installCmd(t))
			}
		}
	}
	return found
}

func installCmd(t install.Target) string {
	if t.Workspace != "" {
		return "agent-guard install --zcode --workspace " + t.Workspace
	}
	return "agent-guard install --" + t.Host
}

// checkJudge reports on the fallback judge beside the hook: what judges
// when the tray is not running. Without it every such call is denied.
func checkJudge(r *report, t install.Target, hook string) {
	if real, err := filepath.EvalSymlinks(hook); err == nil {
		hook = real
	}
	judge := peer.JudgeBeside(hook)
	err := peer.CheckJudge(judge, hook)
	if err == nil {
		err = install.CheckExecutable(judge)
	}
	if err != nil {
		r.fix("%s: the hook's fallback judge %s cannot run (%v): while agent-guard is not running, every call is denied; reinstall agent-guard so that %s sits beside %s", t.Label, judge, err, peer.JudgeName(), filepath.Base(hook))
	}
}

// checkEntry reports on one installed entry.
func checkEntry(r *report, t install.Target, in *install.Installed, cfg *config.Config) {
	again := "run '" + installCmd(t) + "' again"
	if err := install.CheckExecutable(in.Command); err != nil {
		r.fix("%s: the hook in %s points at %s, which cannot run (%v): %s", t.Label, t.Path, in.Command, err, again)
	} else {
		r.ok("%s: hook installed in %s -> %s", t.Label, t.Path, in.Command)
		checkJudge(r, t, in.Command)
	}
	if h := argValue(in.Args, "--host"); h != t.Host {
		r.fix("%s: the hook in %s speaks --host %q, not %q: the host would misread its answers (and run what it denies): %s", t.Label, t.Path, h, t.Host, again)
	}
	for _, list := range in.Missing {
		r.fix("%s: %s in %s has no agent-guard entry, so those calls are not guarded: %s", t.Label, list, t.Path, again)
	}
	if in.Disabled {
		r.fix("%s: \"disableAllHooks\": true in %s, so %s runs no hooks, agent-guard's included: remove it", t.Label, t.Path, t.Label)
	}
	if !in.Enabled {
		if t.Host == install.Antigravity {
			r.fix("%s: agent-guard's hook set in %s is not \"enabled\": true, so Antigravity CLI does not run it: %s", t.Label, t.Path, again)
		} else {
			r.fix("%s: hooks.enabled is not true in %s, so ZCode runs no hooks: %s", t.Label, t.Path, again)
		}
	}
	if in.Count > listCount(t.Host) {
		r.fix("%s: %d agent-guard entries in %s: %s to keep one", t.Label, in.Count, t.Path, again)
	}
	approval := time.Duration(cfg.Approval.TimeoutSeconds) * time.Second
	if assumed := install.AssumedTimeout(t.Host); assumed > 0 {
		if in.Deadline > 0 && in.Deadline < assumed {
			r.ok("%s: timeouts consistent: host about %s (it has no setting) > hook deadline %s", t.Label, secs(assumed), secs(in.Deadline))
			if in.Deadline < approval {
				r.note("%s: the approval dialog gets at most %s here (approval timeout %s), since %s cannot wait longer for a hook", t.Label, secs(in.Deadline), secs(approval), t.Label)
			}
		} else {
			r.fix("%s: hook deadline %s is not under %s's own timeout of about %s, which then runs the tool: %s", t.Label, secs(in.Deadline), t.Label, secs(assumed), again)
		}
	} else if in.HostTimeout > in.Deadline && in.Deadline > approval {
		r.ok("%s: timeouts consistent: host %s > hook deadline %s > approval %s", t.Label, secs(in.HostTimeout), secs(in.Deadline), secs(approval))
	} else {
		r.fix("%s: timeouts out of order: host %s, hook deadline %s, approval %s (need host > deadline > approval, or the host kills the hook before it can answer): %s to recompute them",
			t.Label, secs(in.HostTimeout), secs(in.Deadline), secs(approval), again)
	}
	for _, later := range in.Later {
		if t.Host == install.ZCode {
			r.fix("%s: %s runs after agent-guard for the same tools, and ZCode lets the later answer win: move it before ours or %s (ours goes last)", t.Label, later, again)
		} else {
			r.note("%s: %s also runs for the same tools; make sure it cannot allow what agent-guard denies", t.Label, later)
		}
	}
}

// listCount is how many entries of ours a correct install of host has.
func listCount(host string) int {
	switch host {
	case install.Cursor, install.Windsurf:
		return 3
	}
	return 1
}

func argValue(args []string, name string) string {
	for i, a := range args {
		if a == name && i+1 < len(args) {
			return args[i+1]
		}
		if v, ok := strings.CutPrefix(a, name+"="); ok {
			return v
		}
	}
	return ""
}

func secs(d time.Duration) string { return fmt.Sprintf("%gs", d.Seconds()) }

func checkTray(ctx context.Context, r *report) {
	name, err := pipe.Name()
	if err != nil {
		r.fix("tray: no pipe name (%v); set %s", err, pipe.Env)
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	conn, err := pipe.Dial(ctx, name)
	if err != nil {
		r.fix("tray: not reachable on %s (%v): start agent-guard (the tray app), or 'agent-guard serve --headless' without a desktop; until then the hook judges alone and cannot ask you", name, err)
		return
	}
	defer conn.Close()
	// The hook believes only the genuine agent-guard serving this config
	// home (app/peer): say so when whatever answers is not it.
	self, _ := os.Executable()
	p, err := peer.VerifyServer(conn, peer.Expect{Binary: self, Home: peer.HomeOf(os.Getenv), Pipe: name})
	if err != nil {
		r.fix("tray: %v. The hook ignores it and judges alone; stop that process and start agent-guard", err)
		return
	}
	r.ok("tray: reachable on %s, served by the genuine agent-guard (pid %d)", name, p.PID)
}

func checkAudit(r *report, cfg *config.Config) {
	paths, err := config.DefaultPaths()
	if err != nil {
		r.fix("audit: %v", err)
		return
	}
	if !cfg.Log.Enabled {
		r.note("audit: log.enabled is off in the config; no decisions are recorded")
	}
	dir := filepath.Dir(paths.Audit)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		r.fix("audit: cannot create %s (%v): make it writable or set %s", dir, err, config.HomeEnv)
		return
	}
	f, err := os.CreateTemp(dir, ".doctor-*")
	if err != nil {
		r.fix("audit: %s is not writable (%v): fix its permissions or set %s", dir, err, config.HomeEnv)
		return
	}
	f.Close()
	os.Remove(f.Name())
	r.ok("audit: %s is writable", paths.Audit)
}

func notes(r *report, hooks []installedHook) {
	var zcode, claude bool
	for _, h := range hooks {
		zcode = zcode || h.host == install.ZCode
		claude = claude || h.host == install.Claude
	}
	if zcode || len(hooks) == 0 {
		r.note("ZCode 3.9 does not run config-file hooks for subagent tool calls: what a subagent runs is not guarded")
	}
	if claude || len(hooks) == 0 {
		r.note("Claude Code reads hooks from settings.json when a session starts: restart running sessions after install")
	}
}
