package disk

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// CleanSet says which files `git clean` would consider.
type CleanSet struct {
	Ignored     bool     // -x: ignored files too
	OnlyIgnored bool     // -X: only ignored files
	Pathspec    []string // the operands after the options
}

// ErrNotRepo: the folder is not inside a git work tree.
var ErrNotRepo = errors.New("not inside a git work tree")

// Untracked lists what `git clean` run in cwd would delete candidates
// for, as git itself sees them (`git ls-files --others --directory`, its
// ignore rules, nested repositories): absolute paths, an untracked folder
// as one entry ending in the path separator. Git is asked with locks and
// fsmonitor off, within the Looker's budget.
func (l *Looker) Untracked(cwd string, s CleanSet) ([]string, error) {
	if _, _, ok := gitDirs(cwd); !ok {
		return nil, ErrNotRepo
	}
	ctx, cancel := context.WithTimeout(context.Background(), l.Budget)
	defer cancel()
	args := append(append([]string{"-C", cwd}, gitArgs...), "ls-files", "-z", "--others", "--directory")
	switch {
	case s.OnlyIgnored:
		args = append(args, "--ignored", "--exclude-standard")
	case !s.Ignored:
		args = append(args, "--exclude-standard")
	}
	args = append(args, "--")
	args = append(args, s.Pathspec...)
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat")
	cmd.WaitDelay = 50 * time.Millisecond
	out, err := cmd.Output()
	if err != nil {
		if ctx.Err() != nil {
			return nil, errBudget
		}
		return nil, err
	}
	var list []string
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) == 0 {
			continue
		}
		rel := string(p)
		abs := filepath.Join(cwd, filepath.FromSlash(rel))
		if strings.HasSuffix(rel, "/") {
			abs += string(os.PathSeparator)
		}
		list = append(list, abs)
	}
	return list, nil
}

// TrackedMatching lists up to max tracked paths (slash-separated,
// relative to the work tree's root) of the work tree holding dir for
// which keep is true, from the index the disk already reads.
func (l *Looker) TrackedMatching(dir string, keep func(rel string) bool, max int) ([]string, error) {
	root, gitDir, ok := gitDirs(dir)
	if !ok {
		return nil, ErrNotRepo
	}
	ctx, cancel := context.WithTimeout(context.Background(), l.Budget)
	defer cancel()
	r := l.repos.get(ctx, root, gitDir)
	if r.ixErr != nil {
		return nil, r.ixErr
	}
	var out []string
	for p := range r.ix.entries {
		if keep(p) {
			out = append(out, p)
			if len(out) >= max {
				break
			}
		}
	}
	return out, nil
}
