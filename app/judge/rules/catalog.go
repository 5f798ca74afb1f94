package rules

import (
	"encoding/json"
	"fmt"
	"sort"
	"sync"
)

// RedLineAt is the red-line probability from which a finding counts as a
// red line everywhere: no allowlist lift, blocks while the guard is
// disabled, never offered "always". The one place this number lives.
const RedLineAt = 0.85

// Example is one call that the rule it belongs to decides: a Bash line, or
// a whole hook event (Write, Edit, MCP) as JSON.
type Example struct {
	Command string          // a Bash command line; empty when Event is set
	Event   json.RawMessage // a whole PreToolUse event; nil when Command is set
}

// MarshalJSON writes a command as a JSON string and an event as its object,
// the shape `agent-guard rules --json` promises.
func (e Example) MarshalJSON() ([]byte, error) {
	if e.Event != nil {
		return e.Event, nil
	}
	return json.Marshal(e.Command)
}

// Entry is one rule id as the catalog declares it.
type Entry struct {
	ID       string    `json:"id"`
	Risk     int       `json:"risk"` // 0 read-only .. 3 destructive: the most this rule gives
	RedLine  bool      `json:"red_line"`
	Category string    `json:"category"`
	Reason   string    `json:"reason"`
	Examples []Example `json:"examples"`
	// Where names the file that judges this id, so a reader finds it in
	// one hop (filled by declare from the caller's file).
	Where string `json:"where,omitempty"`
}

var catalog struct {
	sync.Mutex
	byID   map[string]Entry
	errors []string // duplicate or malformed declarations; a test fails on any
}

// declare adds entries to the catalog; packs call it from a package-level
// var in their own catalog file. A duplicate id is recorded, not a panic:
// TestCatalogWellFormed reports it.
func declare(where string, es ...Entry) struct{} {
	catalog.Lock()
	defer catalog.Unlock()
	if catalog.byID == nil {
		catalog.byID = map[string]Entry{}
	}
	for _, e := range es {
		if e.ID == "" {
			catalog.errors = append(catalog.errors, fmt.Sprintf("%s: an entry without an id", where))
			continue
		}
		if old, dup := catalog.byID[e.ID]; dup {
			catalog.errors = append(catalog.errors, fmt.Sprintf("%s: id %q already declared in %s", where, e.ID, old.Where))
			continue
		}
		e.Where = where
		catalog.byID[e.ID] = e
	}
	return struct{}{}
}

// Catalog returns every declared rule, sorted by id.
func Catalog() []Entry {
	catalog.Lock()
	defer catalog.Unlock()
	out := make([]Entry, 0, len(catalog.byID))
	for _, e := range catalog.byID {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Lookup returns the catalog entry of id.
func Lookup(id string) (Entry, bool) {
	catalog.Lock()
	defer catalog.Unlock()
	e, ok := catalog.byID[id]
	return e, ok
}

// CatalogErrors lists declarations that went wrong (duplicates, no id).
func CatalogErrors() []string {
	catalog.Lock()
	defer catalog.Unlock()
	return append([]string(nil), catalog.errors...)
}
