package audit

import (
	"testing"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
)

// The redaction patterns compile lazily; this keeps a bad one from shipping.
func TestRedactionPatternsCompile(t *testing.T) {
	if err := lazyre.CheckAll(); err != nil {
		t.Fatal(err)
	}
}
