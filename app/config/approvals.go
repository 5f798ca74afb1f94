package config

import (
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// Scopes of a scoped approval ("always allow" from the dialog), narrowest
// first.
const (
	ScopeSession    = "session"    // the host session that asked
	ScopeWorkspace  = "workspace"  // calls whose cwd is in this folder
	ScopeEverywhere = "everywhere" // any session, any folder
)

// Scopes lists the scopes narrowest first (the order the dialog offers).
var Scopes = []string{ScopeSession, ScopeWorkspace, ScopeEverywhere}

// ScopedApproval is one "always allow" the user gave in the dialog. It
// covers exactly what was judged: for Bash one simple command (as
// judge.CmdLine renders it) judged by the same rule; for MCP the exact
// tool plus the judged argument pattern (the rule and the text it
// marked), never the whole tool. Red lines are never approvable: the
// judge blocks them before it looks here.
type ScopedApproval struct {
	Scope string `json:"scope"`
	// Tool is "Bash" or the full MCP tool name (mcp__server__tool).
	Tool string `json:"tool"`
	// Pattern is the simple command (Bash) or the marked argument text
	// (MCP; "" means the call's arguments were judged as a whole, so
	// Args must match exactly).
	Pattern string `json:"pattern"`
	// Rule is the judge's rule id that asked; a call judged by another
	// rule (a DROP after a DELETE was approved) asks again.
	Rule string `json:"rule"`
	// Args is the MCP call's arguments (canonical JSON) when Pattern is "".
	Args      string    `json:"args,omitempty"`
	Session   string    `json:"session,omitempty"`   // for ScopeSession
	Workspace string    `json:"workspace,omitempty"` // for ScopeWorkspace; also recorded for the others
	Host      string    `json:"host,omitempty"`      // the host that asked, for the Rules window
	AddedAt   time.Time `json:"added_at"`
}

// ID names an approval stably (the Rules window and Undo remove by it).
func (a ScopedApproval) ID() string {
	h := sha1.New()
	for _, s := range []string{a.Scope, a.Tool, a.Pattern, a.Rule, a.Args, a.Session, a.Workspace, a.AddedAt.UTC().Format(time.RFC3339Nano)} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// Covers reports whether the approval's scope includes a call from
// session in folder cwd.
func (a ScopedApproval) Covers(session, cwd string) bool {
	switch a.Scope {
	case ScopeEverywhere:
		return true
	case ScopeSession:
		return a.Session != "" && session == a.Session
	case ScopeWorkspace:
		return a.Workspace != "" && cwd != "" && InFolder(cwd, a.Workspace)
	}
	return false
}

// InFolder reports whether path is dir or inside it (lexically, after
// cleaning; "/a/bc" is not inside "/a/b").
func InFolder(path, dir string) bool {
	p, d := filepath.Clean(path), filepath.Clean(dir)
	if p == d {
		return true
	}
	if !strings.HasSuffix(d, string(filepath.Separator)) {
		d += string(filepath.Separator)
	}
	return strings.HasPrefix(p, d)
}

// AddScoped appends a unless the same approval (all but the time) is
// already there; it returns the approval in force.
func (c *Config) AddScoped(a ScopedApproval) ScopedApproval {
	for _, b := range c.ScopedApprovals {
		b2 := b
		b2.AddedAt, b2.Host = a.AddedAt, a.Host
		if b2 == a {
			return b
		}
	}
	c.ScopedApprovals = append(c.ScopedApprovals, a)
	return a
}

// RemoveScoped drops the approval with this ID; false when none has it.
func (c *Config) RemoveScoped(id string) bool {
	for i, a := range c.ScopedApprovals {
		if a.ID() == id {
			c.ScopedApprovals = append(c.ScopedApprovals[:i:i], c.ScopedApprovals[i+1:]...)
			return true
		}
	}
	return false
}

// validateScoped checks every scoped approval, naming it by index.
func (c *Config) validateScoped() []error {
	var errs []error
	for i, a := range c.ScopedApprovals {
		bad := func(format string, args ...any) {
			errs = append(errs, fmt.Errorf("scoped_approvals[%d]: "+format, append([]any{i}, args...)...))
		}
		switch a.Scope {
		case ScopeSession:
			if strings.TrimSpace(a.Session) == "" {
				bad("scope \"session\" needs the session id")
			}
		case ScopeWorkspace:
			if !filepath.IsAbs(a.Workspace) && !strings.HasPrefix(a.Workspace, "/") {
				bad("scope \"workspace\" needs an absolute workspace folder, not %q", a.Workspace)
			}
		case ScopeEverywhere:
		default:
			bad("scope %q must be \"session\", \"workspace\" or \"everywhere\"", a.Scope)
		}
		switch {
		case a.Tool == "Bash":
			// The pattern is one exact simple command: no wildcard, and
			// never empty (that would match a bare redirection).
			if strings.TrimSpace(a.Pattern) == "" || strings.Contains(a.Pattern, "*") {
				bad("a Bash approval needs one exact command as its pattern (no * and not empty), not %q", a.Pattern)
			}
		case strings.HasPrefix(a.Tool, "mcp__") && len(a.Tool) > len("mcp__"):
			if a.Pattern == "" && strings.TrimSpace(a.Args) == "" {
				bad("an MCP approval needs the judged argument pattern or the exact arguments")
			}
		default:
			bad("tool %q must be \"Bash\" or an MCP tool name (mcp__server__tool)", a.Tool)
		}
		if strings.TrimSpace(a.Rule) == "" {
			bad("needs the judge's rule id it was given for")
		}
		if a.AddedAt.IsZero() {
			errs = append(errs, errors.New("scoped_approvals["+fmt.Sprint(i)+"]: needs added_at (when it was added)"))
		}
	}
	return errs
}
