package hostproto

import (
	"strconv"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// A small validating JSON reader for the fast paths the server takes on
// every call (the wire's request envelope, the host's event, the judge's
// tool input): encoding/json's reflection was a fifth of the server's CPU
// per request. It answers only when it is sure: every function here
// reports ok=false for input it does not accept or does not handle (too
// deep, an odd shape), and its callers then fall back to encoding/json,
// whose answer (value or error message) stays the reference. What it does
// accept it reads exactly as encoding/json would (FuzzScanMatchesJSON).

// maxScanDepth is how deep the scanner nests before it gives up (the
// caller falls back to encoding/json, whose own limit is 10000).
const maxScanDepth = 100

func skipSpace(d []byte, i int) int {
	for i < len(d) {
		switch d[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipValue returns the end of the JSON value that starts at d[i].
func skipValue(d []byte, i, depth int) (int, bool) {
	if i >= len(d) {
		return i, false
	}
	switch c := d[i]; c {
	case '{':
		if depth >= maxScanDepth {
			return i, false
		}
		i = skipSpace(d, i+1)
		if i < len(d) && d[i] == '}' {
			return i + 1, true
		}
		for {
			end, _, ok := scanString(d, i)
			if !ok {
				return i, false
			}
			i = skipSpace(d, end)
			if i >= len(d) || d[i] != ':' {
				return i, false
			}
			if i, ok = skipValue(d, skipSpace(d, i+1), depth+1); !ok {
				return i, false
			}
			var closed bool
			if i, closed, ok = nextMember(d, i, '}'); !ok || closed {
				return i, ok
			}
		}
	case '[':
		if depth >= maxScanDepth {
			return i, false
		}
		i = skipSpace(d, i+1)
		if i < len(d) && d[i] == ']' {
			return i + 1, true
		}
		for {
			var ok bool
			if i, ok = skipValue(d, i, depth+1); !ok {
				return i, false
			}
			var closed bool
			if i, closed, ok = nextMember(d, i, ']'); !ok || closed {
				return i, ok
			}
		}
	case '"':
		end, _, ok := scanString(d, i)
		return end, ok
	case 't':
		return skipLiteral(d, i, "true")
	case 'f':
		return skipLiteral(d, i, "false")
	case 'n':
		return skipLiteral(d, i, "null")
	default:
		return skipNumber(d, i)
	}
}

func skipLiteral(d []byte, i int, lit string) (int, bool) {
	if len(d)-i < len(lit) || string(d[i:i+len(lit)]) != lit {
		return i, false
	}
	return i + len(lit), true
}

// skipNumber reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func skipNumber(d []byte, i int) (int, bool) {
	if i < len(d) && d[i] == '-' {
		i++
	}
	switch {
	case i < len(d) && d[i] == '0':
		i++
	case i < len(d) && d[i] >= '1' && d[i] <= '9':
		i = skipDigits(d, i)
	default:
		return i, false
	}
	if i < len(d) && d[i] == '.' {
		j := skipDigits(d, i+1)
		if j == i+1 {
			return j, false
		}
		i = j
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		j := skipDigits(d, i)
		if j == i {
			return j, false
		}
		i = j
	}
	return i, true
}

func skipDigits(d []byte, i int) int {
	for i < len(d) && d[i] >= '0' && d[i] <= '9' {
		i++
	}
	return i
}

// scanString returns the end of the string token at d[i] and whether it
// needs unquoting work (an escape, a byte that is not ASCII).
func scanString(d []byte, i int) (end int, slow bool, ok bool) {
	if i >= len(d) || d[i] != '"' {
		return i, false, false
	}
	for i++; i < len(d); i++ {
		switch c := d[i]; {
		case c == '"':
			return i + 1, slow, true
		case c < 0x20:
			return i, false, false
		case c == '\\':
			slow = true
			i++
			if i >= len(d) {
				return i, false, false
			}
			switch d[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if len(d)-i < 5 || getu4(d[i-1:]) < 0 {
					return i, false, false
				}
				i += 4
			default:
				return i, false, false
			}
		case c >= utf8.RuneSelf:
			slow = true
		}
	}
	return i, false, false
}

// unquote is the string a valid string token (quotes included) holds, as
// encoding/json decodes it: escapes resolved, a lone surrogate and every
// byte of invalid UTF-8 as U+FFFD.
func unquote(tok []byte, slow bool) string {
	s := tok[1 : len(tok)-1]
	if !slow {
		return string(s)
	}
	b := make([]byte, 0, len(s)+2*utf8.UTFMax)
	for r := 0; r < len(s); {
		switch c := s[r]; {
		case c == '\\':
			r++
			switch s[r] {
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				rr := getu4(s[r-1:])
				r += 5
				if utf16.IsSurrogate(rr) {
					if rr1 := getu4(s[r:]); rr1 >= 0 {
						if dec := utf16.DecodeRune(rr, rr1); dec != unicode.ReplacementChar {
							r += 6
							b = utf8.AppendRune(b, dec)
							continue
						}
					}
					rr = unicode.ReplacementChar
				}
				b = utf8.AppendRune(b, rr)
				continue
			default: // " \ /
				b = append(b, s[r])
			}
			r++
		case c < utf8.RuneSelf:
			b = append(b, c)
			r++
		default:
			rr, size := utf8.DecodeRune(s[r:])
			if rr == utf8.RuneError && size == 1 {
				b = utf8.AppendRune(b, unicode.ReplacementChar)
			} else {
				b = append(b, s[r:r+size]...)
			}
			r += size
		}
	}
	return string(b)
}

// getu4 decodes \uXXXX at the start of s, or returns -1.
func getu4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c = c - '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// Member is one name and value of a JSON object, as ScanObject read it.
type Member struct {
	Key  []byte // the name's token, quotes included
	Slow bool   // the name has escapes or non-ASCII bytes (see Name)
	// Value is the value's JSON text, exactly as sent.
	Value []byte
}

// Name is the member's name, unquoted.
func (m Member) Name() string { return unquote(m.Key, m.Slow) }

// ScanObject validates data as exactly one JSON object (space around it
// allowed) and calls each for its members in order; each returning false
// stops the scan, which then reports false. It reports false for anything
// that is not a valid JSON object (callers fall back to encoding/json for
// the error), and for nesting deeper than it reads.
func ScanObject(data []byte, each func(Member) bool) bool {
	i := skipSpace(data, 0)
	if i >= len(data) || data[i] != '{' {
		return false
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return skipSpace(data, i+1) == len(data)
	}
	for {
		kend, slow, ok := scanString(data, i)
		if !ok {
			return false
		}
		key := data[i:kend]
		i = skipSpace(data, kend)
		if i >= len(data) || data[i] != ':' {
			return false
		}
		vstart := skipSpace(data, i+1)
		vend, ok := skipValue(data, vstart, 1)
		if !ok {
			return false
		}
		if !each(Member{Key: key, Slow: slow, Value: data[vstart:vend]}) {
			return false
		}
		i = skipSpace(data, vend)
		if i >= len(data) {
			return false
		}
		switch data[i] {
		case ',':
			i = skipSpace(data, i+1)
		case '}':
			return skipSpace(data, i+1) == len(data)
		default:
			return false
		}
	}
}

// StringValue is the string a member's value holds: ok is false when the
// value is not a JSON string (encoding/json would not decode it into a
// string; null included).
func StringValue(v []byte) (string, bool) {
	if len(v) == 0 || v[0] != '"' {
		return "", false
	}
	end, slow, ok := scanString(v, 0)
	if !ok || end != len(v) {
		return "", false
	}
	return unquote(v, slow), true
}

// IntValue is an integer literal's value (no fraction, no exponent,
// within bits): ok is false for anything else.
func IntValue(v []byte, bits int) (int64, bool) {
	if len(v) == 0 {
		return 0, false
	}
	for i, c := range v {
		if !(c >= '0' && c <= '9' || c == '-' && i == 0) {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(string(v), 10, bits)
	return n, err == nil
}

// nextMember reads what follows a member of an object or array at i: a
// comma (i moves past it and the blanks after it) or the closer (closed,
// i just past it); anything else is malformed.
func nextMember(d []byte, i int, closer byte) (next int, closed, ok bool) {
	i = skipSpace(d, i)
	switch {
	case i >= len(d):
		return i, false, false
	case d[i] == ',':
		return skipSpace(d, i+1), false, true
	case d[i] == closer:
		return i + 1, true, true
	}
	return i, false, false
}
