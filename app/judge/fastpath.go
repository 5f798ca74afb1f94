package judge

import (
	"bytes"
	"encoding/json"
	"slices"
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

// Scoped approvals (config.ScopedApproval) are the dialog's "always
// allow" answers, limited to a session, a workspace or everywhere. They
// cover exactly what was judged:
//
//   - Bash: each simple command is judged on its own; every one that needs
//     a confirm must be approved (same rendered command, same rule) in a
//     scope that covers the call, and every other one must be allowed by
//     the rules with certainty. So an approved `git reset --hard HEAD~3`
//     also passes as `cd proj && git reset --hard HEAD~3`, while `git reset
//     --hard HEAD~3; git clean -fdx` still asks for the git clean.
//   - MCP: the exact tool, judged by the same rule on the same marked
//     argument text (or, when the rule judged the tool by its name, the
//     same arguments). An approved DELETE never covers a later DROP.
//
// Nothing here runs for red lines, self-protection or denylisted calls:
// the judge has blocked those already, and ScopedFor offers nothing for
// them.

// scopedAllowed returns the approval that lets the call through, if any.
// settled is false when uncertain findings could still be raised (a
// remote judge is in use): then only certain findings may pass.
// m is the machine state the call was judged with (nil: none), so each
// part is judged as the whole was. Only a call the rules would confirm
// (or allow uncertainly) can pass: an approval never lowers a block.
func scopedAllowed(cfg *config.Config, s State, f rules.Finding, home string, m *rules.Machine, settled bool) (config.ScopedApproval, bool) {
	if len(cfg.ScopedApprovals) == 0 || f.RedLine || rules.SelfRule(f.Rule) {
		return config.ScopedApproval{}, false
	}
	th := ThresholdsOf(cfg)
	if Decide(f.Risk, f.Violation, th) == Block {
		return config.ScopedApproval{}, false
	}
	if s.Server != "" {
		if Decide(f.Risk, f.Violation, th) != Confirm {
			return config.ScopedApproval{}, false
		}
		want := mcpScoped(s, f)
		for _, a := range cfg.ScopedApprovals {
			if a.Tool == want.Tool && a.Rule == want.Rule && a.Pattern == want.Pattern && a.Args == want.Args && a.Covers(s.Session, s.Cwd) {
				return a, true
			}
		}
		return config.ScopedApproval{}, false
	}
	if s.Tool != "Bash" {
		return config.ScopedApproval{}, false
	}
	cmds, ok := bashJudged(s, home, m, th, settled)
	if !ok || len(cmds) == 0 {
		return config.ScopedApproval{}, false
	}
	var used config.ScopedApproval
	for _, c := range cmds {
		found := false
		for _, a := range cfg.ScopedApprovals {
			// c.Workspace is the folder the command runs in (see bashJudged).
			if a.Tool == "Bash" && a.Pattern == c.Pattern && a.Rule == c.Rule && a.Covers(s.Session, c.Workspace) {
				used, found = a, true
				break
			}
		}
		if !found {
			return config.ScopedApproval{}, false
		}
	}
	return used, true
}

// ScopedFor is what "always allow" would record for a call the judge
// asked about (scope, session, workspace and time left for the caller to
// fill in). ok is false when no scoped approval may be offered: red
// lines, self-protection, blocks, file writes, and commands whose parts
// cannot be named exactly (sudo, a program known only at run time, a
// part the rules are not certain about).
func ScopedFor(cfg *config.Config, s State, v Verdict, home string) ([]config.ScopedApproval, bool) {
	if v.RedLine || v.Source == SourceSelf || v.Level != Confirm {
		return nil, false
	}
	if s.Server != "" {
		f := rules.Finding{Rule: v.Rule, Marked: v.Marked}
		return []config.ScopedApproval{mcpScoped(s, f)}, true
	}
	if s.Tool != "Bash" {
		return nil, false
	}
	cmds, ok := bashJudged(s, home, nil, ThresholdsOf(cfg), true)
	if !ok || len(cmds) == 0 {
		return nil, false
	}
	var out []config.ScopedApproval
	for _, c := range cmds {
		c.Workspace = "" // the caller records the call's workspace
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out, true
}

// mcpScoped is the approval key of an MCP call: the tool, the rule, and
// the marked argument text, or the exact arguments when the rule marked
// only the tool's name.
func mcpScoped(s State, f rules.Finding) config.ScopedApproval {
	a := config.ScopedApproval{Tool: s.Tool, Rule: f.Rule, Pattern: f.Marked}
	if a.Tool == "" || !strings.HasPrefix(a.Tool, "mcp__") {
		a.Tool = "mcp__" + s.Server + "__" + s.MCPTool
	}
	if f.Marked == "" || f.Marked == s.MCPTool || f.Marked == s.Tool {
		a.Pattern, a.Args = "", canonicalArgs(s.Args)
	}
	return a
}

// runDir is a command's folder when the line fixes it to an absolute
// path, else "" (no workspace covers it).
func runDir(dir string) string {
	if dir == "" || strings.Contains(dir, shell.Dyn) || !(strings.HasPrefix(dir, "/") || len(dir) >= 3 && dir[1] == ':') {
		return ""
	}
	return dir
}

func canonicalArgs(args string) string {
	var b bytes.Buffer
	if json.Compact(&b, []byte(args)) == nil {
		return b.String()
	}
	return strings.TrimSpace(args)
}

// bashJudged judges each simple command of a Bash call on its own and
// returns those that need a confirm, as approval keys (pattern and rule).
// ok is false when the call cannot be covered by scoped approvals at all:
// it does not parse, a part is a red line or a block, runs elevated, has
// a program name known only at run time, or (unless settled) is
// uncertain.
func bashJudged(s State, home string, m *rules.Machine, th Thresholds, settled bool) ([]config.ScopedApproval, bool) {
	a := shell.AnalyzeDir(s.Command, s.Cwd)
	if a.Err != nil || len(a.Cmds) == 0 {
		return nil, false
	}
	per := make([]rules.Finding, len(a.Cmds))
	dirs := make([]string, len(a.Cmds))
	seen := make([]bool, len(a.Cmds))
	ok := true
	rules.BashEach(&a, s.Command, s.Cwd, home, m, func(i int, dir string, f rules.Finding) {
		if i < 0 {
			if f.RedLine || Decide(f.Risk, f.Violation, th) != Allow {
				ok = false
			}
			return
		}
		dirs[i] = dir
		if !seen[i] || f.Worse(per[i]) {
			per[i], seen[i] = f, true
		}
	})
	if !ok {
		return nil, false
	}
	var out []config.ScopedApproval
	for i := range a.Cmds {
		c := &a.Cmds[i]
		for _, w := range c.Wrappers {
			if facts.IsElevator(w) {
				return nil, false
			}
		}
		f := per[i]
		if f.RedLine || rules.SelfRule(f.Rule) {
			return nil, false
		}
		switch Decide(f.Risk, f.Violation, th) {
		case Block:
			return nil, false
		case Allow:
			if f.Uncertain && !settled {
				return nil, false
			}
			continue
		}
		if c.DynName || c.Name == "" {
			return nil, false
		}
		p := CmdLine(c)
		if strings.Contains(p, "*") || strings.Contains(p, "$?") {
			return nil, false // not an exact command
		}
		// Workspace carries where it runs: `cd /other && CMD` run from an
		// approved workspace is CMD in /other, which that approval does
		// not cover. A folder the line does not fix (shell.Dyn, ~) is
		// covered by no workspace.
		k := config.ScopedApproval{Tool: "Bash", Pattern: p, Rule: f.Rule, Workspace: runDir(dirs[i])}
		dup := false
		for _, o := range out {
			dup = dup || o == k
		}
		if !dup {
			out = append(out, k)
		}
	}
	return out, true
}
