// Package all imports every rule pack, so that whoever judges has the
// complete rule set. Go initialises these packages in the order of their
// import paths, after the core (see the rules package doc).
package all

import (
	_ "github.com/agent-guard/agent-guard/app/judge/rules/packs/apps"
	_ "github.com/agent-guard/agent-guard/app/judge/rules/packs/cloud"
	_ "github.com/agent-guard/agent-guard/app/judge/rules/packs/codeopts"
	_ "github.com/agent-guard/agent-guard/app/judge/rules/packs/containers"
	_ "github.com/agent-guard/agent-guard/app/judge/rules/packs/creds"
	_ "github.com/agent-guard/agent-guard/app/judge/rules/packs/db"
	_ "github.com/agent-guard/agent-guard/app/judge/rules/packs/disk"
	_ "github.com/agent-guard/agent-guard/app/judge/rules/packs/everyday"
	_ "github.com/agent-guard/agent-guard/app/judge/rules/packs/git"
	_ "github.com/agent-guard/agent-guard/app/judge/rules/packs/infra"
	_ "github.com/agent-guard/agent-guard/app/judge/rules/packs/interp"
	_ "github.com/agent-guard/agent-guard/app/judge/rules/packs/ops"
	_ "github.com/agent-guard/agent-guard/app/judge/rules/packs/procs"
	_ "github.com/agent-guard/agent-guard/app/judge/rules/packs/publish"
	_ "github.com/agent-guard/agent-guard/app/judge/rules/packs/remote"
	_ "github.com/agent-guard/agent-guard/app/judge/rules/packs/resources"
	_ "github.com/agent-guard/agent-guard/app/judge/rules/packs/self"
	_ "github.com/agent-guard/agent-guard/app/judge/rules/packs/sysfiles"
)
