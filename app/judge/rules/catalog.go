package rules

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// RedLineAt is the red-line probability from which a finding counts as a
// red line everywhere: no allowlist lift, blocks while the guard is
// disabled, never offered "always". The one place this number lives.
const RedLineAt = 0.85

// Example is one call that the rule it belongs to decides: a Bash line, or
// a whole hook event (Write, Edit, MCP) as JSON, and what it needs beyond
// the default judge.
type Example struct {
	Command string          // a Bash command line; empty when Event is set
	Event   json.RawMessage // a whole PreToolUse event; nil when Command is set
	// Setup is what the call needs to be decided by its rule (a user
	// config, files on disk, a fault); nil: the default judge decides it.
	// The catalog test builds it for real, so the example stays true.
	Setup *Setup
}

// Setup describes the world an example is judged in, as data: the
// catalog test (app/judge/catalog_test.go) builds it for real, and
// `agent-guard rules --json` shows it next to the call.
type Setup struct {
	// Config is a config.json fragment laid over the default config
	// (allowlists, scoped approvals, mcp_overrides).
	Config json.RawMessage `json:"config,omitempty"`
	// Repo makes the call's cwd a fresh git work tree and lets the judge
	// look at the disk.
	Repo *Repo `json:"repo,omitempty"`
	// Home lists files (relative to ~) made in a fresh home folder, the
	// judge's home: the guard's own files the call would reach.
	Home []string `json:"home,omitempty"`
	// Fault names a failure the test injects (see the Fault* constants).
	Fault string `json:"fault,omitempty"`
}

// Repo is a git work tree by the state of its files. A path ending in
// " xN" stands for N files, the path with 0..N-1 before its extension.
type Repo struct {
	Committed []string `json:"committed,omitempty"` // tracked and unchanged
	Modified  []string `json:"modified,omitempty"`  // tracked, changed since the commit
	Untracked []string `json:"untracked,omitempty"` // never added
}

// The faults an example can name: failures of the judge itself, which
// no call provokes on a healthy machine, so the test injects them.
const (
	FaultRulePanic    = "rule-panic"              // a rule panics
	FaultRuleSlow     = "rule-slow"               // the rules outlast the time budget (the call is padded past the size judged inline)
	FaultRuleSilent   = "rule-silent"             // the rules return no finding at all
	FaultNoTool       = "no-tool"                 // the call reaches the judge without a tool name (built in process, not parsed from a hook event)
	FaultDiskBudget   = "disk-budget"             // the disk look-up runs out of time
	FaultAboveMaxRead = "content-above-max-input" // the written content is padded past shell.MaxInput
)

// MarshalJSON writes a command as a JSON string and an event as its object,
// the shape `agent-guard rules --json` promises; an example with a setup
// is an object {"command" or "event", "setup"}.
func (e Example) MarshalJSON() ([]byte, error) {
	if e.Setup != nil {
		type withSetup struct {
			Command string          `json:"command,omitempty"`
			Event   json.RawMessage `json:"event,omitempty"`
			Setup   *Setup          `json:"setup"`
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(withSetup{e.Command, e.Event, e.Setup}); err != nil {
			return nil, err
		}
		return bytes.TrimRight(b.Bytes(), "\n"), nil
	}
	if e.Event != nil {
		return e.Event, nil
	}
	// Commands are full of < > & (redirections, pipes): keep them readable
	// rather than HTML-escaped, as a person reads this list.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(e.Command); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

// Entry is one rule id as the catalog declares it.
type Entry struct {
	ID   string `json:"id"`
	Risk int    `json:"risk"` // 0 read-only .. 3 destructive: the most this rule gives
	// RedLine: at its worst this rule decides a red line (blocks even
	// when the guard is off, never offered "always").
	RedLine  bool      `json:"red_line"`
	Category string    `json:"category"`
	Reason   string    `json:"reason"`
	Examples []Example `json:"examples"`
	// Where names the file that judges this id, so a reader finds it in
	// one hop (filled by declare from the caller's file).
	Where string `json:"where,omitempty"`
}

// The ids a verdict names, and how they map to entries:
//
//   - "fs.rm-root": a plain id, declared as itself.
//   - "ssh/docker.exec/fs.rm-root": a route. Packs that judge a command
//     carried inside another (ssh, docker exec, python -c, base64 -d | sh)
//     prefix the inner finding's id with "who/". The verdict's entry is
//     the last segment (BaseID); a route with a fixed name has an entry of
//     its own too (catalog_routes.go), saying what it is and where.
//   - "aws.ec2.terminate-instances": an id built from a name the command
//     supplies. Its entry is a pattern, "aws.<svc>.<op>", where each <x>
//     stands for one or more characters; an exact entry wins over a
//     pattern, and a longer literal part wins over a shorter one.
//
// Lookup applies these rules; a test checks that every id literal and
// every built id in the judge's code has an entry.

var catalog struct {
	sync.Mutex
	pending  []declaration // built on first use: the judge's start pays nothing
	byID     map[string]Entry
	patterns []pattern
	errors   []string // duplicate or malformed declarations; a test fails on any
}

// pattern is an entry whose id has <name> parts.
type pattern struct {
	id      string
	re      *regexp.Regexp
	literal int // characters outside <...>: more is more specific
}

// patternPart is compiled on first use (catalog loads are lazy too).
var patternPart = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<[^<>]*>`) })

// compilePattern turns "aws.<svc>.<op>" into ^aws\..+\..+$; ok is false
// for an id without <...>.
func compilePattern(id string) (pattern, bool) {
	locs := patternPart().FindAllStringIndex(id, -1)
	if len(locs) == 0 {
		return pattern{}, false
	}
	var b strings.Builder
	b.WriteString("^")
	last, lit := 0, 0
	for _, l := range locs {
		b.WriteString(regexp.QuoteMeta(id[last:l[0]]))
		b.WriteString(".+")
		lit += l[0] - last
		last = l[1]
	}
	b.WriteString(regexp.QuoteMeta(id[last:]))
	b.WriteString("$")
	lit += len(id) - last
	return pattern{id: id, re: regexp.MustCompile(b.String()), literal: lit}, true
}

// BaseID strips a route ("ssh/docker.exec/") from a verdict's rule id.
func BaseID(rule string) string {
	return rule[strings.LastIndex(rule, "/")+1:]
}

// declaration is one catalog file's entries, not yet built.
type declaration struct {
	where   string
	entries func() []Entry
}

// declare records a catalog file's entries; packs call it from a
// package-level var in their own catalog file. The entries are a func so
// that nothing is built at start: every hook fallback starts a judge
// process, and 1,300 entries with their examples and patterns cost it
// about 1.5 ms and 4,600 allocations when built in init. where names the
// file that judges the ids: a bare file name means app/judge/rules/<file>.
func declare(where string, entries func() []Entry) struct{} {
	catalog.Lock()
	defer catalog.Unlock()
	catalog.pending = append(catalog.pending, declaration{where, entries})
	return struct{}{}
}

// load builds the catalog from the pending declarations; callers hold the
// lock. A duplicate id is recorded, not a panic: TestCatalogWellFormed
// reports it.
func load() {
	if catalog.byID == nil {
		catalog.byID = map[string]Entry{}
	}
	for _, d := range catalog.pending {
		add(d.where, d.entries())
	}
	catalog.pending = nil
}

func add(where string, es []Entry) {
	for _, e := range es {
		if e.ID == "" {
			catalog.errors = append(catalog.errors, fmt.Sprintf("%s: an entry without an id", where))
			continue
		}
		if old, dup := catalog.byID[e.ID]; dup {
			catalog.errors = append(catalog.errors, fmt.Sprintf("%s: id %q already declared in %s", where, e.ID, old.Where))
			continue
		}
		if strings.Contains(e.ID, "/") {
			catalog.errors = append(catalog.errors, fmt.Sprintf("%s: id %q holds a route; declare the id after the last /", where, e.ID))
			continue
		}
		if len(e.Examples) == 0 {
			// An id no call reaches is dead code: remove it; one that
			// needs config, files or a fault says so in an example's Setup.
			catalog.errors = append(catalog.errors, fmt.Sprintf("%s: %s has no example", where, e.ID))
		}
		if e.Risk < 0 || e.Risk > 3 || e.Category == "" || e.Reason == "" {
			catalog.errors = append(catalog.errors, fmt.Sprintf("%s: %s needs a risk 0..3, a category and a reason", where, e.ID))
		}
		if !strings.Contains(where, "/") {
			where = "app/judge/rules/" + where
		}
		e.Where = where
		catalog.byID[e.ID] = e
		if p, ok := compilePattern(e.ID); ok {
			catalog.patterns = append(catalog.patterns, p)
		}
	}
}

// Catalog returns every declared rule, sorted by id.
func Catalog() []Entry {
	catalog.Lock()
	defer catalog.Unlock()
	load()
	out := make([]Entry, 0, len(catalog.byID))
	for _, e := range catalog.byID {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Covers reports whether a verdict's rule id is decided under e: e's own
// id, a route to it, or (for a pattern entry) an id the pattern matches.
func (e Entry) Covers(rule string) bool {
	id := BaseID(rule)
	if id == e.ID {
		return true
	}
	p, ok := compilePattern(e.ID)
	return ok && p.re.MatchString(id)
}

// Lookup returns the catalog entry of a verdict's rule id: the exact
// entry, else the entry of its BaseID, else the most specific pattern
// entry the BaseID matches.
func Lookup(rule string) (Entry, bool) {
	catalog.Lock()
	defer catalog.Unlock()
	load()
	if e, ok := catalog.byID[rule]; ok {
		return e, true
	}
	id := BaseID(rule)
	if e, ok := catalog.byID[id]; ok {
		return e, true
	}
	best := -1
	for i, p := range catalog.patterns {
		if p.re.MatchString(id) && (best < 0 || p.literal > catalog.patterns[best].literal) {
			best = i
		}
	}
	if best < 0 {
		return Entry{}, false
	}
	return catalog.byID[catalog.patterns[best].id], true
}

// CatalogErrors lists declarations that went wrong (duplicates, no id).
func CatalogErrors() []string {
	catalog.Lock()
	defer catalog.Unlock()
	load()
	return append([]string(nil), catalog.errors...)
}
