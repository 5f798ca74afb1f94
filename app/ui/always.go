//go:build !nogui

package ui

import (
	"fmt"
	"slices"
	"strings"

	"github.com/agent-guard/agent-guard/app/approval"
	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// alwaysRule is what "Always allow" would write for an item: an edit of
// the user's config and the button's label. ok is false when the button
// must not be offered: red lines, self-protection, file writes, and
// commands no exact allowlist entry can express (a `*` in a word would
// widen the pattern, a command name only known at run time, sudo).
func alwaysRule(it approval.Item) (label string, edit func(*config.Config) error, ok bool) {
	v := it.Verdict
	if v.RedLine || v.Source == judge.SourceSelf || v.Level == judge.Block {
		return "", nil, false
	}
	switch {
	case it.Server != "":
		server, tool := it.Server, it.MCPTool
		if tool == "" || strings.Contains(server+tool, "*") {
			return "", nil, false
		}
		return fmt.Sprintf("Always allow %s/%s", server, tool), func(c *config.Config) error {
			if c.MCPOverrides == nil {
				c.MCPOverrides = map[string]map[string]string{}
			}
			if c.MCPOverrides[server] == nil {
				c.MCPOverrides[server] = map[string]string{}
			}
			c.MCPOverrides[server][tool] = config.ClassReadonly
			return nil
		}, true
	case it.Tool == "Bash":
		pats, ok := exactPatterns(it.Input)
		if !ok {
			return "", nil, false
		}
		return "Always allow this command", func(c *config.Config) error {
			for _, p := range pats {
				if !slices.Contains(c.Fastpath.Allowlist, p) {
					c.Fastpath.Allowlist = append(c.Fastpath.Allowlist, p)
				}
			}
			return nil
		}, true
	}
	return "", nil, false
}

var elevating = map[string]bool{"sudo": true, "doas": true, "su": true, "runas": true, "pkexec": true, "gsudo": true}

// exactPatterns turns a command line into one allowlist entry per simple
// command, rendered the way the fast path matches them.
func exactPatterns(cmd string) ([]string, bool) {
	a := shell.Analyze(cmd)
	if a.Err != nil || len(a.Cmds) == 0 {
		return nil, false
	}
	var pats []string
	for i := range a.Cmds {
		c := &a.Cmds[i]
		if c.Name == "" && len(c.Redirs) > 0 {
			continue
		}
		if c.DynName || c.Name == "" {
			return nil, false
		}
		for _, w := range c.Wrappers {
			if elevating[w] {
				return nil, false
			}
		}
		p := strings.Join(append([]string{c.Name}, c.Args...), " ") // as judge.CmdLine renders it
		// A dynamic word ($VAR, $(...)) renders as "$?" and would match
		// any value; `*` is the pattern wildcard. Neither is exact.
		if strings.Contains(p, "*") || strings.Contains(strings.Join(c.Args, " "), shell.Dyn) {
			return nil, false
		}
		if !slices.Contains(pats, p) {
			pats = append(pats, p)
		}
	}
	return pats, len(pats) > 0
}
