package rules

import (
	"testing"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
)

// Rule patterns compile lazily (hook start-up); this keeps a bad one from shipping.
func TestRulePatternsCompile(t *testing.T) {
	if err := lazyre.CheckAll(); err != nil {
		t.Fatal(err)
	}
}
