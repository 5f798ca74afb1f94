// Package depend knows what a running guard depends on besides its own
// config: the host hook entries it installed and its binaries. Snapshot
// records them when the tray starts; Check says, in words, what changed
// behind the guard's back since (an entry removed or rewritten, ZCode's
// hooks.enabled off, a later hook that would override ours, a binary
// whose hash changed); Restore puts the hook entries back. The host table
// is app/install's (every host it can install into), not a list here.
package depend

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agent-guard/agent-guard/app/install"
	"github.com/agent-guard/agent-guard/app/peer"
)

// StatusFile, beside config.json, holds what the running tray found
// changed behind its back ({"at": ..., "problems": [...]}), for
// `agent-guard doctor`; the tray removes it when all is as installed.
const StatusFile = "unguarded.json"

// Entry is one host config that held our hook entry at the snapshot.
type Entry struct {
	Target install.Target
	In     install.Installed
}

// Binary is one of the guard's executables and its SHA-256.
type Binary struct {
	Path, Sum string
}

// Baseline is what the guard depended on when the snapshot was taken.
type Baseline struct {
	Entries  []Entry
	Binaries []Binary
}

// Problem is one change found by Check.
type Problem struct {
	Text string
	// Entry is the hook entry Restore can put back; nil for a binary
	// (a replaced binary cannot be restored from here).
	Entry *Entry
}

// Snapshot inspects every host config app/install knows and hashes the
// hook binaries named there, the fallback judge beside each, plus extra
// (the tray's own executable).
func Snapshot(extra ...string) Baseline {
	var b Baseline
	targets, _ := install.TargetsFor(install.AllHosts(), "")
	seen := map[string]bool{}
	addBin := func(p string) {
		if p == "" || seen[p] {
			return
		}
		seen[p] = true
		sum, _ := fileSum(p)
		b.Binaries = append(b.Binaries, Binary{Path: p, Sum: sum})
	}
	for _, t := range targets {
		in := inspect(t)
		if in == nil {
			continue
		}
		b.Entries = append(b.Entries, Entry{Target: t, In: *in})
		addBin(in.Command)
		// The hook execs the fallback judge beside it: a replaced judge is
		// as bad as a replaced hook. (A missing one is doctor's to report.)
		if filepath.IsAbs(in.Command) {
			real := in.Command
			if r, err := filepath.EvalSymlinks(real); err == nil {
				real = r
			}
			if j := peer.JudgeBeside(real); fileExists(j) {
				addBin(j)
			}
		}
	}
	for _, p := range extra {
		if p == "" {
			continue
		}
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real
		}
		addBin(p)
	}
	return b
}

func inspect(t install.Target) *install.Installed {
	data, err := os.ReadFile(t.Path)
	if err != nil {
		return nil
	}
	in, err := install.Inspect(t.Host, data)
	if err != nil {
		return nil
	}
	return in
}

// Dirs are the folders to watch for changes (each config's and binary's).
func (b Baseline) Dirs() []string {
	var ds []string
	for _, e := range b.Entries {
		ds = append(ds, filepath.Dir(e.Target.Path))
	}
	for _, bin := range b.Binaries {
		ds = append(ds, filepath.Dir(bin.Path))
	}
	slices.Sort(ds)
	return slices.Compact(ds)
}

// Watched reports whether a change of the file at path can matter: it
// is one of the hook configs or binaries (other files in their folders,
// such as a host's session files, are ignored, so a busy folder costs
// nothing).
func (b Baseline) Watched(path string) bool {
	path = filepath.Clean(path)
	for _, e := range b.Entries {
		if filepath.Clean(e.Target.Path) == path {
			return true
		}
	}
	for _, bin := range b.Binaries {
		if filepath.Clean(bin.Path) == path {
			return true
		}
	}
	return false
}

// Check compares the disk with the baseline and lists what changed.
func (b Baseline) Check() []Problem {
	var ps []Problem
	for i := range b.Entries {
		e := &b.Entries[i]
		where := e.Target.Label + " (" + e.Target.Path + ")"
		now := inspect(e.Target)
		switch {
		case now == nil:
			ps = append(ps, Problem{Text: "our hook entry was removed from " + where + ": that host runs its tools unguarded", Entry: e})
			continue
		case now.Command != e.In.Command || !slices.Equal(now.Args, e.In.Args):
			ps = append(ps, Problem{Text: fmt.Sprintf("our hook entry in %s was changed: it now runs %s %s", where, now.Command, strings.Join(now.Args, " ")), Entry: e})
		}
		if e.In.Enabled && !now.Enabled {
			ps = append(ps, Problem{Text: "hooks.enabled was turned off in " + where + ": ZCode runs no hooks", Entry: e})
		}
		if now.Disabled && !e.In.Disabled {
			ps = append(ps, Problem{Text: "disableAllHooks was turned on in " + where + ": the host runs no hooks", Entry: e})
		}
		if len(now.Later) > len(e.In.Later) {
			ps = append(ps, Problem{Text: fmt.Sprintf("a hook was added after ours in %s and may override our answer: %s", where, strings.Join(now.Later[len(e.In.Later):], ", ")), Entry: e})
		}
		if len(now.Missing) > len(e.In.Missing) {
			ps = append(ps, Problem{Text: fmt.Sprintf("our entry is gone from %s in %s", strings.Join(now.Missing, ", "), where), Entry: e})
		}
	}
	for _, bin := range b.Binaries {
		sum, err := fileSum(bin.Path)
		switch {
		case err != nil:
			ps = append(ps, Problem{Text: fmt.Sprintf("the guard's binary %s cannot be read any more (%v); it cannot be restored from here: reinstall agent-guard", bin.Path, err)})
		case bin.Sum != "" && sum != bin.Sum:
			ps = append(ps, Problem{Text: fmt.Sprintf("the guard's binary %s was replaced (its hash changed since the tray started); it cannot be restored from here: reinstall agent-guard, and consider 'sudo agent-guard install --system'", bin.Path)})
		}
	}
	return ps
}

// Restore reinstalls the hook entries the problems name, as they were at
// the snapshot (same hook, arguments and timeouts).
func Restore(ps []Problem) error {
	var errs []string
	done := map[string]bool{}
	for _, p := range ps {
		if p.Entry == nil || done[p.Entry.Target.Path] {
			continue
		}
		done[p.Entry.Target.Path] = true
		in := p.Entry.In
		h := install.Hook{Path: in.Command, Guard: argAfter(in.Args, "--guard"),
			Timing: install.Timing{Deadline: in.Deadline, HostTimeout: in.HostTimeout}}
		if _, err := install.Install(p.Entry.Target.Host, p.Entry.Target.Path, h, install.Options{}); err != nil {
			errs = append(errs, err.Error())
		}
	}
	if len(errs) > 0 {
		return fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return nil
}

func argAfter(args []string, flag string) string {
	for i, a := range args {
		// Shell-run hosts quote the path ("..."); the entry is rewritten quoted again.
		if a == flag && i+1 < len(args) {
			return strings.Trim(args[i+1], `"'`)
		}
		if v, ok := strings.CutPrefix(a, flag+"="); ok {
			return strings.Trim(v, `"'`)
		}
	}
	return ""
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func fileSum(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
