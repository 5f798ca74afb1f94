package judge

import (
	"os"
	"strings"
	"testing"

	"github.com/agent-guard/agent-guard/app/judge/rules"
)

func TestZZScratch(t *testing.T) {
	j := catalogJudge(t)
	for _, c := range strings.Split(os.Getenv("ZZ"), "\n") {
		if c == "" {
			continue
		}
		v := judgeExample(t, j, rules.Example{Command: c})
		t.Logf("%-60s %s %s %s", c, v.Level, v.Rule, v.Reason)
	}
}
