// Package rules gives each simple command, file path and MCP tool a risk
// on the 0-3 ladder and a red-line probability, with a rule id and reason.
//
// # Layering
//
// This package is the core; the packs live in packages of their own under
// packs/ (packs/git, packs/cloud, ...), each with its code and its tests:
//
//	rules              the core:
//	                   - registry.go: Ctx, CmdRule, Pack (NewPack, On,
//	                     OnAny) and the order rules run in
//	                   - finding.go, the catalog (catalog*.go: every id,
//	                     with a Where naming the file that judges it)
//	                   - the Bash driver: bash.go (judgeCmd, redirections,
//	                     the shell builtins baseline), dynamic.go,
//	                     helpforms.go, dryrun.go (unknown destroy verbs),
//	                     payload.go (commands carried inside ssh, docker
//	                     exec, base64 | sh: judged again by Bash)
//	                   - machine.go and what it reads from disk:
//	                     fsdisk.go, interp_files.go, interp_recipes.go
//	                   - the write-path classifier shared by Write,
//	                     redirections, tee and the packs: paths.go, fs*.go,
//	                     remotecopy.go
//	                   - secret paths: creds_paths.go, creds_dest.go
//	                   - self-protection's paths and the helpers the core
//	                     reads too: self{paths,hosts,env,envvars,disk,
//	                     interp,kill,shared}.go (paths.go and finding.go
//	                     consult them); the self rules are packs/self
//	                   - the MCP judge: mcp.go, fswrite_mcp.go
//	                   - helpers packs share: packutil.go, shared.go
//	                   - api.go: the pack API, below
//	rules/packs/X      one pack: pack.go makes its handle
//	                   (rules.NewPack("X")), and its files register their
//	                   rules from init with pack.On / pack.OnAny
//	rules/packs/all    imports every pack; app/judge imports it, so the rule
//	                   set is complete wherever the judge runs (the hook's
//	                   fallback binary, the server, the CLI, the tests)
//	rules/rulestest    what the packs' tests share (Level)
//
// Imports go one way: a pack imports the core, never the other way round.
// A pack may import another pack whose judge it reuses (cloud and interp
// use packs/db's SQL judge, creds and cloud packs/containers' readers,
// interp and sysfiles packs/creds', git packs/codeopts'); such a pack
// exports what it lends in its export.go. A helper that the core itself
// needs stays in the core (or moved there from the pack file that first had
// it: shared.go), which is why the core still holds the files listed above.
// A rule file added to the core registers with on(...) and runs after
// every pack's rules (Order, below); moving it into its pack puts it back
// among its kin.
//
// api.go exports the core helpers a pack needs under capitalised names
// (pkLowOps as PkLowOps, listing.targets as the method Targets()); the
// core's own files keep the short unexported names, so moving a pack out
// changed nothing in the core's code. A helper a pack starts to need gets
// its twin there.
//
// # Order
//
// For one program name, and among the any-command rules, the packs' rules
// run first, in the order of the packs' names (then of their files and
// registrations), then the core's own. The first of two equally bad
// findings names the verdict, so this order is behaviour, and the corpus
// tests pin the rule ids it gives. The registry keeps it whatever order Go
// initialises the packs in (a pack that imports another initialises after
// it). packs/self registers a few rules whose code stays in the core
// (ruleHooksOff, the selfinterp and selfkill rules) from files named like
// theirs, so they keep their place among the self-protection rules.
//
// # Tests
//
// The core's tests that judge whole lines need every pack: all_test.go, an
// external test file, links packs/all into the core's test binary (an
// internal test file could not import it: the packs import this package).
// A pack whose tests judge whole lines does the same. The corpora
// (testdata/*.jsonl here and in app/judge) stay where they are: they judge
// whole lines across packs.
package rules
