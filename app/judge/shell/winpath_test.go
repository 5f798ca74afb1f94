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
