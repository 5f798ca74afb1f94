//go:build !windows

package autostart

// EntryPath is the login entry's file (the guard's self-protection keeps
// agents from removing or rewriting it); "" when the home is unknown.
func EntryPath() string {
	p, err := entryPath()
	if err != nil {
		return ""
	}
	return p
}
