package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/agent-guard/agent-guard/app/hostproto"
)

// hostProbe is one line of testdata/hostprobes.jsonl (written by
// testdata/genprobes.py): a call in one host's own event shape.
type hostProbe struct {
	Host  string          `json:"host"`
	Name  string          `json:"name"`
	Kind  string          `json:"kind"` // attack: the host must deny it; everyday: allow
	Event json.RawMessage `json:"event"`
	// Known names a gap this suite documents but does not fail on.
	Known string `json:"known,omitempty"`
}

// TestHostProbes feeds the same attacks and everyday calls to the real
// hook in every host's dialect (no server: the hook's fallback judge) and
// reads the answer as that host would. Run with -v for the per-host
// table (attacks denied, everyday calls allowed).
func TestHostProbes(t *testing.T) {
	t.Parallel()
	f, err := os.Open("testdata/hostprobes.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var probes []hostProbe
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var p hostProbe
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("%s: %v", sc.Text(), err)
		}
		probes = append(probes, p)
	}
	if len(probes) < 150 {
		t.Fatalf("%d probes", len(probes))
	}
	e := newEnv(t)
	type tally struct{ attacks, denied, blocked, everyday, allowed int }
	var mu sync.Mutex
	tallies := map[string]*tally{}
	var failures []string
	sem := make(chan struct{}, 2)
	var wg sync.WaitGroup
	for _, p := range probes {
		h, ok := hostproto.Lookup(p.Host)
		if !ok {
			t.Fatalf("unknown host %q", p.Host)
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			r := e.hook(t, p.Event, "--host", h.Name, "--deadline", "60s")
			got, reason, herr := h.HostDecision(hostproto.Output{Stdout: []byte(r.stdout), Stderr: []byte(r.stderr), Code: r.code})
			mu.Lock()
			defer mu.Unlock()
			tl := tallies[p.Host]
			if tl == nil {
				tl = &tally{}
				tallies[p.Host] = tl
			}
			if os.Getenv("HOSTPROBE_DUMP") != "" {
				level := got
				if got == hostproto.Deny && !strings.Contains(reason, "blocked") {
					level = "deny(confirm)"
				}
				t.Logf("RESULT\t%s\t%s\t%s\t%s", p.Name, p.Host, p.Kind, level)
			}
			bad := ""
			switch p.Kind {
			case "attack":
				tl.attacks++
				if got == hostproto.Deny {
					tl.denied++
					if strings.Contains(reason, "blocked") {
						tl.blocked++
					} else if testing.Verbose() {
						t.Logf("%s %s: denied, not blocked: %s", p.Host, p.Name, firstLine(reason))
					}
				} else {
					bad = "let through"
				}
			case "everyday":
				tl.everyday++
				if got == hostproto.Allow && herr == nil {
					tl.allowed++
				} else {
					bad = "refused"
				}
			default:
				t.Errorf("%s %s: kind %q", p.Host, p.Name, p.Kind)
			}
			switch {
			case bad != "" && p.Known != "":
				t.Logf("known gap: %s %s: %s (%s): %s", p.Host, p.Name, bad, got, p.Known)
			case bad != "":
				failures = append(failures, fmt.Sprintf("%s %s: %s (%s %v): %s", p.Host, p.Name, bad, got, herr, firstLine(reason)))
			case p.Known != "":
				failures = append(failures, fmt.Sprintf("%s %s: passes now: drop its known gap (%s)", p.Host, p.Name, p.Known))
			}
		}()
	}
	wg.Wait()
	var hosts []string
	for h := range tallies {
		hosts = append(hosts, h)
	}
	sort.Strings(hosts)
	var sum tally
	var b strings.Builder
	fmt.Fprintf(&b, "%-12s %s\n", "host", "attacks denied (blocked) | everyday allowed")
	for _, h := range hosts {
		tl := tallies[h]
		fmt.Fprintf(&b, "%-12s %3d/%-3d (%3d)          | %3d/%-3d\n", h, tl.denied, tl.attacks, tl.blocked, tl.allowed, tl.everyday)
		sum.attacks += tl.attacks
		sum.denied += tl.denied
		sum.blocked += tl.blocked
		sum.everyday += tl.everyday
		sum.allowed += tl.allowed
	}
	fmt.Fprintf(&b, "%-12s %3d/%-3d (%3d)          | %3d/%-3d\n", "total", sum.denied, sum.attacks, sum.blocked, sum.allowed, sum.everyday)
	t.Log("\n" + b.String())
	sort.Strings(failures)
	for _, f := range failures {
		t.Error(f)
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return s
}
