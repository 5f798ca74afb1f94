// Package proto is the line protocol between the tray (parent) and its
// short-lived window processes (children of the same binary). Windows
// live in child processes so the tray itself never runs Fyne's 60 Hz
// driver loop and idles at 0 % CPU.
//
// The parent writes one JSON object per line to the child's stdin: first
// the Prompt, then Control messages. The child writes one Reply line to
// stdout. Only the parent answers approvals: a child that exits, crashes
// or writes garbage is a deny.
package proto

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/agent-guard/agent-guard/app/ui/callview"
)

// Hidden verbs that start a child window (GUI builds only).
const (
	VerbPrompt   = "ui-prompt"
	VerbSettings = "ui-settings"
	VerbRecent   = "ui-recent"
	VerbNotify   = "ui-notify"
	VerbMenu     = "ui-menu" // renders the tray menu model (screenshots)
	VerbRules    = "ui-rules"
	VerbPending  = "ui-pending"
	VerbUndo     = "ui-undo"   // "always allowed … [Undo]" notice
	VerbStatus   = "ui-status" // small status window when no tray host exists
)

// Prompt is what the approval dialog shows.
type Prompt struct {
	ID   uint64 `json:"id"`
	Tool string `json:"tool"`
	// Host is the agent host's id ("claude"); HostName its display name
	// ("Claude Code"). Session and Workspace say which of its runs asks.
	Host      string        `json:"host,omitempty"`
	HostName  string        `json:"host_name,omitempty"`
	Session   string        `json:"session,omitempty"`
	Workspace string        `json:"workspace,omitempty"`
	Call      callview.View `json:"call"`
	Level     string        `json:"level,omitempty"`
	Risk      float64       `json:"risk"`
	Violation float64       `json:"violation"`
	Rule      string        `json:"rule,omitempty"`
	Reason    string        `json:"reason"`
	Deadline  time.Time     `json:"deadline"`
	Timeout   int           `json:"timeout_seconds"` // for the progress bar's full length
	// Always lists what "Always…" would allow, one line per approval
	// (a Bash call may need one per simple command); empty: the button is
	// not offered (red lines, self-protection, file writes). Scopes are
	// the scopes offered, narrowest first.
	Always []string `json:"always,omitempty"`
	Scopes []string `json:"scopes,omitempty"`
	// Queue is the number of approvals waiting, this one included.
	Queue int `json:"queue"`
}

// Scopes of "Always…", narrowest first (the same strings as config's).
const (
	ScopeSession    = "session"
	ScopeWorkspace  = "workspace"
	ScopeEverywhere = "everywhere"
)

// Control is a later message from the parent to a running child.
type Control struct {
	Type  string `json:"type"`            // "close" | "raise" | "queue"
	Queue int    `json:"queue,omitempty"` // for "queue"
}

// Actions a prompt child can reply.
const (
	ActionAllow  = "allow"
	ActionDeny   = "deny"
	ActionAlways = "always"
)

// Reply is the child's answer.
type Reply struct {
	ID     uint64 `json:"id"`
	Action string `json:"action"`
	Reason string `json:"reason,omitempty"`
	// Scope is the chosen scope of ActionAlways.
	Scope string `json:"scope,omitempty"`
}

// PendingRow is one waiting approval in the queue window.
type PendingRow struct {
	ID        uint64    `json:"id"`
	Host      string    `json:"host,omitempty"`
	HostName  string    `json:"host_name,omitempty"`
	Session   string    `json:"session,omitempty"`
	Workspace string    `json:"workspace,omitempty"`
	Tool      string    `json:"tool"`
	Call      string    `json:"call"` // one line, shortened
	Since     time.Time `json:"since"`
}

// PendingList is the tray's line to the queue window: the whole list.
type PendingList struct {
	Items []PendingRow `json:"items"`
}

// Requests of the queue window (PendingAction.Action).
const (
	PendingShow        = "show"
	PendingDeny        = "deny"
	PendingDenySession = "deny-session"
)

// PendingAction is a request of the queue window. The tray checks it
// against its queue; the window cannot allow anything.
type PendingAction struct {
	Action  string `json:"action"`
	ID      uint64 `json:"id"`
	Host    string `json:"host,omitempty"`
	Session string `json:"session,omitempty"`
}

// MaxLine bounds one protocol line; anything longer is an error.
const MaxLine = 256 << 10

// Write sends v as one JSON line.
func Write(w io.Writer, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// NewScanner returns a line scanner with the protocol's size limit.
func NewScanner(r io.Reader) *bufio.Scanner {
	s := bufio.NewScanner(r)
	s.Buffer(make([]byte, 0, 4096), MaxLine)
	return s
}

// ReadReply reads the child's reply for want. Any failure (EOF, bad
// JSON, wrong id, unknown action) is an error, which the parent turns
// into a deny.
func ReadReply(r io.Reader, want uint64) (Reply, error) {
	s := NewScanner(r)
	if !s.Scan() {
		if err := s.Err(); err != nil {
			return Reply{}, fmt.Errorf("approval dialog: reading its answer: %v", err)
		}
		return Reply{}, errors.New("approval dialog closed without an answer")
	}
	var rep Reply
	if err := json.Unmarshal(s.Bytes(), &rep); err != nil {
		return Reply{}, fmt.Errorf("approval dialog sent a broken answer: %v", err)
	}
	if rep.ID != want {
		return Reply{}, fmt.Errorf("approval dialog answered item %d, expected %d", rep.ID, want)
	}
	switch rep.Action {
	case ActionAllow, ActionDeny:
	case ActionAlways:
		switch rep.Scope {
		case ScopeSession, ScopeWorkspace, ScopeEverywhere:
		default:
			return Reply{}, fmt.Errorf("approval dialog sent always without a known scope (%q)", rep.Scope)
		}
	default:
		return Reply{}, fmt.Errorf("approval dialog sent unknown action %q", rep.Action)
	}
	return rep, nil
}
