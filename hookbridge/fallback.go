package hookbridge

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/decide"
	"github.com/agent-guard/agent-guard/app/guard"
	"github.com/agent-guard/agent-guard/app/judge"
)

// fallback judges in-process when agent-guard is not running: the same
// driver, judge, config, cache and remote judge, but no dialog, so a
// confirm under full access is denied and otherwise left to the host's
// own ask. note, when set, says why a server that answered was not used.
func fallback(ctx context.Context, opts Options, event []byte, stderr io.Writer, start time.Time, note string) result {
	paths, err := config.DefaultPaths()
	if err != nil {
		return deny("agent-guard is not running and its files cannot be found (%v).", err)
	}
	g, err := guard.Open(guard.Options{Paths: paths})
	if err != nil {
		return deny("agent-guard is not running and its config could not be loaded (%v); the user should fix the config or start agent-guard.", err)
	}
	deadline, _ := ctx.Deadline()
	r := decide.Decide(ctx, decide.Call{Host: opts.Host, Event: event, Start: start, Deadline: deadline.Add(-hookMargin(time.Until(deadline)))},
		decide.Deps{Judge: g.Judge, Config: g.Config, Fallback: true, Note: note})
	// Not g.Close(): it always rewrites the cache (temp file, fsync,
	// rename: ~3 ms median, ~40 ms p99 here), yet only a remote judgment
	// adds to it. The process exits right after, so nothing else leaks.
	if r.Verdict.Source == judge.SourceAPI {
		if err := g.SaveCache(); err != nil {
			fmt.Fprintf(stderr, "agent-guard-hook: %v\n", err)
		}
	}
	if g.Audit != nil {
		if g.Config().Log.Enabled {
			if err := g.Audit.Append(r.Entry); err != nil {
				fmt.Fprintf(stderr, "agent-guard-hook: audit line not written: %v\n", err)
			}
		}
		g.Audit.Close()
	}
	return result{decision: r.Out.Decision, reason: r.Out.Reason}
}
