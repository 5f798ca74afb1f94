// Package model builds the tray menu from the tray's state: labels,
// checkbox states, counts, the status line and which icon to show. It is
// pure (no Fyne, no systray), so the menu is tested without a display and
// the screenshot renderer draws exactly what the tray shows.
package model

import (
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Icon states (the same strings as package assets).
const (
	IconOn      = "on"
	IconOff     = "off"
	IconPending = "pending"
	// IconUnguarded: something the guard depends on was changed behind
	// its back (a hook entry, a binary); the guard may not be in the way.
	IconUnguarded = "unguarded"
)

// Action ids of menu items. Pending items use PendingAllowID/PendingDenyID.
const (
	ActStatus      = "status"
	ActConfigError = "config-error"
	ActConfigHeld  = "config-held"
	ActUnguarded   = "unguarded"
	ActRestore     = "restore"
	ActEnabled     = "enabled"
	ActRedLines    = "red-lines"
	ActFullAccess  = "full-access"
	ActModeDialog  = "mode-dialog"
	ActModeAgent   = "mode-agent"
	ActSettings    = "settings"
	ActRules       = "rules"
	ActPending     = "pending"
	ActPendingShow = "pending-show"
	ActMissed      = "missed"
	ActRecent      = "recent"
	ActOpenConfig  = "open-config"
	ActOpenAudit   = "open-audit"
	ActAutostart   = "autostart"
	ActQuit        = "quit"
)

// MaxPendingListed caps the pending items listed in the submenu; the
// dialog still shows every item in turn.
const MaxPendingListed = 8

// Decision is the last decision shown in the status area.
type Decision struct {
	TS       time.Time
	Level    string // allow | confirm | block
	Decision string // allow | ask | deny
	Tool     string
	Input    string
	Decider  string // auto | user | policy
}

// PendingItem is one approval waiting for the user.
type PendingItem struct {
	ID    uint64
	Tool  string
	Input string
}

// State is everything the menu depends on.
type State struct {
	Enabled              bool
	RedLinesWhenDisabled bool
	ApprovalMode         string // "dialog" | "agent"
	Pending              []PendingItem
	Missed               int // approvals denied by timeout while the user was away
	Last                 *Decision
	ConfigError          string // the last reload's error; "" when the file is fine
	// Autostart is nil when this build cannot start at login.
	Autostart *bool
	// ConfigHeld lists, in words, the changes of config.json that lower
	// protection and wait for the user; empty when none.
	ConfigHeld []string
	// Unguarded lists what was changed behind the guard's back (a hook
	// entry removed, a binary replaced); empty when all is as installed.
	Unguarded []string
	// Restorable says Restore can put the hook entries back.
	Restorable bool
}

// Item is one menu entry. A Separator has no other fields.
type Item struct {
	ID        string
	Label     string
	Tooltip   string
	Checkable bool
	Checked   bool
	Disabled  bool
	Separator bool
	Children  []Item
}

// Icon is the tray icon for s: pending beats off beats on, and a broken
// config file asks for attention like a pending approval.
func Icon(s State) string {
	switch {
	case len(s.Unguarded) > 0:
		return IconUnguarded
	case len(s.Pending) > 0 || s.ConfigError != "" || len(s.ConfigHeld) > 0:
		return IconPending
	case !s.Enabled:
		return IconOff
	}
	return IconOn
}

// Status is the first menu line: on/off, the pending count and missed approvals.
func Status(s State) string {
	var b strings.Builder
	switch {
	case s.Enabled:
		b.WriteString("Guard on")
	case s.RedLinesWhenDisabled:
		b.WriteString("Guard off (red lines still blocked)")
	default:
		b.WriteString("Guard off — everything is allowed")
	}
	if n := len(s.Pending); n > 0 {
		fmt.Fprintf(&b, " · %d pending", n)
	}
	if s.Missed > 0 {
		fmt.Fprintf(&b, " · %d denied while you were away", s.Missed)
	}
	if len(s.ConfigHeld) > 0 {
		b.WriteString(" · config change waiting for you")
	}
	if len(s.Unguarded) > 0 {
		b.WriteString(" · UNGUARDED")
	}
	return b.String()
}

// LastLine describes the last decision, or says there was none.
func LastLine(s State) string {
	d := s.Last
	if d == nil {
		return "No decisions yet"
	}
	verb := d.Decision
	switch d.Decision {
	case "allow":
		verb = "Allowed"
	case "deny":
		verb = "Denied"
	case "ask":
		verb = "Asked the agent"
	}
	by := ""
	switch d.Decider {
	case "user":
		by = " by you"
	case "policy":
		by = " (no answer)"
	}
	return fmt.Sprintf("Last: %s%s: %s", verb, by, Short(d.Tool, d.Input, 40))
}

// Tooltip is the tray icon's tooltip.
func Tooltip(s State) string {
	t := "agent-guard: " + Status(s)
	if s.ConfigError != "" {
		t += " · config error"
	}
	return t
}

// Short renders a call as "tool: input" cut to max runes, on one line.
func Short(tool, input string, max int) string {
	in := strings.Join(strings.Fields(input), " ")
	s := in
	if tool != "" && tool != "Bash" {
		s = tool + ": " + in
	}
	if utf8.RuneCountInString(s) > max {
		r := []rune(s)
		s = string(r[:max-1]) + "…"
	}
	return s
}

// PendingAllowID and PendingDenyID are the action ids of a pending item's entries.
func PendingAllowID(id uint64) string { return "pending-allow-" + strconv.FormatUint(id, 10) }
func PendingDenyID(id uint64) string  { return "pending-deny-" + strconv.FormatUint(id, 10) }

// ParsePendingID splits a pending action id into allow/deny and the item id.
func ParsePendingID(action string) (id uint64, allow, ok bool) {
	var rest string
	switch {
	case strings.HasPrefix(action, "pending-allow-"):
		rest, allow = strings.TrimPrefix(action, "pending-allow-"), true
	case strings.HasPrefix(action, "pending-deny-"):
		rest = strings.TrimPrefix(action, "pending-deny-")
	default:
		return 0, false, false
	}
	id, err := strconv.ParseUint(rest, 10, 64)
	return id, allow, err == nil
}

// Menu builds the tray menu for s.
func Menu(s State) []Item {
	sep := Item{Separator: true}
	items := []Item{
		{ID: ActStatus, Label: Status(s), Disabled: true},
		{ID: ActStatus + "-last", Label: LastLine(s), Disabled: true},
	}
	if len(s.Unguarded) > 0 {
		items = append(items, Item{ID: ActUnguarded, Label: "Unguarded: " + Short("", s.Unguarded[0], 60),
			Tooltip: strings.Join(s.Unguarded, "\n"), Disabled: true})
		if s.Restorable {
			items = append(items, Item{ID: ActRestore, Label: "Restore the guard's hook entries"})
		}
	}
	if len(s.ConfigHeld) > 0 {
		items = append(items, Item{ID: ActConfigHeld, Label: fmt.Sprintf("Config change waiting for you (%d)…", len(s.ConfigHeld)),
			Tooltip: strings.Join(s.ConfigHeld, "\n")})
	}
	if s.ConfigError != "" {
		items = append(items, Item{ID: ActConfigError, Label: "Config error (using the last good config): " + Short("", s.ConfigError, 60),
			Tooltip: s.ConfigError, Disabled: true})
	}
	items = append(items, sep,
		Item{ID: ActEnabled, Label: "Enabled", Checkable: true, Checked: s.Enabled,
			Tooltip: "Off: every call is allowed and audited as disabled"},
		Item{ID: ActRedLines, Label: "Keep blocking red lines while off", Checkable: true, Checked: s.RedLinesWhenDisabled,
			Tooltip: "While the guard is off, still block red lines and attempts to switch the guard off"},
		Item{ID: ActFullAccess, Label: "Under full access, confirm with", Children: []Item{
			{ID: ActModeDialog, Label: "agent-guard's own dialog", Checkable: true, Checked: s.ApprovalMode != "agent"},
			{ID: ActModeAgent, Label: "the agent's own ask (less safe)", Checkable: true, Checked: s.ApprovalMode == "agent"},
		}},
		Item{ID: ActSettings, Label: "Thresholds…"},
		Item{ID: ActRules, Label: "Rules and approvals…"},
		sep,
		pendingMenu(s),
	)
	if s.Missed > 0 {
		items = append(items, Item{ID: ActMissed, Label: fmt.Sprintf("Denied while you were away (%d)…", s.Missed)})
	}
	items = append(items,
		Item{ID: ActRecent, Label: "Recent decisions…"},
		sep,
		Item{ID: ActOpenConfig, Label: "Open config"},
		Item{ID: ActOpenAudit, Label: "Open audit log"},
	)
	if s.Autostart != nil {
		items = append(items, Item{ID: ActAutostart, Label: "Start at login", Checkable: true, Checked: *s.Autostart})
	}
	items = append(items, sep, Item{ID: ActQuit, Label: "Quit agent-guard"})
	return items
}

func pendingMenu(s State) Item {
	n := len(s.Pending)
	it := Item{ID: ActPending, Label: fmt.Sprintf("Pending approvals (%d)", n)}
	if n == 0 {
		it.Disabled = true
		return it
	}
	it.Children = []Item{{ID: ActPendingShow, Label: "Show approval dialog"}, {Separator: true}}
	for i, p := range s.Pending {
		if i == MaxPendingListed {
			it.Children = append(it.Children, Item{ID: ActPendingShow + "-more", Label: fmt.Sprintf("… and %d more", n-i), Disabled: true})
			break
		}
		it.Children = append(it.Children, Item{
			ID:    fmt.Sprintf("pending-%d", p.ID),
			Label: Short(p.Tool, p.Input, 48),
			Children: []Item{
				{ID: PendingAllowID(p.ID), Label: "Allow once"},
				{ID: PendingDenyID(p.ID), Label: "Deny"},
			},
		})
	}
	return it
}

// Shape is a string that changes exactly when the menu's structure (ids,
// nesting, separators) changes, so the tray can update labels in place
// and rebuild only when it must.
func Shape(items []Item) string {
	var b strings.Builder
	var walk func([]Item)
	walk = func(items []Item) {
		for _, it := range items {
			if it.Separator {
				b.WriteString("-;")
				continue
			}
			b.WriteString(it.ID)
			if it.Checkable {
				b.WriteString("[x]")
			}
			if len(it.Children) > 0 {
				b.WriteString("(")
				walk(it.Children)
				b.WriteString(")")
			}
			b.WriteString(";")
		}
	}
	walk(items)
	return b.String()
}
