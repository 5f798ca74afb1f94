package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/fallback"
	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/judge/typesafe"
	"github.com/agent-guard/agent-guard/app/wire"
)

// remote-judge is the hidden verb agent-guard-judge runs to ask the
// remote judge (package fallback, remote.go, has the contract): the judge
// every hook fallback starts does not link the HTTP client.
func init() {
	register(fallback.RemoteVerb, "", func(env Env) int { return remoteJudge(env) })
}

func remoteJudge(env Env) int {
	fs := flag.NewFlagSet(fallback.RemoteVerb, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	budgetMS := fs.Int64("budget-ms", 0, "milliseconds until the judge needs the answer")
	if err := fs.Parse(env.Args); err != nil || fs.NArg() > 0 {
		return 2
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(env.Stderr, "agent-guard %s: %s\n", fallback.RemoteVerb, fmt.Sprintf(format, a...))
		return 1
	}
	if *budgetMS <= 0 || *budgetMS > wire.MaxBudgetMS {
		return fail("--budget-ms %d is not within 1..%d", *budgetMS, wire.MaxBudgetMS)
	}
	data, err := io.ReadAll(io.LimitReader(env.Stdin, wire.MaxEvent+1))
	if err != nil || len(data) > wire.MaxEvent {
		return fail("cannot read the call on stdin (%d bytes, %v)", len(data), err)
	}
	var s judge.State
	if err := json.Unmarshal(data, &s); err != nil {
		return fail("the call on stdin is not a judge state (%v)", err)
	}
	paths, err := config.DefaultPaths()
	if err != nil {
		return fail("agent-guard's files cannot be found (%v)", err)
	}
	cfg, err := config.Load(paths.Config)
	if err != nil {
		return fail("the config could not be loaded (%v)", err)
	}
	key, _, err := typesafe.LookupKey("")
	if err != nil {
		return fail("%v", err)
	}
	c, err := typesafe.FromConfig(cfg, key)
	if err != nil {
		return fail("%v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(*budgetMS)*time.Millisecond)
	defer cancel()
	risk, viol, probs, err := c.Judge(ctx, s)
	if err != nil {
		return fail("%v", err) // the client's errors never hold the key
	}
	a := fallback.RemoteAnswer{Risk: risk, Violation: viol, Probs: probs}
	if err := a.Check(); err != nil {
		return fail("the remote judge's answer: %v", err)
	}
	if err := json.NewEncoder(env.Stdout).Encode(a); err != nil {
		return fail("cannot write the answer: %v", err)
	}
	return 0
}
