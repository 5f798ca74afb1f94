package decide

import (
	"context"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/wire"
)

// BenchmarkDecide is the driver's CPU per simple request (git status, an
// allow), without the socket: parse, state, judge, render, audit entry.
func BenchmarkDecide(b *testing.B) {
	cfg := config.Default()
	d := Deps{Judge: judge.New(cfg, judge.Options{Offline: true, Home: "/home/dev"}), Config: func() *config.Config { return cfg }}
	c := call(gitStatus)
	c.Deadline = time.Now().Add(time.Hour)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if r := Decide(context.Background(), c, d); r.Decision != wire.Allow {
			b.Fatal(r.Reason)
		}
	}
}
