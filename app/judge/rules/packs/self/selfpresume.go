package self

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"path"
	"strings"

	"github.com/agent-guard/agent-guard/app/protect"
)

// Self-protection that does not wait for the disk. The guard's own
// folders and the hosts' user-level hook configs are where the installer
// put them; a check that only counts them when they exist right now
// passes a glob (rm ~/.config/agent-g*) or an extraction into home
// (tar -xf x.tar -C ~) on a machine where one of them is missing at that
// moment, or in a sandbox that sees another disk. So:
//
//   - a glob whose wildcard segments keep enough of a protected name
//     (agent-g*, .clau*, setting?.json, agent-guard*) is judged as that
//     name, present or not;
//   - content that cannot be seen, copied or extracted into a folder
//     that holds the guard's files or a host's user-level hook config,
//     confirms as if they were there.

// presumedUnder is the first presumed entry that content landing in dir
// could overwrite, judged by where the installer puts them: dir is the
// home folder, the folder holding the guard's own folder (~/.config), or
// one of the two folders above a host's hook config or a login entry
// (~/.claude, ~/.zcode). Entries inside the project are left to the disk
// (a project's workspace config is judged when it exists), and wider
// folders (~/.local, where make install PREFIX=~/.local lands) to the
// other rules.
func presumedUnder(set *protect.Set, dir, cwd, home string) (protect.Entry, bool) {
	d := strings.ToLower(strings.TrimRight(dir, "/"))
	if d == "" {
		return protect.Entry{}, false
	}
	h := strings.ToLower(strings.TrimRight(rules.CleanAbs(rules.Slashify(home)), "/"))
	c := strings.ToLower(strings.TrimRight(rules.CleanAbs(rules.Slashify(cwd)), "/"))
	for _, e := range set.Under(dir) {
		if !rules.Presumed(e) {
			continue
		}
		el := strings.ToLower(e.Path)
		if c != "" && c != h && strings.HasPrefix(el, c+"/") {
			continue
		}
		up := 1
		if e.Kind == protect.HookConfig || e.Kind == protect.Autostart {
			up = 2
		}
		hit := d == h && h != ""
		for p, i := el, 0; i < up && !hit; i++ {
			p = path.Dir(p)
			hit = p == d
		}
		if hit {
			return e, true
		}
	}
	return protect.Entry{}, false
}
