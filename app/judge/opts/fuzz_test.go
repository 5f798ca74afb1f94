package opts

import (
	"strings"
	"testing"
)

// FuzzParse: no word list makes a grammar panic or loop.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"reset --ha HEAD", "-bfeature", "--no-", "-- -rf", "--=x", "-c", ". -exec", "-vc x", "---"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		w := strings.Fields(s)
		for _, sp := range table {
			a := Parse(sp, w)
			a.Has("force", "f")
			a.Values("c")
			Uncluster(sp, w)
		}
		ParseGit(w)
		fe := ParseFind(w)
		fe.Execs()
		fe.Writes()
	})
}
