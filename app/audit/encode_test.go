package audit

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

// The hand-written encoder must write exactly what encoding/json writes,
// so the log's format does not depend on which one runs.
func TestAppendEntryMatchesMarshal(t *testing.T) {
	ts := time.Date(2026, 12, 2, 3, 4, 5, 123456789, time.UTC)
	cases := []Entry{
		{},
		{TS: ts, Tool: "Bash", Input: "git status", Source: "rule", Level: "allow", Decision: "allow", Decider: "auto", Reason: "read-only", DurationMS: 0.123},
		{TS: ts.In(time.FixedZone("x", 5*3600+1800)), Host: "zcode", Session: "s1", Cwd: "/home/dev/proj", Tool: "Write", Input: `a"b\c`, Source: "api", Rule: "r.x",
			Risk: 2.5, RiskProbs: []float64{0.1, 1e-7, 1e21, 123456789.5, -0.0000001}, Violation: 0.85, Level: "block", Decision: "deny", Decider: "policy",
			Reason: "<script>&amp; \u2028\u2029 \x00\x01\x1f\b\f\n\r\t \x7f", DurationMS: 12345.678, WaitMS: 3, Answer: "allowed once", Approval: ApprovalOnce},
		{TS: ts, Tool: "Bash", Input: "bad utf8 \xff\xfe end \xe2\x82", Reason: "ü 日本 😀", Risk: 3, Violation: 1, DurationMS: 1e-9, WaitMS: math.SmallestNonzeroFloat64},
		{TS: ts, Tool: "x", Risk: 1e20, Violation: 1e-6, DurationMS: 999999999999999999999},
	}
	for i, e := range cases {
		want, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendEntry(nil, &e); string(got) != string(want) {
			t.Errorf("case %d:\n got %s\nwant %s", i, got, want)
		}
	}
}

func FuzzAppendEntryMatchesMarshal(f *testing.F) {
	f.Add("git status", "reason <&>", 0.5, int64(0))
	f.Add("\xff\u2028", "\x00", 1e-300, int64(1700000000123456789))
	f.Fuzz(func(t *testing.T, input, reason string, risk float64, ns int64) {
		if math.IsNaN(risk) || math.IsInf(risk, 0) {
			return
		}
		e := Entry{TS: time.Unix(0, ns).UTC(), Tool: "Bash", Input: input, Reason: reason, Cwd: input, Risk: risk, RiskProbs: []float64{risk}, WaitMS: risk}
		want, err := json.Marshal(e)
		if err != nil {
			return
		}
		if got := appendEntry(nil, &e); string(got) != string(want) {
			t.Errorf("got %s\nwant %s", got, want)
		}
	})
}

// hintsIn must find exactly the redactions whose hints strings.Contains
// finds.
func TestHintsInMatchesContains(t *testing.T) {
	texts := []string{"", "git status", "mysql -pSecret", "curl -H 'Authorization: Bearer x' https://u:p@h/", "myſql -px",
		"export TYPESAFE_API_KEY=sk-abcdefghijklmnopqrstuvwxyz", "ghp_ gho_ ghu_ ghs_ ghr_ github_pat_ glpat- akia asia xox aiza npm_ hf_ pypi- eyj k_live_ k_test_",
		"private key cookie api-key auth-token access-token private-token pass secret token key credential -- :// mariadb", "pas", "k_liv", "-"}
	for _, r := range redactions {
		for _, h := range r.hints {
			if len(h) < 2 {
				t.Errorf("hint %q: hintsIn needs two bytes or more", h)
			}
		}
	}
	for _, s := range texts {
		got := hintsIn(s)
		for i, r := range redactions {
			want := false
			for _, h := range r.hints {
				want = want || strings.Contains(s, h)
			}
			if have := got&(1<<i) != 0; have != want && len(r.hints) > 0 {
				t.Errorf("%q: redaction %d (%v): hintsIn %v, Contains %v", s, i, r.hints, have, want)
			}
		}
	}
}

// lowerHints finds what hintsIn finds in the lower-cased text, whatever
// the case and the bytes (the Kelvin sign K lowers to k: not ASCII, so
// ToLower's path).
func TestLowerHints(t *testing.T) {
	for _, s := range []string{"", "GIT STATUS", "MySQL -pX", "Authorization: BEARER x", "\u212aEY=1", "ſecret TOKEN", "X-API-KEY: 1", "Sk-", "MYſQL", "a\xffToKeN"} {
		checkLowerHints(t, s)
	}
}

func FuzzLowerHints(f *testing.F) {
	f.Add("Authorization: BEARER x \u212aey")
	f.Fuzz(checkLowerHints)
}

func checkLowerHints(t *testing.T, s string) {
	if got, want := lowerHints(s), hintsIn(strings.ToLower(s)); got != want {
		t.Fatalf("%q: lowerHints %b, hintsIn of ToLower %b", s, got, want)
	}
}

// BenchmarkEncode is one audit line of an ordinary allow, as the server
// writes it per call: redaction of its three texts and the encoding.
func BenchmarkEncode(b *testing.B) {
	e := Entry{TS: time.Now(), Host: "zcode", Session: "8c1f7a52-2b1e-4c7e-9a51-0d2b6c1e9f00", Cwd: "/home/dev/proj", Tool: "Bash", Input: "git status",
		Source: "rule", Rule: "git.read", Level: "allow", Decision: "allow", Decider: "auto",
		Reason: "git status only reads the repository: allowed (rule git.read)", DurationMS: 0.412}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := encode(e); err != nil {
			b.Fatal(err)
		}
	}
}
