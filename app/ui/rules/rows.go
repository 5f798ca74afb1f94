// Package rules is the Rules window: every allowlist and denylist entry,
// the MCP allowlist and overrides, and the scoped approvals the dialog
// wrote, with where and when each was added; each can be removed or
// edited, always through config.Update (a locked read-modify-write of
// the user's own file). This file is the window's data and edits, pure
// Go so it is tested without a display.
package rules

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/agent-guard/agent-guard/app/config"
)

// Kinds of rows.
const (
	KindAllow    = "allowlist"
	KindDeny     = "denylist"
	KindMCPAllow = "mcp_allowlist"
	KindOverride = "mcp_overrides"
	KindScoped   = "scoped_approvals"
)

// Row is one rule as the window lists it.
type Row struct {
	Kind    string
	Pattern string // the list entry; "server / glob" for overrides; the command or MCP pattern for scoped
	Value   string // override class; rule id for scoped approvals
	Where   string // scope and folder/session, "" for global lists
	Added   string // when, "" when unknown (hand-edited lists carry no date)
	ID      string // scoped approval id; "server\x00glob" for overrides
	// Editable: the pattern can be changed in place.
	Editable bool
}

// Rows lists every rule of c: the dated scoped approvals first (newest
// first), then the lists in file order, then the overrides by name.
func Rows(c *config.Config) []Row {
	var out []Row
	sc := slices.Clone(c.ScopedApprovals)
	sort.SliceStable(sc, func(i, j int) bool { return sc[i].AddedAt.After(sc[j].AddedAt) })
	for _, a := range sc {
		pat := a.Pattern
		if a.Tool != "Bash" {
			pat = a.Tool
			if a.Pattern != "" {
				pat += "  " + a.Pattern
			} else {
				pat += "  " + a.Args
			}
		}
		where := a.Scope
		switch a.Scope {
		case config.ScopeSession:
			where += " " + a.Session
		case config.ScopeWorkspace:
			where += " " + a.Workspace
		}
		if a.Scope != config.ScopeWorkspace && a.Workspace != "" {
			where += ", added in " + a.Workspace
		}
		if a.Host != "" {
			where += " (" + a.Host + ")"
		}
		out = append(out, Row{Kind: KindScoped, Pattern: pat, Value: a.Rule, Where: where,
			Added: a.AddedAt.Local().Format("2006-01-02 15:04"), ID: a.ID(), Editable: a.Tool == "Bash"})
	}
	for _, l := range []struct {
		kind string
		list []string
	}{{KindAllow, c.Fastpath.Allowlist}, {KindDeny, c.Fastpath.Denylist}, {KindMCPAllow, c.Fastpath.MCPAllowlist}} {
		for _, p := range l.list {
			out = append(out, Row{Kind: l.kind, Pattern: p, Editable: true})
		}
	}
	servers := make([]string, 0, len(c.MCPOverrides))
	for s := range c.MCPOverrides {
		servers = append(servers, s)
	}
	sort.Strings(servers)
	for _, s := range servers {
		globs := make([]string, 0, len(c.MCPOverrides[s]))
		for g := range c.MCPOverrides[s] {
			globs = append(globs, g)
		}
		sort.Strings(globs)
		for _, g := range globs {
			out = append(out, Row{Kind: KindOverride, Pattern: s + " / " + g, Value: c.MCPOverrides[s][g], ID: s + "\x00" + g})
		}
	}
	return out
}

// ErrGone is returned when the row is no longer in the file (removed or
// changed by hand since the window read it).
var ErrGone = errors.New("this rule is no longer in the config file (it changed meanwhile); the list was reloaded")

// Remove is the config edit that deletes r.
func Remove(r Row) func(*config.Config) error {
	return func(c *config.Config) error {
		switch r.Kind {
		case KindScoped:
			if !c.RemoveScoped(r.ID) {
				return ErrGone
			}
			return nil
		case KindOverride:
			s, g, _ := strings.Cut(r.ID, "\x00")
			if _, ok := c.MCPOverrides[s][g]; !ok {
				return ErrGone
			}
			delete(c.MCPOverrides[s], g)
			if len(c.MCPOverrides[s]) == 0 {
				delete(c.MCPOverrides, s)
			}
			return nil
		}
		list := listOf(c, r.Kind)
		if list == nil {
			return fmt.Errorf("unknown rule kind %q", r.Kind)
		}
		i := slices.Index(*list, r.Pattern)
		if i < 0 {
			return ErrGone
		}
		*list = slices.Delete(*list, i, i+1)
		return nil
	}
}

// Edit is the config edit that changes r's pattern to pattern (validated
// by config.Update: an empty pattern or a wildcard in a scoped Bash
// approval is refused).
func Edit(r Row, pattern string) func(*config.Config) error {
	pattern = strings.TrimSpace(pattern)
	return func(c *config.Config) error {
		if !r.Editable {
			return fmt.Errorf("%s entries cannot be edited here; remove it and add a new one", r.Kind)
		}
		if pattern == "" {
			return errors.New("the pattern is empty; use Remove to delete the rule")
		}
		if r.Kind == KindScoped {
			for i := range c.ScopedApprovals {
				if c.ScopedApprovals[i].ID() == r.ID {
					c.ScopedApprovals[i].Pattern = pattern
					return nil
				}
			}
			return ErrGone
		}
		list := listOf(c, r.Kind)
		if list == nil {
			return fmt.Errorf("unknown rule kind %q", r.Kind)
		}
		i := slices.Index(*list, r.Pattern)
		if i < 0 {
			return ErrGone
		}
		(*list)[i] = pattern
		return nil
	}
}

func listOf(c *config.Config, kind string) *[]string {
	switch kind {
	case KindAllow:
		return &c.Fastpath.Allowlist
	case KindDeny:
		return &c.Fastpath.Denylist
	case KindMCPAllow:
		return &c.Fastpath.MCPAllowlist
	}
	return nil
}

// RemoveIDs is the Undo of "Always…": it removes the scoped approvals
// with these ids (those already gone are skipped).
func RemoveIDs(ids []string) func(*config.Config) error {
	return func(c *config.Config) error {
		for _, id := range ids {
			c.RemoveScoped(id)
		}
		return nil
	}
}
