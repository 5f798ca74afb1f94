package shell

import (
	"strings"
	"testing"
)

// TestMayStartIfNeverSkipsAnIf: the cheap pre-test of cmdIfBody answers
// false only for lines whose first field (strings.Fields, lower) is not
// "if", so no cmd.exe if line loses its reading; and the if lines still
// give their body.
func TestMayStartIfNeverSkipsAnIf(t *testing.T) {
	for _, src := range []string{"", " ", "i", "if", "iF", "If exist x del y", "IF EXIST C:\\x rd /s /q C:\\x",
		"\tif defined X echo y", "\u00a0if exist x del y", "\u0130F exist x del y", "\u0130f not errorlevel 1 rm -rf /",
		"ifconfig", "i f", "git status", "rm -rf /", "\n\nif a==b rm x", "éf x", "if\u00a0exist x del y"} {
		f := strings.Fields(src)
		isIf := len(f) > 0 && lower(f[0]) == "if"
		if isIf && !mayStartIf(src) {
			t.Errorf("mayStartIf(%q) = false, but its first word reads as if", src)
		}
	}
	for src, body := range map[string]string{"if exist x del y": "del y", "IF /I NOT a==b rd /s q": "rd /s q",
		"\u0130F exist x del y": "del y"} {
		if got, ok := cmdIfBody(src); !ok || got != body {
			t.Errorf("cmdIfBody(%q) = %q, %v, want %q", src, got, ok, body)
		}
	}
	for _, src := range []string{"git status", "ifconfig eth0", "echo if exist x del y"} {
		if got, ok := cmdIfBody(src); ok {
			t.Errorf("cmdIfBody(%q) = %q, want no body", src, got)
		}
	}
}

// TestOperandsIsACopy: writing into what Operands returns leaves the
// command's arguments alone, with and without flags and "--".
func TestOperandsIsACopy(t *testing.T) {
	for _, args := range [][]string{{"status"}, {"a", "b"}, {"-f", "x", "--", "-y"}, {"--", "z"}} {
		c := &Cmd{Name: "x", Args: append([]string(nil), args...)}
		ops := c.Operands()
		for i := range ops {
			ops[i] = "changed"
		}
		for i := range args {
			if c.Args[i] != args[i] {
				t.Fatalf("Operands of %q shares its array with Args: Args now %q", args, c.Args)
			}
		}
	}
}
