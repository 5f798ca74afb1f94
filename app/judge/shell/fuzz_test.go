package shell

import (
	"strings"
	"testing"
)

// FuzzAnalyze: any input returns (no panic, no hang), stays within the
// caps, and a recovered internal panic is reported as a failure.
func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{"git status", "ls -la | grep x", "a && b || c; d &", "x=$(y) z", "cat <<EOF\nhi\nEOF",
		"bash -c 'echo $(date)'", "echo 'ls' | sh", "find . -exec echo {} \\;", "cmd /c \"dir\"",
		"powershell -Command \"Get-ChildItem | ForEach-Object { $_.Name }\"", "for i in {1..3}; do echo $i; done",
		"f(){ f; }; f", "(", "'", "$'\\x", "`", "{ a; }", "echo {a,b}{c,d}",
		"Start-Process cmd -ArgumentList '/c dir'", "runas /user:x \"cmd /c dir\"", "start \"\" notepad",
		"Invoke-Command -ScriptBlock { Get-Date }", "a${IFS}b", "for i in {1..3}; do x & done", "curl -sSo x.sh u; sh x.sh"} {
		f.Add(s)
	}
	// Deep nesting: the parser must never see it (a stack overflow is fatal).
	for _, s := range []string{strings.Repeat("(", 5000), strings.Repeat("$(", 3000), strings.Repeat("{ ", 3000),
		strings.Repeat(`"$(`, 2000), strings.Repeat("`(", 2000), strings.Repeat("${a:-", 2000),
		"powershell -c \"" + strings.Repeat("$(", 2000) + "\"", strings.Repeat("[", 4000)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 8192 {
			return
		}
		a := Analyze(s)
		if a.Err != nil && strings.HasPrefix(a.Err.Error(), "internal error") {
			t.Fatalf("%q: %v", s, a.Err)
		}
		if len(a.Cmds) > MaxCmds {
			t.Fatalf("%q: %d commands, above the cap", s, len(a.Cmds))
		}
		for _, c := range a.Cmds {
			if c.Depth > MaxDepth+1 {
				t.Fatalf("%q: depth %d above the cap", s, c.Depth)
			}
		}
	})
}
