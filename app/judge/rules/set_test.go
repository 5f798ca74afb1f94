package rules

import "testing"

// A Set answers like the map it replaces, whether scanned (small), hashed
// on first use (large) or split from text (words); a nil Set is empty.
func TestSet(t *testing.T) {
	big := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j"}
	for _, tc := range []struct {
		name string
		s    *Set
		in   []string
		out  []string
	}{
		{"small", pkSet("-x", "--exec"), []string{"-x", "--exec"}, []string{"", "-", "x", "--exe", "--execute"}},
		{"large", pkSet(big...), big, []string{"", "k", "aa", "A"}},
		{"words", words("get list\n\t read? show"), []string{"get", "list", "read", "show"}, []string{"read?", "", "li", "gets"}},
		{"nil", nil, nil, []string{"", "a"}},
		{"empty", pkSet(), nil, []string{""}},
	} {
		for round := 0; round < 2; round++ { // before and after the map is built
			for _, w := range tc.in {
				if !tc.s.Has(w) {
					t.Errorf("%s: Has(%q) = false", tc.name, w)
				}
			}
			for _, w := range tc.out {
				if tc.s.Has(w) {
					t.Errorf("%s: Has(%q) = true", tc.name, w)
				}
			}
		}
	}
}
