package hostproto

import (
	"strings"
	"testing"
)

func TestParsePatch(t *testing.T) {
	tests := []struct {
		name, patch string
		want        []string // tool: input, per part
		err         string
	}{
		{"add update delete move", "*** Begin Patch\n*** Add File: a.txt\n+one\n+two\n*** Update File: b.go\n*** Move to: c.go\n@@ func f() {\n-\treturn 1\n+\treturn 2\n }\n*** End of File\n*** Delete File: d it's.txt\n*** End Patch\n",
			[]string{
				`Write: {"file_path":"a.txt","content":"one\ntwo\n"}`,
				`Edit: {"file_path":"b.go","old_string":"\treturn 1\n}","new_string":"\treturn 2\n}"}`,
				`Bash: {"command":"mv -- b.go c.go"}`,
				`Bash: {"command":"rm -- 'd it'\\''s.txt'"}`,
			}, ""},
		{"heredoc invocation", "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: x\n+y\n*** End Patch\nEOF\n",
			[]string{`Write: {"file_path":"x","content":"y\n"}`}, ""},
		{"crlf", "*** Begin Patch\r\n*** Delete File: x\r\n*** End Patch\r\n", []string{`Bash: {"command":"rm -- x"}`}, ""},
		{"no begin", "*** Add File: x\n+y\n", nil, "no \"*** Begin Patch\""},
		{"no end", "*** Begin Patch\n*** Add File: x\n+y\n", nil, "no \"*** End Patch\""},
		{"empty", "*** Begin Patch\n*** End Patch\n", nil, "changes no file"},
		{"stray line", "*** Begin Patch\nhello\n*** End Patch\n", nil, "outside any file"},
		{"no path", "*** Begin Patch\n*** Add File: \n+x\n*** End Patch\n", nil, "without a path"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			evs, err := ParsePatch(tt.patch)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, e := range evs {
				got = append(got, e.ToolName+": "+string(e.ToolInput))
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
