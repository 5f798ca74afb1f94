package judge

import "testing"

// TestRedteam: an independent evaluation corpus (everyday work that must
// pass, bypass forms, red lines) written apart from the rule packs. Each
// line pins the level the judge reached when it was checked by hand, so a
// rule change that moves any of them shows up here.
func TestRedteam(t *testing.T) { runCorpus(t, "testdata/redteam.jsonl", 2000) }
