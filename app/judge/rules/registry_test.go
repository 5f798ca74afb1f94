package rules

import (
	"testing"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// For one name the packs' rules run in pack-name order, each pack's in
// registration order, then the core's, whatever order they register in.
func TestRegistrationOrder(t *testing.T) {
	saved, savedAny := byName, anyCmd
	defer func() { byName, anyCmd = saved, savedAny }()
	byName, anyCmd = map[string][]reg{}, nil
	var got []string
	rule := func(id string) CmdRule {
		return func(*shell.Cmd, *Ctx) (Finding, bool) { got = append(got, id); return Finding{}, false }
	}
	b, a := NewPack("b"), NewPack("a")
	on(rule("core1"), "x")
	onAny(rule("coreAny"))
	b.On(rule("b1"), "x")
	a.On(rule("a1"), "x")
	b.On(rule("b2"), "x")
	on(rule("core2"), "x")
	a.On(rule("a2"), "x")
	b.OnAny(rule("bAny"))
	a.OnAny(rule("aAny"))
	c := &shell.Cmd{Name: "x"}
	for _, r := range byName["x"] {
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
