package rules

import (
	"os"
	"testing"

	"github.com/agent-guard/agent-guard/app/protect"
)

// TestMain keeps the corpora hermetic: the judge protects the guard's
// socket and home wherever the environment puts them, so a guard running
// on the developer's machine (its socket folder /tmp/agent-guard-<uid>
// makes "rm -rf /tmp/*" a self-protection block) or a real config would
// change verdicts. Both point at paths that never exist. Globs are still
// expanded on the real disk: with a guard serving from /tmp/agent-guard-0,
// "rm -rf /tmp/*" rightly matches its socket folder and blocks.
func TestMain(m *testing.M) {
	os.Setenv("AGENT_GUARD_PIPE", "/nonexistent/agent-guard-test/agent-guard.sock")
	os.Setenv("AGENT_GUARD_HOME", "/nonexistent/agent-guard-test/home")
	// No live process decides a case: any test binary of this module
	// counts as the guard, and one may hold a pid a case names.
	protect.ProcRoot = "/nonexistent/agent-guard-test/proc"
	os.Exit(m.Run())
}
