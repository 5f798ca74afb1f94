package server

import (
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/audit"
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

// BenchmarkServerSimpleRequest is the server's cost per simple request as
// serve --headless runs it: the real judge (offline), the real audit log
// in a temp folder, one client at a time over a real socket. Profile it
// with -cpuprofile to see where the server's time goes.
func BenchmarkServerSimpleRequest(b *testing.B) {
	j := judge.New(config.Default(), judge.Options{Offline: true})
	w, err := audit.Open(filepath.Join(b.TempDir(), "audit.jsonl"))
	if err != nil {
		b.Fatal(err)
	}
	defer w.Close()
	path, stop := serve(b, Deps{Judge: j, Audit: w})
	defer stop()
	req := request("git status", "", time.Minute)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if r, err := roundTrip(path, req, time.Minute); err != nil || r.Decision != wire.Allow {
			b.Fatalf("%+v %v", r, err)
		}
	}
}
