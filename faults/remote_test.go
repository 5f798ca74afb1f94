//go:build linux

package faults

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// testKey is the API key the children get; it must never reach a log.
const testKey = "ts-test-key-6f1d9c0e5b7a4d21"

type remoteMode string

const (
	modeGood      remoteMode = "good"      // a low-risk answer
	modeSlow      remoteMode = "slow"      // answers after the client's timeout
	mode500       remoteMode = "500"       // internal server error
	mode503       remoteMode = "503"       // overloaded
	modeMalformed remoteMode = "malformed" // not JSON
	modeWrongJSON remoteMode = "wrongjson" // JSON without the answers
	modeEmpty     remoteMode = "empty"     // 200 with no body
	modeHalf      remoteMode = "half"      // the body stops in the middle
	modeRange     remoteMode = "range"     // scores outside their ranges
)

// fakeTypeSafe is an httptest stand-in for the TypeSafe System One endpoint.
type fakeTypeSafe struct {
	*httptest.Server
	hits    atomic.Int64
	badAuth atomic.Int64
}

func newFakeTypeSafe(t testing.TB, mode remoteMode) *fakeTypeSafe {
	f := &fakeTypeSafe{}
	f.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.hits.Add(1)
		io.Copy(io.Discard, io.LimitReader(r.Body, 1<<20))
		if r.Header.Get("Authorization") != "Bearer "+testKey {
			f.badAuth.Add(1)
		}
		w.Header().Set("Content-Type", "application/json")
		switch mode {
		case modeGood:
			fmt.Fprint(w, `{"answers":{"destructive_risk":{"score":0.1,"probs":[0.9,0.1,0,0]},"policy_violation":{"noul":0.01}}}`)
		case modeSlow:
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
			fmt.Fprint(w, `{"answers":{"destructive_risk":{"score":0.1},"policy_violation":{"noul":0.01}}}`)
		case mode500:
			http.Error(w, "internal error", http.StatusInternalServerError)
		case mode503:
			http.Error(w, "overloaded", http.StatusServiceUnavailable)
		case modeMalformed:
			fmt.Fprint(w, `<html>not json</html>`)
		case modeWrongJSON:
			fmt.Fprint(w, `{"result":"ok"}`)
		case modeEmpty:
		case modeHalf:
			fmt.Fprint(w, `{"answers":{"destructive_risk":{"score":0.`)
		case modeRange:
			fmt.Fprint(w, `{"answers":{"destructive_risk":{"score":-7},"policy_violation":{"noul":-1}}}`)
		}
	}))
	t.Cleanup(f.Close)
	return f
}

// useRemote points the sandbox's config at the fake and gives the
// children an API key.
func (sb *sandbox) useRemote(f *fakeTypeSafe) {
	sb.writeConfig(map[string]any{
		"typesafe": map[string]any{"endpoint": f.URL + "/v1/systemone", "timeout_ms": 1000},
	})
	sb.setEnv("TYPESAFE_API_KEY", testKey)
}

// greyEvents are calls the local rules cannot settle: programs they do not
// know, doing something that may or may not be harmless. They go to the
// remote judge, and any failure of it must mean confirm.
func greyEvents() []sample {
	cmds := []string{
		"acme-sync --target staging",
		"./tools/migrate-db --apply",
		"frobnicate --all",
	}
	var out []sample
	for _, c := range cmds {
		ev, _ := json.Marshal(map[string]any{
			"hook_event_name": "PreToolUse",
			"tool_name":       "Bash",
			"tool_input":      map[string]any{"command": c},
			"cwd":             "/home/dev/proj",
		})
		out = append(out, sample{Expect: "confirm", Event: ev})
	}
	return out
}

// TestRemoteJudgeFaults: a slow, failing or lying remote judge never turns
// a grey-zone call into allow, the known cases keep their decisions, and
// the API key reaches no log.
func TestRemoteJudgeFaults(t *testing.T) {
	all := loadSamples(t)
	grey := greyEvents()
	modes := []remoteMode{modeSlow, mode500, mode503, modeMalformed, modeWrongJSON, modeEmpty, modeHalf, modeRange}
	for _, mode := range modes {
		t.Run(string(mode), func(t *testing.T) {
			f := newFakeTypeSafe(t, mode)
			sb := newSandbox(t)
			sb.useRemote(f)
			sb.startServer()
			for _, s := range grey {
				check(t, "remote "+string(mode), s, sb.runHook(s.Event), false)
			}
			// A known case the local rules settle keeps its decision; one
			// they do not settle goes to the remote judge too and may
			// become a confirm, never an allow.
			for _, s := range all {
				check(t, "remote "+string(mode)+", known case", s, sb.runHook(s.Event), false)
			}
			if f.hits.Load() == 0 {
				t.Errorf("no call reached the remote judge; the grey-zone events of this test are settled locally and need replacing")
			}
			if f.badAuth.Load() > 0 {
				t.Errorf("%d requests to the remote judge lacked 'Authorization: Bearer <key>'", f.badAuth.Load())
			}
			sb.stopServer(syscall.SIGTERM)
			assertNoKey(t, sb)
		})
	}
	t.Run("good answer is used", func(t *testing.T) {
		f := newFakeTypeSafe(t, modeGood)
		sb := newSandbox(t)
		sb.useRemote(f)
		sb.startServer()
		allowed := 0
		for _, s := range grey {
			a := sb.runHook(s.Event)
			if a.Err != nil {
				t.Errorf("%s: %s", s.Event, a)
			}
			if a.Decision == "allow" {
				allowed++
			}
		}
		if f.hits.Load() == 0 {
			t.Errorf("no call reached the remote judge")
		}
		// The control for the fault modes: the same calls are allowed when
		// the remote judge answers low risk, so their confirm above came
		// from the fault.
		if allowed == 0 {
			t.Errorf("no grey-zone call was allowed on a low-risk remote answer")
		}
		sb.stopServer(syscall.SIGTERM)
		assertNoKey(t, sb)
	})
}

// assertNoKey fails when the API key shows up in the server's output, the
// audit log or the cache.
func assertNoKey(t *testing.T, sb *sandbox) {
	t.Helper()
	if sb.srvErr != nil && strings.Contains(sb.srvErr.String(), testKey) {
		t.Errorf("the API key appears in the server's output")
	}
	for _, p := range append([]string{sb.path("audit.jsonl")}, cacheFiles(t, sb)...) {
		b, err := os.ReadFile(p)
		if err == nil && strings.Contains(string(b), testKey) {
			t.Errorf("the API key appears in %s", p)
		}
	}
}

// TestRemoteJudgeInFallback: with no server, the hook's fallback judge
// (agent-guard-judge, which links no HTTP client) asks the remote judge
// through `agent-guard remote-judge`: a low-risk answer is used, a
// failing or lying remote judge never turns a grey-zone call into allow,
// and the key reaches no log or cache.
func TestRemoteJudgeInFallback(t *testing.T) {
	grey := greyEvents()
	for _, mode := range []remoteMode{modeGood, modeSlow, mode500, modeMalformed, modeRange} {
		t.Run(string(mode), func(t *testing.T) {
			f := newFakeTypeSafe(t, mode)
			sb := newSandbox(t)
			sb.useRemote(f)
			allowed := 0
			for _, s := range grey {
				a := sb.runHook(s.Event)
				if mode != modeGood {
					check(t, "fallback, remote "+string(mode), s, a, false)
				} else if a.Err != nil {
					t.Errorf("%s: %s", s.Event, a)
				}
				if a.Decision == "allow" {
					allowed++
				}
			}
			if f.hits.Load() == 0 {
				t.Errorf("no call reached the remote judge from the fallback")
			}
			if f.badAuth.Load() > 0 {
				t.Errorf("%d requests to the remote judge lacked 'Authorization: Bearer <key>'", f.badAuth.Load())
			}
			// The control: the same calls are allowed on a low-risk answer,
			// so the fault modes' confirms came from the fault.
			if mode == modeGood && allowed == 0 {
				t.Errorf("no grey-zone call was allowed on a low-risk remote answer in the fallback")
			}
			for _, l := range sb.auditLines() {
				if l["source"] != "fallback" {
					t.Errorf("audit line from %v, want the fallback: %v", l["source"], l)
				}
			}
			assertNoKey(t, sb)
		})
	}
}
