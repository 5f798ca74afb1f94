//go:build !nogui

package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/agent-guard/agent-guard/app/approval"
	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/ui/proto"
)

// offer is what "Always…" would record for an item: the approval keys
// (judge.ScopedFor: each confirm-level simple command, or the MCP tool
// with its judged argument pattern), a line per key for the dialog, and
// the scopes that fit, narrowest first. No keys: not offered (red lines,
// self-protection, file writes, commands that cannot be named exactly).
type offer struct {
	keys   []config.ScopedApproval
	lines  []string
	scopes []string
}

func alwaysOffer(it approval.Item, cfg *config.Config) offer {
	if cfg == nil {
		cfg = config.Default()
	}
	home, _ := os.UserHomeDir()
	st := it.Call
	if st.Tool == "" {
		st = judge.State{Tool: it.Tool, Command: it.Input, Cwd: it.Cwd, Server: it.Server, MCPTool: it.MCPTool, Session: it.Session}
	}
	keys, ok := judge.ScopedFor(cfg, st, it.Verdict, home)
	if !ok || len(keys) == 0 {
		return offer{}
	}
	o := offer{keys: keys}
	for _, k := range keys {
		switch {
		case k.Tool == "Bash":
			o.lines = append(o.lines, k.Pattern)
		case k.Pattern != "":
			o.lines = append(o.lines, fmt.Sprintf("%s  (%s: %q)", k.Tool, k.Rule, k.Pattern))
		default:
			o.lines = append(o.lines, fmt.Sprintf("%s  (%s, these exact arguments)", k.Tool, k.Rule))
		}
	}
	if it.Session != "" {
		o.scopes = append(o.scopes, proto.ScopeSession)
	}
	if filepath.IsAbs(it.Cwd) {
		o.scopes = append(o.scopes, proto.ScopeWorkspace)
	}
	o.scopes = append(o.scopes, proto.ScopeEverywhere)
	return o
}

// scopedEdit is the config edit for the chosen scope; added receives the
// approvals in force afterwards (for Undo). ok is false when the scope
// was not offered (a child can only pick among what was offered).
func (o offer) scopedEdit(it approval.Item, scope string, now time.Time, added *[]config.ScopedApproval) (func(*config.Config) error, bool) {
	offered := false
	for _, s := range o.scopes {
		offered = offered || s == scope
	}
	if !offered || len(o.keys) == 0 {
		return nil, false
	}
	return func(c *config.Config) error {
		*added = (*added)[:0]
		for _, k := range o.keys {
			k.Scope, k.Host, k.AddedAt = scope, it.Host, now.UTC().Truncate(time.Second)
			k.Workspace = it.Cwd
			if scope == config.ScopeSession {
				k.Session = it.Session
			}
			*added = append(*added, c.AddScoped(k))
		}
		return nil
	}, true
}
