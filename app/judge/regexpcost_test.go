package judge

import (
	"testing"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
)

// maxRegexpInsts bounds every rule's compiled expression. A bounded
// repeat such as .{0,1000} compiles into thousands of instructions by a
// recursion that grew the fallback process's stack to a megabyte: the
// hook's fallback (a fresh process per call) spent about a third of its
// CPU in stack copies and page faults for one such pattern, compiled on
// the first Bash line. Write an unbounded repeat and cut the input in
// code where a length matters.
const maxRegexpInsts = 600

// Every pattern of the rules and packs (this package links them all) is
// held to the budget, compiled or not.
func TestRegexpProgramsStaySmall(t *testing.T) {
	stats, err := lazyre.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if len(stats) < 20 {
		t.Fatalf("only %d lazy patterns registered: the rules' packages are not linked into this test", len(stats))
	}
	for _, s := range stats {
		if s.Insts > maxRegexpInsts {
			t.Errorf("pattern compiles to %d instructions (budget %d), too costly for a process that compiles it per call: %.120s", s.Insts, maxRegexpInsts, s.Pattern)
		}
	}
}
