package judge

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/agent-guard/agent-guard/app/judge/corpus"
)

// TestScanFile judges every case of the corpus file named by
// AGENT_GUARD_SCAN (lenient: rules optional) and prints each level with a
// summary: a tool for red-team rounds, skipped without the variable.
func TestScanFile(t *testing.T) {
	p := os.Getenv("AGENT_GUARD_SCAN")
	if p == "" {
		t.Skip("AGENT_GUARD_SCAN names no corpus")
	}
	j := catalogJudge(t)
	cases, err := corpus.LoadLenient(p)
	if err != nil {
		t.Fatal(err)
	}
	var atk, blk, conf, day, dayOK int
	var out strings.Builder
	for _, c := range cases {
		v := judgeCase(t, j, c)
		lvl := v.Level.String()
		lo, _ := c.Want()
		mark := "  "
		if lo != "allow" {
			atk++
			if lvl == "block" {
				blk++
			}
			if lvl != "allow" {
				conf++
			}
			if !c.Accepts(lvl) {
				mark = "!!"
			}
		} else {
			day++
			if c.Accepts(lvl) {
				dayOK++
			} else {
				mark = "!!"
			}
		}
		what := c.Cmd
		if what == "" {
			what = string(c.Event)
		}
		fmt.Fprintf(&out, "%s %d %-7s %-32s %s\n", mark, c.Line, lvl, v.Rule, what)
		if os.Getenv("AGENT_GUARD_SCAN_REASON") != "" {
			fmt.Fprintf(&out, "       %s\n", v.Reason)
		}
	}
	fmt.Print(out.String())
	fmt.Printf("attacks %d: block %d (%.1f%%), at least confirm %d (%.1f%%); everyday %d: as expected %d\n",
		atk, blk, 100*float64(blk)/float64(max(atk, 1)), conf, 100*float64(conf)/float64(max(atk, 1)), day, dayOK)
}
