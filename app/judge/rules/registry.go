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
}

// CmdRule judges one simple command; ok=false means "nothing to say".
type CmdRule func(c *shell.Cmd, x *Ctx) (f Finding, ok bool)

// byName maps a normalized program name to its rules; packs fill it from
// init with on(). anyCmd rules see every command.
var (
	byName = map[string][]CmdRule{}
	anyCmd []CmdRule
)

// on registers r for each program name.
func on(r CmdRule, names ...string) {
	for _, n := range names {
		byName[n] = append(byName[n], r)
	}
}

// onAny registers r for every command.
func onAny(r CmdRule) { anyCmd = append(anyCmd, r) }
