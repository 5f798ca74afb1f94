package cli

import "github.com/agent-guard/agent-guard/app/fallback"

// hook-fallback is also a hidden verb of agent-guard, the same code as
// agent-guard-judge's (package fallback has the contract): the hook execs
// agent-guard-judge, the small binary beside it; this verb is for
// running it by hand.
func init() {
	register(fallback.Verb, "", func(env Env) int {
		return fallback.Run(env.Args, env.Stdin, env.Stdout, env.Stderr)
	})
}
