package judge

import (
	"context"
	"testing"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/judge/corpus"
)

// BenchmarkLocalMixed judges a mixed batch (Bash, Write, Edit, MCP, the
// samples and the corpus) offline and reports events per second. Run with
// -cpu 1 for the single-core figure.
func BenchmarkLocalMixed(b *testing.B) {
	b.Setenv(config.HomeEnv, b.TempDir())
	var states []State
	for _, path := range []string{samplesPath, "testdata/corpus.jsonl"} {
		cases, err := corpus.LoadLenient(path)
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range cases {
			e, err := ParseEvent(c.EventJSON())
			if err != nil {
				b.Fatal(err)
			}
			s, err := StateFromEvent(e)
			if err != nil {
				b.Fatal(err)
			}
			states = append(states, s)
		}
	}
	j := New(config.Default(), Options{Offline: true, Home: "/home/dev"})
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		j.Judge(ctx, states[i%len(states)])
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "events/s")
}
