package opts

import (
	"reflect"
	"testing"
)

// TestValuesOrderAndFastPath: Values keeps the command line's order across
// several option names (each canonicalized, short or long), skips negated
// and value-less options, and a line without options (the fast path) or a
// zero Args answers nil without consulting any grammar.
func TestValuesOrderAndFastPath(t *testing.T) {
	g := ParseGit([]string{"-c", "a=1", "--config-env=b=X", "-C", "d", "-c", "c=2", "status"})
	if got, want := g.Global.Values("c", "config-env"), []string{"a=1", "b=X", "c=2"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Values(c, config-env) = %q, want %q", got, want)
	}
	if got, want := g.Global.Values("C"), []string{"d"}; !reflect.DeepEqual(got, want) {
		t.Errorf("Values(C) = %q, want %q", got, want)
	}
	plain := ParseGit([]string{"status"})
	if got := plain.Global.Values("c", "config-env"); got != nil {
		t.Errorf("Values without options = %q, want nil", got)
	}
	if v, ok := plain.Global.Value("C"); ok || v != "" {
		t.Errorf("Value without options = %q, %v", v, ok)
	}
	var zero Args
	if zero.Values("c") != nil || zero.Has("c") {
		t.Error("a zero Args has options")
	}
	if _, ok := zero.Value("c"); ok {
		t.Error("a zero Args has a value")
	}
}
