//go:build unix

package peer

import (
	"fmt"
	"os"
	"syscall"
)

// sameOwner: the judge belongs to the hook's owner (root for install
// --system) and is not world-writable.
func sameOwner(judge string, fi, hook os.FileInfo) error {
	js, ok1 := fi.Sys().(*syscall.Stat_t)
	hs, ok2 := hook.Sys().(*syscall.Stat_t)
	if !ok1 || !ok2 {
		return fmt.Errorf("%w: the owner of %s cannot be read", ErrJudge, judge)
	}
	if js.Uid != hs.Uid {
		return fmt.Errorf("%w: %s belongs to uid %d, the hook to uid %d", ErrJudge, judge, js.Uid, hs.Uid)
	}
	if fi.Mode().Perm()&0o002 != 0 {
		return fmt.Errorf("%w: %s is writable by every user (mode %v)", ErrJudge, judge, fi.Mode().Perm())
	}
	return nil
}
