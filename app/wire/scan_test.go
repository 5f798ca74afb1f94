package wire

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// scanSeeds are request lines of every shape: the hook's own, and the
// spellings, duplicates, nulls and numbers the fast path leaves to
// encoding/json.
var scanSeeds = []string{
	`{"v":2,"host":"claude","event":{"tool_name":"Bash","tool_input":{"command":"ls"}},"budget_ms":5000}`,
	` {"v":2 , "host" : "zcode","event":{},"budget_ms":1} ` + "\t",
	`{"budget_ms":1,"event":{"a":[1,2.5e-3,true,false,null,"\u00e9\n"]},"host":"codex","v":2}`,
	`{"v":2,"host":"cl\u0061ude","event":{},"budget_ms":1}`,
	`{"v":2,"host":"claude","event":{},"budget_ms":1,"v":2}`,
	`{"V":2,"HOST":"claude","Event":{},"Budget_MS":1}`,
	`{"v":2,"ho\u017ft":"claude","event":{},"budget_ms":1}`,
	`{"v":2.0,"host":"claude","event":{},"budget_ms":1}`,
	`{"v":2,"host":"claude","event":{},"budget_ms":1e3}`,
	`{"v":-0,"host":"claude","event":{},"budget_ms":-1}`,
	`{"v":2,"host":"claude","event":{},"budget_ms":99999999999999999999}`,
	`{"v":2,"host":null,"event":null,"budget_ms":null}`,
	`{"v":2,"host":"claude","event":[],"budget_ms":1}`,
	`{"v":2,"host":"claude","event":{"x":"\ud800"},"budget_ms":1}`,
	`{"v":2,"host":"claude","event":{},"budget_ms":1}{}`,
	`{"v":2,"host":"claude","event":{},"budget_ms":1}x`,
	`{"v":2,"host":"claude","event":{},"budget_ms":1,}`,
	`{"v":2,"host":"claude","event":{"a":01},"budget_ms":1}`,
	`{"v":2,"host":"cla` + "\xff" + `ude","event":{},"budget_ms":1}`,
	`{"v":2,"host":"claude","event":{},"budget_ms":1,"approve":true}`,
	`{}`, `[]`, `null`, ``, `{"v":2`, `{"v":"2"}`,
}

// The fast path reads what encoding/json reads: whenever it answers, the
// strict decoder accepts the line too and gives the same request; and it
// does answer for the hook's own lines.
func FuzzScanRequest(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		checkScanRequest(t, line)
	})
}

func checkScanRequest(t *testing.T, line string) {
	t.Helper()
	fast, ok := scanRequest([]byte(line))
	var slow Request
	err := strictDecode([]byte(line), &slow)
	if !ok {
		return
	}
	if err != nil {
		t.Fatalf("%q: the fast path accepted what encoding/json rejects (%v): %+v", line, err, fast)
	}
	if fast.V != slow.V || fast.Host != slow.Host || fast.BudgetMS != slow.BudgetMS || !bytes.Equal(fast.Event, slow.Event) {
		t.Fatalf("%q: fast %+v, encoding/json %+v", line, fast, slow)
	}
}

func TestScanRequest(t *testing.T) {
	for _, s := range scanSeeds {
		checkScanRequest(t, s)
	}
	// The hook's lines take the fast path, and decode as before.
	for _, r := range []Request{goodRequest(), {V: Version, Host: HostClaude, Event: json.RawMessage(`{"tool_input":{"command":"echo \"<a>\" \u00e9\n"}}`), BudgetMS: MaxBudgetMS}} {
		b, err := EncodeRequest(r)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := scanRequest(bytes.TrimSuffix(b, []byte("\n"))); !ok {
			t.Errorf("the hook's own line %s took the slow path", b)
		}
		checkScanRequest(t, string(b))
	}
	// A line the fast path leaves alone still decodes, with the same values.
	r, err := DecodeRequest([]byte(`{"V":2,"host":"cl\u0061ude","event":{},"budget_ms":7,"budget_ms":8}`))
	if err != nil || r.Host != HostClaude || r.BudgetMS != 8 {
		t.Fatalf("slow path: %+v %v", r, err)
	}
}

func responseSeeds() []Response {
	return []Response{
		{V: Version, Decision: Allow, Reason: "ok", Stdout: "{\"x\":1}\n"},
		{V: Version, Decision: Deny, Reason: "<b>&\u2028\xff\x00", Level: "block", Source: "rules", Rule: "git.x", Stdout: "o", Stderr: "e\n", Code: 2},
		{V: -1, Decision: "", Reason: "", Code: -300},
	}
}

func TestAppendResponseMatchesMarshal(t *testing.T) {
	for _, r := range responseSeeds() {
		checkResponse(t, r)
	}
}

func FuzzAppendResponse(f *testing.F) {
	for _, r := range responseSeeds() {
		f.Add(r.V, r.Decision, r.Reason, r.Level, r.Source, r.Rule, r.Stdout, r.Stderr, r.Code)
	}
	f.Fuzz(func(t *testing.T, v int, decision, reason, level, source, rule, stdout, stderr string, code int) {
		checkResponse(t, Response{V: v, Decision: decision, Reason: reason, Level: level, Source: source, Rule: rule, Stdout: stdout, Stderr: stderr, Code: code})
	})
}

func checkResponse(t *testing.T, r Response) {
	t.Helper()
	want, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if got := appendResponse(nil, &r); string(got) != string(want) {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

// ReadRequest decodes from the pooled read buffer: what it returns must
// not share it. Requests read after it (through both paths, in one piece
// and in several) leave an earlier request as it was.
func TestReadRequestKeepsNothingOfTheBuffer(t *testing.T) {
	line := func(cmd string, slow bool) []byte {
		r := goodRequest()
		r.Event = json.RawMessage(`{"tool_name":"Bash","tool_input":{"command":"` + cmd + `"}}`)
		b, err := EncodeRequest(r)
		if err != nil {
			t.Fatal(err)
		}
		if slow { // a spelling only encoding/json reads
			b = bytes.Replace(b, []byte(`"v":`), []byte(`"V":`), 1)
		}
		return b
	}
	for _, slow := range []bool{false, true} {
		first, err := ReadRequest(bytes.NewReader(line("ls", slow)))
		if err != nil {
			t.Fatal(err)
		}
		want := string(first.Event)
		for _, cmd := range []string{"rm -rf /xx", strings.Repeat("y", 5000)} {
			if _, err := ReadRequest(bytes.NewReader(line(cmd, slow))); err != nil {
				t.Fatal(err)
			}
		}
		if string(first.Event) != want || first.Host != HostZCode {
			t.Fatalf("slow %v: an earlier request changed: %s", slow, first.Event)
		}
	}
}
