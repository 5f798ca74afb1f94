package rules

import (
	"os"
	"strings"
	"testing"
)

func TestZZScratch(t *testing.T) {
	for _, l := range strings.Split(os.Getenv("ZZ"), "\n") {
		if l == "" {
			continue
		}
		parts := strings.SplitN(l, "|", 3)
		f := Bash(parts[2], parts[0], parts[1])
		t.Logf("%-40q cwd=%s home=%s -> %s %s r=%.1f v=%.2f %s", parts[2], parts[0], parts[1], levelOf(f), f.Rule, f.Risk, f.Violation, f.Reason)
	}
}
