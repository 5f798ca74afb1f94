package rules

import "github.com/agent-guard/agent-guard/app/judge/shell"

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

// byName maps a normalized program name to its rules; packs fill it from
// init (Pack.On), the core with on(). anyCmd rules see every command.
// Sized for the ~1,800 names the packs register, so init does not regrow
// it a dozen times (every hook fallback pays for init).
//
// Order: for one name, and among the anyCmd rules, the packs' rules run
// first, in the order of the packs' names, then the core's own (bash.go's
// baseline, fs, self-protection...), each in registration order. The
// first of two equally bad findings names the verdict, so this order is
// part of the judge's behaviour: it does not depend on the order in which
// Go happens to initialise the packs.
var (
	byName = make(map[string][]reg, 2048)
	anyCmd []reg
)

// reg is one registered rule with the pack it comes from (nil for the
// core); two words, so the slab below stays small.
type reg struct {
	pack *Pack
	rule CmdRule
}

// ruleSlab backs the one-rule lists of byName: most names have a single
// rule, and one shared array spares init an allocation per name. Each
// list is capped at its length, so a second rule for a name copies it out.
var ruleSlab = make([]reg, 0, 2048)

// on registers the core's rule r for each program name.
func on(r CmdRule, names ...string) { register(nil, r, names) }

// onAny registers the core's rule r for every command.
func onAny(r CmdRule) { anyCmd = insert(anyCmd, reg{nil, r}) }

func register(pack *Pack, r CmdRule, names []string) {
	for _, n := range names {
		if rs, ok := byName[n]; ok {
			byName[n] = insert(rs, reg{pack, r})
			continue
		}
		ruleSlab = append(ruleSlab, reg{pack, r})
		k := len(ruleSlab)
		byName[n] = ruleSlab[k-1 : k : k]
	}
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
	// Append, then shift the tail up: a list from the slab is capped at its
	// length, so append copies it out before anything moves.
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
func hasRules(name string) bool { return len(byName[name]) > 0 }
