package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// doc is a host config opened along the path to one of its hook lists.
type doc struct {
	spec     listSpec
	original []byte
	chain    []*object // chain[0] is the root, chain[i] the object at keys[:i]
	list     []json.RawMessage
}

func openDoc(sp listSpec, data []byte) (*doc, error) {
	d := &doc{spec: sp, original: data}
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}") // an empty file is an empty config
	}
	if err := checkJSON(data); err != nil {
		return nil, err
	}
	root, err := parseObject(data)
	if err != nil {
		return nil, err
	}
	d.chain = []*object{root}
	last := len(sp.keys) - 1
	for i, k := range sp.keys[:last] {
		c, err := d.chain[i].child(k, strings.Join(sp.keys[:i+1], "."))
		if err != nil {
			return nil, err
		}
		d.chain = append(d.chain, c)
	}
	d.list, err = d.chain[last].array(sp.keys[last], strings.Join(sp.keys, "."))
	return d, err
}

// bytes writes list back along the chain and renders the whole file.
func (d *doc) bytes() []byte {
	last := len(d.spec.keys) - 1
	d.chain[last].set(d.spec.keys[last], compactArray(d.list))
	for i := last; i > 0; i-- {
		d.chain[i-1].set(d.spec.keys[i-1], d.chain[i].compact())
	}
	return render(d.chain[0].compact(), d.original)
}

// removeOurs drops our hook from every group, and a group it leaves empty;
// every other group stays byte for byte. In a flat list (the elements are
// the hooks) our elements go.
func (d *doc) removeOurs() (removed int) {
	var out []json.RawMessage
	for _, raw := range d.list {
		if !d.spec.grouped {
			if v, ok := d.spec.view(raw); ok && isOurs(v) {
				removed++
				continue
			}
			out = append(out, raw)
			continue
		}
		g, err := parseObject(raw)
		if err != nil {
			out = append(out, raw)
			continue
		}
		hooks, err := g.array("hooks", "")
		if err != nil {
			out = append(out, raw)
			continue
		}
		var kept []json.RawMessage
		for _, h := range hooks {
			if v, ok := d.spec.view(h); ok && isOurs(v) {
				removed++
				continue
			}
			kept = append(kept, h)
		}
		switch {
		case len(kept) == len(hooks):
			out = append(out, raw)
		case len(kept) > 0:
			g.set("hooks", compactArray(kept))
			out = append(out, g.compact())
		}
	}
	d.list = out
	return removed
}

// Apply returns data with our hook installed last in each of the host's
// lists (replacing any earlier entry of ours), the host's required root
// keys when missing, and, for ZCode, hooks.enabled on.
func Apply(host string, data []byte, h Hook) ([]byte, error) {
	h = h.ForHost(host)
	switch host {
	case Kimi:
		return applyKimi(data, h)
	case OpenCode:
		return opencodePlugin.apply(data, h)
	case Cline:
		return applyCline(data, h)
	case Amp:
		return ampPlugin.apply(data, h)
	}
	sp, err := spec(host)
	if err != nil {
		return nil, err
	}
	if host == Kiro && len(bytes.TrimSpace(data)) == 0 {
		data = []byte(kiroAgent) // a new agent of our own, for when there is none
	}
	for i, l := range sp.lists {
		entry, err := l.entry(h)
		if err != nil {
			return nil, err
		}
		if l.grouped {
			entry = group{Matcher: l.matcher, Hooks: []any{entry}}
		}
		d, err := openDoc(l, data)
		if err != nil {
			return nil, err
		}
		d.removeOurs()
		d.list = append(d.list, mustMarshal(entry))
		if sp.name == ZCode || sp.name == Antigravity {
			d.chain[1].set("enabled", json.RawMessage("true"))
		}
		if i == 0 {
			for _, m := range sp.root {
				if _, ok := d.chain[0].get(m.key); !ok {
					d.chain[0].members = append([]member{m}, d.chain[0].members...)
				}
			}
		}
		data = d.bytes()
	}
	return data, nil
}

// Remove returns data without our hook and how many entries it removed.
func Remove(host string, data []byte) ([]byte, int, error) {
	switch host {
	case Kimi:
		return removeKimi(data)
	case OpenCode:
		return opencodePlugin.remove(data)
	case Cline:
		if isClineShim(data) {
			return nil, 1, nil // the whole file is ours: it goes
		}
		return data, 0, nil
	case Amp:
		return ampPlugin.remove(data)
	}
	sp, err := spec(host)
	if err != nil {
		return nil, 0, err
	}
	total := 0
	for _, l := range sp.lists {
		d, err := openDoc(l, data)
		if err != nil {
			return nil, 0, err
		}
		n := d.removeOurs()
		if n > 0 {
			data = d.bytes()
		}
		total += n
	}
	if total == 0 { // nothing of ours: the file keeps its exact bytes
		return data, 0, nil
	}
	if host == Antigravity {
		data = dropEmptySet(data)
	}
	return data, total, nil
}

// Installed is our entry as a host config holds it.
type Installed struct {
	Command     string // the hook executable
	Args        []string
	Deadline    time.Duration // its --deadline, 0 when missing
	HostTimeout time.Duration // how long the host waits for it
	Enabled     bool          // ZCode's hooks.enabled (always true for Claude Code)
	Count       int           // entries of ours; more than one is a mess install cleans up
	Later       []string      // other hooks for our tools that run after ours
	Missing     []string      // the host's hook lists without our entry
	// Disabled is a top-level "disableAllHooks": true (Claude Code, Qwen
	// Code, Copilot CLI): the host then runs no hook at all, ours included.
	Disabled bool
}

// Inspect finds our (last) entry in a host config; nil when there is none.
// Missing names the host's lists that lack our entry (Cursor and Windsurf
// need it in several).
func Inspect(host string, data []byte) (*Installed, error) {
	switch host {
	case Kimi:
		return inspectKimi(data)
	case OpenCode:
		return opencodePlugin.inspect(data)
	case Cline:
		return inspectCline(data)
	case Amp:
		return ampPlugin.inspect(data)
	}
	sp, err := spec(host)
	if err != nil {
		return nil, err
	}
	var in *Installed
	var missing, later []string
	count := 0
	var zdoc *doc
	for _, l := range sp.lists {
		d, err := openDoc(l, data)
		if err != nil {
			return nil, err
		}
		zdoc = d
		found := false
		var listLater []string // hooks for our tools after our last entry in this list
		for _, raw := range d.list {
			hooks, matcher := []json.RawMessage{raw}, ""
			if l.grouped {
				g, err := parseObject(raw)
				if err != nil {
					continue
				}
				if m, ok := g.get("matcher"); ok {
					_ = json.Unmarshal(m, &matcher)
				}
				hooks, _ = g.array("hooks", "")
			} else {
				matcher = rawString(raw, "matcher")
			}
			for _, h := range hooks {
				v, ok := l.view(h)
				if ok && isOurs(v) {
					count++
					found = true
					listLater = nil
					in = &Installed{Command: v.Command, Args: v.Args, Deadline: v.deadline(), HostTimeout: v.Timeout, Enabled: true}
					continue
				}
				if found && coversOurTools(matcher) {
					what := v.Command
					if what == "" {
						what = "a hook"
					}
					listLater = append(listLater, fmt.Sprintf("%s (matcher %q)", what, matcher))
				}
			}
		}
		later = append(later, listLater...)
		if !found {
			missing = append(missing, strings.Join(l.keys, "."))
		}
	}
	if in == nil {
		return nil, nil
	}
	in.Count, in.Missing, in.Later = count, missing, later
	if v, ok := zdoc.chain[0].get("disableAllHooks"); ok && string(bytes.TrimSpace(v)) == "true" {
		in.Disabled = true
	}
	if in.HostTimeout == 0 {
		in.HostTimeout = AssumedTimeout(host)
	}
	if sp.name == ZCode || sp.name == Antigravity {
		v, _ := zdoc.chain[1].get("enabled")
		in.Enabled = string(bytes.TrimSpace(v)) == "true"
	}
	return in, nil
}

func rawString(raw json.RawMessage, key string) string {
	var m map[string]json.RawMessage
	var s string
	if json.Unmarshal(raw, &m) == nil {
		_ = json.Unmarshal(m[key], &s)
	}
	return s
}

// dropEmptySet removes Antigravity's "agent-guard" hook set once our
// removal left it with nothing but "enabled" and an empty PreToolUse.
func dropEmptySet(data []byte) []byte {
	root, err := parseObject(data)
	if err != nil {
		return data
	}
	raw, ok := root.get(antigravityName)
	if !ok {
		return data
	}
	set, err := parseObject(raw)
	if err != nil {
		return data
	}
	for _, m := range set.members {
		switch {
		case m.key == "enabled":
		case m.key == "PreToolUse" && string(bytes.TrimSpace(m.val)) == "[]":
		default:
			return data
		}
	}
	var kept []member
	for _, m := range root.members {
		if m.key != antigravityName {
			kept = append(kept, m)
		}
	}
	root.members = kept
	return render(root.compact(), data)
}
