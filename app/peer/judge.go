package peer

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// The fallback judge, agent-guard-judge, lives in the hook's own folder:
// the hook execs it when no verified server answers. Its place is fixed
// (no flag or config names it), so nothing the agent can edit points the
// hook at another program; the folder is protected like the hook itself
// (app/protect), and install --system makes it root-owned.

// JudgeBase is the judge's file name without ".exe".
const JudgeBase = "agent-guard-judge"

// JudgeName is the judge's file name on this system.
func JudgeName() string {
	if runtime.GOOS == "windows" {
		return JudgeBase + ".exe"
	}
	return JudgeBase
}

// JudgeBeside is the judge's path for the hook binary at hook.
func JudgeBeside(hook string) string {
	return filepath.Join(filepath.Dir(hook), JudgeName())
}

// SelfPath is the running executable with symlinks resolved: the hook's
// real folder, where the installer put the judge.
func SelfPath() (string, error) {
	self, err := os.Executable()
	if err != nil {
		return "", err
	}
	if r, err := filepath.EvalSymlinks(self); err == nil {
		self = r
	}
	return self, nil
}

// ErrJudge marks a judge binary the hook will not run.
var ErrJudge = errors.New("peer: not the genuine agent-guard-judge")

// CheckJudge tells whether judge may be run for the hook binary at hook:
// a regular file itself (not a link to somewhere else), and, where the OS
// has owners, owned by the hook's owner and not writable by everyone. It
// costs two stats, no hashing: the judge is trusted by where it is, as the
// server is trusted by which file it runs (VerifyServer), and what keeps
// an agent from replacing it is the protection of that folder.
func CheckJudge(judge, hook string) error {
	fi, err := os.Lstat(judge)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%w: %s is not a regular file (%v)", ErrJudge, judge, fi.Mode().Type())
	}
	hi, err := os.Stat(hook)
	if err != nil {
		return fmt.Errorf("%w: the hook binary %s cannot be read (%v)", ErrJudge, hook, err)
	}
	return sameOwner(judge, fi, hi)
}
