package shell

import "testing"

// printf -v assigns what printf would print; what cannot be known is Dyn.
func TestPrintfValue(t *testing.T) {
	for _, c := range []struct {
		format string
		args   []string
		want   string
	}{
		{"%s/.%s/%s", []string{"~", "claude", "settings.json"}, "~/.claude/settings.json"},
		{"%s-%d%%", []string{"a", "5"}, "a-5%"},
		{"%(%Y)T", []string{"-1"}, Dyn},
		{"%s", []string{"a", "b"}, Dyn},
		{"%s/%s", []string{"a"}, Dyn},
		{"%s", []string{Dyn}, Dyn},
	} {
		if got := printfValue(c.format, c.args); got != c.want {
			t.Errorf("printfValue(%q, %q) = %q, want %q", c.format, c.args, got, c.want)
		}
	}
}
