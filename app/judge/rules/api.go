package rules

import "github.com/agent-guard/agent-guard/app/judge/shell"

// The pack API: what a pack under packs/ may call. Registration and the
// judge are exported where they are declared (Bash, Ctx, CmdRule,
// Finding, ...); the helpers below keep their short names inside the core
// and get a capitalised twin here for the packs.

// On registers r for each program name (see on).
func On(r CmdRule, names ...string) { on(r, names...) }

// OnAny registers r for every command (see onAny).
func OnAny(r CmdRule) { onAny(r) }

// PkAllow is pkAllow (packutil.go) for the packs.
func PkAllow(c *shell.Cmd, risk float64, rule string, reason string) (Finding, bool) {
	return pkAllow(c, risk, rule, reason)
}

// PkLowOps is pkLowOps (procs.go) for the packs.
func PkLowOps(c *shell.Cmd) []string { return pkLowOps(c) }

// PkRet is pkRet (packutil.go) for the packs.
func PkRet(c *shell.Cmd, risk float64, viol float64, rule string, reason string) (Finding, bool) {
	return pkRet(c, risk, viol, rule, reason)
}

// PkUnsure is pkUnsure (packutil.go) for the packs.
func PkUnsure(c *shell.Cmd, risk float64, rule string, reason string) (Finding, bool) {
	return pkUnsure(c, risk, rule, reason)
}

// PkDryFlag is pkDryFlag (dryrun.go) for the packs.
func PkDryFlag(c *shell.Cmd, vals map[string]bool, names ...string) bool {
	return pkDryFlag(c, vals, names...)
}

// PkEval is pkEval (packutil.go) for the packs.
func PkEval(c *shell.Cmd, x *Ctx) (Finding, bool) { return pkEval(c, x) }

// PkF is pkF (packutil.go) for the packs.
func PkF(c *shell.Cmd, risk float64, viol float64, rule string, reason string) Finding {
	return pkF(c, risk, viol, rule, reason)
}

// PkIndex is pkIndex (procs.go) for the packs.
func PkIndex(args []string, words ...string) int { return pkIndex(args, words...) }

// PkInner is pkInner (packutil.go) for the packs.
func PkInner(parent *shell.Cmd, words []string) *shell.Cmd { return pkInner(parent, words) }

// PkPos is pkPos (packutil.go) for the packs.
func PkPos(args []string, takesVal map[string]bool) []string { return pkPos(args, takesVal) }

// PkSet is pkSet (packutil.go) for the packs.
func PkSet(words ...string) map[string]bool { return pkSet(words...) }

// PkVal is pkVal (packutil.go) for the packs.
func PkVal(c *shell.Cmd, names ...string) (string, bool) { return pkVal(c, names...) }

// PkHas is pkHas (packutil.go) for the packs.
func PkHas(c *shell.Cmd, words ...string) bool { return pkHas(c, words...) }

// BashCd is bashCd (bash.go) for the packs.
func BashCd(c *shell.Cmd, x *Ctx) string { return bashCd(c, x) }

// FsWriteTarget is fsWriteTarget (fs.go) for the packs.
func FsWriteTarget(c *shell.Cmd, t string, x *Ctx) Finding { return fsWriteTarget(c, t, x) }

// GitProgramValue is gitProgramValue (codeopts.go) for the packs.
func GitProgramValue(c *shell.Cmd, what string, v string, x *Ctx) (Finding, bool) {
	return gitProgramValue(c, what, v, x)
}

// LineEnv is lineEnv (codeopts.go) for the packs.
func LineEnv(c *shell.Cmd, x *Ctx) []string { return lineEnv(c, x) }

// PkNorm is pkNorm (packutil.go) for the packs.
func PkNorm(w string) string { return pkNorm(w) }

// Score is score (finding.go) for the packs.
func (m Finding) Score() float64 { return m.score() }

// TrackedSecret is trackedSecret (fsclean.go) for the packs.
func TrackedSecret(x *Ctx) (string, bool) { return trackedSecret(x) }
