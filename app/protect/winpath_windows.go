package protect

import (
	"path/filepath"

	"golang.org/x/sys/windows"
)

// longPath turns 8.3 short names (C:\Users\RUNNER~1) into long ones for
// the longest part of p that exists.
func longPath(p string) string {
	cur, rest := filepath.Clean(filepath.FromSlash(p)), ""
	for i := 0; i < 64; i++ {
		if l, ok := getLong(cur); ok {
			if rest == "" {
				return l
			}
			return filepath.Join(l, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
	return p
}

func getLong(p string) (string, bool) {
	in, err := windows.UTF16PtrFromString(p)
	if err != nil {
		return "", false
	}
	buf := make([]uint16, 1024)
	n, err := windows.GetLongPathName(in, &buf[0], uint32(len(buf)))
	if err != nil || n == 0 || int(n) > len(buf) {
		return "", false
	}
	return windows.UTF16ToString(buf[:n]), true
}
