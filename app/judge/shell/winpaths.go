package shell

// Windows drive paths in bash: a trailing backslash before a space or
// quote is doubled so the path survives bash's reading.

import (
	"strings"
)

// winTrailingBackslash doubles a backslash that ends a Windows drive path
// before a space, a quote or the end: bash would read C:\ -Recurse as one
// word "C: -Recurse" and "C:\" as an unclosed quote, so rd /s /q "C:\"
// lost its target. Only paths that start with a drive (X:\) are touched:
// unquoted words, and double-quoted strings that open on the drive.
func winTrailingBackslash(src string) string {
	if !strings.Contains(src, ":\\") {
		return src
	}
	var at []int // positions of backslashes to double
	quote := byte(0)
	start := 0 // where the current unquoted word or double-quoted string began
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case quote == '\'':
			if c == '\'' {
				quote = 0
			}
			continue
		case quote == 0 && strings.IndexByte(" \t\n;|&(=", c) >= 0:
			start = i + 1
			continue
		case quote == 0 && c == '\'':
			quote = c
			continue
		case c == '"':
			if quote == '"' {
				quote = 0
			} else {
				quote, start = '"', i+1
			}
			continue
		case c != '\\':
			continue
		}
		if i+1 < len(src) && src[i+1] == '\\' {
			i++
			continue
		}
		next := byte(0)
		if i+1 < len(src) {
			next = src[i+1]
		}
		end := next == 0 || next == '"' || quote == 0 && (next == ' ' || next == '\t')
		if end && i >= start+2 && driveAt(src, start) {
			at = append(at, i)
			continue
		}
		i++ // an escape: \" and \' are no quotes
	}
	if len(at) == 0 {
		return src
	}
	var b strings.Builder
	b.Grow(len(src) + len(at))
	prev := 0
	for _, i := range at {
		b.WriteString(src[prev:i])
		b.WriteByte('\\')
		prev = i
	}
	b.WriteString(src[prev:])
	return b.String()
}

// driveAt: src[i:] starts with a drive path (C:\).
func driveAt(src string, i int) bool {
	if i+3 > len(src) || src[i+1] != ':' || src[i+2] != '\\' {
		return false
	}
	c := src[i] | 0x20
	return c >= 'a' && c <= 'z'
}
