// Package install adds agent-guard's PreToolUse hook to ZCode's and Claude
// Code's config files and removes it again, keeping everything else in
// those files as it was. Edits are pure functions over the file's bytes
// (Apply, Remove, Inspect); Install and Uninstall add the backup and the
// atomic write.
package install

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Host names, as the CLI flags spell them.
const (
	ZCode  = "zcode"
	Claude = "claude"
)

// Matcher is the tool-name regex our hook group uses on both hosts.
const Matcher = "Bash|Write|Edit|mcp__.*"

// HookName is the hook binary's base name (plus .exe on Windows); an entry
// whose command has this base name is ours.
const HookName = "agent-guard-hook"

// Timing is what the host must wait: the hook answers deny on its own at
// Deadline, and the host kills it only at HostTimeout, later still.
type Timing struct {
	Deadline    time.Duration
	HostTimeout time.Duration
}

// TimingFor derives the timeouts from the approval dialog's: the hook
// waits 15 s longer than the dialog, the host 10 s longer than the hook.
func TimingFor(approvalSeconds int) Timing {
	d := time.Duration(approvalSeconds)*time.Second + 15*time.Second
	return Timing{Deadline: d, HostTimeout: d + 10*time.Second}
}

// Hook is the entry to install: the hook binary's absolute path, the
// agent-guard binary the hook verifies the server against, and timing.
type Hook struct {
	Path  string
	Guard string // absolute path of agent-guard; "" writes no --guard
	Timing
}

// hookArgs are the arguments every host's entry passes to the hook.
func (h Hook) hookArgs(host string) []string {
	return append([]string{"--host", host, "--deadline", seconds(h.Deadline)}, guardArgs(h.Guard)...)
}

// guardArgs is the one place --guard is written (the thin hook reads it to
// verify the server's binary).
func guardArgs(guard string) []string {
	if guard == "" {
		return nil
	}
	return []string{"--guard", guard}
}

// hostSpec describes where a host keeps its hook lists and how one entry
// is spelled in each.
type hostSpec struct {
	name  string
	lists []listSpec
	// root holds top-level keys the file must have (Cursor's and Copilot's
	// "version": 1), set only when missing.
	root []member
}

// listSpec is one hook list: the keys from the root object to the array,
// whether its elements are Claude-style matcher groups or the hooks
// themselves, and how our element is written and any element read back.
type listSpec struct {
	keys    []string
	grouped bool
	matcher string // the group's matcher (grouped lists)
	entry   func(Hook) (any, error)
	view    func(json.RawMessage) (hookView, bool)
}

// hookView is what we read back from one hook element of any host.
type hookView struct {
	Command string   // the executable
	Args    []string // its arguments
	Timeout time.Duration
}

func spec(host string) (hostSpec, error) {
	if sp, ok := specs[host]; ok {
		return sp, nil
	}
	return hostSpec{}, fmt.Errorf("install: unknown host %q (want one of %s)", host, strings.Join(HostNames(), ", "))
}

// group is one matcher group; field order is the order written.
type group struct {
	Matcher string `json:"matcher,omitempty"` // Antigravity's groups have none
	Hooks   []any  `json:"hooks"`
}

type zcodeHook struct {
	Type      string   `json:"type"`
	Command   string   `json:"command"`
	Args      []string `json:"args"`
	TimeoutMs int64    `json:"timeoutMs"`
}

type claudeHook struct {
	Type    string `json:"type"`
	Command string `json:"command"`
	Timeout int64  `json:"timeout"`
}

func zcodeEntry(h Hook) (any, error) {
	return zcodeHook{
		Type:      "process",
		Command:   h.Path,
		Args:      h.hookArgs(ZCode),
		TimeoutMs: h.HostTimeout.Milliseconds(),
	}, nil
}

func claudeEntry(h Hook) (any, error) {
	cmd, err := quotedCommand(Claude, h)
	if err != nil {
		return nil, err
	}
	return claudeHook{Type: "command", Command: cmd, Timeout: int64(h.HostTimeout / time.Second)}, nil
}

// quotedCommand is the hook as one shell command line with every path
// double-quoted and in forward slashes: Claude Code runs it through bash
// (also on Windows). It refuses what quoting cannot carry.
func quotedCommand(host string, h Hook) (string, error) {
	return commandLine(host, h, func(p string) string { return fmt.Sprintf("%q", filepath.ToSlash(p)) })
}

func commandLine(host string, h Hook, quote func(string) string) (string, error) {
	for _, p := range []string{h.Path, h.Guard} {
		if strings.ContainsAny(filepath.ToSlash(p), "\"$`\\\n") {
			return "", fmt.Errorf("install: the path %q contains a character the host's shell would misread (\" $ ` \\); move agent-guard to a plain folder", p)
		}
	}
	words := []string{quote(h.Path)}
	args := h.hookArgs(host)
	for i := 0; i < len(args); i++ {
		if args[i] == "--guard" && i+1 < len(args) {
			words = append(words, args[i], quote(args[i+1]))
			i++
			continue
		}
		words = append(words, args[i])
	}
	return strings.Join(words, " "), nil
}

func seconds(d time.Duration) string { return fmt.Sprintf("%ds", int64(d/time.Second)) }

// HostNames lists the hosts install knows, sorted.
func HostNames() []string {
	var ns []string
	for n := range specs {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

func zcodeView(raw json.RawMessage) (hookView, bool) {
	var h struct {
		Command   string   `json:"command"`
		Args      []string `json:"args"`
		TimeoutMs float64  `json:"timeoutMs"`
	}
	if json.Unmarshal(raw, &h) != nil {
		return hookView{}, false
	}
	return hookView{h.Command, h.Args, time.Duration(h.TimeoutMs * float64(time.Millisecond))}, true
}

func claudeView(raw json.RawMessage) (hookView, bool) {
	var h struct {
		Command string  `json:"command"`
		Timeout float64 `json:"timeout"`
	}
	if json.Unmarshal(raw, &h) != nil {
		return hookView{}, false
	}
	words := splitCommand(h.Command)
	if len(words) == 0 {
		return hookView{}, false
	}
	return hookView{words[0], words[1:], time.Duration(h.Timeout * float64(time.Second))}, true
}

// splitCommand splits a shell command line the simple way our own entry
// is written: words separated by spaces, each may be double- or
// single-quoted (PowerShell doubles a ' inside '...'), after PowerShell's
// call operator & if the line starts with it. Quoted paths with spaces
// (the hook's, and --guard's) come back whole.
func splitCommand(s string) []string {
	s = strings.TrimSpace(s)
	// PowerShell's call operator, as our Copilot and Windows lines start.
	if rest, ok := strings.CutPrefix(s, "& "); ok {
		s = strings.TrimSpace(rest)
	}
	var words []string
	for {
		s = strings.TrimLeft(s, " \t")
		if s == "" {
			return words
		}
		q := s[0]
		if q != '"' && q != '\'' {
			i := strings.IndexAny(s, " \t")
			if i < 0 {
				return append(words, s)
			}
			words, s = append(words, s[:i]), s[i:]
			continue
		}
		var b strings.Builder
		i := 1
		for ; i < len(s); i++ {
			if s[i] == q {
				if q == '\'' && i+1 < len(s) && s[i+1] == '\'' {
					b.WriteByte(q)
					i++
					continue
				}
				break
			}
			b.WriteByte(s[i])
		}
		words = append(words, b.String())
		if i >= len(s) {
			return words
		}
		s = s[i+1:]
	}
}

// isOurs tells our hook by the executable's base name, whatever its folder
// and on either OS's path syntax, so an old install at another path or
// with another timeout is recognised and replaced.
func isOurs(v hookView) bool {
	base := v.Command[strings.LastIndexAny(v.Command, `/\`)+1:]
	base = strings.TrimSuffix(strings.ToLower(base), ".exe")
	return base == HookName
}

// deadline returns the --deadline argument of a hook, 0 when absent or bad.
func (v hookView) deadline() time.Duration {
	for i, a := range v.Args {
		var val string
		switch {
		case a == "--deadline" && i+1 < len(v.Args):
			val = v.Args[i+1]
		case strings.HasPrefix(a, "--deadline="):
			val = strings.TrimPrefix(a, "--deadline=")
		default:
			continue
		}
		d, err := time.ParseDuration(val)
		if err != nil {
			return 0
		}
		return d
	}
	return 0
}

// coversOurTools reports whether a matcher selects any tool we guard;
// a matcher we cannot compile is assumed to.
func coversOurTools(matcher string) bool {
	if matcher == "" || matcher == "*" {
		return true
	}
	re, err := regexp.Compile("^(?:" + matcher + ")$")
	if err != nil {
		return true
	}
	for _, tool := range []string{"Bash", "Write", "Edit", "mcp__server__tool"} {
		if re.MatchString(tool) {
			return true
		}
	}
	return false
}
