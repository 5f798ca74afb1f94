package doctor

import (
	"context"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/judge/typesafe"
)

// checkTypeSafe reports whether the remote judge has a key (never printing
// it) and, only with --online, asks it about a harmless command with the
// same client the judge uses.
func checkTypeSafe(ctx context.Context, r *report, opt Options, cfg *config.Config) {
	key, from, err := typesafe.LookupKey("")
	switch {
	case err != nil:
		r.fix("TypeSafe key: %v", err)
		return
	case key == "":
		r.ok("TypeSafe key: not set; the grey zone goes to you as a confirm instead of the remote judge (set %s or api_key=... in ~/.agentguardrc to use it)", typesafe.KeyEnv)
		return
	}
	r.ok("TypeSafe key: set (from %s)", from)
	if !opt.Online {
		r.note("TypeSafe reachability not checked; run 'agent-guard doctor --online' to call %s", cfg.TypeSafe.Endpoint)
		return
	}
	c, err := typesafe.FromConfig(cfg, key)
	if err == nil {
		_, _, _, err = c.Judge(ctx, judge.State{Tool: "Bash", Command: harmlessCommand})
	}
	if err != nil {
		r.fix("TypeSafe: %v", err) // the client's errors say what to do and never hold the key
		return
	}
	r.ok("TypeSafe: %s answered with the key from %s", cfg.TypeSafe.Endpoint, from)
}
