package judge

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/judge/corpus"
	"github.com/agent-guard/agent-guard/app/judge/rules"
)

// The catalog (app/judge/rules/catalog*.go) is the one declaration of the
// rule ids the judge can return. These tests keep it true: it is well
// formed, every example is decided by its own entry, every id in the
// code is declared, and every verdict on every corpus names an entry.

// corpusGuardHome: AGENT_GUARD_HOME for judging examples and corpora; a
// path that does not exist, so no real config is read and no temp folder
// becomes the guard's own (see rules/corpus_test.go).
const corpusGuardHome = "/nonexistent/agent-guard-corpus-home"

// catalogJudge is the judge the catalog promises: offline, the default
// config, home /home/dev.
func catalogJudge(t testing.TB) *Judge {
	t.Setenv(config.HomeEnv, corpusGuardHome)
	return New(config.Default(), Options{Offline: true, Home: corpus.Home})
}

// exampleEvent is the hook event of a catalog example: its own, or a Bash
// event in the corpora's project folder.
func exampleEvent(ex rules.Example) json.RawMessage {
	if ex.Event != nil {
		return ex.Event
	}
	return corpus.Case{Cmd: ex.Command, Cwd: corpus.DefaultCwd}.EventJSON()
}

func TestCatalogWellFormed(t *testing.T) {
	for _, e := range rules.CatalogErrors() {
		t.Error(e)
	}
	cat := rules.Catalog()
	if len(cat) < 500 {
		t.Fatalf("the catalog has %d entries; the judge returns more than 500 ids", len(cat))
	}
	root := filepath.Join("..", "..")
	for _, e := range cat {
		if _, err := os.Stat(filepath.Join(root, e.Where)); err != nil {
			t.Errorf("%s: Where %q is not a file of the repository: %v", e.ID, e.Where, err)
		}
		for _, ex := range e.Examples {
			if (ex.Command == "") == (ex.Event == nil) {
				t.Errorf("%s: an example needs exactly one of Command and Event", e.ID)
			}
			if ex.Event != nil && !json.Valid(ex.Event) {
				t.Errorf("%s: example event is not JSON: %s", e.ID, ex.Event)
			}
			if su := ex.Setup; su != nil && su.Config == nil && su.Repo == nil && len(su.Home) == 0 && su.Fault == "" {
				t.Errorf("%s: an example's Setup is empty; leave it nil", e.ID)
			}
		}
	}
}

// decidedBy reports whether a verdict's rule is decided under entry e:
// its own id, a route to it, an id its pattern covers (a member with its
// own entry counts), or e is a route the verdict went through
// ("ssh/fs.rm-root" for the route entry "ssh"). viaRoute says the last.
func decidedBy(e rules.Entry, rule string) (ok, viaRoute bool) {
	if got, found := rules.Lookup(rule); found && (got.ID == e.ID || e.Covers(got.ID)) {
		return true, false
	}
	if strings.HasPrefix(rule, e.ID+"/") || strings.Contains(rule, "/"+e.ID+"/") {
		return true, true
	}
	return false, false
}

// TestCatalogExamples: each example, judged like a real call, is decided
// by the entry that shows it (an exact id, a route to it, or a name the
// entry's pattern covers; for a route entry, a verdict through it).
func TestCatalogExamples(t *testing.T) {
	checkExamples(t, func(ex rules.Example) bool { return !needsRepo(ex) })
}

// TestCatalogRepoExamples: the examples over a real git work tree (the
// disk.* entries), apart so that a machine without git (wine) leaves out
// only these.
func TestCatalogRepoExamples(t *testing.T) {
	checkExamples(t, needsRepo)
}

func needsRepo(ex rules.Example) bool { return ex.Setup != nil && ex.Setup.Repo != nil }

// checkExamples judges the examples take selects, each like a real call,
// and checks the entry decides it; an entry's red-line claim is checked
// when all its examples were judged.
func checkExamples(t *testing.T, take func(rules.Example) bool) {
	j := catalogJudge(t)
	n := 0
	for _, e := range rules.Catalog() {
		red, routed, all := false, false, true
		for _, ex := range e.Examples {
			if !take(ex) {
				all = false
				continue
			}
			n++
			v := judgeExample(t, j, ex)
			if strings.ContainsRune(v.Reason, 0) {
				// the walk's run-time marker (shell.Dyn) is not text
				t.Errorf("%s: the reason for %s shows a NUL byte: %q", e.ID, exampleJSON(ex), v.Reason)
			}
			if strings.Contains(v.Reason, "  ") && !strings.Contains(exampleJSON(ex), "  ") {
				// "chown  on": a part left empty between two words
				t.Errorf("%s: the reason for %s has a doubled space: %q", e.ID, exampleJSON(ex), v.Reason)
			}
			ok, viaRoute := decidedBy(e, v.Rule)
			if !ok {
				t.Errorf("%s (%s): example %s is decided by %q (%s: %s)", e.ID, e.Where, exampleJSON(ex), v.Rule, v.Level, v.Reason)
				continue
			}
			// A route's red line is its payload's: no claim to check.
			routed = routed || viaRoute
			if !viaRoute && v.RedLine && !e.RedLine {
				t.Errorf("%s: not declared a red line, but its example %s is one", e.ID, exampleJSON(ex))
			}
			red = red || v.RedLine
		}
		if all && e.RedLine && !red && !routed {
			t.Errorf("%s: declared a red line, but none of its examples is one", e.ID)
		}
	}
	if n == 0 {
		t.Fatal("no example was judged")
	}
	t.Logf("%d entries, %d examples judged", len(rules.Catalog()), n)
}

// exampleJSON is an example as `agent-guard rules --json` shows it (its
// setup included), for failure messages.
func exampleJSON(ex rules.Example) string {
	b, err := json.Marshal(ex)
	if err != nil {
		return fmt.Sprintf("%+v", ex)
	}
	return string(b)
}

var patternPart = regexp.MustCompile(`<[^<>]*>`)

// TestCatalogCoversCode: every rule id the judge's code can return
// (scanRuleIDs over app/judge and its packages) has its own entry: a
// literal id its exact entry, an id built from a name ("aws." + svc) an
// entry with the same pattern shape. A new rule without a catalog entry
// fails here.
func TestCatalogCoversCode(t *testing.T) {
	sites, err := scanRuleIDs(".")
	if err != nil {
		t.Fatal(err)
	}
	if len(sites) < 800 {
		t.Fatalf("the scan found %d rule-id sites; it has lost its way", len(sites))
	}
	shapes := map[string]bool{}
	for _, e := range rules.Catalog() {
		shapes[patternPart.ReplaceAllString(e.ID, "<>")] = true
	}
	for _, s := range sites {
		if strings.Contains(s.ID, "<") {
			if !shapes[patternPart.ReplaceAllString(s.ID, "<>")] {
				t.Errorf("%s builds rule ids %q; declare a catalog entry with that pattern (see rules/catalog.go)", s.Pos, s.ID)
			}
			continue
		}
		if e, ok := rules.Lookup(s.ID); (!ok || e.ID != s.ID) && s.Route {
			t.Errorf("%s prefixes rule ids with the route %q/, which the catalog does not declare; add an entry (see rules/catalog_routes.go)", s.Pos, s.ID)
		} else if !ok || e.ID != s.ID {
			t.Errorf("%s returns rule id %q, which the catalog does not declare; add an entry (id, risk, category, reason, example) to a rules/catalog_*.go file", s.Pos, s.ID)
		}
	}
	// One hop: an entry's Where is a file that returns its id (for ids the
	// scan sees as literals), so a reader goes from the catalog straight
	// to the code that judges it.
	files := map[string][]string{}
	for _, s := range sites {
		if !s.Route && !strings.Contains(s.ID, "<") {
			f, _, _ := strings.Cut(s.Pos, ":")
			files[s.ID] = append(files[s.ID], filepath.Base(f))
		}
	}
	for _, e := range rules.Catalog() {
		if fs, ok := files[e.ID]; ok && !slices.Contains(fs, filepath.Base(e.Where)) {
			t.Errorf("%s: Where is %s, but the code returns this id in %v; a reader looking there would not find it", e.ID, e.Where, fs)
		}
	}
	// And the other way: an entry whose id the code no longer returns
	// (neither a literal nor a name a built id covers) is stale.
	code := map[string]bool{}
	var built []rules.Entry
	for _, s := range sites {
		code[s.ID] = true
		if strings.Contains(s.ID, "<") {
			built = append(built, rules.Entry{ID: s.ID})
		}
	}
	j := catalogJudge(t)
	literal, members, byExample := 0, 0, 0
	for _, e := range rules.Catalog() {
		if code[e.ID] {
			literal++
			continue
		}
		covered := false
		for _, b := range built {
			covered = covered || b.Covers(e.ID)
		}
		if covered {
			members++
		}
		// An id the scan cannot see (built from a variable) is alive
		// when one of its examples is decided by it.
		for _, ex := range e.Examples {
			if covered {
				break
			}
			v := judgeExample(t, j, ex)
			if rules.BaseID(v.Rule) == e.ID || strings.HasPrefix(v.Rule, e.ID+"/") || strings.Contains(v.Rule, "/"+e.ID+"/") {
				covered = true
				byExample++
			}
		}
		if !covered {
			t.Errorf("%s (%s): the judge's code no longer returns this id; remove the entry", e.ID, e.Where)
		}
	}
	// The count `agent-guard rules --json | jq length` gives: the ids
	// and route names the code spells out, plus the built ids' patterns
	// and the named members of them, plus ids only an example shows alive.
	t.Logf("catalog %d entries = %d ids, routes and patterns in the code + %d named members of built ids + %d alive by example",
		len(rules.Catalog()), literal, members, byExample)
}

// allCorpora are every labelled corpus of the judge, the product brief's
// samples included. runCorpus checks each verdict names a catalog entry.
var allCorpora = []string{"testdata/*.jsonl", "rules/testdata/*.jsonl", samplesPath}

// TestSelfNamespace: the "self." namespace is what the judge reads to make
// a finding a self-protection red line (rules.SelfRule), so every entry in
// it must be a red line of the self-protection category; the category's
// other entries (guard.*) are the confirm-level ones and must stay out of
// the namespace.
func TestSelfNamespace(t *testing.T) {
	for _, e := range rules.Catalog() {
		self := rules.SelfRule(e.ID)
		if self && e.Category != "self-protection" {
			t.Errorf("%s is in the self. namespace but in category %q", e.ID, e.Category)
		}
		if self && !e.RedLine {
			t.Errorf("%s is in the self. namespace, which the judge treats as a red line, but its entry says red_line false", e.ID)
		}
		if !self && e.Category == "self-protection" && e.RedLine {
			t.Errorf("%s is a self-protection red line outside the self. namespace: the judge would not treat it as one", e.ID)
		}
	}
}
