package cli

import (
	"context"

	"github.com/agent-guard/agent-guard/app/doctor"
)

func init() {
	register("doctor", "check the whole setup and say how to fix what is wrong", runDoctor)
}

func runDoctor(env Env) int {
	fs := newFlags(env, "doctor", "[--online] [--HOST ...] [--workspace DIR] [--hook PATH]")
	hosts := addHostFlags(fs)
	online := fs.Bool("online", false, "also call the TypeSafe endpoint with your key")
	hook := fs.String("hook", "", "agent-guard-hook `PATH` for the round trip when no host has one installed")
	if code := parse(fs, env.Args); code >= 0 {
		return code
	}
	ok := doctor.Run(context.Background(), doctor.Options{
		Hosts: hosts.named(), Workspace: *hosts.workspace,
		Online: *online, Hook: *hook,
	}, env.Stdout)
	if !ok {
		return 1
	}
	return 0
}
