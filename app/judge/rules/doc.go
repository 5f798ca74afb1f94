// Package rules gives each simple command, file path and MCP tool a risk
// on the 0-3 ladder and a red-line probability, with a rule id and reason.
//
// # Layering
//
// The package is the core of the judge's rules; packs live in their own
// packages under packs/ (packs/git, packs/ops, ...), each with its code,
// tests and testdata:
//
//	rules            core: registry (Ctx, CmdRule, On, OnAny), Finding,
//	                 the catalog (catalog*.go: every id, with a Where that
//	                 names the file judging it), the Bash driver (bash.go,
//	                 judgeCmd, redirections, the fallback for unknown
//	                 programs), machine state (machine.go), paths and the
//	                 protected-path classifier (paths.go, self*.go), and the
//	                 helpers packs share (packutil.go, api.go)
//	rules/packs/X    one pack: imports rules, registers its rules from init
//	                 with rules.On / rules.OnAny; may call rules.Bash for a
//	                 command it carries (sh -c, ssh, docker exec)
//	rules/packs/all  imports every pack; whoever judges (app/judge, and so
//	                 the hook's fallback binary, the server and the CLI)
//	                 imports it, so the rule set is complete wherever the
//	                 judge runs
//
// Imports go one way: a pack imports the core, never the other way round,
// and packs do not import each other. A file whose helpers the core itself
// needs (the write-path classifier behind redirections, the machine state's
// script readers, the secret-path tables behind paths.go) stays in the core
// until those helpers move out of it.
//
// api.go exports the core helpers a pack needs under capitalised names;
// the core's own files keep the short unexported names, so the move of a
// pack changes nothing in the core but the catalog's Where paths.
//
// Order: for one program name, rules run in registration order, and the
// first of two equally bad findings names the verdict. The core registers
// first (package init), then the packs in the order of their import paths
// (Go initialises the packages packs/all imports sorted by path, the order
// the files had side by side before); the corpus tests pin the rule ids
// this order gives.
//
// Tests of the core that judge whole lines need every pack: all_test.go, an
// external test file, imports packs/all into the core's test binary (an
// internal test file could not: packs import the core). Each pack's
// directory does the same for its own tests.
package rules
