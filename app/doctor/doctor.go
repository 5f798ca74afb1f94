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
	"time"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/install"
	"github.com/agent-guard/agent-guard/app/pipe"
)

// Options select what to check.
type Options struct {
	ZCode, Claude bool   // check these hosts (none and no Workspace: whatever is installed)
	Workspace     string // check this ZCode workspace
	Online        bool   // also call the TypeSafe endpoint
	Hook          string // hook binary for the round trip when none is installed
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
	checkAudit(r, cfg)
	checkTypeSafe(ctx, r, opt, cfg)
	roundTrips(ctx, r, opt, hooks)
	notes(r, hooks)
	return !r.failed
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// installedHook is one host entry whose binary the round trip can run.
type installedHook struct{ host, path string }

// checkHosts inspects each host config; it returns the installed hooks.
func checkHosts(r *report, opt Options, cfg *config.Config) []installedHook {
	explicit := opt.ZCode || opt.Claude || opt.Workspace != ""
	zcode, claude := opt.ZCode, opt.Claude
	if !explicit {
		zcode, claude = true, true
	}
	targets, err := install.Targets(zcode, claude, opt.Workspace)
	if err != nil {
		r.fix("%v", err)
		return nil
	}
	var found []installedHook
	var missing []install.Target
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
		found = append(found, installedHook{t.Host, in.Command})
	}
	switch {
	case explicit:
		for _, t := range missing {
			r.fix("%s: the agent-guard hook is not in %s: run '%s'", t.Label, t.Path, installCmd(t))
		}
	case len(found) == 0:
		r.fix("no agent is guarded: run 'agent-guard install --zcode' for ZCode, 'agent-guard install --claude' for Claude Code (a workspace install is checked with 'agent-guard doctor --workspace DIR')")
	default:
		for _, t := range missing {
			r.note("%s is not guarded; if you use it, run '%s'", t.Label, installCmd(t))
		}
	}
	return found
}

func installCmd(t install.Target) string {
	switch {
	case t.Host == install.Claude:
		return "agent-guard install --claude"
	case t.Workspace != "":
		return "agent-guard install --zcode --workspace " + t.Workspace
	}
	return "agent-guard install --zcode"
}

// checkEntry reports on one installed entry.
func checkEntry(r *report, t install.Target, in *install.Installed, cfg *config.Config) {
	again := "run '" + installCmd(t) + "' again"
	if err := install.CheckExecutable(in.Command); err != nil {
		r.fix("%s: the hook in %s points at %s, which cannot run (%v): %s", t.Label, t.Path, in.Command, err, again)
	} else {
		r.ok("%s: hook installed in %s -> %s", t.Label, t.Path, in.Command)
	}
	if !in.Enabled {
		r.fix("%s: hooks.enabled is not true in %s, so ZCode runs no hooks: %s", t.Label, t.Path, again)
	}
	if in.Count > 1 {
		r.fix("%s: %d agent-guard entries in %s: %s to keep one", t.Label, in.Count, t.Path, again)
	}
	approval := time.Duration(cfg.Approval.TimeoutSeconds) * time.Second
	if in.HostTimeout > in.Deadline && in.Deadline > approval {
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
	conn.Close()
	r.ok("tray: reachable on %s", name)
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
