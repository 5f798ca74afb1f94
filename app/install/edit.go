package install

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// doc is a host config opened along the path to its PreToolUse list.
type doc struct {
	spec     hostSpec
	original []byte
	chain    []*object // chain[0] is the root, chain[i] the object at keys[:i]
	list     []json.RawMessage
}

func openDoc(sp hostSpec, data []byte) (*doc, error) {
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
// every other group stays byte for byte.
func (d *doc) removeOurs() (removed int) {
	var out []json.RawMessage
	for _, raw := range d.list {
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

// Apply returns data with our hook group installed last in PreToolUse
// (replacing any earlier entry of ours) and, for ZCode, hooks.enabled on.
func Apply(host string, data []byte, h Hook) ([]byte, error) {
	sp, err := spec(host)
	if err != nil {
		return nil, err
	}
	entry, err := sp.entry(h)
	if err != nil {
		return nil, err
	}
	d, err := openDoc(sp, data)
	if err != nil {
		return nil, err
	}
	d.removeOurs()
	d.list = append(d.list, mustMarshal(entry))
	if sp.name == ZCode {
		d.chain[1].set("enabled", json.RawMessage("true"))
	}
	return d.bytes(), nil
}

// Remove returns data without our hook and how many entries it removed.
func Remove(host string, data []byte) ([]byte, int, error) {
	sp, err := spec(host)
	if err != nil {
		return nil, 0, err
	}
	d, err := openDoc(sp, data)
	if err != nil {
		return nil, 0, err
	}
	n := d.removeOurs()
	return d.bytes(), n, nil
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
}

// Inspect finds our (last) entry in a host config; nil when there is none.
func Inspect(host string, data []byte) (*Installed, error) {
	sp, err := spec(host)
	if err != nil {
		return nil, err
	}
	d, err := openDoc(sp, data)
	if err != nil {
		return nil, err
	}
	var in *Installed
	count := 0
	for _, raw := range d.list {
		g, err := parseObject(raw)
		if err != nil {
			continue
		}
		var matcher string
		if m, ok := g.get("matcher"); ok {
			_ = json.Unmarshal(m, &matcher)
		}
		hooks, _ := g.array("hooks", "")
		for _, h := range hooks {
			v, ok := sp.view(h)
			if ok && isOurs(v) {
				count++
				in = &Installed{Command: v.Command, Args: v.Args, Deadline: v.deadline(), HostTimeout: v.Timeout, Enabled: true}
				continue
			}
			if in != nil && coversOurTools(matcher) {
				what := v.Command
				if what == "" {
					what = "a hook"
				}
				in.Later = append(in.Later, fmt.Sprintf("%s (matcher %q)", what, matcher))
			}
		}
	}
	if in == nil {
		return nil, nil
	}
	in.Count = count
	if sp.name == ZCode {
		v, _ := d.chain[1].get("enabled")
		in.Enabled = string(bytes.TrimSpace(v)) == "true"
	}
	return in, nil
}
