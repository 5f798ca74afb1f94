package hostproto

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

var scanSeeds = []string{
	`{"hook_event_name":"PreToolUse","session_id":"s","cwd":"/w","tool_name":"Bash","tool_input":{"command":"ls -la \"a b\" \u00e9 \ud83d\ude00"},"permission_mode":"default","tool_use_id":"u"}`,
	`{"hookEventName":"PreToolUse","sessionId":"s","cwd":"/w","toolName":"Write","toolInput":{"file_path":"/a","content":"<x>&"},"permissionMode":"plan"}`,
	`{"tool_name":"Bash","toolName":"Write","TOOL_NAME":"Edit","ToolName":"x","tool_input":null,"toolInput":{"a":1},"Cwd":"/c","cwd":"/d"}`,
	`{"Tool_Input":{"command":"rm"},"tool_input":{"command":"ls"},"TOOLINPUT":{"command":"x"}}`,
	`{"\u0074ool_name":"Bash","tool_input":{}}`,
	`{"ſession_id":"s","tool_name":"Bash","tool_\u212aey":1}`,
	`{"tool_name":null,"cwd":null,"tool_name":"Bash"}`,
	`{"tool_name":5}`, `{"tool_name":"Bash","cwd":["x"]}`, `{"tool_name":"Bash","cwd":{}}`,
	`{"tool_name":"a\ud800b\udc00\ud800\udc00\u0000\"\\\/\b\f\n\r\t","x":"` + "\xff\xe2\x82" + `"}`,
	`{"a":[1,-0,0.5,1e5,1E+5,-2.5e-3,true,false,null,{},[],{"b":[{}]}]}`,
	`{"a":01}`, `{"a":1.}`, `{"a":.5}`, `{"a":-}`, `{"a":1e}`, `{"a":tru}`, `{"a":"\x"}`, `{"a":"\u12g4"}`,
	`{"a":"` + "\x01" + `"}`, `{"a":1,}`, `{,}`, `{"a" 1}`, `{"a":1}}`, `{"a":1} x`, `[]`, `"x"`, ``, ` `, `{`,
	` {"tool_name" : "Bash" , "tool_input" : { "command" : "x" } } ` + "\n",
	strings.Repeat(`{"a":`, 120) + `1` + strings.Repeat(`}`, 120),
	`{"very_long_name_longer_than_any_field":1,"tool_name":"Bash"}`,
}

// What ScanObject accepts encoding/json accepts, with the same members
// (the last of a name winning, as in a map), and every string value reads
// as encoding/json reads it; valid objects of sane depth are accepted.
func FuzzScanMatchesJSON(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkScan(t, s) })
}

func checkScan(t *testing.T, s string) {
	t.Helper()
	data := []byte(s)
	got := map[string]json.RawMessage{}
	ok := ScanObject(data, func(m Member) bool {
		got[m.Name()] = m.Value
		str, isString := StringValue(m.Value)
		var want string
		err := json.Unmarshal(m.Value, &want)
		if isString != (m.Value[0] == '"') || isString && (err != nil || str != want) {
			t.Fatalf("%q: string %q %v, encoding/json %q %v", m.Value, str, isString, want, err)
		}
		return true
	})
	want := map[string]json.RawMessage{}
	err := json.Unmarshal(data, &want)
	trimmed := bytes.TrimSpace(data)
	isObject := len(trimmed) > 0 && trimmed[0] == '{'
	switch {
	case ok && err != nil:
		t.Fatalf("%q: scanned, but encoding/json says %v", s, err)
	case ok && !reflect.DeepEqual(got, want):
		t.Fatalf("%q: scanned %q, encoding/json %q", s, got, want)
	case !ok && err == nil && isObject && bytes.Count(data, []byte("{"))+bytes.Count(data, []byte("[")) < maxScanDepth:
		t.Fatalf("%q: valid object not scanned", s)
	}
}

// scanBoth reads what decodeBothJSON reads whenever it answers, and it
// answers for the hosts' usual events.
func FuzzScanBothAsDecodeBoth(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { checkScanBoth(t, s) })
}

func checkScanBoth(t *testing.T, s string) {
	t.Helper()
	e, c, ok := scanBoth([]byte(s))
	we, wc, err := decodeBothJSON([]byte(s))
	if ok && (err != nil || !reflect.DeepEqual(e, we) || !reflect.DeepEqual(c, wc)) {
		t.Fatalf("%q:\nscan %+v %+v\njson %+v %+v %v", s, e, c, we, wc, err)
	}
}

func TestScan(t *testing.T) {
	for _, s := range scanSeeds {
		checkScan(t, s)
		checkScanBoth(t, s)
	}
	for _, s := range scanSeeds[:4] {
		if _, _, ok := scanBoth([]byte(s)); !ok {
			t.Errorf("%s: a usual event took the slow path", s)
		}
	}
	for _, s := range []string{`{"ſession_id":"s"}`, `{"tool_name":5}`, `{"\u0074ool_name":"Bash"}`} {
		if _, _, ok := scanBoth([]byte(s)); ok {
			t.Errorf("%s: scanned; encoding/json must decide", s)
		}
	}
}

func TestRenderClaudeAsMarshal(t *testing.T) {
	for _, reason := range []string{"", "ok", `a"b\c <x> & y`, "\u2028\u2029\x00\x1f\xff é 😀"} {
		for _, d := range []string{Allow, Ask, Deny} {
			checkRenderClaude(t, d, reason)
		}
	}
}

func FuzzRenderClaudeAsMarshal(f *testing.F) {
	f.Add("allow", "x<&>\u2028\xff")
	f.Fuzz(func(t *testing.T, d, reason string) { checkRenderClaude(t, d, reason) })
}

func checkRenderClaude(t *testing.T, d, reason string) {
	t.Helper()
	want, err := json.Marshal(claudeOutput{claudeDecision{PreToolUse, d, reason}})
	if err != nil {
		t.Fatal(err)
	}
	if got := renderClaude(d, reason).Stdout; string(got) != string(want)+"\n" {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}
