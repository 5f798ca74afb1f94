package hookbridge

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/guard"
	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/hookbridge/render"
)

// fallback judges in-process when agent-guard is not running: the same
// judge, config, cache and remote judge, but no dialog, so a confirm under
// full access is denied and otherwise left to the host's own ask.
// note, when set, says why a server that answered was not used; it
// leads the reason and the audit line.
func fallback(ctx context.Context, opts Options, ev judge.Event, stderr io.Writer, start time.Time, note string) result {
	paths, err := config.DefaultPaths()
	if err != nil {
		return deny("agent-guard is not running and its files cannot be found (%v).", err)
	}
	g, err := guard.Open(guard.Options{Paths: paths})
	if err != nil {
		return deny("agent-guard is not running and its config could not be loaded (%v); the user should fix the config or start agent-guard.", err)
	}
	var v judge.Verdict
	// Not g.Close(): it always rewrites the cache (temp file, fsync,
	// rename: ~3 ms median, ~40 ms p99 here), yet only a remote judgment
	// adds to it. The process exits right after, so nothing else leaks.
	defer func() {
		if v.Source == judge.SourceAPI {
			if err := g.SaveCache(); err != nil {
				fmt.Fprintf(stderr, "agent-guard-hook: %v\n", err)
			}
		}
		if g.Audit != nil {
			g.Audit.Close()
		}
	}()
	st, err := judge.StateFromEvent(ev)
	if err != nil {
		return deny("the tool call could not be read (%v).", err)
	}
	v = g.Judge.Judge(ctx, st)
	cfg := g.Config()
	out := render.Render(render.Input{Verdict: v, Config: cfg, PermissionMode: ev.PermissionMode, Fallback: true})
	if note != "" {
		out.Reason = "agent-guard-hook: " + note + ", so the call was judged without it. " + out.Reason
	}
	if g.Audit != nil && cfg.Log.Enabled {
		e := render.Entry(opts.Host, ev, st, v, out, judge.SourceFallback, start, 0)
		if err := g.Audit.Append(e); err != nil {
			fmt.Fprintf(stderr, "agent-guard-hook: audit line not written: %v\n", err)
		}
	}
	return result{decision: out.Decision, reason: out.Reason}
}
