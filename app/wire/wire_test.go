package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

func goodRequest() Request {
	return Request{V: Version, Host: HostZCode, Event: json.RawMessage(`{"tool_name":"Bash",
  "tool_input":{"command":"ls"}}`), BudgetMS: 5000}
}

func TestRequestRoundTrip(t *testing.T) {
	b, err := EncodeRequest(goodRequest())
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Count(b, []byte("\n")) != 1 || b[len(b)-1] != '\n' {
		t.Fatalf("frame must be exactly one line: %q", b)
	}
	r, err := ReadRequest(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if r.Host != HostZCode || r.BudgetMS != 5000 || string(r.Event) != `{"tool_name":"Bash","tool_input":{"command":"ls"}}` {
		t.Fatalf("round trip: %+v", r)
	}
}

func TestDecodeRequestRejects(t *testing.T) {
	cases := map[string]string{
		"version 1":     `{"v":1,"host":"zcode","event":{},"budget_ms":1}`,
		"version 0":     `{"host":"zcode","event":{},"budget_ms":1}`,
		"unknown field": `{"v":2,"host":"zcode","event":{},"budget_ms":1,"approve":true}`,
		"unknown host":  `{"v":2,"host":"vim","event":{},"budget_ms":1}`,
		"event array":   `{"v":2,"host":"zcode","event":[],"budget_ms":1}`,
		"no event":      `{"v":2,"host":"zcode","budget_ms":1}`,
		"no budget":     `{"v":2,"host":"zcode","event":{}}`,
		"huge budget":   `{"v":2,"host":"zcode","event":{},"budget_ms":99999999999}`,
		"trailing":      `{"v":2,"host":"zcode","event":{},"budget_ms":1}{}`,
		"not json":      `hello`,
		"empty":         ``,
	}
	for name, line := range cases {
		if _, err := DecodeRequest([]byte(line)); err == nil {
			t.Errorf("%s: accepted %s", name, line)
		}
	}
	if _, err := DecodeRequest([]byte(`{"v":2,"host":"claude","event":{},"budget_ms":1}`)); err != nil {
		t.Errorf("minimal request rejected: %v", err)
	}
}

func TestResponse(t *testing.T) {
	for _, d := range []string{Allow, Ask, Deny} {
		b, err := EncodeResponse(Response{V: Version, Decision: d, Reason: "r"})
		if err != nil {
			t.Fatal(err)
		}
		r, err := ReadResponse(bytes.NewReader(b))
		if err != nil || r.Decision != d {
			t.Fatalf("%s: %+v %v", d, r, err)
		}
	}
	for _, line := range []string{
		`{"v":2,"decision":"approve","reason":"r"}`,
		`{"v":2,"decision":"allow"}`,
		`{"v":2,"decision":"allow","reason":"r","extra":1}`,
		`{"v":3,"decision":"deny","reason":"r"}`,
		`{"v":1,"decision":"deny","reason":"r"}`,
		`{"v":2,"decision":"deny","reason":"r","stdout":"","code":256}`,
	} {
		if _, err := DecodeResponse([]byte(line)); err == nil {
			t.Errorf("accepted %s", line)
		}
	}
	// An over-long reason is cut before rendering, so reason and output fit.
	long := CutReason(strings.Repeat("é", MaxResponse))
	if len(long) > MaxReason+len("…") {
		t.Fatalf("CutReason left %d bytes", len(long))
	}
	b, err := EncodeResponse(Response{V: Version, Decision: Deny, Reason: long, Stdout: `{"x":"` + long + `"}` + "\n", Code: 0})
	if err != nil || len(b) > MaxResponse {
		t.Fatalf("long reason: %d bytes, %v", len(b), err)
	}
	if _, err := DecodeResponse(b[:len(b)-1]); err != nil {
		t.Fatalf("cut reason does not decode: %v", err)
	}
}

func TestReadLineLimits(t *testing.T) {
	big := bytes.Repeat([]byte("a"), MaxResponse+10)
	if _, err := ReadLine(bytes.NewReader(append(big, '\n')), MaxResponse); !errors.Is(err, ErrTooLarge) {
		t.Errorf("oversized line: %v", err)
	}
	if _, err := ReadLine(bytes.NewReader([]byte(`{"v":2`)), MaxResponse); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("cut line: %v", err)
	}
	if _, err := ReadLine(bytes.NewReader(nil), MaxResponse); !errors.Is(err, io.EOF) {
		t.Errorf("empty: %v", err)
	}
	exact := bytes.Repeat([]byte("b"), 10000)
	got, err := ReadLine(bytes.NewReader(append(exact, '\n', 'x')), 10000)
	if err != nil || !bytes.Equal(got, exact) {
		t.Errorf("line at the limit: %d bytes, %v", len(got), err)
	}
	if _, err := EncodeRequest(Request{V: Version, Host: HostZCode, BudgetMS: 1, Event: json.RawMessage(`{"a":"` + strings.Repeat("x", MaxRequest) + `"}`)}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("oversized request encoded: %v", err)
	}
}

func FuzzDecodeRequest(f *testing.F) {
	for _, s := range []string{
		`{"v":2,"host":"zcode","event":{"tool_name":"Bash","tool_input":{"command":"ls"}},"budget_ms":5000}`,
		`{"v":2,"host":"claude","event":{},"budget_ms":1}`,
		`{"v":2,"host":"zcode","event":{},"budget_ms":1}`,
		`{"v":2,"host":"zcode","event":{},"budget_ms":1,"approve":true}`,
		`{"v":2,"host":"zcode","event":"{}","budget_ms":-1}`,
		`[]`, `null`, ``, `{`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		r, err := DecodeRequest(b)
		if err != nil {
			return
		}
		if r.V != Version || r.Validate() != nil {
			t.Fatalf("accepted invalid request %+v", r)
		}
		// Whatever decodes must re-encode to a single frame that decodes again.
		enc, err := EncodeRequest(r)
		if err != nil {
			if errors.Is(err, ErrTooLarge) {
				return
			}
			t.Fatalf("re-encode: %v", err)
		}
		if bytes.IndexByte(enc, '\n') != len(enc)-1 {
			t.Fatalf("frame has an inner newline: %q", enc)
		}
		if _, err := ReadRequest(bytes.NewReader(enc)); err != nil {
			t.Fatalf("re-decode: %v", err)
		}
	})
}
