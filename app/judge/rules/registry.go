package rules

import (
	"sync"
	"sync/atomic"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Ctx is what a command rule may look at beyond its own command.
type Ctx struct {
	Cwd  string          // the call's working directory
	Home string          // the user's home, for ~ and $HOME
	All  *shell.Analysis // the whole line, for rules that link commands
	// Project is the call's original working directory; Cwd follows
	// `cd` within the line (Bash keeps it up to date), Project does not.
	Project string
	// M is the machine state the rules may look at (disk, session
	// memory); nil: judge the text alone (see machine.go).
	M *Machine
	// Script is the whole line as written ("" when the rules run on a
	// single command): for what the splitter drops ($p.Kill()).
	Script string
}

// CmdRule judges one simple command; ok=false means "nothing to say".
type CmdRule func(c *shell.Cmd, x *Ctx) (f Finding, ok bool)

// The registry: packs register from init (Pack.On), the core with on();
// anyCmd rules see every command.
//
// Registering only records the call (registrations); the name -> rules
// lookup is answered by scanning those records until a process has asked
// indexAfter times, and from a map built then. A hook fallback judges one
// line and asks a handful of times: building a map of the ~1,800 names at
// init (200 KB, ~1,800 inserts) cost it more than all its scans, while the
// server, which asks all day, gets the map after its first few calls.
//
// Order: for one name, and among the anyCmd rules, the packs' rules run
// first, in the order of the packs' names, then the core's own (bash.go's
// baseline, fs, self-protection...), each in registration order. The
// first of two equally bad findings names the verdict, so this order is
// part of the judge's behaviour: it does not depend on the order in which
// Go happens to initialise the packs. The scan and the map give the same
// lists: both insert the records in registration order.
var (
	registrations []registration
	anyCmd        []reg

	index      atomic.Pointer[map[string][]reg] // nil until built
	indexMu    sync.Mutex
	lookups    atomic.Int32
	indexAfter = int32(64)
)

// registration is one On/on call as made.
type registration struct {
	pack  *Pack
	rule  CmdRule
	names []string
}

// reg is one registered rule with the pack it comes from (nil for the
// core).
type reg struct {
	pack *Pack
	rule CmdRule
}

// on registers the core's rule r for each program name.
func on(r CmdRule, names ...string) { register(nil, r, names) }

// onAny registers the core's rule r for every command.
func onAny(r CmdRule) { anyCmd = insert(anyCmd, reg{nil, r}) }

func register(pack *Pack, r CmdRule, names []string) {
	registrations = append(registrations, registration{pack, r, names})
	index.Store(nil) // only init registers; a test that does rebuilds
}

// rulesFor is the rules registered for the program name, in order (see
// above). The list is shared: callers must not modify it.
func rulesFor(name string) []reg {
	if m := index.Load(); m != nil {
		return (*m)[name]
	}
	if lookups.Add(1) > indexAfter {
		return buildIndex()[name]
	}
	var rs []reg
	for i := range registrations {
		g := &registrations[i]
		for _, n := range g.names {
			if n == name {
				rs = insert(rs, reg{g.pack, g.rule})
			}
		}
	}
	return rs
}

// buildIndex makes the name -> rules map from the registrations, once.
func buildIndex() map[string][]reg {
	indexMu.Lock()
	defer indexMu.Unlock()
	if m := index.Load(); m != nil {
		return *m
	}
	n := 0
	for _, g := range registrations {
		n += len(g.names)
	}
	m := make(map[string][]reg, n)
	for _, g := range registrations {
		for _, name := range g.names {
			m[name] = insert(m[name], reg{g.pack, g.rule})
		}
	}
	index.Store(&m)
	return m
}

// insert puts g into rs at its place in the order above: after the rules
// of its own pack and of packs named before it, before those of packs
// named after it and the core's.
func insert(rs []reg, g reg) []reg {
	i := len(rs)
	if g.pack != nil {
		for i > 0 && (rs[i-1].pack == nil || rs[i-1].pack.name > g.pack.name) {
			i--
		}
	}
	rs = append(rs, g)
	copy(rs[i+1:], rs[i:])
	rs[i] = g
	return rs
}

// Pack is a rule pack's handle on the registry: a pack under packs/ keeps
// one in a package-level var (pack.go) and registers its rules from init
// through it (the registry points at that var: no allocation at init).
type Pack struct{ name string }

// NewPack is the handle of the pack called name (its folder under packs/).
func NewPack(name string) Pack { return Pack{name} }

// On registers r for each program name.
func (p *Pack) On(r CmdRule, names ...string) { register(p, r, names) }

// OnAny registers r for every command.
func (p *Pack) OnAny(r CmdRule) { anyCmd = insert(anyCmd, reg{p, r}) }

// hasRules reports whether any pack registered a rule for the program name.
func hasRules(name string) bool { return len(rulesFor(name)) > 0 }
