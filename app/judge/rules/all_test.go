package rules_test

// The core's tests judge whole lines, which needs every pack registered:
// this external test file links them into the test binary (an internal
// test file cannot import them: the packs import this package).
import _ "github.com/agent-guard/agent-guard/app/judge/rules/packs/all"
