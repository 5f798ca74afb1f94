package shell

import "testing"

func TestWinTrailingBackslash(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`dir C:\ /s`, `dir C:\\ /s`},
		{`rd /s /q "C:\"`, `rd /s /q "C:\\"`},
		{`x "C:\Users\dev\" -y`, `x "C:\Users\dev\\" -y`},
		{`x C:\`, `x C:\\`},
		{`x C:\\ y`, `x C:\\ y`},
		{`x -Path:C:\ y`, `x -Path:C:\ y`},
		{`echo 'C:\' "C:\x"`, `echo 'C:\' "C:\x"`},
		{`echo "a=\"C:\x\" b"`, `echo "a=\"C:\x\" b"`},
		{`echo a\ b C:\x`, `echo a\ b C:\x`},
		{`ls /tmp`, `ls /tmp`},
	} {
		if got := winTrailingBackslash(c.in); got != c.want {
			t.Errorf("winTrailingBackslash(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Nested literal loops are walked once per value only up to a line-wide
// budget: twelve levels of eight values must not mean 8^12 body walks.
func TestNestedLoopsBounded(t *testing.T) {
	src := ""
	for i := 0; i < 12; i++ {
		src += "for v in a b c d e f g h; do "
	}
	src += "echo $v; x=1"
	for i := 0; i < 12; i++ {
		src += "; done"
	}
	a := Analyze(src)
	if n := len(a.Cmds); n == 0 || n > 200 {
		t.Errorf("nested loops gave %d commands, want 1..200", n)
	}
}
