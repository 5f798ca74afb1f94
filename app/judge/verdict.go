// Package judge turns one tool call into a verdict: allow, confirm or
// block, with the judgment (risk, red-line probability) behind it.
package judge

import (
	"encoding/json"
	"fmt"
)

// Level is what the guard thinks should happen to a call.
type Level int

const (
	Allow Level = iota
	Confirm
	Block
)

func (l Level) String() string {
	switch l {
	case Allow:
		return "allow"
	case Confirm:
		return "confirm"
	case Block:
		return "block"
	}
	return fmt.Sprintf("level(%d)", int(l))
}

// ParseLevel reads "allow", "confirm" or "block".
func ParseLevel(s string) (Level, error) {
	switch s {
	case "allow":
		return Allow, nil
	case "confirm":
		return Confirm, nil
	case "block":
		return Block, nil
	}
	return Confirm, fmt.Errorf("unknown level %q; want allow, confirm or block", s)
}

func (l Level) MarshalJSON() ([]byte, error) { return json.Marshal(l.String()) }

func (l *Level) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	v, err := ParseLevel(s)
	*l = v
	return err
}

// Sources say which stage of the pipeline settled a verdict.
const (
	SourceRule          = "rule"
	SourceFastpathAllow = "fastpath_allow"
	SourceFastpathBlock = "fastpath_block"
	SourceFastpathMCP   = "fastpath_mcp"
	SourceCache         = "cache"
	SourceAPI           = "api"
	SourceFallback      = "fallback"
	SourceDisabled      = "disabled"
	SourceSelf          = "self_protection"
	SourceError         = "error"
)

// Verdict is the judge's answer for one call.
type Verdict struct {
	Level     Level   `json:"level"`
	Source    string  `json:"source"`
	Rule      string  `json:"rule,omitempty"`
	Reason    string  `json:"reason"`
	Risk      float64 `json:"risk"`      // 0..3 on the seed's ladder
	Violation float64 `json:"violation"` // red-line probability 0..1
	// RiskProbs is the remote judge's distribution over the 4 levels, when known.
	RiskProbs []float64 `json:"risk_probs,omitempty"`
	// RedLine is set when a red line or self-protection decided; such a
	// call is never offered "Always allow".
	RedLine bool `json:"red_line,omitempty"`
	// Marked is the part of the command that decided (for the dialog).
	Marked string `json:"marked,omitempty"`
	// MarkStart and MarkEnd are the byte offsets of the marked span in
	// the judged text (Bash: the command; Write/Edit: the content); both
	// 0 when unknown.
	MarkStart int `json:"mark_start,omitempty"`
	MarkEnd   int `json:"mark_end,omitempty"`
}

// Thresholds turn a judgment into a level.
type Thresholds struct {
	BlockRisk, BlockViolation     float64
	ConfirmRisk, ConfirmViolation float64
}

// Decide is the pure decision rule of DESIGN.md step 8.
func Decide(risk, violation float64, t Thresholds) Level {
	switch {
	case risk >= t.BlockRisk || violation >= t.BlockViolation:
		return Block
	case risk >= t.ConfirmRisk || violation >= t.ConfirmViolation:
		return Confirm
	}
	return Allow
}
