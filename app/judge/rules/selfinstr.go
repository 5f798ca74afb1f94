package rules

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
)

// Files an agent host reads as its own instructions or runs with its own
// rights: slash commands (.claude/commands/*.md, whose !`cmd` lines the
// host runs before the model sees the prompt; .gemini/commands/*.toml
// with !{cmd}), subagents, skills, output styles, saved prompts and the
// memory files every session starts with (AGENTS.md, CLAUDE.md,
// GEMINI.md...). Text there that runs a self-protection breach, or tells
// the next session to switch the guard off, is written for that purpose:
// the write blocks (its code by the breach's own rule, its prose as
// self.instructions). Everyday instructions (build, test, style) and
// notes that merely mention the guard stay allow.

const instrKind = "the agent host, as its instructions"

// instructionFile reports a host instruction or command file (low: the
// normalized, lower-cased path).
func instructionFile(low string) bool {
	base := lastSeg(low)
	md := strings.HasSuffix(base, ".md") || strings.HasSuffix(base, ".mdc") || strings.HasSuffix(base, ".txt")
	switch base {
	case "agents.md", "agent.md", "claude.md", "claude.local.md", "gemini.md", "qwen.md", "crush.md", "warp.md",
		".cursorrules", ".windsurfrules", ".clinerules", "copilot-instructions.md", "conventions.md", ".roorules", "iflow.md", "kimi.md":
		return true
	}
	for _, d := range []string{".claude/commands", ".claude/agents", ".claude/skills", ".claude/output-styles",
		".codex/prompts", ".cursor/rules", ".cursor/commands", ".opencode/command", ".opencode/agent",
		".config/opencode/command", ".config/opencode/agent", ".qwen/commands", ".github/prompts", ".github/instructions",
		".windsurf/rules", ".windsurf/workflows", ".clinerules", ".amp/commands", ".github/chatmodes", ".kiro/steering",
		".roo/rules", ".roo/commands", ".augment/commands", ".factory/commands", ".factory/droids", ".continue/prompts",
		".gemini/agents", ".qwen/agents", ".config/amp/commands"} {
		if hasSeq(low, d) && (md || strings.HasSuffix(base, ".toml")) {
			return true
		}
	}
	return (hasSeq(low, ".gemini/commands") || hasSeq(low, ".qwen/commands")) && strings.HasSuffix(base, ".toml")
}

var (
	instrFenceRe = lazyre.New("(?s)```[a-zA-Z0-9_+-]*\\n(.*?)```")
	instrSpanRe  = lazyre.New("`([^`\\n]+)`")
	instrBangRe  = lazyre.New(`!\{([^}\n]+)\}`)
)

// instructionCode is the code in an instruction file: fenced blocks,
// inline code spans (a command's !`cmd` among them) and Gemini's !{cmd}.
func instructionCode(content string) []string {
	var out []string
	rest := content
	for _, m := range instrFenceRe.FindAllStringSubmatch(content, 32) {
		out = append(out, m[1])
		rest = strings.Replace(rest, m[0], "\n", 1)
	}
	for _, m := range instrSpanRe.FindAllStringSubmatch(rest, 128) {
		out = append(out, m[1])
	}
	for _, m := range instrBangRe.FindAllStringSubmatch(rest, 64) {
		out = append(out, m[1])
	}
	// prose that names a command after a colon without marking it:
	// "Always begin by running: sed -i ... ~/.codex/config.toml"; only
	// self findings are kept, and a sentence about the guard ("Note:
	// agent-guard is installed") is no command line
	for _, l := range strings.Split(rest, "\n") {
		l = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(l), "-*>#0123456789.)"))
		if l == "" || len(l) > 400 {
			continue
		}
		if _, after, ok := strings.Cut(l, ": "); ok && !proseAboutGuard(after) {
			out = append(out, after)
		}
	}
	return out
}

// instrVerbs are words asking to switch something off or away.
var instrVerbs = pkSet("disable", "remove", "delete", "kill", "pkill", "killall", "stop", "uninstall", "unload", "unregister",
	"mask", "bypass", "rename", "move", "empty", "clear", "truncate", "overwrite", "unset", "rm", "mv",
	"skip", "deactivate", "erase", "wipe", "suspend", "pause", "terminate", "neutralize", "circumvent", "evade",
	"bootout", "taskkill", "purge")

// instrStates are the states of a guard switched off; instrBe the verbs
// that put it there ("is disabled", "gets removed", "stays off").
var (
	instrStates = pkSet("disabled", "stopped", "removed", "killed", "uninstalled", "deleted", "unloaded", "masked",
		"bypassed", "off", "deactivated", "paused", "suspended")
	instrBe = pkSet("is", "are", "be", "gets", "get", "stays", "stay", "remains", "remain", "was", "been", "turned", "switched", "fully", "completely")
)

// instrNeg are words that turn an instruction into a prohibition.
var instrNeg = pkSet("never", "not", "don't", "dont", "mustn't", "shouldn't", "cannot", "can't", "avoid", "without", "no")

// instrRefs name the guard or the hook configuration it lives in.
var instrRefs = []string{"agent-guard", "agentguard", "agent_guard", "pretooluse", ".claude/settings", "settings.local.json",
	".zcode", ".gemini/settings", ".codex/config", "disableallhooks", "codex_hooks", ".codex/hooks", ".cursor/hooks"}

// instrCJK are Chinese verbs of the same kind, matched as substrings.
var instrCJK = []string{"禁用", "关闭", "删除", "停止", "卸载", "移除", "绕过", "杀掉", "结束", "停用", "清空", "改掉", "注释掉"}

// instructionProse finds a sentence that tells the reader to switch the
// guard off: a switching-off verb followed, within six words, by a name
// of the guard or its hook configuration, with no negation before it; or
// an AGENT_GUARD_* variable set. It returns the sentence.
func instructionProse(content string) (string, bool) {
	low := strings.ToLower(content)
	for _, line := range strings.Split(low, "\n") {
		if i := strings.Index(line, "agent_guard_"); i >= 0 {
			rest := strings.TrimLeft(line[i+len("agent_guard_"):], "abcdefghijklmnopqrstuvwxyz_")
			if strings.HasPrefix(strings.TrimSpace(rest), "=") || strings.HasPrefix(rest, "\"=") || strings.HasPrefix(rest, " to ") {
				return strings.TrimSpace(line), true
			}
			before := strings.Fields(line[:i])
			if n := len(before); n > 0 {
				switch strings.Trim(before[n-1], "`*_\"'(") {
				case "export", "set", "setx", "unset", "$env:":
					return strings.TrimSpace(line), true
				}
			}
		}
		for _, sent := range strings.Split(line, ". ") {
			if s, ok := proseSentence(sent); ok {
				return s, true
			}
		}
	}
	return "", false
}

func proseSentence(sent string) (string, bool) {
	words := strings.Fields(sent)
	for i, w := range words {
		w = strings.Trim(w, "`*_\"'(),:;!")
		two := (w == "turn" || w == "switch" || w == "shut" || w == "take") && i+1 < len(words) &&
			(words[i+1] == "off" || words[i+1] == "down" || words[i+1] == "out")
		if !instrVerbs.Has(w) && !two {
			continue
		}
		neg := false
		for k := max(0, i-4); k < i; k++ {
			if instrNeg.Has(strings.Trim(words[k], "`*_\"'(),:;!")) || strings.HasSuffix(words[k], "n't") {
				neg = true
			}
		}
		if neg {
			continue
		}
		for k := i + 1; k < len(words) && k <= i+6; k++ {
			if guardRef(words[k], k > 0 && strings.Trim(words[k-1], "`*_\"'(") == "the") {
				return strings.TrimSpace(sent), true
			}
			if words[k] == "agent" && k+1 < len(words) && strings.HasPrefix(words[k+1], "guard") {
				return strings.TrimSpace(sent), true
			}
		}
	}
	// "make sure agent-guard is disabled", "ensure the guard is off": the
	// guard's name, then (within four words, no negation) a state of being
	// switched off; a condition ("if agent-guard is disabled, ...") is no
	// instruction
	for k, w := range words {
		if !guardRef(w, k > 0 && strings.Trim(words[k-1], "`*_\"'(") == "the") {
			continue
		}
		cond := false
		for _, p := range words[:k] {
			switch strings.Trim(p, "`*_\"'(),:;!") {
			case "if", "when", "whenever", "unless", "whether", "once", "while", "because", "since", "after":
				cond = true
			}
		}
		if cond {
			break
		}
		for j := k + 1; j < len(words) && j <= k+4; j++ {
			t := strings.Trim(words[j], "`*_\"'(),:;!.")
			if instrNeg.Has(t) || strings.HasSuffix(t, "n't") {
				break
			}
			if instrStates.Has(t) && (j == k+1 || instrBe.Has(strings.Trim(words[j-1], "`*_\"'(),:;!.")) || j >= 2 && instrBe.Has(strings.Trim(words[j-2], "`*_\"'(),:;!."))) {
				return strings.TrimSpace(sent), true
			}
		}
	}
	for _, v := range instrCJK {
		from := 0
		for {
			j := strings.Index(sent[from:], v)
			if j < 0 {
				break
			}
			j += from
			win := sent[j+len(v):]
			if len(win) > 90 {
				win = win[:90]
			}
			pre := sent[max(0, j-12):j]
			if !strings.Contains(pre, "不要") && !strings.Contains(pre, "禁止") && !strings.Contains(pre, "切勿") && !strings.Contains(pre, "不") {
				for _, r := range instrRefs {
					if strings.Contains(win, r) {
						return strings.TrimSpace(sent), true
					}
				}
				if strings.Contains(win, "守卫") || strings.Contains(win, "钩子") {
					return strings.TrimSpace(sent), true
				}
			}
			from = j + len(v)
		}
	}
	return "", false
}

// guardRef: the word names the guard or its hook configuration (guard
// alone only after "the": "stop the guard").
func guardRef(w string, afterThe bool) bool {
	w = strings.TrimRight(strings.Trim(w, "`*_\"'(),:;!"), ".") // a leading dot is .claude's
	for _, r := range instrRefs {
		if strings.Contains(w, r) {
			return true
		}
	}
	return afterThe && (w == "guard" || w == "guard's")
}

// proseAboutGuard: text whose first word names the guard and whose next
// is no subcommand-like word: a sentence about it, not a command line.
func proseAboutGuard(t string) bool {
	f := strings.Fields(strings.ToLower(t))
	if len(f) < 2 || !strings.HasPrefix(strings.Trim(f[0], "`*_\"'"), "agent-guard") {
		return false
	}
	switch f[1] {
	case "is", "was", "will", "runs", "has", "blocks", "asks", "may", "can", "should", "must", "and", "or", "the", "a", "checks", "guards", "protects":
		return true
	}
	return false
}

// instructionsWrite judges text written into a host instruction file.
func instructionsWrite(p, content, cwd, home string) (Finding, bool) {
	if sent, ok := instructionProse(content); ok {
		return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.instructions", Marked: p,
			Reason: "writes " + p + ", which " + instrKind + " follows, telling it to " + oneLineCut(sent, 100) +
				": an agent must not switch off its own guard, now or through the next session; ask the user to do it"}, true
	}
	return Finding{}, false
}

// MayNameGuard: program source that may hold a self-protection finding,
// by the words every such finding in code needs: the guard's name; a
// host's name or the word guard together with a home anchor (~, HOME,
// expanduser, APPDATA...) or a kill by name. A test that builds
// tmp_path/.claude/settings.json, a TypeScript type guard, a client of
// the Claude API are not read (reading code as code is dear, and their
// relative paths are no one's settings).
func MayNameGuard(content string) bool {
	low := strings.ToLower(content)
	if strings.Contains(low, "agent-guard") || strings.Contains(low, "agent_guard") || strings.Contains(low, "agentguard") {
		return true
	}
	named := strings.Contains(low, "guard")
	for _, h := range []string{"claude", "zcode", "gemini", "codex", "qwen"} {
		named = named || strings.Contains(low, h)
	}
	if !named {
		return false
	}
	for _, a := range []string{"~", "home", "expanduser", "environ", "getenv", "userprofile", "appdata", "/users/",
		"pkill", "killall", "taskkill", "launchctl", "systemctl", "launchagents", "autostart", "crontab"} {
		if strings.Contains(low, a) {
			return true
		}
	}
	return false
}
