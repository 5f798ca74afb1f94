package e2e

import (
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"
)

// Whole-process benchmarks: each iteration execs the built hook on the
// first sample ("git status", an allow), as the host would. They report
// median and p99 per call besides ns/op. scripts/bench-hook.sh runs them.

func reportLatency(b *testing.B, d []time.Duration) {
	if len(d) == 0 {
		return
	}
	sort.Slice(d, func(i, j int) bool { return d[i] < d[j] })
	b.ReportMetric(float64(d[len(d)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(d[(len(d)-1)*99/100].Microseconds())/1000, "p99-ms")
}

func benchHook(b *testing.B, e *env, want string) {
	in := withFields(b, samples(b)[0].Event, map[string]any{"session_id": "bench"})
	var d []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r := e.hook(b, in)
		d = append(d, r.took)
		if got, reason := decision(b, r); got != want {
			b.Fatalf("%s, want %s: %s", got, want, reason)
		}
	}
	b.StopTimer()
	reportLatency(b, d)
}

func BenchmarkHookServerUp(b *testing.B) {
	e := newEnv(b)
	e.server(b)
	benchHook(b, e, "allow")
}

func BenchmarkHookFallback(b *testing.B) {
	benchHook(b, newEnv(b), "allow")
}

// BenchmarkServerConcurrent runs b.N hooks through one server with 1, 10
// and 100 running at once; calls/s is the server's throughput.
func BenchmarkServerConcurrent(b *testing.B) {
	for _, c := range []int{1, 10, 100} {
		b.Run(fmt.Sprintf("hooks=%d", c), func(b *testing.B) {
			e := newEnv(b)
			e.server(b)
			in := withFields(b, samples(b)[0].Event, map[string]any{"session_id": "bench"})
			work := make(chan struct{})
			var mu sync.Mutex
			var d []time.Duration
			var wg sync.WaitGroup
			b.ResetTimer()
			t0 := time.Now()
			for w := 0; w < c; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range work {
						r := e.hook(b, in, "--dial-timeout", "5s")
						if got, _ := decision(b, r); got != "allow" {
							b.Errorf("got %s", got)
						}
						mu.Lock()
						d = append(d, r.took)
						mu.Unlock()
					}
				}()
			}
			for i := 0; i < b.N; i++ {
				work <- struct{}{}
			}
			close(work)
			wg.Wait()
			el := time.Since(t0)
			b.StopTimer()
			reportLatency(b, d)
			b.ReportMetric(float64(b.N)/el.Seconds(), "calls/s")
		})
	}
}
