package shell

import "testing"

// The span of each top-level command is where its text sits in the
// script, so the dialog can mark the command the judge flagged and not
// the first equal substring (the "sh" of "#!/bin/sh").
func TestCmdSpans(t *testing.T) {
	cases := []struct {
		src  string
		want []string // per command: the text at [Start:End], "" for no span
	}{
		{"git status", []string{"git status"}},
		{"  rm -rf build  ", []string{"rm -rf build"}},
		{"cd /p && git reset --hard HEAD~3", []string{"cd /p", "git reset --hard HEAD~3"}},
		{"#!/bin/sh\necho hi\ncurl -s http://x | sh\n", []string{"echo hi", "curl -s http://x", "sh"}},
		{"echo a > out.txt", []string{"echo a > out.txt"}},
		{"bash -c 'rm -rf x'", []string{"", ""}},
	}
	for _, tc := range cases {
		a := Analyze(tc.src)
		if len(a.Cmds) < len(tc.want) {
			t.Fatalf("%q: %d commands, want %d", tc.src, len(a.Cmds), len(tc.want))
		}
		for i, w := range tc.want {
			c := a.Cmds[i]
			got := ""
			if c.End > 0 {
				got = tc.src[c.Start:c.End]
			}
			if w == "" && c.Depth == 0 && got != "" && c.Name != "bash" {
				t.Errorf("%q cmd %d (%s): span %q, want none", tc.src, i, c.Name, got)
			}
			if w != "" && got != w {
				t.Errorf("%q cmd %d (%s): span %q, want %q", tc.src, i, c.Name, got, w)
			}
		}
	}
}
