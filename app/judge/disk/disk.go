// Package disk is the one place the judge looks at the machine: git's
// view of what a deletion would lose, how many files a glob or a find
// hits, and the content of a script or recipe about to run. Every look
// has a time budget; a look that runs over it, or fails, says so, and
// the rules then confirm (never allow).
//
// The rules reach it through a *Looker in their context; a nil Looker
// means "text only" (the labelled corpora, and calls that need no state
// pay nothing).
package disk

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// Defaults: one call's whole look at the disk, and the most entries a
// walk visits before it reports "more than N".
const (
	DefaultBudget = 40 * time.Millisecond
	MaxEntries    = 50000
	MaxScript     = 1 << 20 // bytes of a script or recipe read
)

var errBudget = errors.New("the look at the disk took longer than its time budget")

// ErrBudget reports a lookup that ran over its time budget.
func ErrBudget(err error) bool { return errors.Is(err, errBudget) }

// Looker answers the rules' questions about the disk. Safe for
// concurrent use. The zero value is not usable: use New.
type Looker struct {
	Budget time.Duration
	repos  *repoCache
	// Scratch reports files the agent itself wrote in this session (not
	// the user's data); nil: none known.
	Scratch func(abs string) bool
	// Temp are folders whose files are scratch (the system's temporary
	// folders by default; tests that need "outside git" clear it).
	Temp []string
}

// New returns a Looker with the given budget per call (0: the default).
func New(budget time.Duration) *Looker {
	if budget <= 0 {
		budget = DefaultBudget
	}
	return &Looker{Budget: budget, repos: &repoCache{}, Temp: tempDirs()}
}

// WithScratch returns a Looker sharing l's caches whose Scratch is f.
func (l *Looker) WithScratch(f func(abs string) bool) *Looker {
	if l == nil {
		return nil
	}
	return &Looker{Budget: l.Budget, Scratch: f, repos: l.repos, Temp: l.Temp}
}

// Class is what deleting a file would lose.
type Class int

const (
	Clean       Class = iota // tracked, unchanged: git can bring it back
	Modified                 // tracked with uncommitted changes
	Staged                   // added or changed in the index, not committed
	Untracked                // in a work tree but not in git (ignored files included)
	Regenerable              // build output, caches, dependencies
	Scratch                  // written by the agent this session, or in a temp folder
	Outside                  // not in any git work tree: recoverability unknown
	Unknown                  // git could not tell in time
	nClasses
)

var classWords = [nClasses]string{"tracked and unchanged", "modified", "staged only", "untracked", "regenerable", "scratch", "not under version control", "of unknown state"}

func (c Class) String() string { return classWords[c] }

// Lost reports whether deleting a file of this class loses the user's data.
func (c Class) Lost() bool {
	return c == Modified || c == Staged || c == Untracked || c == Outside || c == Unknown
}

// Query is one set of files a command would change.
type Query struct {
	Cwd     string   // where relative targets resolve
	Targets []string // paths or glob patterns (bash globs: * ? [...])
	// Recursive: a target folder counts with everything under it.
	Recursive bool
	// Match, when set, selects entries under the targets (find's
	// predicates): rel is the path below the target, slash-separated.
	// A matched folder counts with everything under it when Recursive.
	Match func(abs, rel, name string, dir bool) bool
	// OneRepo: only the files of the work tree that holds Cwd count. Git
	// (reset --hard, checkout, restore) acts on the repository it finds
	// from its folder: a repository nested below, or files outside any,
	// are not touched, and with no repository at Cwd git changes nothing.
	OneRepo bool
}

// Report is what a Query would hit.
type Report struct {
	Files   int
	Bytes   int64
	ByClass [nClasses]int
	// LostBytes: bytes of files whose class is Lost.
	LostBytes int64
	// GitDirs: .git folders among the targets (history itself).
	GitDirs int
	// More: the walk stopped at MaxEntries; the counts are a floor.
	More bool
	// Err: the look failed or ran over budget (the counts are partial).
	Err error
}

// Lost is the number of files whose loss cannot be undone.
func (r *Report) Lost() int {
	n := 0
	for c := Class(0); c < nClasses; c++ {
		if c.Lost() {
			n += r.ByClass[c]
		}
	}
	return n
}

// Assess walks q's targets and classifies every file hit.
func (l *Looker) Assess(q Query) Report {
	ctx, cancel := context.WithTimeout(context.Background(), l.Budget)
	defer cancel()
	a := assessor{l: l, ctx: ctx, deadline: time.Now().Add(l.Budget), cwd: q.Cwd}
	if q.OneRepo {
		root, _, ok := gitDirs(filepath.Clean(q.Cwd))
		if !ok {
			return a.rep // git finds no repository there: it changes nothing
		}
		a.oneRoot = root
	}
	for _, t := range q.Targets {
		if a.rep.Err != nil || a.rep.More {
			break
		}
		a.target(q, t)
	}
	return a.rep
}

type assessor struct {
	l        *Looker
	ctx      context.Context
	deadline time.Time
	rep      Report
	cwd      string
	visited  int
	// one repo lookup per folder: most targets share one
	lastDir  string
	lastRepo *repo
	lastRoot string
	// oneRoot: with Query.OneRepo, the work tree whose files count.
	oneRoot string
}

func (a *assessor) target(q Query, t string) {
	p := t
	if strings.HasPrefix(p, "~") {
		home, _ := os.UserHomeDir()
		p = home + p[1:]
	}
	if !filepath.IsAbs(p) {
		if q.Cwd == "" {
			a.rep.Err = errors.New("relative path without a working folder")
			return
		}
		p = filepath.Join(q.Cwd, p)
	}
	var paths []string
	if hasGlob(p) {
		m, err := filepath.Glob(p)
		if err != nil {
			a.rep.Err = err
			return
		}
		// Like bash, * and ? do not match a leading dot.
		dotOK := strings.HasPrefix(filepath.Base(p), ".")
		for _, x := range m {
			if dotOK || !strings.HasPrefix(filepath.Base(x), ".") {
				paths = append(paths, x)
			}
		}
	} else {
		paths = []string{filepath.Clean(p)}
	}
	for _, p := range paths {
		st, err := os.Lstat(p)
		if err != nil {
			continue // nothing there: nothing lost
		}
		if q.Match != nil {
			if st.IsDir() {
				a.walkMatch(q, p, p)
			}
			continue
		}
		a.entry(q, p, st, q.Recursive)
	}
}

// entry counts p (and, for a folder when recursive, what is under it).
func (a *assessor) entry(q Query, p string, st os.FileInfo, recursive bool) {
	if a.stop() {
		return
	}
	if st.IsDir() {
		if filepath.Base(p) == ".git" {
			a.rep.GitDirs++
			return
		}
		if !recursive || a.otherRepo(p) {
			return
		}
		ents, err := os.ReadDir(p)
		if err != nil {
			return
		}
		for _, e := range ents {
			fi, err := e.Info()
			if err != nil {
				continue
			}
			a.entry(q, filepath.Join(p, e.Name()), fi, true)
			if a.rep.Err != nil || a.rep.More {
				return
			}
		}
		return
	}
	a.file(p, st)
}

// walkMatch visits everything under start, counting what q.Match selects.
func (a *assessor) walkMatch(q Query, start, dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range ents {
		if a.stop() || a.rep.Err != nil || a.rep.More {
			return
		}
		p := filepath.Join(dir, e.Name())
		rel, _ := filepath.Rel(start, p)
		rel = filepath.ToSlash(rel)
		if q.Match(p, rel, e.Name(), e.IsDir()) {
			if fi, err := e.Info(); err == nil { // stat only what matched
				a.entry(q, p, fi, q.Recursive)
			}
			continue
		}
		if e.IsDir() && e.Name() != ".git" {
			a.walkMatch(q, start, p)
		}
	}
}

func (a *assessor) stop() bool {
	a.visited++
	if a.visited > MaxEntries {
		a.rep.More = true
		return true
	}
	if a.visited%128 == 0 && time.Now().After(a.deadline) {
		a.rep.Err = errBudget
		return true
	}
	return a.rep.Err != nil
}

// otherRepo: with Query.OneRepo, the folder p is not in the counted work
// tree (outside it, or the root of a repository nested in it).
func (a *assessor) otherRepo(p string) bool {
	if a.oneRoot == "" {
		return false
	}
	if p != a.oneRoot && !strings.HasPrefix(p, a.oneRoot+string(os.PathSeparator)) {
		return !strings.HasPrefix(a.oneRoot, p+string(os.PathSeparator)) // p holds the root: walk on down to it
	}
	if p == a.oneRoot {
		return false
	}
	_, err := os.Lstat(filepath.Join(p, ".git"))
	return err == nil
}

func (a *assessor) file(p string, st os.FileInfo) {
	if a.oneRoot != "" && !strings.HasPrefix(p, a.oneRoot+string(os.PathSeparator)) {
		return // outside the work tree git acts on
	}
	c := a.classify(p, st)
	a.rep.Files++
	a.rep.Bytes += st.Size()
	a.rep.ByClass[c]++
	if c.Lost() {
		a.rep.LostBytes += st.Size()
	}
}

// classify decides what deleting the file at p would lose.
func (a *assessor) classify(p string, st os.FileInfo) Class {
	if a.l.Scratch != nil && a.l.Scratch(p) {
		return Scratch
	}
	dir := filepath.Dir(p)
	if dir != a.lastDir {
		inLast := a.lastRepo != nil && strings.HasPrefix(dir, a.lastRoot+string(os.PathSeparator))
		a.lastDir = dir
		if !inLast {
			// A folder below the last work tree's root is in it (walks
			// visit thousands of folders of one repository).
			a.lastRepo, a.lastRoot = nil, ""
			if root, gitDir, ok := gitDirs(dir); ok {
				a.lastRepo = a.l.repos.get(a.ctx, root, gitDir)
				a.lastRoot = root
			}
		}
	}
	r := a.lastRepo
	if r == nil {
		if rel, err := filepath.Rel(a.cwd, p); a.cwd != "" && err == nil && !strings.HasPrefix(rel, "..") && Regenerated(rel) {
			return Regenerable
		}
		if inTemp(p, a.l.Temp) {
			return Scratch
		}
		return Outside
	}
	if r.ixErr != nil {
		a.setErr(r.ixErr)
		return Unknown
	}
	rel, err := filepath.Rel(r.root, p)
	if err != nil {
		return Unknown
	}
	rel = filepath.ToSlash(rel)
	e, tracked := r.ix.entries[rel]
	if !tracked {
		if Regenerated(rel) {
			return Regenerable
		}
		return Untracked
	}
	if r.stagedErr != nil {
		a.setErr(r.stagedErr)
		return Unknown
	}
	if r.staged[rel] {
		return Staged
	}
	if st.Mode()&os.ModeSymlink != 0 || st.Mode()&os.ModeType != 0 {
		return Clean // a symlink or special file: its target is not deleted
	}
	racy := st.ModTime().UnixNano() >= r.ix.written
	if e.sameStat(st) && !racy {
		return Clean
	}
	if int64(e.size) != st.Size()&0xffffffff {
		return Modified
	}
	if st.Size() > 8<<20 || time.Now().After(a.deadline) {
		return Modified // not hashed: counted as changed
	}
	if e.sameContent(p, st.Size(), r.ix.sha256) {
		return Clean
	}
	return Modified
}

func (a *assessor) setErr(err error) {
	if a.rep.Err == nil {
		a.rep.Err = err
	}
}

func hasGlob(p string) bool { return strings.ContainsAny(p, "*?[") }

// inTemp: the system's temporary folders hold scratch by definition.
func inTemp(p string, temp []string) bool {
	for _, t := range temp {
		if t != "" && (p == t || strings.HasPrefix(p, t+string(os.PathSeparator))) {
			return true
		}
	}
	return false
}

func tempDirs() []string {
	ds := []string{filepath.Clean(os.TempDir())}
	if runtime.GOOS != "windows" {
		ds = append(ds, "/tmp", "/var/tmp", "/dev/shm")
	}
	return ds
}

func isAbs(p string) bool       { return filepath.IsAbs(p) }
func parentDir(d string) string { return filepath.Dir(d) }

// ReadFile reads up to MaxScript bytes of a script or recipe; a file
// that is larger is an error (its payload could sit past the cut).
func ReadFile(p string) ([]byte, error) {
	st, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, errors.New(p + " is not a regular file")
	}
	if st.Size() > MaxScript {
		return nil, errors.New(p + " is larger than 1 MiB")
	}
	return os.ReadFile(p)
}
