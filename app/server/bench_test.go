package server

import (
	"fmt"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/wire"
)

// BenchmarkServerRoundTrip measures the server alone, in calls/s (no hook process
// start-up): real judge, real socket, 1, 10 and 100 clients at once.
func BenchmarkServerRoundTrip(b *testing.B) {
	j := judge.New(config.Default(), judge.Options{Offline: true})
	for _, c := range []int{1, 10, 100} {
		b.Run(fmt.Sprintf("clients=%d", c), func(b *testing.B) {
			path, stop := serve(b, Deps{Judge: j, Audit: &memAudit{}})
			defer stop()
			req := request("git status", "", time.Minute)
			b.SetParallelism((c + 1) / 2) // RunParallel runs GOMAXPROCS*p goroutines
			b.ResetTimer()
			t0 := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					r, err := roundTrip(path, req, time.Minute)
					if err != nil || r.Decision != wire.Allow {
						b.Errorf("%+v %v", r, err)
						return
					}
				}
			})
			b.ReportMetric(float64(b.N)/time.Since(t0).Seconds(), "calls/s")
		})
	}
}
