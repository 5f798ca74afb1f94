package audit

import (
	"time"

	"github.com/agent-guard/agent-guard/app/internal/jsonenc"
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
	b = jsonenc.AppendFloat(b, e.Risk)
	if len(e.RiskProbs) > 0 {
		b = append(b, `,"risk_probs":[`...)
		for i, p := range e.RiskProbs {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonenc.AppendFloat(b, p)
		}
		b = append(b, ']')
	}
	b = append(b, `,"violation":`...)
	b = jsonenc.AppendFloat(b, e.Violation)
	b = appendField(b, "level", e.Level, false)
	b = appendField(b, "decision", e.Decision, false)
	b = appendField(b, "decider", e.Decider, false)
	b = appendField(b, "reason", e.Reason, false)
	b = append(b, `,"duration_ms":`...)
	b = jsonenc.AppendFloat(b, e.DurationMS)
	if e.WaitMS != 0 {
		b = append(b, `,"wait_ms":`...)
		b = jsonenc.AppendFloat(b, e.WaitMS)
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
	return jsonenc.AppendString(b, v)
}
