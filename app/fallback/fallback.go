// Package fallback is the full judge for agent-guard-hook when no verified
// server answers: the verb `hook-fallback` of agent-guard-judge (the small
// cgo-free binary installed beside the hook, which the hook execs) and of
// agent-guard. Contract:
//
//	agent-guard-judge hook-fallback --host H --budget-ms N [--note TEXT] [--guard PATH] < event
//
// stdin is the host's event as the host sent it (at most wire.MaxEvent
// bytes). stdout is exactly one wire.Response line, the same a server
// sends: the decision and the host's finished output, which the hook
// checks and copies out, written last, after the audit line: stdout
// closed after exactly one line is the final answer (the hook need not
// wait for the process to end). Without that line, exit 0 means nothing;
// any other exit, or anything else on stdout, is a failure the hook turns
// into a deny. --note leads the reason and the audit line (why a server that
// answered was ignored). The audit line's source is "fallback". --guard is
// the agent-guard binary the hook trusts: the remote judge is asked
// through it (remote.go).
//
// It links the judge, config, cache and audit, and nothing of the tray,
// the server, the installer's verbs, the GUI or the remote judge's HTTP
// client, so that the process the hook starts is small and starts fast.
package fallback

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

// Verb is the verb the hook runs.
const Verb = "hook-fallback"

// Run runs the verb with args (after the verb's name) and returns the
// exit code.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	start := time.Now()
	fs := flag.NewFlagSet(Verb, flag.ContinueOnError)
	fs.SetOutput(stderr)
	host := fs.String("host", "", "the host's --host name")
	budgetMS := fs.Int64("budget-ms", 0, "milliseconds until the hook needs the answer")
	note := fs.String("note", "", "why a server that answered was not used")
	guardBin := fs.String("guard", "", "the agent-guard binary the hook trusts, which asks the remote judge for this one (default: agent-guard beside it)")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		return 2
	}
	h, ok := hostproto.Lookup(*host)
	if !ok || *budgetMS <= 0 || *budgetMS > wire.MaxBudgetMS {
		fmt.Fprintf(stderr, "agent-guard hook-fallback: --host %q must be a known host and --budget-ms %d within 1..%d\n", *host, *budgetMS, wire.MaxBudgetMS)
		return 2
	}
	data, err := io.ReadAll(io.LimitReader(stdin, wire.MaxEvent+1))
	if err != nil || len(data) > wire.MaxEvent {
		return answer(stdout, stderr, h, wire.Deny, fmt.Sprintf("agent-guard-hook: the fallback could not read the event (%d bytes, %v). The call is denied.", len(data), err))
	}
	budget := time.Duration(*budgetMS) * time.Millisecond
	paths, err := config.DefaultPaths()
	if err != nil {
		return answer(stdout, stderr, h, wire.Deny, fmt.Sprintf("agent-guard is not running and its files cannot be found (%v). The call is denied; start agent-guard.", err))
	}
	g, err := guard.Open(guard.Options{Paths: paths, NewRemote: newChildRemote(*guardBin)})
	if err != nil {
		return answer(stdout, stderr, h, wire.Deny, fmt.Sprintf("agent-guard is not running and its config could not be loaded (%v); the user should fix the config or start agent-guard. The call is denied.", err))
	}
	ctx := context.Background()
	d := decide.Decide(ctx, decide.Call{Host: h.Name, Event: data, Start: start, Deadline: start.Add(budget - min(budget/10, 200*time.Millisecond))},
		decide.Deps{Judge: g.Judge, Config: g.Config, Fallback: true, Note: *note})
	// The audit line (and the cache, when a remote judgment added to it)
	// is written before the answer: once the hook has the answer it may
	// stop waiting for this process (see hookbridge's spawn), so nothing
	// that must happen may come after it. Not g.Close(): it always
	// rewrites the cache (temp file, fsync, rename), yet only a remote
	// judgment adds to it.
	remote := false
	for _, p := range d.Parts {
		remote = remote || p.Verdict.Source == judge.SourceAPI
	}
	if remote {
		if err := g.SaveCache(); err != nil {
			fmt.Fprintln(stderr, "agent-guard hook-fallback:", err)
		}
	}
	if g.Audit != nil {
		if g.Config().Log.Enabled {
			for _, p := range d.Parts {
				if err := g.Audit.Append(p.Entry); err != nil {
					fmt.Fprintln(stderr, "agent-guard hook-fallback: audit line not written:", err)
				}
			}
		}
		g.Audit.Close()
	}
	return writeResponse(stdout, stderr, d.Response())
}

// answer writes a decision the fallback made without judging.
func answer(stdout, stderr io.Writer, h hostproto.Host, decision, reason string) int {
	o := h.Render(decision, reason)
	return writeResponse(stdout, stderr, wire.Response{V: wire.Version, Decision: decision, Reason: reason, Stdout: string(o.Stdout), Stderr: string(o.Stderr), Code: o.Code})
}

func writeResponse(stdout, stderr io.Writer, r wire.Response) int {
	b, err := wire.EncodeResponse(r)
	if err == nil {
		_, err = stdout.Write(b)
	}
	if err != nil {
		fmt.Fprintln(stderr, "agent-guard hook-fallback: cannot write the answer:", err)
		return 1
	}
	return 0
}
