// Package audit writes and reads the append-only JSONL decision log.
package audit

import "time"

// Entry is one audit line: one decision (DESIGN.md "Audit").
type Entry struct {
	TS         time.Time `json:"ts"`
	Host       string    `json:"host,omitempty"` // zcode | claude | check
	Session    string    `json:"session,omitempty"`
	Cwd        string    `json:"cwd,omitempty"` // the call's working folder, as the host sent it
	Tool       string    `json:"tool"`
	Input      string    `json:"input"`  // first 200 chars, secrets redacted
	Source     string    `json:"source"` // rule, fastpath_*, cache, api, fallback, disabled, ...
	Rule       string    `json:"rule,omitempty"`
	Risk       float64   `json:"risk"`
	RiskProbs  []float64 `json:"risk_probs,omitempty"`
	Violation  float64   `json:"violation"`
	Level      string    `json:"level"`    // allow | confirm | block
	Decision   string    `json:"decision"` // rendered: allow | ask | deny
	Decider    string    `json:"decider"`  // auto | user | policy
	Reason     string    `json:"reason"`
	DurationMS float64   `json:"duration_ms"`
	// WaitMS is how long a human took to answer an approval.
	WaitMS float64 `json:"wait_ms,omitempty"`
	// Answer is the approval's own words when one was asked ("allowed
	// once in the agent-guard dialog", "no one answered ... within 120 s").
	Answer string `json:"answer,omitempty"`
	// Approval tells a human's allow apart: ApprovalOnce or ApprovalAlways
	// (a rule was added, so calls like it pass from now on); "" otherwise.
	Approval string `json:"approval,omitempty"`
}

// Approvals.
const (
	ApprovalOnce   = "once"
	ApprovalAlways = "always"
)

// Deciders.
const (
	DeciderAuto   = "auto"
	DeciderUser   = "user"
	DeciderPolicy = "policy"
)
