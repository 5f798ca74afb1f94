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
// init with on(). anyCmd rules see every command. Sized for the ~1,800
// names the packs register, so init does not regrow it a dozen times
// (every hook fallback pays for init).
var (
	byName = make(map[string][]CmdRule, 2048)
	anyCmd []CmdRule
)

// ruleSlab backs the one-rule lists of byName: most names have a single
// rule, and one shared array spares init an allocation per name. Each
// list is capped at its length, so a second rule for a name copies it out.
var ruleSlab = make([]CmdRule, 0, 2048)

// on registers r for each program name.
func on(r CmdRule, names ...string) {
	for _, n := range names {
		if rs, ok := byName[n]; ok {
			byName[n] = append(rs, r)
			continue
		}
		ruleSlab = append(ruleSlab, r)
		k := len(ruleSlab)
		byName[n] = ruleSlab[k-1 : k : k]
	}
}

// onAny registers r for every command.
func onAny(r CmdRule) { anyCmd = append(anyCmd, r) }
