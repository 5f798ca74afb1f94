package main

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Every hook fallback starts this binary, and the package inits of our
// own code run before it reads a byte: tables built there (maps of a
// thousand names, compiled regexps) are paid on every call, used or not.
// The budget is what our packages' inits may allocate in total, read
// from the built binary's GODEBUG=inittrace=1; build lookups on first
// use (sync.OnceValue, lazyre.New, rules' registry) rather than raise it.
// Measured at the time of writing: ~205 KB, ~1,050 allocations.
const (
	initBytesBudget  = 300 << 10
	initAllocsBudget = 1500
	ourModule        = "github.com/agent-guard/agent-guard/"
)

func TestInitAllocationBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gobin); err != nil {
		gobin = "go"
	}
	bin := filepath.Join(t.TempDir(), "agent-guard-judge")
	build := exec.Command(gobin, "build", "-tags", "nogui", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// No verb: it prints its usage and exits 2, after every init has run.
	run := exec.Command(bin)
	run.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	run.Stderr = &stderr
	run.Run()

	type pkg struct {
		name          string
		bytes, allocs int
	}
	var ours []pkg
	var total pkg
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init github.com/.../rules @5.6 ms, 0.50 ms clock, 362008 bytes, 534 allocs
		f := strings.Fields(sc.Text())
		if len(f) < 10 || f[0] != "init" || !strings.HasPrefix(f[1], ourModule) {
			continue
		}
		b, err1 := strconv.Atoi(f[7])
		a, err2 := strconv.Atoi(f[9])
		if err1 != nil || err2 != nil || f[8] != "bytes," || f[10] != "allocs" {
			t.Fatalf("cannot read inittrace line %q", sc.Text())
		}
		p := pkg{strings.TrimPrefix(f[1], ourModule), b, a}
		ours = append(ours, p)
		total.bytes += b
		total.allocs += a
	}
	if len(ours) < 10 {
		t.Fatalf("inittrace named %d of our packages; output:\n%s", len(ours), stderr.String())
	}
	t.Logf("our packages' init: %d bytes, %d allocs in %d packages", total.bytes, total.allocs, len(ours))
	if total.bytes <= initBytesBudget && total.allocs <= initAllocsBudget {
		return
	}
	sort.Slice(ours, func(i, j int) bool { return ours[i].bytes > ours[j].bytes })
	var top strings.Builder
	for _, p := range ours[:min(8, len(ours))] {
		fmt.Fprintf(&top, "\n  %s: %d bytes, %d allocs", p.name, p.bytes, p.allocs)
	}
	t.Errorf("our packages' init allocates %d bytes in %d allocs (budget %d bytes, %d allocs), paid by every hook fallback; the largest:%s",
		total.bytes, total.allocs, initBytesBudget, initAllocsBudget, top.String())
}
