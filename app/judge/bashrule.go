package judge

import "github.com/agent-guard/agent-guard/app/judge/rules"

// bashRule is the shell rule pack; a variable so pipeline tests can pin
// the pipeline's behaviour independently of the packs.
var bashRule = rules.Bash
