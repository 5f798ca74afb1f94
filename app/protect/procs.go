package protect

import (
	"bytes"
	"debug/buildinfo"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Module is the Go module every agent-guard binary is built from.
const Module = "github.com/agent-guard/agent-guard"

// IsGuardBinary reports whether the file at p is one of the guard's
// binaries by any name: a protected binary (same file, symlinks
// resolved), or a Go program whose build info names this module (a copy,
// a rebuild). Files that are not executables cost one failed open of
// their header; answers are kept per file, size and time.
func (s *Set) IsGuardBinary(p string) bool {
	if p == "" {
		return false
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		p = r
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	for _, b := range s.Binaries() {
		if bi, err := os.Stat(b); err == nil && os.SameFile(fi, bi) {
			return true
		}
	}
	return builtFromModule(p, fi)
}

var buildCache = &fileMemo[bool]{max: 1024}

func builtFromModule(p string, fi os.FileInfo) bool {
	return buildCache.get(p, fi, func() (bool, bool) {
		bi, err := buildinfo.ReadFile(p)
		return err == nil && (bi.Main.Path == Module || strings.HasPrefix(bi.Path, Module+"/")), true
	})
}

// ProcRoot is where GuardPID reads the process table. Only tests change
// it: the judge's tests point it at a table of their own, because any
// test binary of this module counts as the guard, and on a busy machine
// one of them may hold a pid a test case names (kill -9 12345).
var ProcRoot = "/proc"

// GuardPID reports whether the process pid is agent-guard (its
// executable is a guard binary, or its command line starts one), with
// what was found for the reason. It reads /proc (Linux; elsewhere it
// cannot tell and says false).
func (s *Set) GuardPID(pid int) (string, bool) {
	if pid <= 0 {
		return "", false
	}
	dir := ProcRoot + "/" + strconv.Itoa(pid)
	if exe, err := os.Readlink(dir + "/exe"); err == nil {
		exe = strings.TrimSuffix(exe, " (deleted)")
		if OwnName(filepath.Base(exe)) || s.IsGuardBinary(exe) {
			return exe, true
		}
	}
	if cl, err := os.ReadFile(dir + "/cmdline"); err == nil {
		arg0, _, _ := bytes.Cut(cl, []byte{0})
		if a := string(arg0); a != "" && OwnName(filepath.Base(a)) {
			return a, true
		}
	}
	return "", false
}
