package self

import (
	"testing"

	"github.com/agent-guard/agent-guard/app/judge/corpus"
	"github.com/agent-guard/agent-guard/app/judge/rules"
)

// The pattern of a pkill/killall/grep is matched against the names and
// command lines the guard really runs under, as those programs read it.
func TestPatternHitsGuard(t *testing.T) {
	t.Setenv("AGENT_GUARD_HOME", "/nonexistent/agent-guard-corpus-home")
	x := &rules.Ctx{Cwd: "/home/dev/proj", Home: corpus.Home}
	for _, c := range []struct {
		pat                      string
		full, exact, icase, glob bool
		want                     bool
	}{
		{pat: "agent-guard", want: true},
		{pat: "guard", full: true, want: true},
		{pat: "a.ent-g", want: true},
		{pat: "[a]gent-guard", full: true, want: true},
		{pat: "serve --headless", full: true, want: true},
		{pat: "GUARD", icase: true, want: true},
		{pat: "GUARD", want: false},
		{pat: "agent", exact: true, want: false},
		{pat: "agent-guard", exact: true, want: true},
		{pat: "agent*", glob: true, want: true},
		{pat: "*guard*", glob: true, want: true},
		{pat: "node", full: true, want: false},
		{pat: "webpack", full: true, want: false},
		{pat: "python manage.py runserver", full: true, want: false},
		{pat: "node*", glob: true, want: false},
		{pat: "(", full: true, want: false}, // not a valid expression: its text decides
	} {
		if got := patternHitsGuard(c.pat, x, c.full, c.exact, c.icase, c.glob); got != c.want {
			t.Errorf("patternHitsGuard(%q, full=%v exact=%v icase=%v glob=%v) = %v, want %v", c.pat, c.full, c.exact, c.icase, c.glob, got, c.want)
		}
	}
}
