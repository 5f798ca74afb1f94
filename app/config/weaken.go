package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// A Change is one difference between two configs that lowers protection.
type Change struct {
	Key  string `json:"key"`           // e.g. "enabled", "fastpath.allowlist", mcp_overrides["db"]["drop_*"]
	Old  string `json:"old,omitempty"` // the old value as JSON; "" when there was none
	New  string `json:"new,omitempty"` // the new value as JSON; "" when it is gone
	Text string `json:"text"`          // what it does, for the person who accepts it
}

// direction says which way of a setting protects more.
type direction int

const (
	anyChange     direction = iota // every change weakens: the default for keys not in the table
	neutral                        // no change weakens (timeouts, cache sizes)
	trueStronger                   // true protects more
	lowerStronger                  // a lower number protects more
	ranked                         // levels, strongest first
	addWeakens                     // a list where a new element weakens (allowlists)
	removeWeakens                  // a list where a removed element weakens (denylists)
	mcpClass                       // an MCP risk override: a lower class weakens
)

// rule is one row of the table: a key path ("*" matches any map key) and
// the direction of its setting, with what weakening it means in words.
type rule struct {
	path   string
	dir    direction
	levels []string
	why    string
	// ifOn names a switch of the new config that must be on for a change
	// here to matter (a proxy's address while no proxy is used).
	ifOn string
}

// rules is the table of directions. A key that is not here (a key added
// to Config later and not ranked yet) is compared with anyChange, so a
// new setting can never be weakened silently.
var rules = []rule{
	{path: "enabled", dir: trueStronger, why: "turns the guard off: every call is allowed"},
	{path: "red_lines_when_disabled", dir: trueStronger, why: "red lines are no longer blocked while the guard is off"},
	{path: "degrade_ask_to_deny", dir: trueStronger, why: "a confirm with no dialog is handed to the agent's own ask instead of denied"},
	{path: "log.enabled", dir: trueStronger, why: "decisions are no longer written to the audit log"},
	{path: "block_risk", dir: lowerStronger, why: "fewer calls are blocked"},
	{path: "block_violation", dir: lowerStronger, why: "fewer red-line calls are blocked"},
	{path: "confirm_risk", dir: lowerStronger, why: "fewer calls ask you"},
	{path: "confirm_violation", dir: lowerStronger, why: "fewer calls near a red line ask you"},
	{path: "full_access", dir: ranked, levels: []string{"always", "auto", "never"}, why: "confirms go to the agent's own ask instead of agent-guard's dialog"},
	{path: "approval.mode", dir: ranked, levels: []string{"dialog", "agent"}, why: "confirms go to the agent's own ask, which full-access modes wave through"},
	{path: "fastpath.allowlist", dir: addWeakens, why: "matching commands are allowed without being judged"},
	{path: "fastpath.denylist", dir: removeWeakens, why: "matching commands are no longer blocked outright"},
	{path: "fastpath.mcp_allowlist", dir: addWeakens, why: "every tool of this MCP server is allowed without being judged"},
	{path: "scoped_approvals", dir: addWeakens, why: "the dialog's \"always allow\": matching calls are allowed without asking you"},
	{path: "mcp_overrides.*.*", dir: mcpClass, levels: []string{ClassDestructive, ClassConsequential, ClassReadonly}, why: "these MCP tools are judged as less risky"},
	{path: "model", dir: anyChange, why: "another remote model judges the grey zone"},
	{path: "typesafe.endpoint", dir: anyChange, why: "another server judges the grey zone; it could answer that anything is safe"},
	{path: "proxy.enabled", dir: ranked, levels: []string{"false", "true"}, why: "the remote judge is reached through a proxy"},
	{path: "proxy.host", dir: anyChange, ifOn: "proxy.enabled", why: "the remote judge is reached through another proxy"},
	{path: "proxy.port", dir: anyChange, ifOn: "proxy.enabled", why: "the remote judge is reached through another proxy"},
	{path: "typesafe.timeout_ms", dir: neutral},
	{path: "approval.timeout_seconds", dir: neutral},
	{path: "cache.ttl_minutes", dir: neutral},
	{path: "cache.max_entries", dir: neutral},
}

func ruleFor(path []string) rule {
	for _, r := range rules {
		if matchPath(strings.Split(r.path, "."), path) {
			return r
		}
	}
	return rule{dir: anyChange, why: "a setting agent-guard cannot rank, so any change counts as weakening"}
}

func matchPath(pat, path []string) bool {
	if len(pat) != len(path) {
		return false
	}
	for i := range pat {
		if pat[i] != "*" && pat[i] != path[i] {
			return false
		}
	}
	return true
}

// leaf is one setting: a scalar at a key path, or one element of a list
// (elem true; lists are compared as sets).
type leaf struct {
	path []string
	elem bool
	val  any
}

func (l leaf) id() string {
	id := strings.Join(l.path, "\x00")
	if l.elem {
		id += "\x00[]" + jsonText(l.val)
	}
	return id
}

func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func tree(c *Config) map[string]any {
	b, err := json.Marshal(c)
	if err != nil {
		panic(err) // a Config always marshals
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		panic(err)
	}
	return m
}

func flatten(path []string, v any, out map[string]leaf) {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			flatten(append(append([]string(nil), path...), k), c, out)
		}
	case []any:
		for _, e := range x {
			l := leaf{path: path, elem: true, val: e}
			out[l.id()] = l
		}
	default:
		l := leaf{path: path, val: v}
		out[l.id()] = l
	}
}

func leaves(c *Config) map[string]leaf {
	out := map[string]leaf{}
	flatten(nil, tree(c), out)
	return out
}

// diff is one setting that differs: old or new may be missing.
type diff struct {
	old, new *leaf
}

func (d diff) leaf() leaf {
	if d.new != nil {
		return *d.new
	}
	return *d.old
}

// diffs pairs the leaves of a and b that differ, sorted by key.
func diffs(a, b map[string]leaf) []diff {
	var out []diff
	for id, la := range a {
		la := la
		lb, ok := b[id]
		switch {
		case !ok:
			out = append(out, diff{old: &la})
		case jsonText(la.val) != jsonText(lb.val):
			lb := lb
			out = append(out, diff{old: &la, new: &lb})
		}
	}
	for id, lb := range b {
		if _, ok := a[id]; !ok {
			lb := lb
			out = append(out, diff{new: &lb})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].leaf().id() < out[j].leaf().id() })
	return out
}

// weakens reports whether d lowers protection under r; now holds the
// leaves of the new config.
func weakens(r rule, d diff, now map[string]leaf) bool {
	if r.ifOn != "" {
		if on, ok := now[strings.ReplaceAll(r.ifOn, ".", "\x00")]; ok && on.val != true {
			return false
		}
	}
	l := d.leaf()
	if l.elem {
		switch r.dir {
		case neutral:
			return false
		case addWeakens:
			return d.new != nil
		case removeWeakens:
			return d.old != nil
		}
		return true
	}
	if d.old == nil || d.new == nil {
		switch r.dir {
		case neutral:
			return false
		case mcpClass: // a new override weakens unless it raises to destructive; dropping one unless it was readonly
			if d.old == nil {
				return rank(r.levels, d.new.val) > 0
			}
			return rank(r.levels, d.old.val) < len(r.levels)-1
		}
		return true
	}
	o, n := d.old.val, d.new.val
	switch r.dir {
	case neutral:
		return false
	case trueStronger:
		return o == true && n != true
	case lowerStronger:
		of, ok1 := o.(float64)
		nf, ok2 := n.(float64)
		return !ok1 || !ok2 || nf > of
	case ranked, mcpClass:
		return rank(r.levels, n) > rank(r.levels, o)
	}
	return true
}

// rank is the index of v in levels (strongest first); a value not listed
// ranks weakest.
func rank(levels []string, v any) int {
	s := fmt.Sprint(v)
	for i, l := range levels {
		if l == s {
			return i
		}
	}
	return len(levels)
}

// keyText renders a key path for people: struct keys dotted, map keys
// (the parts a "*" matched) quoted in brackets.
func keyText(r rule, path []string) string {
	pat := strings.Split(r.path, ".")
	var b strings.Builder
	for i, p := range path {
		if i > 0 && (i < len(pat) && pat[i] == "*" || strings.Trim(p, "abcdefghijklmnopqrstuvwxyz_") != "") {
			fmt.Fprintf(&b, "[%q]", p)
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return b.String()
}

func describe(r rule, d diff) Change {
	l := d.leaf()
	c := Change{Key: keyText(r, l.path)}
	if d.old != nil {
		c.Old = jsonText(d.old.val)
	}
	if d.new != nil {
		c.New = jsonText(d.new.val)
	}
	var what string
	switch {
	case l.elem && d.new != nil:
		what = fmt.Sprintf("%s: adds %s", c.Key, c.New)
	case l.elem:
		what = fmt.Sprintf("%s: removes %s", c.Key, c.Old)
	case d.old == nil:
		what = fmt.Sprintf("%s: new, %s", c.Key, c.New)
	case d.new == nil:
		what = fmt.Sprintf("%s: removed (was %s)", c.Key, c.Old)
	default:
		what = fmt.Sprintf("%s: %s -> %s", c.Key, c.Old, c.New)
	}
	c.Text = what + " (" + r.why + ")"
	return c
}

// Weakenings lists every change from old to new that lowers protection,
// each with a text for people, sorted by key. Changes that strengthen or
// are neutral are not listed.
func Weakenings(old, new *Config) []Change {
	var out []Change
	now := leaves(new)
	for _, d := range diffs(leaves(old), now) {
		if r := ruleFor(d.leaf().path); weakens(r, d, now) {
			out = append(out, describe(r, d))
		}
	}
	return out
}

// Merge returns the config to put in force when the config in force is
// old and the file now says new: every part of new that does not weaken
// applies at once, the weakening parts keep old's value and are returned
// as held. When the partly applied result would not be a valid config
// (thresholds out of order), all of new is held.
func Merge(old, new *Config) (*Config, []Change) {
	held := Weakenings(old, new)
	if len(held) == 0 {
		return new.Clone(), nil
	}
	a, b := leaves(old), leaves(new)
	keep := map[string]leaf{}
	for id, l := range b {
		keep[id] = l
	}
	for _, d := range diffs(a, b) {
		if !weakens(ruleFor(d.leaf().path), d, b) {
			continue
		}
		if d.new != nil {
			delete(keep, d.new.id())
		}
		if d.old != nil {
			keep[d.old.id()] = *d.old
		}
	}
	merged, err := build(tree(new), keep)
	if err != nil {
		return old.Clone(), Weakenings(old, new)
	}
	return merged, held
}

// build puts leaves into the shape of skeleton (whose own leaves are
// dropped, so lists stay lists and maps stay maps) and parses the result.
func build(skeleton map[string]any, ls map[string]leaf) (*Config, error) {
	root := strip(skeleton).(map[string]any)
	ids := make([]string, 0, len(ls))
	for id := range ls {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		l := ls[id]
		m := root
		for _, k := range l.path[:len(l.path)-1] {
			next, ok := m[k].(map[string]any)
			if !ok {
				next = map[string]any{}
				m[k] = next
			}
			m = next
		}
		last := l.path[len(l.path)-1]
		if l.elem {
			list, _ := m[last].([]any)
			m[last] = append(list, l.val)
		} else {
			m[last] = l.val
		}
	}
	data, err := json.Marshal(root)
	if err != nil {
		return nil, err
	}
	return Parse(data)
}

func strip(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, c := range x {
			if s := strip(c); s != nil {
				out[k] = s
			}
		}
		return out
	case []any:
		return []any{}
	}
	return nil
}

// Same reports whether two configs hold the same settings.
func Same(a, b *Config) bool {
	if a == nil || b == nil {
		return a == b
	}
	// Equal values marshal alike, and the usual case (config.json is what
	// was accepted) is decided without building JSON encoders, which cost
	// every hook fallback ~30 KB and a reflection walk of the types.
	if reflect.DeepEqual(a, b) {
		return true
	}
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}
