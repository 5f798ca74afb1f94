package rules

import (
	"strings"
	"sync"
)

// Set is a set of words for lookups, built from package-level tables.
// Every hook fallback starts a process that initialises this package, so
// a Set costs nothing at init: a small one is scanned (as fast as a map
// for a handful of words), a large one builds its map on first use, and
// one made from text (words) splits it then. There were ~200 of them,
// 140 KB of maps built at every judge start, most never consulted.
type Set struct {
	list []string // the words; nil until split when made from text
	text string   // words separated by white space (words), split on first use
	once sync.Once
	m    map[string]struct{}
}

// setScanMax is the largest Set that is scanned rather than hashed.
const setScanMax = 8

// newSet makes a Set of the words given.
func newSet(words []string) *Set { return &Set{list: words} }

// Has reports whether w is in the set; a nil Set is empty.
func (s *Set) Has(w string) bool {
	if s == nil {
		return false
	}
	if s.text == "" && len(s.list) <= setScanMax {
		for _, x := range s.list {
			if x == w {
				return true
			}
		}
		return false
	}
	s.once.Do(s.build)
	_, ok := s.m[w]
	return ok
}

func (s *Set) build() {
	if s.text != "" {
		s.list = nil
		for _, w := range strings.Fields(s.text) {
			s.list = append(s.list, strings.TrimSuffix(w, "?"))
		}
	}
	m := make(map[string]struct{}, len(s.list))
	for _, w := range s.list {
		m[w] = struct{}{}
	}
	s.m = m
}
