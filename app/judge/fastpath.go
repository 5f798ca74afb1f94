package judge

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/judge/facts"
	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Fast-path patterns (config fastpath.allowlist / denylist) match ONE
// simple command at a time, never the whole command line. A simple
// command is written as its program name (lower-case base name: "/bin/rm"
// and "\rm" are "rm") followed by its arguments, quotes removed, joined by
// single spaces: `git  log  "--oneline"` is "git log --oneline". In a
// pattern, `*` matches any run of characters (spaces and slashes too) and
// every other character matches itself: "npm test*", "git log*", "make".
// A pattern matches the whole command, so "make" does not match
// "make install" while "make*" does.
//
// Allowlist: the call is allowed only when EVERY simple command in it
// (including those in pipelines, lists, substitutions and nested shells)
// matches some pattern, it parses, none runs under sudo/doas/su, none has
// a program name unknown before it runs, no redirection writes anywhere
// that needs confirmation, and nothing is a red line or self-protection.
// So an allowlisted "echo *" cannot carry "; rm -rf /" behind it.
//
// Denylist: the call is blocked when ANY simple command matches. A
// pattern starting with "mcp__" matches MCP tool names instead
// ("mcp__github__delete_*").
//
// mcp_allowlist: MCP server names (same `*` globs); every tool of such a
// server is allowed, except red lines and self-protection.

// CmdLine renders a simple command the way patterns see it.
func CmdLine(c *shell.Cmd) string {
	var b strings.Builder
	b.WriteString(c.Name)
	for _, a := range c.Args {
		b.WriteByte(' ')
		b.WriteString(strings.ReplaceAll(a, shell.Dyn, "$?"))
	}
	return b.String()
}

// Glob reports whether s matches pattern, where only `*` is special.
func Glob(pattern, s string) bool {
	for {
		star := strings.IndexByte(pattern, '*')
		if star < 0 {
			return pattern == s
		}
		if !strings.HasPrefix(s, pattern[:star]) {
			return false
		}
		s, pattern = s[star:], pattern[star+1:]
		if pattern == "" {
			return true
		}
		// The next literal run must appear somewhere; try each place.
		next := pattern
		if k := strings.IndexByte(next, '*'); k >= 0 {
			next = next[:k]
		}
		if next == "" {
			continue
		}
		for i := 0; i <= len(s)-len(next); i++ {
			if s[i:i+len(next)] == next && Glob(pattern, s[i:]) {
				return true
			}
		}
		return false
	}
}

// normPattern lower-cases a pattern's program name, as Cmd.Name is.
func normPattern(p string) string {
	p = strings.Join(strings.Fields(p), " ")
	name, rest, ok := strings.Cut(p, " ")
	if ok {
		return strings.ToLower(name) + " " + rest
	}
	return strings.ToLower(name)
}

// matchAny returns the first pattern that matches s, or "".
func matchAny(patterns []string, s string) string {
	for _, p := range patterns {
		if strings.TrimSpace(p) != "" && Glob(normPattern(p), s) {
			return p
		}
	}
	return ""
}

// denied finds a denylisted simple command (or MCP tool name); a is the
// Bash command's analysis.
func denied(cfg *config.Config, s State, a *shell.Analysis) (pattern, cmd string, ok bool) {
	deny := cfg.Fastpath.Denylist
	if len(deny) == 0 {
		return "", "", false
	}
	if s.Server != "" || strings.HasPrefix(s.Tool, "mcp__") {
		if p := matchAny(deny, s.Tool); p != "" {
			return p, s.Tool, true
		}
		return "", "", false
	}
	if s.Tool != "Bash" || a == nil {
		return "", "", false
	}
	for i := range a.Cmds {
		c := &a.Cmds[i]
		if c.Name == "" {
			continue
		}
		line := CmdLine(c)
		if p := matchAny(deny, line); p != "" {
			return p, line, true
		}
	}
	return "", "", false
}

// allowed reports whether every simple command is allowlisted (see
// above); a is the Bash command's analysis.
func allowed(cfg *config.Config, s State, a *shell.Analysis, home string) bool {
	allow := cfg.Fastpath.Allowlist
	if len(allow) == 0 || s.Tool != "Bash" || a == nil {
		return false
	}
	if a.Err != nil || len(a.Cmds) == 0 {
		return false
	}
	for i := range a.Cmds {
		c := &a.Cmds[i]
		for _, w := range c.Wrappers {
			if facts.IsElevator(w) {
				return false
			}
		}
		for _, r := range c.Redirs {
			if !strings.Contains(r.Op, ">") {
				continue
			}
			f := rules.WritePath(r.Target, s.Cwd, home)
			if f.RedLine || f.Risk >= 1.5 || f.Violation >= 0.5 || f.Uncertain {
				return false
			}
		}
		if c.Name == "" && len(c.Redirs) > 0 {
			continue // a bare redirection, checked above
		}
		if c.DynName || c.Name == "" || matchAny(allow, CmdLine(c)) == "" {
			return false
		}
	}
	return true
}
