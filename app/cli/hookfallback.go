package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/decide"
	"github.com/agent-guard/agent-guard/app/guard"
	"github.com/agent-guard/agent-guard/app/hostproto"
	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/wire"
)

// hook-fallback is the full judge for agent-guard-hook when no verified
// server answers (hidden: only the hook runs it). Contract:
//
//	agent-guard hook-fallback --host H --budget-ms N [--note TEXT] < event
//
// stdin is the host's event as the host sent it (at most wire.MaxEvent
// bytes). stdout is exactly one wire.Response line, the same a server
// sends: the decision and the host's finished output, which the hook
// checks and copies out. Exit 0 means that line was written; any other
// exit, or anything else on stdout, is a failure the hook turns into a
// deny. --note leads the reason and the audit line (why a server that
// answered was ignored). The audit line's source is "fallback".
func init() {
	register("hook-fallback", "", runHookFallback)
}

func runHookFallback(env Env) int {
	start := time.Now()
	fs := flag.NewFlagSet("hook-fallback", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	host := fs.String("host", "", "the host's --host name")
	budgetMS := fs.Int64("budget-ms", 0, "milliseconds until the hook needs the answer")
	note := fs.String("note", "", "why a server that answered was not used")
	if err := fs.Parse(env.Args); err != nil || fs.NArg() > 0 {
		return 2
	}
	h, ok := hostproto.Lookup(*host)
	if !ok || *budgetMS <= 0 || *budgetMS > wire.MaxBudgetMS {
		fmt.Fprintf(env.Stderr, "agent-guard hook-fallback: --host %q must be a known host and --budget-ms %d within 1..%d\n", *host, *budgetMS, wire.MaxBudgetMS)
		return 2
	}
	data, err := io.ReadAll(io.LimitReader(env.Stdin, wire.MaxEvent+1))
	if err != nil || len(data) > wire.MaxEvent {
		return answer(env, h, wire.Deny, fmt.Sprintf("agent-guard-hook: the fallback could not read the event (%d bytes, %v). The call is denied.", len(data), err))
	}
	budget := time.Duration(*budgetMS) * time.Millisecond
	paths, err := config.DefaultPaths()
	if err != nil {
		return answer(env, h, wire.Deny, fmt.Sprintf("agent-guard is not running and its files cannot be found (%v). The call is denied; start agent-guard.", err))
	}
	g, err := guard.Open(guard.Options{Paths: paths})
	if err != nil {
		return answer(env, h, wire.Deny, fmt.Sprintf("agent-guard is not running and its config could not be loaded (%v); the user should fix the config or start agent-guard. The call is denied.", err))
	}
	ctx := context.Background()
	d := decide.Decide(ctx, decide.Call{Host: h.Name, Event: data, Start: start, Deadline: start.Add(budget - min(budget/10, 200*time.Millisecond))},
		decide.Deps{Judge: g.Judge, Config: g.Config, Fallback: true, Note: *note})
	code := writeResponse(env, d.Response())
	// Not g.Close(): it always rewrites the cache (temp file, fsync,
	// rename), yet only a remote judgment adds to it.
	remote := false
	for _, p := range d.Parts {
		remote = remote || p.Verdict.Source == judge.SourceAPI
	}
	if remote {
		if err := g.SaveCache(); err != nil {
			fmt.Fprintln(env.Stderr, "agent-guard hook-fallback:", err)
		}
	}
	if g.Audit != nil {
		if g.Config().Log.Enabled {
			for _, p := range d.Parts {
				if err := g.Audit.Append(p.Entry); err != nil {
					fmt.Fprintln(env.Stderr, "agent-guard hook-fallback: audit line not written:", err)
				}
			}
		}
		g.Audit.Close()
	}
	return code
}

// answer writes a decision the fallback made without judging.
func answer(env Env, h hostproto.Host, decision, reason string) int {
	o := h.Render(decision, reason)
	return writeResponse(env, wire.Response{V: wire.Version, Decision: decision, Reason: reason, Stdout: string(o.Stdout), Stderr: string(o.Stderr), Code: o.Code})
}

func writeResponse(env Env, r wire.Response) int {
	b, err := wire.EncodeResponse(r)
	if err == nil {
		_, err = env.Stdout.Write(b)
	}
	if err != nil {
		fmt.Fprintln(env.Stderr, "agent-guard hook-fallback: cannot write the answer:", err)
		return 1
	}
	return 0
}
