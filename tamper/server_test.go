package tamper_test

import (
	"context"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/pipe"
)

// hostileLimit is how long a hostile line may take end to end: the
// judge's own budget (judge.DefaultBudget, 500 ms) cuts the rules off, so
// what is left is starting the hook (and, without a server, the judge):
// tens of milliseconds natively, up to a second under wine on a loaded
// machine, where 1 s failed three lines by 10-220 ms. A stall (a parser
// that does not stop) would run into the host's timeout, far above this.
const hostileLimit = 2 * time.Second

// hostile are lines built to crash or stall a parser: deep nesting that
// would overflow mvdan.cc/sh's stack (fatal in Go) and forms that were
// slow.
var hostile = map[string]string{
	"200k (":             strings.Repeat("(", 200000),
	"100k nested $(":     strings.Repeat("$(", 100000),
	"100k { ":            strings.Repeat("{ ", 100000),
	"deep quoted $(":     "echo " + strings.Repeat(`"$(`, 60000),
	"deep PowerShell":    "powershell -Command \"" + strings.Repeat("$(", 60000) + "\"",
	"deep backquotes":    "echo " + strings.Repeat("`(", 60000),
	"eval chain":         strings.Repeat("eval ", 20000) + "rm -rf ~",
	"deep [[":            strings.Repeat("[[ ", 50000),
	"deep ${":            strings.Repeat("${a:-", 50000),
	"pwsh script blocks": "powershell -c \"" + strings.Repeat("& { ", 50000) + "\"",
}

// The server survives every hostile line, answers each under one second
// with a deny, and still answers afterwards.
func TestServerSurvivesHostileLines(t *testing.T) {
	e := newEnv(t)
	srv := e.server(t)
	for name, line := range hostile {
		dec, reason, took := e.hook(t, bash(line))
		if dec != "deny" {
			t.Errorf("%s: decision %s (%s), want deny", name, dec, reason)
		}
		if took > hostileLimit {
			t.Errorf("%s: answered in %v, want under %v", name, took, hostileLimit)
		}
		if strings.Contains(reason, "not running") || strings.Contains(reason, "fallback") {
			t.Errorf("%s: answered by the fallback (%s): the server is gone", name, reason)
		}
	}
	// Signal 0 only asks whether the process is still there; reading
	// srv.ProcessState here would race with the reaping goroutine.
	// Windows has no signal 0: there the Dial below shows it alone.
	if runtime.GOOS != "windows" {
		if err := srv.Process.Signal(syscall.Signal(0)); err != nil {
			t.Fatalf("serve exited: %v", err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	c, err := pipe.Dial(ctx, e.pipe)
	if err != nil {
		t.Fatalf("the server no longer answers after the hostile lines: %v", err)
	}
	c.Close()
	if dec, reason, _ := e.hook(t, bash("git status")); dec != "allow" {
		t.Errorf("git status after the hostile lines: %s (%s)", dec, reason)
	}
}

// The hook's in-process fallback (no server) is bounded the same way.
func TestFallbackSurvivesHostileLines(t *testing.T) {
	e := newEnv(t)
	for name, line := range hostile {
		dec, reason, took := e.hook(t, bash(line))
		if dec != "deny" {
			t.Errorf("%s: decision %s (%s), want deny", name, dec, reason)
		}
		if took > hostileLimit {
			t.Errorf("%s: answered in %v, want under %v", name, took, hostileLimit)
		}
	}
}
