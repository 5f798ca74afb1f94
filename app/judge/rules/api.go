package rules

// The pack API: what a pack under packs/ may call. Registration and the
// judge are exported where they are declared (Bash, Ctx, CmdRule,
// Finding, ...); the helpers below keep their short names inside the core
// and get a capitalised twin here for the packs.

// On registers r for each program name (see on).
func On(r CmdRule, names ...string) { on(r, names...) }

// OnAny registers r for every command (see onAny).
func OnAny(r CmdRule) { onAny(r) }
