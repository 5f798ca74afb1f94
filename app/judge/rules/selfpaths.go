package rules

import (
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/agent-guard/agent-guard/app/protect"
)

// Self-protection of paths, on top of the by-pattern match of protectedN:
// the computed protected set (app/protect: this guard's own config,
// cache, audit log, socket, binaries, host hook configs, autostart
// entry), the real path behind symlinks, and globs.

// selfFinding is the block finding for a protected path.
func selfFinding(kind, p, how string) Finding {
	r := "touches " + p + how + ", part of the agent's own guard (" + kind + "): an agent must not change or switch off its own guard; ask the user to do it"
	return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self." + kind, Marked: p, Reason: r}
}

// SelfRule reports a self-protection red line by its id: the "self."
// namespace, alone or as the last step of a route ("Python/self.x" for code
// that writes a guard file, "ssh/self.x"). The namespace is the contract
// (every self.* id is a red line in the judge, and TestSelfNamespace keeps
// the catalog's self-protection entries in it); guard.* ids of the same
// category are the confirm-level ones. The one place that reads it.
func SelfRule(id string) bool {
	return strings.HasPrefix(id, "self.") || strings.Contains(id, "/self.")
}

// SelfFinding reports a self-protection red-line finding (see SelfRule).
func SelfFinding(f Finding) bool { return SelfRule(f.Rule) }

// setFor is the protected set for a call.
func setFor(cwd, home string) *protect.Set {
	c := ""
	if d := slashify(cwd); d != "" && !strings.Contains(d, "\x00") {
		c = filepath.FromSlash(cleanAbs(expand(d, slashify(home))))
		if !filepath.IsAbs(c) && !strings.HasPrefix(filepath.ToSlash(c), "/") {
			c = ""
		}
	}
	return protect.Current(home, c)
}

// protectedAll is the whole self-protection check for writing p.
func protectedAll(n np, p, cwd, home string) (Finding, bool) {
	return protectedOp(n, p, cwd, home, false)
}

// protectedOp is protectedAll for a write (del false) or for deleting,
// moving or re-permissioning p (del true): a project's host config that
// holds no entry of ours is protected from writes only (a write can
// switch the host's hooks off; removing it cannot).
func protectedOp(n np, p, cwd, home string, del bool) (Finding, bool) {
	return protectedOpAt(n, p, cwd, home, del, 0)
}

// maxSpellings bounds protectedOpAt's re-checks of other spellings of
// one path (drive form, 8.3 name, stream, trailing dots): each is a
// different name for the same file, so a few levels cover every mix, and
// a spelling that does not converge (a relative cwd joined on again
// each time) stops instead of recursing for ever.
const maxSpellings = 4

func protectedOpAt(n np, p, cwd, home string, del bool, depth int) (Finding, bool) {
	if f, ok := protectedN(n, p, home); ok {
		return f, true
	}
	if trayBinary(n) {
		return selfFinding(string(protect.Binary), p, " (the tray's binary)"), true
	}
	if depth < maxSpellings {
		if d := drivePath(n.abs); d != "" && !n.dynamic {
			if f, ok := protectedOpAt(normalize(d, cwd, home), p, cwd, home, del, depth+1); ok {
				return f, true
			}
		}
		if e := expand83(n.abs); e != n.abs && !n.dynamic {
			if f, ok := protectedOpAt(normalize(e, cwd, home), p, cwd, home, del, depth+1); ok {
				f.Reason = strings.Replace(f.Reason, "touches "+p, "touches "+p+" (the short name of "+e+")", 1)
				return f, true
			}
		}
		if b := lastSeg(n.abs); strings.Contains(b, ":") && (!n.dynamic || !strings.Contains(b[:strings.IndexByte(b, ':')], "_dyn_") && !strings.Contains(strings.TrimSuffix(n.abs, b), "_dyn_")) {
			// an NTFS stream of the file (agent-guard-hook.exe:Zone.Identifier
			// marks it as downloaded, and Windows may refuse to run it)
			if f, ok := protectedOpAt(normalize(strings.TrimSuffix(n.abs, b)+b[:strings.IndexByte(b, ':')], cwd, home), p, cwd, home, del, depth+1); ok {
				return f, true
			}
		}
		if t := trimWinTails(n.abs); t != n.abs && !n.dynamic {
			// Windows drops trailing dots and spaces of every name:
			// settings.json. and "settings.json " are settings.json there
			if f, ok := protectedOpAt(normalize(t, cwd, home), p, cwd, home, del, depth+1); ok {
				return f, true
			}
		}
	}
	if n.dynamic || !rootedAbs(n.abs) {
		return Finding{}, false
	}
	set := setFor(cwd, home)
	if e, ok := set.Lookup(n.abs); ok {
		if del && e.WriteOnly {
			// Removing the project's own host settings takes its permission
			// rules away, not the guard: the user decides.
			return Finding{Risk: 2, Violation: 0.6, Rule: "guard.host-settings", Marked: p,
				Reason: "removes " + p + ", the agent host's settings for this project (its permission rules go with it; it holds no hook of agent-guard's)"}, true
		}
		return selfFinding(string(e.Kind), p, ""), true
	}
	real, resolved := "", false // realPath(n.abs), resolved at most once (it stats every level)
	if hostConfigShaped(n.low) && !strings.HasPrefix(n.abs, "~") {
		// A host config anywhere that runs our hook (a workspace install
		// in another project, a copy the host was pointed at).
		real, resolved = realPath(n.abs), true
		if protect.CarriesHook(filepath.FromSlash(real)) {
			return selfFinding(string(protect.HookConfig), p, " (it holds agent-guard's hook entry)"), true
		}
	}
	if hasGlob(n.abs) {
		return globProtected(set, n.abs, p, home, false)
	}
	if !resolved {
		real = realPath(n.abs)
	}
	if r := real; r != n.abs {
		if f, ok := protectedN(normalize(r, "", home), p, home); ok {
			f.Reason = strings.Replace(f.Reason, "touches "+p, "touches "+p+" (a link to "+r+")", 1)
			return f, true
		}
		if e, ok := set.Lookup(r); ok {
			return selfFinding(string(e.Kind), p, " (a link to "+r+")"), true
		}
	}
	return Finding{}, false
}

// protectedBelow: deleting, moving or re-permissioning the folder p
// reaches a protected path (the folder holding the hook, the socket's
// folder, ~/.claude through a link, ~/.cl*).
func protectedBelow(n np, p, cwd, home string) (Finding, bool) {
	if n.dynamic || !rootedAbs(n.abs) || n.low == "/" || n.low == n.lowHome {
		return Finding{}, false
	}
	set := setFor(cwd, home)
	if hasGlob(n.abs) {
		return globProtected(set, n.abs, p, home, true)
	}
	for _, d := range []string{n.abs, realPath(n.abs)} {
		if e, ok := existingUnder(set, d); ok {
			return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.guard-tree", Marked: p,
				Reason: "changes " + p + ", which holds " + e.Path + " (" + string(e.Kind) + " of the agent's own guard): an agent must not switch off its own guard; ask the user to do it"}, true
		}
	}
	return Finding{}, false
}

// existingUnder is the first protected entry at or below dir that exists
// (caches excepted: removing them only costs speed).
func existingUnder(set *protect.Set, dir string) (protect.Entry, bool) {
	for _, e := range set.Under(dir) {
		if e.Kind != protect.GuardCache && !e.WriteOnly && exists(e.Path) {
			return e, true
		}
	}
	return protect.Entry{}, false
}

func exists(p string) bool {
	_, err := os.Lstat(filepath.FromSlash(p))
	return err == nil
}

func hasGlob(p string) bool { return strings.ContainsAny(p, "*?[") }

// globProtected matches the glob g against every protected name, and
// expands it on disk; tree also counts a match on a folder holding one.
func globProtected(set *protect.Set, g, p, home string, tree bool) (Finding, bool) {
	// A glob only expands to what exists (else the shell passes it as
	// written, a harmless literal name); so only existing names count.
	lg := strings.ToLower(g)
	for _, e := range set.Entries {
		if tree && e.Kind == protect.GuardCache {
			continue // clearing caches (rm -rf ~/.cache/*) only costs speed
		}
		if globHits(lg, e, tree) && exists(e.Path) {
			return selfFinding(string(e.Kind), p, " (the pattern matches "+e.Path+")"), true
		}
	}
	// Protected by pattern: ~/.claude/settings*.json, ~/.zcode/.../config.json, ...
	if h := slashify(home); h != "" {
		for _, c := range []string{"/.claude/settings.json", "/.claude/settings.local.json", "/.zcode/cli/config.json", "/.zcode/config.json", "/.agentguardrc"} {
			if globHits(lg, protect.Entry{Path: cleanAbs(h) + c, Kind: protect.HookConfig}, tree) && exists(cleanAbs(h)+c) {
				return selfFinding(string(protect.HookConfig), p, " (the pattern matches ~"+c+")"), true
			}
		}
	}
	if f, ok := globByName(set, lg, p, home, tree); ok {
		return f, true
	}
	var ms []string
	if wild := strings.Count(g, "*") + strings.Count(g, "?") + strings.Count(g, "["); wild > 4 {
		// ~/.c*/a*-g*/c*.json: expanded a level at a time with a bound on
		// the folders read, so a pattern cannot make the judge read half
		// the disk, and a guard file it reaches is still found
		ms = boundedGlob(filepath.FromSlash(g), 64)
	} else {
		ms, _ = filepath.Glob(filepath.FromSlash(g))
	}
	for i, m := range ms {
		if i >= 256 {
			break
		}
		m = filepath.ToSlash(m)
		if f, ok := protectedN(normalize(m, "", home), m, home); ok {
			f.Marked = p
			return f, true
		}
		if e, ok := set.Lookup(m); ok {
			return selfFinding(string(e.Kind), p, " (it expands to "+m+")"), true
		}
		if tree {
			if e, ok := existingUnder(set, m); ok {
				return selfFinding(string(e.Kind), p, " (it expands to "+m+", which holds "+e.Path+")"), true
			}
		}
	}
	return Finding{}, false
}

// globHits matches the lower-case glob g segment by segment against the
// entry: the entry itself, a path inside a tree entry, or (tree) a
// folder above it.
func globHits(g string, e protect.Entry, tree bool) bool {
	gs := strings.Split(g, "/")
	es := strings.Split(strings.ToLower(e.Path), "/")
	switch {
	case len(gs) == len(es):
	case len(gs) > len(es):
		if !e.Tree {
			return false
		}
		gs = gs[:len(es)]
	default:
		if !tree {
			return false
		}
		es = es[:len(gs)]
	}
	for i := range gs {
		if strings.HasPrefix(es[i], ".") && !strings.HasPrefix(gs[i], ".") {
			return false // the shell's * and ? never match a leading dot
		}
		if ok, _ := path.Match(gs[i], es[i]); !ok {
			return false
		}
	}
	return true
}

// realPath resolves symlinks in p and in every parent, also when the
// last link dangles or the file does not exist yet (a Write creates it
// through the link). It returns p when nothing resolves.
func realPath(p string) string {
	orig := p
	p = filepath.FromSlash(p)
	for hops := 0; hops < 16; hops++ {
		cur, rest := p, ""
		for {
			if _, err := os.Lstat(cur); err == nil {
				break
			}
			parent := filepath.Dir(cur)
			if parent == cur {
				return orig
			}
			rest = filepath.Join(filepath.Base(cur), rest)
			cur = parent
		}
		r, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.ToSlash(filepath.Join(r, rest))
		}
		t, err := os.Readlink(cur) // a dangling link: follow it by hand
		if err != nil {
			return orig
		}
		if !filepath.IsAbs(t) {
			t = filepath.Join(filepath.Dir(cur), t)
		}
		p = filepath.Join(t, rest)
	}
	return orig
}

// hostSettingsDir: removing the folder that holds the project's own host
// settings (rm -rf .claude) confirms like removing the file; a bigger
// delete (rm -rf .) is left to the delete rules.
func hostSettingsDir(n np, p, cwd, home string) (Finding, bool) {
	if n.dynamic || !rootedAbs(n.abs) || n.low == "/" || n.low == n.lowHome {
		return Finding{}, false
	}
	for _, e := range setFor(cwd, home).Under(n.abs) {
		if e.WriteOnly && strings.EqualFold(path.Dir(e.Path), n.abs) {
			return Finding{Risk: 2, Violation: 0.6, Rule: "guard.host-settings", Marked: p,
				Reason: "removes " + p + ", which holds the agent host's settings for this project (its permission rules go with it; they hold no hook of agent-guard's)"}, true
		}
	}
	return Finding{}, false
}

// rootedAbs: a normalized path the protected set can be asked about
// (/x, C:/x; on Windows a path rooted without a drive counts too, as
// hosts send them). "~" paths have no home to resolve against.
func rootedAbs(p string) bool {
	return isAbs(p) && !strings.HasPrefix(p, "~")
}

// selfInCode judges each piece of code a command stores or hands on (a
// cron line, a unit's ExecStart, a package script) as a Bash line and
// returns the first self-protection finding, with the code that gave it.
// Pieces longer than max bytes are skipped (the line's own text bounds
// what it can store).
func selfInCode(codes []string, cwd, home string, max int) (Finding, string, bool) {
	for _, code := range codes {
		if len(code) > max {
			continue
		}
		if f := Bash(code, cwd, home); SelfFinding(f) {
			return f, code, true
		}
	}
	return Finding{}, "", false
}

// trimWinTails removes the trailing dots and spaces Windows ignores from
// each name of p (not from . and ..).
func trimWinTails(p string) string {
	if !strings.HasSuffix(p, ".") && !strings.HasSuffix(p, " ") && !strings.Contains(p, "./") && !strings.Contains(p, " /") {
		return p // the common case
	}
	segs := strings.Split(p, "/")
	for i, s := range segs {
		if s == "." || s == ".." {
			continue
		}
		if t := strings.TrimRight(s, ". "); t != "" {
			segs[i] = t
		}
	}
	return strings.Join(segs, "/")
}

// boundedGlob expands pattern like filepath.Glob, one path element at a
// time, reading at most maxDirs folders; what lies beyond the bound is
// not listed.
func boundedGlob(pattern string, maxDirs int) []string {
	vol := filepath.VolumeName(pattern)
	rest := pattern[len(vol):]
	root := vol
	if strings.HasPrefix(rest, string(filepath.Separator)) {
		root += string(filepath.Separator)
	}
	parts := strings.Split(strings.Trim(rest, string(filepath.Separator)), string(filepath.Separator))
	cur := []string{root}
	reads := 0
	for _, part := range parts {
		var next []string
		for _, dir := range cur {
			if !strings.ContainsAny(part, "*?[") {
				p := filepath.Join(dir, part)
				if _, err := os.Lstat(p); err == nil {
					next = append(next, p)
				}
				continue
			}
			if reads >= maxDirs {
				break
			}
			reads++
			d := dir
			if d == "" {
				d = "."
			}
			entries, err := os.ReadDir(d)
			if err != nil {
				continue
			}
			for _, e := range entries {
				if ok, _ := filepath.Match(part, e.Name()); ok && (e.Name()[0] != '.' || part[0] == '.') {
					next = append(next, filepath.Join(dir, e.Name()))
				}
			}
		}
		cur = next
		if len(cur) == 0 || len(cur) > 4096 {
			return nil
		}
	}
	return cur
}
