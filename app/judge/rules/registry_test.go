package rules

import (
	"reflect"
	"testing"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// For one name the packs' rules run in pack-name order, each pack's in
// registration order, then the core's, whatever order they register in;
// the same whether the lookup scans the registrations or uses the index.
func TestRegistrationOrder(t *testing.T) {
	for _, indexed := range []bool{false, true} {
		t.Run(map[bool]string{false: "scan", true: "index"}[indexed], func(t *testing.T) { registrationOrder(t, indexed) })
	}
}

func registrationOrder(t *testing.T, indexed bool) {
	saved, savedAny, savedIndex, savedAfter := registrations, anyCmd, index.Load(), indexAfter
	defer func() {
		registrations, anyCmd, indexAfter = saved, savedAny, savedAfter
		index.Store(savedIndex)
	}()
	registrations, anyCmd = nil, nil
	index.Store(nil)
	indexAfter = 1 << 30
	if indexed {
		indexAfter = -1
	}
	var got []string
	rule := func(id string) CmdRule {
		return func(*shell.Cmd, *Ctx) (Finding, bool) { got = append(got, id); return Finding{}, false }
	}
	b, a := NewPack("b"), NewPack("a")
	on(rule("core1"), "x")
	onAny(rule("coreAny"))
	b.On(rule("b1"), "x", "y")
	a.On(rule("a1"), "x")
	b.On(rule("b2"), "x")
	on(rule("core2"), "x")
	a.On(rule("a2"), "x")
	b.OnAny(rule("bAny"))
	a.OnAny(rule("aAny"))
	c := &shell.Cmd{Name: "x"}
	rs := rulesFor("x")
	if got := index.Load() != nil; got != indexed {
		t.Fatalf("index built: %v, want %v", got, indexed)
	}
	for _, r := range rs {
		r.rule(c, nil)
	}
	for _, r := range anyCmd {
		r.rule(c, nil)
	}
	want := []string{"a1", "a2", "b1", "b2", "core1", "core2", "aAny", "bAny", "coreAny"}
	if len(got) != len(want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
}

// Every registered name gets the same rules from the scan as from the
// index, and the index is built only after indexAfter lookups.
func TestScanMatchesIndex(t *testing.T) {
	savedIndex, savedAfter := index.Load(), indexAfter
	defer func() {
		indexAfter = savedAfter
		index.Store(savedIndex)
	}()
	index.Store(nil)
	indexAfter = 1 << 30
	names := map[string]bool{}
	for _, g := range registrations {
		for _, n := range g.names {
			names[n] = true
		}
	}
	if len(names) < 1000 {
		t.Fatalf("only %d names registered; the packs are not linked into this test", len(names))
	}
	scanned := map[string][]reg{}
	for n := range names {
		scanned[n] = rulesFor(n)
	}
	if index.Load() != nil {
		t.Fatal("the index was built although indexAfter was not reached")
	}
	m := buildIndex()
	for n := range names {
		a, b := scanned[n], m[n]
		if len(a) != len(b) {
			t.Fatalf("%s: scan %d rules, index %d", n, len(a), len(b))
		}
		for i := range a {
			if a[i].pack != b[i].pack || reflect.ValueOf(a[i].rule).Pointer() != reflect.ValueOf(b[i].rule).Pointer() {
				t.Fatalf("%s: rule %d differs between scan and index", n, i)
			}
		}
	}
	if len(m) != len(names) {
		t.Fatalf("index holds %d names, registrations %d", len(m), len(names))
	}
}
