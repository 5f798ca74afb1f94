// Package faults holds fault-injection tests that run the real binaries
// (agent-guard serve --headless and agent-guard-hook, built with -tags
// nogui in TestMain) and break things around them: the server killed in
// the middle of a request or hung, the config replaced with garbage while
// requests flow, a truncated cache file, an unwritable audit log, a slow or
// broken remote judge, and 500 hooks at once.
//
// Every test asserts the same three things: every hook answered in the
// host's format, no answer was allow because of the fault, and every audit
// line that was written is whole.
package faults
