package judge

import (
	"testing"

	"github.com/agent-guard/agent-guard/app/judge/corpus"
)

// TestRedteam: an independent evaluation corpus (everyday work that must
// pass, bypass forms, red lines) written apart from the rule packs. Each
// line pins the level the judge reached when it was checked by hand, and
// the rule that decided it, so a rule change that moves any of them shows
// up here.
func TestRedteam(t *testing.T) { runCorpus(t, "testdata/redteam.jsonl", 2000, corpus.Load) }
