package everyday

import "testing"

// init registers the tool lists as they are, so each must be free of
// duplicates (a name registered twice runs its rule twice) and of empty
// names.
func TestToolListsClean(t *testing.T) {
	for name, list := range map[string][]string{"pkReadTools": pkReadTools, "pkWorkTools": pkWorkTools} {
		seen := map[string]bool{}
		for _, n := range list {
			switch {
			case n == "":
				t.Errorf("%s holds an empty name", name)
			case seen[n]:
				t.Errorf("%s lists %q twice", name, n)
			}
			seen[n] = true
		}
	}
}
