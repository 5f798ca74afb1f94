package shell

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// Hostile nesting is refused before the parser sees it, quickly, and
// everyday nesting is not.
func TestNestingRefusedBeforeParse(t *testing.T) {
	hostile := map[string]string{
		"200k (":         strings.Repeat("(", 200000),
		"100k $(":        strings.Repeat("$(", 100000),
		"100k { ":        strings.Repeat("{ ", 100000),
		"100k [":         strings.Repeat("[", 100000),
		"$( in quotes":   strings.Repeat(`"$(`, 50000),
		"${ nest":        strings.Repeat("${a:-", 50000),
		"pwsh subexpr":   "powershell -c \"" + strings.Repeat("$(", 60000) + "\"",
		"backquotes":     "echo " + strings.Repeat("`(", 50000),
		"after a prefix": "git status; " + strings.Repeat("(", 300),
		"pwsh blocks":    "powershell -c \"" + strings.Repeat("& { ", 5000) + "\"",
	}
	for name, src := range hostile {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			a := Analyze(src)
			if d := time.Since(start); d > time.Second {
				t.Errorf("took %v", d)
			}
			if !a.TooDeep || !errors.Is(a.Err, ErrTooDeep) {
				t.Errorf("TooDeep=%v Err=%v, want ErrTooDeep", a.TooDeep, a.Err)
			}
		})
	}
	everyday := []string{
		"git status", "echo $(date) $(( 1 + (2 * 3) ))", `awk '{ if ((a)) print "(((((" }' f`,
		"f() { ( cd x && { make; } ); }; f", `echo "$(git rev-parse "$(pwd)")"`,
		"echo '" + strings.Repeat("(", 5000) + "'", // quoted: nothing nests
		strings.Repeat("(", MaxNesting-5) + "true" + strings.Repeat(")", MaxNesting-5),
		"echo " + strings.Repeat("(x) ", 5000), // many, not deep
	}
	for _, src := range everyday {
		if a := Analyze(src); a.TooDeep {
			t.Errorf("%.60q refused as too deep", src)
		}
	}
}

func TestNestingDepthCounts(t *testing.T) {
	for _, c := range []struct {
		src  string
		want int
	}{
		{"ls", 0}, {"(a)", 1}, {"((a))", 2}, {"$(a $(b))", 2}, {`"$(a)"`, 2}, {`'((('`, 0},
		{`"((("`, 1}, {"a{b,c}", 1}, {`echo \(\(\(`, 0}, {"`a`", 1}, {"$'\\'((('", 0},
	} {
		if got := nestingDepth(c.src, 1000); got != c.want {
			t.Errorf("nestingDepth(%q) = %d, want %d", c.src, got, c.want)
		}
	}
}
