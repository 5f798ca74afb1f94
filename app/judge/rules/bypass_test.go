package rules

import (
	"encoding/base64"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// TestBypass: every evasion in testdata/bypass.jsonl comes out at least at
// its min level, and none of them may be allowed.
func TestBypass(t *testing.T) {
	t.Setenv("AGENT_GUARD_HOME", t.TempDir())
	cases := loadCorpus(t, "bypass.jsonl")
	if len(cases) < 150 {
		t.Errorf("bypass.jsonl has %d cases, want at least 150", len(cases))
	}
	for _, c := range cases {
		if c.Min == "allow" {
			t.Errorf("%s: %q has min allow; an evasion must be at least confirm", c.Where(), c.Cmd)
			continue
		}
		f := Bash(c.Cmd, c.Cwd, corpusHome)
		if got := levelOf(f); levelRank[got] < levelRank[c.Min] {
			t.Errorf("%s: %q: got %s, want >= %s (rule %s, risk %.2f, violation %.2f: %s)",
				c.Where(), c.Cmd, got, c.Min, f.Rule, f.Risk, f.Violation, f.Reason)
		}
	}
}

// psEncode is what powershell -EncodedCommand takes: base64 of UTF-16LE.
func psEncode(s string) string {
	u := utf16.Encode([]rune(s))
	b := make([]byte, 2*len(u))
	for i, r := range u {
		b[2*i], b[2*i+1] = byte(r), byte(r>>8)
	}
	return base64.StdEncoding.EncodeToString(b)
}

// TestBypassEncoded: evasions that need computing (encoded commands).
func TestBypassEncoded(t *testing.T) {
	t.Setenv("AGENT_GUARD_HOME", t.TempDir())
	del := "Remove-Item -Recurse -Force " + `C:\`
	cases := []struct{ cmd, min string }{
		{"powershell -EncodedCommand " + psEncode(del), "block"},
		{"powershell -enc " + psEncode(del), "block"},
		{"pwsh -e " + psEncode("Remove-Item -Recurse -Force ~"), "block"},
		{"powershell -ec " + psEncode("Stop-Process -Name agent-guard -Force"), "block"},
		{"powershell -enc not-base64!!", "confirm"},
		{"bash -c " + "'" + strings.Repeat("bash -c \"", 1) + "rm -rf /" + "\"'", "block"},
	}
	for _, c := range cases {
		f := Bash(c.cmd, "/home/dev/proj", corpusHome)
		if got := levelOf(f); levelRank[got] < levelRank[c.min] {
			t.Errorf("%q: got %s, want >= %s (rule %s: %s)", c.cmd, got, c.min, f.Rule, f.Reason)
		}
	}
}

// FuzzBash: no input panics or hangs, and a line that does not parse is
// never allowed.
func FuzzBash(f *testing.F) {
	for _, s := range benchMix {
		f.Add(s)
	}
	for _, s := range []string{"", "(", "'", "\"$(", "rm -rf '/", "`", "a &&", "if then fi", "$'\\x", "{ rm -rf /",
		"cat <<EOF\nrm -rf /", "cmd /c \"rd /s /q C:\\\"", "powershell -enc ====", ":(){ :|:& };:",
		// deep nesting: refused before the parser (its stack overflow is fatal)
		strings.Repeat("(", 3000), strings.Repeat("$(", 1500), strings.Repeat("{ ", 1500), strings.Repeat("\"$(", 1000)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		a := shellAnalyze(s)
		fd := BashAnalysis(&a, s, "/home/dev/proj", corpusHome)
		if a.Err != nil && levelOf(fd) == "allow" {
			t.Errorf("%q does not parse (%v) but was allowed: %s %s", s, a.Err, fd.Rule, fd.Reason)
		}
	})
}

var shellAnalyze = shell.Analyze
