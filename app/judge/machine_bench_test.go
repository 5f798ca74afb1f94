package judge

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/judge/disk"
	"github.com/agent-guard/agent-guard/app/judge/disk/disktest"
	"github.com/agent-guard/agent-guard/app/judge/session"
)

// BenchmarkMachineState judges calls that need disk state on a real git
// repository of 10,000 files (built once in a temp folder) and reports
// the p99 per call next to the mean. The "no-state" case is a call that
// needs nothing from the disk: it must cost what it did before.
//
//	go test -run '^$' -bench MachineState -benchtime 2000x ./app/judge
func BenchmarkMachineState(b *testing.B) {
	r := disktest.NewRepo(b)
	for d := 0; d < 100; d++ {
		for f := 0; f < 100; f++ {
			p := filepath.Join(r.Dir, "src", fmt.Sprintf("d%02d", d), fmt.Sprintf("f%02d.js", f))
			os.MkdirAll(filepath.Dir(p), 0o755)
			os.WriteFile(p, []byte("export const x = 1\n"), 0o644)
		}
	}
	r.Write("package.json", `{"scripts":{"build":"tsc -p ."}}`)
	r.Write("deploy.sh", "#!/bin/sh\necho deploying\n")
	r.Commit("init")
	r.Write("notes.txt", "untracked\n")
	l := disk.New(0)
	l.Temp = nil
	j := New(nil, Options{Offline: true, Home: "/home/nobody", Disk: l, Sessions: session.Open(filepath.Join(b.TempDir(), "sessions"), time.Hour)})
	text := New(nil, Options{Offline: true, Home: "/home/nobody"})
	cases := []struct {
		name, cmd string
		j         *Judge
	}{
		{"no-state/text-judge", "git status && go test ./...", text},
		{"no-state/machine-judge", "git status && go test ./...", j},
		{"rm-tracked-file", "rm src/d01/f01.js", j},
		{"rm-untracked-file", "rm notes.txt", j},
		{"rm-rf-dir-100-files", "rm -rf src/d07", j},
		{"find-delete-100-of-10000", "find src -name 'f07.js' -delete", j},
		{"bash-script", "bash deploy.sh", j},
		{"npm-run-build", "npm run build", j},
		{"rm-rf-all-10000-files", "rm -rf src", j},
	}
	ctx := context.Background()
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			s := State{Tool: "Bash", Command: c.cmd, Cwd: r.Dir, Session: "bench"}
			c.j.Judge(ctx, s) // warm the repo cache, as a running server has it
			times := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				c.j.Judge(ctx, s)
				times = append(times, time.Since(t0))
			}
			b.StopTimer()
			sort.Slice(times, func(i, k int) bool { return times[i] < times[k] })
			p99 := times[len(times)*99/100]
			b.ReportMetric(float64(p99.Microseconds())/1000, "p99-ms")
			b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
		})
	}
}
