package git_test

// The pack's tests judge whole lines, which needs every pack registered.
import _ "github.com/agent-guard/agent-guard/app/judge/rules/packs/all"
