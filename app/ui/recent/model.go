//go:build !nogui

package recent

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agent-guard/agent-guard/app/audit"
	"github.com/agent-guard/agent-guard/app/hostproto"
	"github.com/agent-guard/agent-guard/app/judge"
)

// Limit is how many audit lines the window reads and shows.
const Limit = 500

// Column indexes of Cells.
const (
	ColTime = iota
	ColHost
	ColSession
	ColTool
	ColInput
	ColLevel
	ColDecision
	ColDecider
	ColRule
)

// Columns are the table's headers, in Cells' order.
var Columns = []string{sTime, sHost, sSession, sTool, sInput, sLevel, sDecision, sDecider, sRule}

// Filter selects entries; an empty field matches everything.
type Filter struct {
	Level string // allow | confirm | block
	Host  string // a host name as the log writes it ("zcode")
}

// Match reports whether e passes the filter.
func (f Filter) Match(e audit.Entry) bool {
	return (f.Level == "" || e.Level == f.Level) && (f.Host == "" || e.Host == f.Host)
}

// Newest returns up to limit entries, newest first, from entries in file
// order (oldest first, as audit.ReadLast returns them).
func Newest(entries []audit.Entry, limit int) []audit.Entry {
	var out []audit.Entry
	for i := len(entries) - 1; i >= 0 && len(out) < limit; i-- {
		out = append(out, entries[i])
	}
	return out
}

// Apply returns the indexes of the entries f matches, in order.
func (f Filter) Apply(entries []audit.Entry) []int {
	var idx []int
	for i, e := range entries {
		if f.Match(e) {
			idx = append(idx, i)
		}
	}
	return idx
}

// Hosts are the host names present, sorted, for the host filter.
func Hosts(entries []audit.Entry) []string {
	var hs []string
	for _, e := range entries {
		if e.Host != "" && !slices.Contains(hs, e.Host) {
			hs = append(hs, e.Host)
		}
	}
	slices.Sort(hs)
	return hs
}

// HostName is a host's display name ("Claude Code" for "claude").
func HostName(name string) string {
	if h, ok := hostproto.Lookup(name); ok && h.Display != "" {
		return h.Display
	}
	return name
}

// Cells renders one entry as the table's row. now decides whether the
// date is shown (older than 20 hours).
func Cells(e audit.Entry, now time.Time) []string {
	ts := e.TS.Local().Format("15:04:05")
	if now.Sub(e.TS) > 20*time.Hour {
		ts = e.TS.Local().Format("Jan 2 15:04")
	}
	// One line in the table (ellipsis when long); the detail shows it all.
	in := strings.Join(strings.Fields(e.Input), " ")
	return []string{ts, HostName(e.Host), e.Session, e.Tool, in, T(levelKey(e.Level)), T(decisionKey(e)), T(deciderKey(e)), e.Rule}
}

func levelKey(l string) string {
	switch l {
	case "allow":
		return sAllow
	case "confirm":
		return sConfirm
	case "block":
		return sBlock
	}
	return l
}

// decisionKey tells a human's "allow once" from "allow always".
func decisionKey(e audit.Entry) string {
	switch e.Decision {
	case "allow":
		switch {
		case e.Decider != audit.DeciderUser:
			return sAllow
		case e.Approval == audit.ApprovalAlways:
			return sAllowAlways
		}
		return sAllowOnce
	case "deny":
		return sDeny
	case "ask":
		return sAsk
	}
	return e.Decision
}

// sourceKeys name the pipeline stage that settled a verdict.
var sourceKeys = map[string]string{
	judge.SourceRule:          sByRules,
	judge.SourceFastpathAllow: sByAllowlist,
	judge.SourceFastpathBlock: sByDenylist,
	judge.SourceFastpathMCP:   sByMCPList,
	judge.SourceCache:         sByCache,
	judge.SourceAPI:           sByRemote,
	judge.SourceFallback:      sByFallback,
	judge.SourceDisabled:      sByDisabled,
	judge.SourceSelf:          sBySelf,
	judge.SourceError:         sByError,
}

// timeoutWords are how the approval's answers say nobody answered in
// time (app/decide's ask, app/approval's queue, the tray's missed list).
var timeoutWords = []string{"no one answered", "nobody answered", "no answer in time"}

// deciderKey says who settled the call: the human, the approval policy
// (a timeout, a closed dialog, no dialog under full access), or else the
// stage of the judge that did.
func deciderKey(e audit.Entry) string {
	switch e.Decider {
	case audit.DeciderUser:
		return sByUser
	case audit.DeciderPolicy:
		for _, w := range timeoutWords {
			if strings.Contains(e.Answer, w) || strings.Contains(e.Reason, w) {
				return sByTimeout
			}
		}
		return sByPolicy
	}
	if k, ok := sourceKeys[e.Source]; ok {
		return k
	}
	if e.Source != "" {
		return e.Source
	}
	return e.Decider
}

// Field is one line of the detail pane. Mono marks what the agent wrote
// (the command or input), shown in a fixed-width font.
type Field struct {
	Key, Value string
	Mono       bool
}

// Detail is everything the log holds about e, for the detail pane and
// the clipboard: nothing is cut.
func Detail(e audit.Entry) []Field {
	or := func(s, alt string) string {
		if s == "" {
			return T(alt)
		}
		return s
	}
	host := HostName(e.Host)
	if host != e.Host {
		host += " (" + e.Host + ")"
	}
	took := T(sTookJudged, map[string]any{"MS": fmt.Sprintf("%.1f", e.DurationMS)})
	if e.WaitMS > 0 {
		took = T(sTookValue, map[string]any{"MS": fmt.Sprintf("%.1f", e.DurationMS-e.WaitMS), "Wait": fmt.Sprintf("%.1f", e.WaitMS/1000)})
	}
	// What and why first: the detail pane shows its top without scrolling.
	fs := []Field{
		{Key: sInput, Value: e.Input, Mono: true},
		{Key: sDecision, Value: T(decisionKey(e))},
		{Key: sDecider, Value: T(deciderKey(e))},
	}
	if e.Answer != "" {
		fs = append(fs, Field{Key: sAnswer, Value: e.Answer})
	}
	fs = append(fs,
		Field{Key: sReason, Value: e.Reason},
		Field{Key: sRule, Value: or(e.Rule, sNoRule)},
		Field{Key: sLevel, Value: T(levelKey(e.Level))},
		Field{Key: sRisk, Value: T(sRiskValue, map[string]any{"Risk": fmt.Sprintf("%.1f", e.Risk), "P": fmt.Sprintf("%.0f", e.Violation*100)})},
		Field{Key: sHost, Value: or(host, sNotSent)},
		Field{Key: sSession, Value: or(e.Session, sNotSent)},
		Field{Key: sCwd, Value: or(e.Cwd, sNotSent)},
		Field{Key: sTool, Value: e.Tool},
		Field{Key: sTime, Value: e.TS.Local().Format("2006-01-02 15:04:05 MST")},
		Field{Key: sTook, Value: took},
	)
	for i := range fs {
		fs[i].Key = T(fs[i].Key)
	}
	return fs
}

// DetailText is the detail as plain text, one "Key: value" line each.
func DetailText(e audit.Entry) string {
	var b strings.Builder
	for _, f := range Detail(e) {
		fmt.Fprintf(&b, "%s: %s\n", f.Key, f.Value)
	}
	return b.String()
}
