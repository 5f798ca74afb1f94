package judge

// The rule packs register themselves from init; importing them all here
// gives every binary that judges (the hook's fallback, the server, the
// CLI) the complete rule set.
import _ "github.com/agent-guard/agent-guard/app/judge/rules/packs/all"
