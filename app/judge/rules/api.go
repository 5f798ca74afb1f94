package rules

import (
	"regexp"

	"github.com/agent-guard/agent-guard/app/judge/shell"
	"github.com/agent-guard/agent-guard/app/protect"
)

// The pack API: what a pack under packs/ may call. Registration and the
// judge are exported where they are declared (Bash, Ctx, CmdRule,
// Finding, ...); the helpers below keep their short names inside the core
// and get a capitalised twin here for the packs.

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
func PkDryFlag(c *shell.Cmd, vals *Set, names ...string) bool {
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
func PkPos(args []string, takesVal *Set) []string { return pkPos(args, takesVal) }

// PkSet is pkSet (packutil.go) for the packs.
func PkSet(words ...string) *Set { return pkSet(words...) }

// PkVal is pkVal (packutil.go) for the packs.
func PkVal(c *shell.Cmd, names ...string) (string, bool) { return pkVal(c, names...) }

// PkHas is pkHas (packutil.go) for the packs.
func PkHas(c *shell.Cmd, words ...string) bool { return pkHas(c, words...) }

// BashCd is bashCd (bash.go) for the packs.
func BashCd(c *shell.Cmd, x *Ctx) string { return bashCd(c, x) }

// FsWriteTarget is fsWriteTarget (fs.go) for the packs.
func FsWriteTarget(c *shell.Cmd, t string, x *Ctx) Finding { return fsWriteTarget(c, t, x) }

// PkNorm is pkNorm (packutil.go) for the packs.
func PkNorm(w string) string { return pkNorm(w) }

// Score is score (finding.go) for the packs.
func (m Finding) Score() float64 { return m.score() }

// TrackedSecret is trackedSecret (fsclean.go) for the packs.
func TrackedSecret(x *Ctx) (string, bool) { return trackedSecret(x) }

// HasDrive is hasDrive (paths.go) for the packs.
func HasDrive(p string) bool { return hasDrive(p) }

// JudgeElsewhere is judgeElsewhere (payload.go) for the packs.
func JudgeElsewhere(c *shell.Cmd, code string, route string, where string) (Finding, bool) {
	return judgeElsewhere(c, code, route, where)
}

// LastSeg is lastSeg (paths.go) for the packs.
func LastSeg(p string) string { return lastSeg(p) }

// MakeDryRun is makeDryRun (interp_recipes.go) for the packs.
func MakeDryRun(c *shell.Cmd) bool { return makeDryRun(c) }

// PkAbs is pkAbs (packutil.go) for the packs.
func PkAbs(p string, x *Ctx) string { return pkAbs(p, x) }

// PkAll is pkAll (packutil.go) for the packs.
func PkAll(x *Ctx) []shell.Cmd { return pkAll(x) }

// PkDyn is pkDyn (packutil.go) for the packs.
func PkDyn(s string) bool { return pkDyn(s) }

// PkHasPrefix is pkHasPrefix (packutil.go) for the packs.
func PkHasPrefix(c *shell.Cmd, prefixes ...string) bool { return pkHasPrefix(c, prefixes...) }

// PkInnerShell is pkInnerShell (shared.go) for the packs.
func PkInnerShell(code string, backticks bool) []string { return pkInnerShell(code, backticks) }

// PkLocalHost is pkLocalHost (packutil.go) for the packs.
func PkLocalHost(u string) bool { return pkLocalHost(u) }

// PkMaxDepth is pkMaxDepth (packutil.go) for the packs.
const PkMaxDepth = pkMaxDepth

// PkStdinCode is pkStdinCode (shared.go) for the packs.
func PkStdinCode(c *shell.Cmd) string { return pkStdinCode(c) }

// PkWinFlag is pkWinFlag (packutil.go) for the packs.
func PkWinFlag(c *shell.Cmd, names ...string) bool { return pkWinFlag(c, names...) }

// PkWinVal is pkWinVal (packutil.go) for the packs.
func PkWinVal(c *shell.Cmd, names ...string) (string, bool) { return pkWinVal(c, names...) }

// PkWriteTarget is pkWriteTarget (fs.go) for the packs.
func PkWriteTarget(c *shell.Cmd, x *Ctx, p string, verb string) (Finding, bool) {
	return pkWriteTarget(c, x, p, verb)
}

// RuleScpDest is ruleScpDest (remotecopy.go) for the packs.
func RuleScpDest(c *shell.Cmd, x *Ctx) (Finding, bool) { return ruleScpDest(c, x) }

// Slashify is slashify (paths.go) for the packs.
func Slashify(p string) string { return slashify(p) }

// SshSplit is sshSplit (payload.go) for the packs.
func SshSplit(args []string) (string, []string, bool) { return sshSplit(args) }

// DestroyVerbFinding is destroyVerbFinding (dryrun.go) for the packs.
func DestroyVerbFinding(c *shell.Cmd, prog string, words []string) (Finding, bool) {
	return destroyVerbFinding(c, prog, words)
}

// HasRules is hasRules (registry.go) for the packs.
func HasRules(name string) bool { return hasRules(name) }

// InfraReadOnly is infraReadOnly (shared.go) for the packs.
func InfraReadOnly(args []string) bool { return infraReadOnly(args) }

// InfraWords is infraWords (shared.go) for the packs.
func InfraWords(args []string) []string { return infraWords(args) }

// LocalToolManagers is localToolManagers (shared.go) for the packs.
var LocalToolManagers = localToolManagers

// PkContains is pkContains (shared.go) for the packs.
func PkContains(list []string, w string) bool { return pkContains(list, w) }

// PkGuardStop is pkGuardStop (selfkill.go) for the packs.
func PkGuardStop(c *shell.Cmd, how string) (Finding, bool) { return pkGuardStop(c, how) }

// PkNamesGuard is pkNamesGuard (shared.go) for the packs.
func PkNamesGuard(raw string) bool { return pkNamesGuard(raw) }

// PkContainsFold is pkContainsFold (shared.go) for the packs.
func PkContainsFold(s string, sub string) bool { return pkContainsFold(s, sub) }

// PkSizeBytes is pkSizeBytes (shared.go) for the packs.
func PkSizeBytes(s string) (float64, bool) { return pkSizeBytes(s) }

// PkValIs is pkValIs (shared.go) for the packs.
func PkValIs(c *shell.Cmd, name string, want string) bool { return pkValIs(c, name, want) }

// Targets are the folders a listing (find, ls -R ...) walks.
func (l listing) Targets() []string { return l.targets }

// AbsPath is absPath (interp_files.go) for the packs.
func AbsPath(p string, x *Ctx) string { return absPath(p, x) }

// BinDirs is binDirs (interp_files.go) for the packs.
var BinDirs = binDirs

// Deeper is deeper (machine.go) for the packs.
func (m *Machine) Deeper() *Machine { return m.deeper() }

// FindListing is findListing (fsdisk.go) for the packs.
func FindListing(c *shell.Cmd) (listing, bool) { return findListing(c) }

// FsClassify is fsClassify (fsscope.go) for the packs.
func FsClassify(p string, x *Ctx) fsScope { return fsClassify(p, x) }

// FsHome is fsHome (fsscope.go) for the packs.
const FsHome = fsHome

// FsHomeKey is fsHomeKey (fsscope.go) for the packs.
const FsHomeKey = fsHomeKey

// FsRoot is fsRoot (fsscope.go) for the packs.
const FsRoot = fsRoot

// FsSystem is fsSystem (fsscope.go) for the packs.
const FsSystem = fsSystem

// JudgeAs is judgeAs (machine.go) for the packs.
func JudgeAs(c *shell.Cmd, prog string, x *Ctx) Finding { return judgeAs(c, prog, x) }

// JudgeCmd is judgeCmd (bash.go) for the packs.
func JudgeCmd(c *shell.Cmd, x *Ctx) Finding { return judgeCmd(c, x) }

// OneLineShort is oneLineShort (machine.go) for the packs.
func OneLineShort(s string) string { return oneLineShort(s) }

// PkAnyOf is pkAnyOf (shared.go) for the packs.
func PkAnyOf(s string, marks []string) string { return pkAnyOf(s, marks) }

// PkBigPowRe is pkBigPowRe (shared.go) for the packs, compiled on first use.
func PkBigPowRe() *regexp.Regexp { pkInitRe(); return pkBigPowRe }

// PkDelMarks is pkDelMarks (shared.go) for the packs.
var PkDelMarks = pkDelMarks

// PkGuardWriteMark is pkGuardWriteMark (shared.go) for the packs.
var PkGuardWriteMark = pkGuardWriteMark

// PkInitRe is pkInitRe (shared.go) for the packs.
func PkInitRe() { pkInitRe() }

// PkLiteralDeletes is pkLiteralDeletes (dryrun.go) for the packs.
func PkLiteralDeletes(code string, low string) ([]string, bool) { return pkLiteralDeletes(code, low) }

// PkRawWords is pkRawWords (shared.go) for the packs.
func PkRawWords(raw string) []string { return pkRawWords(raw) }

// PkSecretPath is pkSecretPath (creds_paths.go) for the packs.
func PkSecretPath(word string, x *Ctx) (int, string) { return pkSecretPath(word, x) }

// PkShQuote is pkShQuote (packutil.go) for the packs.
func PkShQuote(w string) string { return pkShQuote(w) }

// PkStrong is pkStrong (shared.go) for the packs.
const PkStrong = pkStrong

// PkAuthContext is pkAuthContext (shared.go) for the packs.
func PkAuthContext(raw string, pos int) bool { return pkAuthContext(raw, pos) }

// PkNoSecret is pkNoSecret (shared.go) for the packs.
const PkNoSecret = pkNoSecret

// PkSecretVar is pkSecretVar (shared.go) for the packs.
func PkSecretVar(name string) bool { return pkSecretVar(name) }

// PkSecretVarRefs is pkSecretVarRefs (shared.go) for the packs.
func PkSecretVarRefs(raw string) []int { return pkSecretVarRefs(raw) }

// PkWeak is pkWeak (shared.go) for the packs.
const PkWeak = pkWeak

// RsyncRemote is rsyncRemote (fsclean.go) for the packs.
func RsyncRemote(o string) bool { return rsyncRemote(o) }

// SecretDestFinding is secretDestFinding (creds_dest.go) for the packs.
func SecretDestFinding(c *shell.Cmd) (Finding, bool, bool) { return secretDestFinding(c) }

// PkComposeExec is pkComposeExec (payload.go) for the packs.
func PkComposeExec(c *shell.Cmd, args []string) (Finding, bool) { return pkComposeExec(c, args) }

// PkComposeRunVal is pkComposeRunVal (shared.go) for the packs.
var PkComposeRunVal = pkComposeRunVal

// ShellQuote is shellQuote (shared.go) for the packs.
func ShellQuote(s string) string { return shellQuote(s) }

// DiskDevice is diskDevice (fs.go) for the packs.
func DiskDevice(c *shell.Cmd, t string) (Finding, bool) { return diskDevice(c, t) }

// TailNever is tailNever (bash.go) for the packs.
var TailNever = tailNever

// PipedSource is pipedSource (fsdisk.go) for the packs.
func PipedSource(c *shell.Cmd, x *Ctx) *shell.Cmd { return pipedSource(c, x) }

// BinaryDir is binaryDir (selfenv.go) for the packs.
func BinaryDir(c *shell.Cmd, dir string, x *Ctx) (Finding, bool) { return binaryDir(c, dir, x) }

// CleanAbs is cleanAbs (paths.go) for the packs.
func CleanAbs(p string) string { return cleanAbs(p) }

// Contains is contains (selfenv.go) for the packs.
func Contains(l []string, s string) bool { return contains(l, s) }

// ContainsAnyOf is containsAnyOf (selfinterp.go) for the packs.
func ContainsAnyOf(s string, subs []string) bool { return containsAnyOf(s, subs) }

// CronCommand is cronCommand (selfshared.go) for the packs.
func CronCommand(l string) string { return cronCommand(l) }

// DrivePath is drivePath (selfshared.go) for the packs.
func DrivePath(p string) string { return drivePath(p) }

// ExistingUnder is existingUnder (selfpaths.go) for the packs.
func ExistingUnder(set *protect.Set, dir string) (protect.Entry, bool) {
	return existingUnder(set, dir)
}

// GuardKillers is guardKillers (selfkill.go) for the packs.
var GuardKillers = guardKillers

// GuardVerb is guardVerb (selfkill.go) for the packs.
func GuardVerb(c *shell.Cmd, tray bool) Finding { return guardVerb(c, tray) }

// GuardWord is guardWord (selfkill.go) for the packs.
func GuardWord(a string) bool { return guardWord(a) }

// HasArg is hasArg (selfenv.go) for the packs.
func HasArg(c *shell.Cmd, a string) bool { return hasArg(c, a) }

// HooksOff is hooksOff (selfhosts.go) for the packs.
func HooksOff(s string) bool { return hooksOff(s) }

// HooksOffFinding is hooksOffFinding (selfhosts.go) for the packs.
func HooksOffFinding(marked string, what string) Finding { return hooksOffFinding(marked, what) }

// IsAbs is isAbs (paths.go) for the packs.
func IsAbs(p string) bool { return isAbs(p) }

// IsDirOnDisk is isDirOnDisk (selfdisk.go) for the packs.
func IsDirOnDisk(p string) bool { return isDirOnDisk(p) }

// ListArchive is listArchive (selfdisk.go) for the packs.
func ListArchive(p string) ([]member, bool) { return listArchive(p) }

// ListTree is listTree (selfdisk.go) for the packs.
func ListTree(p string) ([]string, bool) { return listTree(p) }

// Member is member (selfdisk.go) for the packs.
type Member = member

// NestedHosts is nestedHosts (selfshared.go) for the packs.
var NestedHosts = nestedHosts

// Normalize is normalize (paths.go) for the packs.
func Normalize(p string, cwd string, home string) np { return normalize(p, cwd, home) }

// OneLineCut is oneLineCut (bash.go) for the packs.
func OneLineCut(s string, n int) string { return oneLineCut(s, n) }

// Presumed is presumed (selfshared.go) for the packs.
func Presumed(e protect.Entry) bool { return presumed(e) }

// ProtectedBelow is protectedBelow (selfpaths.go) for the packs.
func ProtectedBelow(n np, p string, cwd string, home string) (Finding, bool) {
	return protectedBelow(n, p, cwd, home)
}

// RealPath is realPath (selfpaths.go) for the packs.
func RealPath(p string) string { return realPath(p) }

// RootedAbs is rootedAbs (selfpaths.go) for the packs.
func RootedAbs(p string) bool { return rootedAbs(p) }

// RunsLaterWrite is runsLaterWrite (selfshared.go) for the packs.
func RunsLaterWrite(p string, content string, cwd string, home string) (Finding, bool) {
	return runsLaterWrite(p, content, cwd, home)
}

// SelfBuildOutput is selfBuildOutput (selfenv.go) for the packs.
func SelfBuildOutput(c *shell.Cmd, x *Ctx) (Finding, bool) { return selfBuildOutput(c, x) }

// SelfEnvPersist is selfEnvPersist (selfenv.go) for the packs.
func SelfEnvPersist(c *shell.Cmd, x *Ctx) (Finding, bool) { return selfEnvPersist(c, x) }

// SelfExec is selfExec (selfenv.go) for the packs.
func SelfExec(c *shell.Cmd, x *Ctx) (Finding, bool) { return selfExec(c, x) }

// CoreSelfFinding is selfFinding (selfpaths.go) for the packs.
func CoreSelfFinding(kind string, p string, how string) Finding { return selfFinding(kind, p, how) }

// SetFor is setFor (selfpaths.go) for the packs.
func SetFor(cwd string, home string) *protect.Set { return setFor(cwd, home) }

// ShellJoin is shellJoin (selfshared.go) for the packs.
func ShellJoin(args []string) string { return shellJoin(args) }

// Under is under (paths.go) for the packs.
func Under(p string, dir string) bool { return under(p, dir) }

// UserHostRels is userHostRels (selfhosts.go) for the packs.
var UserHostRels = userHostRels

// WrittenBy is writtenBy (selfshared.go) for the packs.
func WrittenBy(c *shell.Cmd) []string { return writtenBy(c) }

// Abs is the abs field of np, for the packs.
func (v np) Abs() string { return v.abs }

// Bypass is the bypass field of nestedHost, for the packs.
func (v nestedHost) Bypass() []string { return v.bypass }

// BypassV is the bypassV field of nestedHost, for the packs.
func (v nestedHost) BypassV() map[string][]string { return v.bypassV }

// Dynamic is the dynamic field of np, for the packs.
func (v np) Dynamic() bool { return v.dynamic }

// EnvOff is the envOff field of nestedHost, for the packs.
func (v nestedHost) EnvOff() []string { return v.envOff }

// HomeKnown is the homeKnown field of np, for the packs.
func (v np) HomeKnown() bool { return v.homeKnown }

// Link is the link field of member, for the packs.
func (v member) Link() string { return v.link }

// Low is the low field of np, for the packs.
func (v np) Low() string { return v.low }

// LowHome is the lowHome field of np, for the packs.
func (v np) LowHome() string { return v.lowHome }

// Name is the name field of member, for the packs.
func (v member) Name() string { return v.name }

// The self-protection rules whose code stays in the core (paths.go, the
// MCP and Write judges read their helpers): packs/self registers them, in
// their place among its own (selfhosts.go, selfinterp.go, selfkill.go).

// RuleHooksOff is ruleHooksOff (selfhosts.go) for packs/self.
func RuleHooksOff(c *shell.Cmd, x *Ctx) (Finding, bool) { return ruleHooksOff(c, x) }

// StarveLimit is starveLimit (selfenvvars.go) for the packs.
func StarveLimit(text string) (string, bool) { return starveLimit(text) }

// RuleSelfPipeServer is ruleSelfPipeServer (selfinterp.go) for packs/self.
func RuleSelfPipeServer(c *shell.Cmd, x *Ctx) (Finding, bool) { return ruleSelfPipeServer(c, x) }

// RuleSelfInterpParts is ruleSelfInterpParts (selfinterp.go) for packs/self.
func RuleSelfInterpParts(c *shell.Cmd, x *Ctx) (Finding, bool) { return ruleSelfInterpParts(c, x) }

// RuleSelfInterpLiterals is ruleSelfInterpLiterals (selfinterp.go) for packs/self.
func RuleSelfInterpLiterals(c *shell.Cmd, x *Ctx) (Finding, bool) {
	return ruleSelfInterpLiterals(c, x)
}

// RuleGuardCLI is ruleGuardCLI (selfkill.go) for packs/self.
func RuleGuardCLI(c *shell.Cmd, x *Ctx) (Finding, bool) { return ruleGuardCLI(c, x) }

// RuleGuardPid is ruleGuardPid (selfkill.go) for packs/self.
func RuleGuardPid(c *shell.Cmd, x *Ctx) (Finding, bool) { return ruleGuardPid(c, x) }

// SelfInCode is selfInCode (selfpaths.go) for the packs.
func SelfInCode(codes []string, cwd, home string, max int) (Finding, string, bool) {
	return selfInCode(codes, cwd, home, max)
}

// DlShown is dlShown (shared.go) for the packs.
var DlShown = dlShown

// PmMode is pmMode (fsperms.go) for the packs.
var PmMode = pmMode

// MCPServerCommands is mcpServerCommands (selfshared.go) for the packs.
func MCPServerCommands(content string) []string { return mcpServerCommands(content) }

// MaybeSecret is pkMaybeSecret (creds_paths.go): text that names no
// secret file's word cannot be one (a cheap test before a full reading).
func MaybeSecret(s string) bool { return pkMaybeSecret(s) }
