//go:build !windows

package protect

// longPath: short 8.3 names exist only on Windows.
func longPath(p string) string { return p }
