package disk

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// repo is what the judge knows of one git work tree, valid while its
// index file and HEAD stay the same (the cache key).
type repo struct {
	root, gitDir string
	key          string
	ix           *index
	ixErr        error
	// staged: paths whose index entry differs from HEAD (new files added
	// but never committed, staged edits); nil with stagedErr set when git
	// could not say in time.
	staged    map[string]bool
	stagedErr error
}

// repoCache holds one repo per work-tree root; entries are replaced
// when the key changes, and the map is bounded.
type repoCache struct {
	mu    sync.Mutex
	repos map[string]*repo
}

const maxRepos = 64

// repoKey changes whenever git's view of tracked files may change: the
// index file (size, mtime) and HEAD (its text and the ref it names).
func repoKey(gitDir string) string {
	var b strings.Builder
	stat := func(p string) {
		if st, err := os.Stat(p); err == nil {
			b.WriteString(strconv.FormatInt(st.Size(), 10) + ":" + strconv.FormatInt(st.ModTime().UnixNano(), 10) + ";")
		} else {
			b.WriteString("-;")
		}
	}
	stat(filepath.Join(gitDir, "index"))
	head, _ := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if len(head) > 512 {
		head = head[:512]
	}
	b.Write(head)
	common := commonDir(gitDir)
	if ref, ok := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: "); ok && !strings.Contains(ref, "..") {
		stat(filepath.Join(common, filepath.FromSlash(ref)))
	}
	stat(filepath.Join(common, "packed-refs"))
	return b.String()
}

// commonDir is the repository's shared folder (linked worktrees keep
// refs and objects there; their own git dir has the index and HEAD).
func commonDir(gitDir string) string {
	b, err := os.ReadFile(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	p := strings.TrimSpace(string(b))
	if !filepath.IsAbs(p) {
		p = filepath.Join(gitDir, p)
	}
	return p
}

func sha256Repo(gitDir string) bool {
	b, err := os.ReadFile(filepath.Join(commonDir(gitDir), "config"))
	if err != nil {
		return false
	}
	return bytes.Contains(bytes.ToLower(b), []byte("objectformat = sha256"))
}

// get returns the repo state for root, reading the index and asking git
// for the staged set only when the key changed.
func (rc *repoCache) get(ctx context.Context, root, gitDir string) *repo {
	key := repoKey(gitDir)
	rc.mu.Lock()
	r := rc.repos[root]
	rc.mu.Unlock()
	if r != nil && r.key == key && r.stagedErr == nil && r.ixErr == nil {
		return r
	}
	r = &repo{root: root, gitDir: gitDir, key: key}
	r.ix, r.ixErr = readIndex(filepath.Join(gitDir, "index"), sha256Repo(gitDir))
	if os.IsNotExist(r.ixErr) {
		r.ix, r.ixErr = &index{entries: map[string]entry{}}, nil // a fresh repo: nothing tracked yet
	}
	if r.ixErr == nil {
		r.staged, r.stagedErr = stagedPaths(ctx, root, gitDir, r.ix)
	}
	rc.mu.Lock()
	if rc.repos == nil || len(rc.repos) >= maxRepos {
		rc.repos = map[string]*repo{}
	}
	rc.repos[root] = r
	rc.mu.Unlock()
	return r
}

// gitEnv keeps git from taking locks or running helpers while the judge
// asks it something (a hostile repo could set core.fsmonitor to a command).
var gitArgs = []string{"-c", "core.fsmonitor=false", "-c", "core.untrackedCache=false", "--no-optional-locks"}

// stagedPaths asks git which index entries differ from HEAD. A repo
// without a commit has everything staged only.
func stagedPaths(ctx context.Context, root, gitDir string, ix *index) (map[string]bool, error) {
	head, _ := os.ReadFile(filepath.Join(gitDir, "HEAD"))
	if ref, ok := strings.CutPrefix(strings.TrimSpace(string(head)), "ref: "); ok && !strings.Contains(ref, "..") {
		if _, err := os.Stat(filepath.Join(commonDir(gitDir), filepath.FromSlash(ref))); err != nil && !packedRef(gitDir, ref) {
			all := make(map[string]bool, len(ix.entries))
			for p := range ix.entries {
				all[p] = true
			}
			return all, nil // unborn branch: no commit yet
		}
	}
	args := append(append([]string{"-C", root}, gitArgs...), "diff-index", "--cached", "--name-only", "-z", "--no-renames", "HEAD", "--")
	cmd := exec.CommandContext(ctx, "git", args...)
	cmd.Env = append(os.Environ(), "GIT_OPTIONAL_LOCKS=0", "GIT_TERMINAL_PROMPT=0", "GIT_PAGER=cat", "GIT_EXTERNAL_DIFF=")
	cmd.WaitDelay = 50 * time.Millisecond
	out, err := cmd.Output()
	if err != nil {
		if ctx.Err() != nil {
			return nil, errBudget
		}
		return nil, err
	}
	m := map[string]bool{}
	for _, p := range bytes.Split(out, []byte{0}) {
		if len(p) > 0 {
			m[string(p)] = true
		}
	}
	return m, nil
}

func packedRef(gitDir, ref string) bool {
	b, err := os.ReadFile(filepath.Join(commonDir(gitDir), "packed-refs"))
	return err == nil && bytes.Contains(b, []byte(" "+ref+"\n"))
}
