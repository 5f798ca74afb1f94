// Package testbin lets the tests that run the real binaries use prebuilt
// ones. Normally such a test builds them with `go build`; where it cannot
// (the Windows test binaries run under wine by scripts/wine-test.sh have no
// Go toolchain inside), the script builds them first and points
// AGENT_GUARD_TEST_BIN_DIR at the folder.
package testbin

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Env names the folder of prebuilt binaries (agent-guard[.exe],
// agent-guard-hook[.exe]).
const Env = "AGENT_GUARD_TEST_BIN_DIR"

// Install copies the prebuilt binary named like dst's base name to dst.
// It reports false when Env is not set: the caller builds it itself. A
// prebuilt binary that is missing is an error, never a silent build.
func Install(dst string) (bool, error) {
	dir := os.Getenv(Env)
	if dir == "" {
		return false, nil
	}
	src := filepath.Join(dir, filepath.Base(dst))
	in, err := os.Open(src)
	if err != nil {
		return true, fmt.Errorf("%s is set, but the prebuilt binary is not there: %v", Env, err)
	}
	defer in.Close()
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return true, err
	}
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		return true, err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return true, fmt.Errorf("copying %s: %v", src, err)
	}
	return true, out.Close()
}
