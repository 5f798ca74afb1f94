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

// Hook is the entry to install: the hook binary's absolute path and timing.
type Hook struct {
	Path string
	Timing
}

// hostSpec describes where a host keeps its PreToolUse list and how one
// hook element is spelled.
type hostSpec struct {
	name  string
	keys  []string // from the root object to the PreToolUse array
	entry func(Hook) (any, error)
	view  func(json.RawMessage) (hookView, bool)
}

// hookView is what we read back from one hook element of either host.
type hookView struct {
	Command string   // the executable
	Args    []string // its arguments
	Timeout time.Duration
}

func spec(host string) (hostSpec, error) {
	switch host {
	case ZCode:
		return hostSpec{name: ZCode, keys: []string{"hooks", "events", "PreToolUse"}, entry: zcodeEntry, view: zcodeView}, nil
	case Claude:
		return hostSpec{name: Claude, keys: []string{"hooks", "PreToolUse"}, entry: claudeEntry, view: claudeView}, nil
	}
	return hostSpec{}, fmt.Errorf("install: unknown host %q (want %q or %q)", host, ZCode, Claude)
}

// group is one PreToolUse matcher group; field order is the order written.
type group struct {
	Matcher string `json:"matcher"`
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
	return group{Matcher: Matcher, Hooks: []any{zcodeHook{
		Type:      "process",
		Command:   h.Path,
		Args:      []string{"--host", ZCode, "--deadline", seconds(h.Deadline)},
		TimeoutMs: h.HostTimeout.Milliseconds(),
	}}}, nil
}

func claudeEntry(h Hook) (any, error) {
	// Claude Code runs the command through a shell (bash, also on Windows),
	// so the path is double-quoted; refuse what quoting cannot carry.
	p := filepath.ToSlash(h.Path)
	if strings.ContainsAny(p, "\"$`\\\n") {
		return nil, fmt.Errorf("install: the hook path %q contains a character Claude Code's shell would misread (\" $ ` \\); move agent-guard to a plain folder", h.Path)
	}
	return group{Matcher: Matcher, Hooks: []any{claudeHook{
		Type:    "command",
		Command: fmt.Sprintf("%q --host %s --deadline %s", p, Claude, seconds(h.Deadline)),
		Timeout: int64(h.HostTimeout / time.Second),
	}}}, nil
}

func seconds(d time.Duration) string { return fmt.Sprintf("%ds", int64(d/time.Second)) }

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
// is written: a first word that may be double- or single-quoted, then
// words separated by spaces.
func splitCommand(s string) []string {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	var first string
	if q := s[0]; q == '"' || q == '\'' {
		end := strings.IndexByte(s[1:], q)
		if end < 0 {
			return []string{s[1:]}
		}
		first, s = s[1:1+end], s[2+end:]
	} else {
		i := strings.IndexAny(s, " \t")
		if i < 0 {
			return []string{s}
		}
		first, s = s[:i], s[i:]
	}
	return append([]string{first}, strings.Fields(s)...)
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
