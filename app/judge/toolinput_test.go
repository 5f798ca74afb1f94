package judge

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/agent-guard/agent-guard/app/hostproto"
)

var toolInputSeeds = []string{
	`{"command":"git status","description":"d"}`,
	`{"command":"ls","command":"rm -rf /","Command":"x"}`,
	`{"comm\u0061nd":"rm -rf /","cmd":"ls"}`,
	`{"command":"a","comm\u0061nd":"b","command":null}`,
	`{"file_path":"/a","content":null,"edits":[{"old_string":"a"}]}`,
	`{"file_path":"/a","content":"x\u0000\ud800<>&` + "\xff" + `"}`,
	`{"co\u006etent":1,"path":"p"}`, `{}`, `[]`, `"x"`, `{"a":`, `{"k\xffey":"v","k\ufffdey":"w"}`,
}

// toolInput reads the members encoding/json's map holds: the same
// presence and value for every name (the last of a name wins, names
// exact), whether the scan or the map read it.
func FuzzToolInputAsMap(f *testing.F) {
	for _, s := range toolInputSeeds {
		f.Add(s, "command")
	}
	f.Fuzz(func(t *testing.T, s, name string) { checkToolInput(t, s, name) })
}

func checkToolInput(t *testing.T, s, extra string) {
	t.Helper()
	var in toolInput
	if !hostproto.ScanObject([]byte(s), in.add) {
		return // StateFromEvent then uses encoding/json's map itself
	}
	want := map[string]json.RawMessage{}
	if err := json.Unmarshal([]byte(s), &want); err != nil {
		t.Fatalf("%q: scanned, encoding/json says %v", s, err)
	}
	names := []string{extra, "command", "cmd", "content", "edits", "file_path", "path", "k\ufffdey"}
	for k := range want {
		names = append(names, k)
	}
	for _, k := range names {
		got, ok := in.get(k)
		w, wok := want[k]
		if ok != wok || !bytes.Equal(got, w) {
			t.Fatalf("%q[%q]: scan %q %v, map %q %v", s, k, got, ok, w, wok)
		}
	}
}

func TestToolInputAsMap(t *testing.T) {
	for _, s := range toolInputSeeds {
		checkToolInput(t, s, "")
	}
	// The states themselves: the last command wins, an escaped name counts.
	for in, want := range map[string]string{
		`{"command":"ls","command":"rm -rf /"}`:  "rm -rf /",
		`{"comm\u0061nd":"rm -rf /","cmd":"ls"}`: "rm -rf /",
		`{"command":null,"cmd":"ls"}`:            "ls",
		`{"Command":"rm","cmd":"ls"}`:            "ls",
	} {
		st, err := StateFromEvent(Event{ToolName: "Bash", ToolInput: json.RawMessage(in)})
		if err != nil || st.Command != want {
			t.Errorf("%s: command %q %v, want %q", in, st.Command, err, want)
		}
	}
	if _, err := StateFromEvent(Event{ToolName: "Bash", ToolInput: json.RawMessage(`[1]`)}); err == nil {
		t.Error("an array tool_input was accepted")
	}
}
