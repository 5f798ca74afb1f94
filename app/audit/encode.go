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
	b = jsonenc.AppendField(b, "host", e.Host, true)
	b = jsonenc.AppendField(b, "session", e.Session, true)
	b = jsonenc.AppendField(b, "cwd", e.Cwd, true)
	b = jsonenc.AppendField(b, "tool", e.Tool, false)
	b = jsonenc.AppendField(b, "input", e.Input, false)
	b = jsonenc.AppendField(b, "source", e.Source, false)
	b = jsonenc.AppendField(b, "rule", e.Rule, true)
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
	b = jsonenc.AppendField(b, "level", e.Level, false)
	b = jsonenc.AppendField(b, "decision", e.Decision, false)
	b = jsonenc.AppendField(b, "decider", e.Decider, false)
	b = jsonenc.AppendField(b, "reason", e.Reason, false)
	b = append(b, `,"duration_ms":`...)
	b = jsonenc.AppendFloat(b, e.DurationMS)
	if e.WaitMS != 0 {
		b = append(b, `,"wait_ms":`...)
		b = jsonenc.AppendFloat(b, e.WaitMS)
	}
	b = jsonenc.AppendField(b, "answer", e.Answer, true)
	b = jsonenc.AppendField(b, "approval", e.Approval, true)
	return append(b, '}')
}
