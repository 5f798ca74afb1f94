package audit

import (
	"math"
	"strconv"
	"time"
	"unicode/utf8"
)

// appendEntry renders e as one JSON object, byte for byte what
// encoding/json's Marshal writes for Entry (same field order, omitempty,
// HTML-safe string escapes, float format; TestAppendEntryMatchesMarshal
// holds it to that). Every decision writes one line, and Marshal's
// reflection, time.Time's MarshalJSON and the compaction after it were a
// tenth of the server's CPU per request. Numbers must be finite (encode
// makes them so).
func appendEntry(b []byte, e *Entry) []byte {
	b = append(b, `{"ts":"`...)
	b = e.TS.AppendFormat(b, time.RFC3339Nano)
	b = append(b, '"')
	b = appendField(b, "host", e.Host, true)
	b = appendField(b, "session", e.Session, true)
	b = appendField(b, "cwd", e.Cwd, true)
	b = appendField(b, "tool", e.Tool, false)
	b = appendField(b, "input", e.Input, false)
	b = appendField(b, "source", e.Source, false)
	b = appendField(b, "rule", e.Rule, true)
	b = append(b, `,"risk":`...)
	b = appendFloat(b, e.Risk)
	if len(e.RiskProbs) > 0 {
		b = append(b, `,"risk_probs":[`...)
		for i, p := range e.RiskProbs {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendFloat(b, p)
		}
		b = append(b, ']')
	}
	b = append(b, `,"violation":`...)
	b = appendFloat(b, e.Violation)
	b = appendField(b, "level", e.Level, false)
	b = appendField(b, "decision", e.Decision, false)
	b = appendField(b, "decider", e.Decider, false)
	b = appendField(b, "reason", e.Reason, false)
	b = append(b, `,"duration_ms":`...)
	b = appendFloat(b, e.DurationMS)
	if e.WaitMS != 0 {
		b = append(b, `,"wait_ms":`...)
		b = appendFloat(b, e.WaitMS)
	}
	b = appendField(b, "answer", e.Answer, true)
	b = appendField(b, "approval", e.Approval, true)
	return append(b, '}')
}

// appendField appends ,"name":"value" (nothing for an empty value when
// omitEmpty).
func appendField(b []byte, name, v string, omitEmpty bool) []byte {
	if omitEmpty && v == "" {
		return b
	}
	b = append(b, ',', '"')
	b = append(b, name...)
	b = append(b, '"', ':')
	return appendString(b, v)
}

// appendFloat is encoding/json's float64 format: shortest form, with an
// exponent only below 1e-6 or from 1e21, written e-7 rather than e-07.
func appendFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

const hexDigits = "0123456789abcdef"

// appendString is encoding/json's string encoding with HTML escaping:
// quotes, backslash and control characters escaped, <, > and & as \u003c
// ..., invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
