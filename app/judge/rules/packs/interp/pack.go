package interp

import "github.com/agent-guard/agent-guard/app/judge/rules"

// pack registers this pack's rules; its name orders them among the packs'.
var pack = rules.NewPack("interp")
