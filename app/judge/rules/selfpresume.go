package rules

import (
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

// presumed: an entry that is the guard's by where it lies, so its absence
// now says nothing (caches only cost speed; a project's host settings
// without our hook are not the guard's).
func presumed(e protect.Entry) bool {
	if e.WriteOnly {
		return false
	}
	switch e.Kind {
	case protect.GuardFiles, protect.AuditLog, protect.HookConfig, protect.Autostart, protect.Binary:
		return true
	}
	return false
}

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
	h := strings.ToLower(strings.TrimRight(cleanAbs(slashify(home)), "/"))
	c := strings.ToLower(strings.TrimRight(cleanAbs(slashify(cwd)), "/"))
	for _, e := range set.Under(dir) {
		if !presumed(e) {
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

// guardBinaryNames are the guard's executables by name: a glob that
// matches one of them writes or removes it wherever it lies.
var guardBinaryNames = []string{"agent-guard-hook", "agent-guard-hook.exe", "agent-guard-judge",
	"agent-guard-judge.exe", "agent-guard.exe"}

// literalEnough: every segment of g that has a wildcard keeps at least
// four characters of the name it stands for (agent-g*, .clau*), so the
// pattern was written for that name; * alone or .c* could mean anything.
func literalEnough(seg string) bool {
	if !hasGlob(seg) {
		return true
	}
	lit := 0
	in := false
	for _, r := range seg {
		switch {
		case r == '[':
			in = true
		case r == ']':
			in = false
		case in || r == '*' || r == '?':
		default:
			lit++
		}
	}
	return lit >= 4
}

// globByName judges the lower-case glob g by the protected names alone.
func globByName(set *protect.Set, g, p, home string, tree bool) (Finding, bool) {
	for _, s := range strings.Split(g, "/") {
		if !literalEnough(s) {
			return Finding{}, false
		}
	}
	for _, e := range set.Entries {
		if !presumed(e) || !strings.HasPrefix(strings.ToLower(e.Path), strings.ToLower(slashify(home))+"/") {
			continue
		}
		if globHits(g, e, tree) {
			return selfFinding(string(e.Kind), p, " (the pattern matches "+e.Path+")"), true
		}
	}
	if h := slashify(home); h != "" {
		for _, c := range []string{"/.claude/settings.json", "/.claude/settings.local.json", "/.zcode/cli/config.json", "/.agentguardrc"} {
			if globHits(g, protect.Entry{Path: cleanAbs(h) + c, Kind: protect.HookConfig}, tree) {
				return selfFinding(string(protect.HookConfig), p, " (the pattern matches ~"+c+")"), true
			}
		}
	}
	// a binary's name by pattern: enough of it to mean the guard (agent-g*,
	// *guard-hook*), not any agent-* tool
	if base := lastSeg(g); hasGlob(base) && (strings.Contains(base, "guard") || strings.Contains(base, "agent-g")) {
		for _, b := range guardBinaryNames {
			if ok, _ := path.Match(base, b); ok {
				return selfFinding(string(protect.Binary), p, " (the pattern matches "+b+")"), true
			}
		}
	}
	return Finding{}, false
}
