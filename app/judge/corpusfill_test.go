package judge

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/agent-guard/agent-guard/app/judge/corpus"
)

// fillRules rewrites the corpora, adding the rule the judge decides by to
// every case that names none. Run it after adding cases in bulk, then
// read the diff: a rule that looks wrong is a finding, not a pin.
//
//	go test ./app/judge -run TestCorpusFillRules -fill-rules
//
// -repin-rules also rewrites a pinned rule the judge no longer decides by
// (where the level still holds): for a merge that renamed rules. Read
// every such change in the diff.
var (
	fillRules  = flag.Bool("fill-rules", false, "add the deciding rule to corpus cases without one")
	repinRules = flag.Bool("repin-rules", false, "with -fill-rules: also replace pinned rules the judge no longer decides by")
)

func TestCorpusFillRules(t *testing.T) {
	if !*fillRules {
		t.Skip("rewrites the corpora; run with -fill-rules")
	}
	j := catalogJudge(t)
	files := []string{}
	for _, p := range allCorpora[:2] {
		m, _ := filepath.Glob(p)
		files = append(files, m...)
	}
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		cases, err := corpus.LoadLenient(path)
		if err != nil {
			t.Fatal(err)
		}
		lines := bytes.Split(data, []byte("\n"))
		n := 0
		for _, c := range cases {
			if c.Rule != "" && !*repinRules {
				continue
			}
			v := judgeCase(t, j, c)
			i := c.Line - 1
			l := bytes.TrimRight(lines[i], " \t\r")
			if c.Rule != "" {
				if v.Rule == c.Rule || !c.Accepts(v.Level.String()) {
					continue
				}
				old, _ := json.Marshal(c.Rule)
				now, _ := json.Marshal(v.Rule)
				for _, sep := range []string{`"rule":`, `"rule": `} {
					l = bytes.Replace(l, []byte(sep+string(old)), []byte(sep+string(now)), 1)
				}
				lines[i] = l
				n++
				continue
			}
			if len(l) == 0 || l[len(l)-1] != '}' {
				t.Fatalf("%s: line does not end in }", c.Where())
			}
			rule, _ := json.Marshal(v.Rule)
			add := fmt.Sprintf(`,"rule":%s}`, rule)
			if bytes.Contains(l, []byte(`": `)) {
				add = fmt.Sprintf(`, "rule": %s}`, rule) // the file's spacing
			}
			lines[i] = append(l[:len(l)-1:len(l)-1], add...)
			n++
		}
		if n == 0 {
			continue
		}
		if err := os.WriteFile(path, bytes.Join(lines, []byte("\n")), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d rules added", path, n)
	}
}
