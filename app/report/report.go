// Package report turns the audit log into the pilot's numbers: what was
// called, how it was judged, how often the remote judge and the cache
// answered, how people answered approvals, what could go on the allowlist,
// which MCP servers were seen, and how fast the guard answered.
package report

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/agent-guard/agent-guard/app/audit"
)

// TopN is how many frequent confirms and blocks the report lists.
const TopN = 10

// Report is the computed summary. Its JSON form is what `report --json`
// prints; field names are a stable interface for scripts.
type Report struct {
	Audit   string     `json:"audit"`
	Since   *time.Time `json:"since,omitempty"` // nil: the whole log
	First   *time.Time `json:"first,omitempty"` // first and last decision counted
	Last    *time.Time `json:"last,omitempty"`
	Total   int        `json:"total"`
	Skipped int        `json:"skipped_lines"` // corrupt lines in the whole log

	ByLevel    []Count `json:"by_level"` // allow, confirm, block first, then others
	ByTool     []Count `json:"by_tool"`  // most frequent first
	BySource   []Count `json:"by_source"`
	ByDecision []Count `json:"by_decision"` // what the host was told: allow, ask, deny
	// ByHost is each agent host's calls and how they were judged and
	// answered, most calls first.
	ByHost []HostCount `json:"by_host"`

	Remote    Remote    `json:"remote"`
	Approvals Approvals `json:"approvals"`

	TopConfirms []Frequent `json:"top_confirms"` // allowlist candidates
	TopBlocks   []Frequent `json:"top_blocks"`

	MCPServers []MCPServer `json:"mcp_servers"`

	// Latency is the time the guard took to answer, excluding time spent
	// waiting for a human (duration_ms minus wait_ms).
	Latency Percentiles `json:"latency_ms"`
}

// Count is one row of a breakdown.
type Count struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// HostCount is one agent host's share of the decisions.
type HostCount struct {
	Host    string `json:"host"` // the audit's host name: claude, codex, ...
	Count   int    `json:"count"`
	Allow   int    `json:"allow"` // by level
	Confirm int    `json:"confirm"`
	Block   int    `json:"block"`
	Denied  int    `json:"denied"` // told the host deny, whatever the level
}

// Remote is how the grey zone was settled: calls to the remote judge
// (source api) versus answers from the judgment cache (source cache).
type Remote struct {
	APICalls  int `json:"api_calls"`
	CacheHits int `json:"cache_hits"`
	// CacheHitRate is cache_hits / (cache_hits + api_calls), 0 when both are 0.
	CacheHitRate float64 `json:"cache_hit_rate"`
}

// Approvals covers confirm-level calls: who decided and how.
type Approvals struct {
	Total     int       `json:"total"` // confirm-level decisions
	ByDecider []Decider `json:"by_decider"`
	// Wait is how long people took to answer (wait_ms of decider user).
	Wait Percentiles `json:"wait_ms"`
}

// Decider is one decider's share of the approvals and what came of them.
type Decider struct {
	Decider string `json:"decider"`
	Count   int    `json:"count"`
	Allowed int    `json:"allowed"`
	Denied  int    `json:"denied"`
	Asked   int    `json:"asked"` // left to the agent's own ask
}

// Frequent is one repeated call, by tool and input digest.
type Frequent struct {
	Tool  string `json:"tool"`
	Input string `json:"input"`
	Count int    `json:"count"`
	Rule  string `json:"rule,omitempty"` // of the latest occurrence
	// UserAllowed counts the times a person allowed it: the strongest
	// allowlist candidates are confirms people always allow.
	UserAllowed int `json:"user_allowed"`
}

// MCPServer is one MCP server seen in tool names mcp__server__tool.
type MCPServer struct {
	Server  string   `json:"server"`
	Calls   int      `json:"calls"`
	Allow   int      `json:"allow"`
	Confirm int      `json:"confirm"`
	Block   int      `json:"block"`
	Tools   []string `json:"tools"`
}

// Percentiles are nearest-rank percentiles over N samples, in ms.
type Percentiles struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50"`
	P90 float64 `json:"p90"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

// FromFile reads the log at path and computes the report over entries at
// or after since (zero: all). Corrupt lines are skipped and counted.
func FromFile(path string, since time.Time) (*Report, error) {
	var entries []audit.Entry
	skipped, err := audit.ScanFile(path, func(e audit.Entry) bool {
		if since.IsZero() || !e.TS.Before(since) {
			entries = append(entries, e)
		}
		return true
	})
	if err != nil {
		return nil, err
	}
	r := Compute(entries, since)
	r.Audit, r.Skipped = path, skipped
	return r, nil
}

// Compute summarizes entries (already filtered by time).
func Compute(entries []audit.Entry, since time.Time) *Report {
	r := &Report{Total: len(entries)}
	if !since.IsZero() {
		s := since.UTC()
		r.Since = &s
	}
	level, tool, source, decision := counter{}, counter{}, counter{}, counter{}
	deciders := map[string]*Decider{}
	confirms, blocks := map[string]*Frequent{}, map[string]*Frequent{}
	servers := map[string]*MCPServer{}
	serverTools := map[string]map[string]bool{}
	var waits, latencies []float64
	hosts := map[string]*HostCount{}

	for _, e := range entries {
		ts := e.TS.UTC()
		if r.First == nil || ts.Before(*r.First) {
			r.First = &ts
		}
		if r.Last == nil || ts.After(*r.Last) {
			t := ts
			r.Last = &t
		}
		level.add(orUnknown(e.Level))
		h := hosts[orUnknown(e.Host)]
		if h == nil {
			h = &HostCount{Host: orUnknown(e.Host)}
			hosts[h.Host] = h
		}
		h.Count++
		switch e.Level {
		case "allow":
			h.Allow++
		case "confirm":
			h.Confirm++
		case "block":
			h.Block++
		}
		if e.Decision == "deny" {
			h.Denied++
		}
		tool.add(orUnknown(e.Tool))
		source.add(orUnknown(e.Source))
		decision.add(orUnknown(e.Decision))
		switch e.Source {
		case "api":
			r.Remote.APICalls++
		case "cache":
			r.Remote.CacheHits++
		}
		latencies = append(latencies, math.Max(0, e.DurationMS-e.WaitMS))

		switch e.Level {
		case "confirm":
			r.Approvals.Total++
			d := deciders[orUnknown(e.Decider)]
			if d == nil {
				d = &Decider{Decider: orUnknown(e.Decider)}
				deciders[d.Decider] = d
			}
			d.Count++
			switch e.Decision {
			case "allow":
				d.Allowed++
			case "deny":
				d.Denied++
			case "ask":
				d.Asked++
			}
			if e.Decider == audit.DeciderUser && e.WaitMS > 0 {
				waits = append(waits, e.WaitMS)
			}
			f := bump(confirms, e)
			if e.Decider == audit.DeciderUser && e.Decision == "allow" {
				f.UserAllowed++
			}
		case "block":
			bump(blocks, e)
		}

		if server, t, ok := mcpServer(e.Tool); ok {
			s := servers[server]
			if s == nil {
				s = &MCPServer{Server: server}
				servers[server] = s
				serverTools[server] = map[string]bool{}
			}
			s.Calls++
			switch e.Level {
			case "allow":
				s.Allow++
			case "confirm":
				s.Confirm++
			case "block":
				s.Block++
			}
			if t != "" {
				serverTools[server][t] = true
			}
		}
	}

	r.ByLevel = level.sorted("allow", "confirm", "block")
	r.ByTool = tool.sorted()
	r.BySource = source.sorted()
	r.ByDecision = decision.sorted("allow", "ask", "deny")
	for _, h := range hosts {
		r.ByHost = append(r.ByHost, *h)
	}
	slices.SortFunc(r.ByHost, func(a, b HostCount) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Host, b.Host))
	})
	if n := r.Remote.APICalls + r.Remote.CacheHits; n > 0 {
		r.Remote.CacheHitRate = float64(r.Remote.CacheHits) / float64(n)
	}
	order := map[string]int{audit.DeciderUser: 0, audit.DeciderPolicy: 1, audit.DeciderAuto: 2}
	for _, d := range deciders {
		r.Approvals.ByDecider = append(r.Approvals.ByDecider, *d)
	}
	slices.SortFunc(r.Approvals.ByDecider, func(a, b Decider) int {
		oa, okA := order[a.Decider]
		ob, okB := order[b.Decider]
		if !okA {
			oa = 9
		}
		if !okB {
			ob = 9
		}
		return cmp.Or(cmp.Compare(oa, ob), cmp.Compare(a.Decider, b.Decider))
	})
	r.Approvals.Wait = percentiles(waits)
	r.TopConfirms, r.TopBlocks = top(confirms), top(blocks)
	for name, s := range servers {
		for t := range serverTools[name] {
			s.Tools = append(s.Tools, t)
		}
		slices.Sort(s.Tools)
		r.MCPServers = append(r.MCPServers, *s)
	}
	slices.SortFunc(r.MCPServers, func(a, b MCPServer) int {
		return cmp.Or(cmp.Compare(b.Calls, a.Calls), cmp.Compare(a.Server, b.Server))
	})
	r.Latency = percentiles(latencies)
	// Empty lists, not null, so scripts can iterate without checks.
	for _, l := range []*[]Count{&r.ByLevel, &r.ByTool, &r.BySource, &r.ByDecision} {
		if *l == nil {
			*l = []Count{}
		}
	}
	if r.Approvals.ByDecider == nil {
		r.Approvals.ByDecider = []Decider{}
	}
	if r.MCPServers == nil {
		r.MCPServers = []MCPServer{}
	}
	return r
}

func orUnknown(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

type counter map[string]int

func (c counter) add(k string) { c[k]++ }

// sorted lists counts with the named keys first (in that order, when
// present), then the rest by count, descending, and name.
func (c counter) sorted(first ...string) []Count {
	var out []Count
	for _, k := range first {
		if n, ok := c[k]; ok {
			out = append(out, Count{k, n})
		}
	}
	var rest []Count
	for k, n := range c {
		if !slices.Contains(first, k) {
			rest = append(rest, Count{k, n})
		}
	}
	slices.SortFunc(rest, func(a, b Count) int { return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Name, b.Name)) })
	return append(out, rest...)
}

func bump(m map[string]*Frequent, e audit.Entry) *Frequent {
	k := e.Tool + "\x00" + e.Input
	f := m[k]
	if f == nil {
		f = &Frequent{Tool: e.Tool, Input: e.Input}
		m[k] = f
	}
	f.Count++
	if e.Rule != "" {
		f.Rule = e.Rule
	}
	return f
}

func top(m map[string]*Frequent) []Frequent {
	out := make([]Frequent, 0, len(m))
	for _, f := range m {
		out = append(out, *f)
	}
	slices.SortFunc(out, func(a, b Frequent) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Tool, b.Tool), cmp.Compare(a.Input, b.Input))
	})
	if len(out) > TopN {
		out = out[:TopN]
	}
	return out
}

// mcpServer splits mcp__server__tool.
func mcpServer(tool string) (server, name string, ok bool) {
	rest, ok := strings.CutPrefix(tool, "mcp__")
	if !ok || rest == "" {
		return "", "", false
	}
	server, name, _ = strings.Cut(rest, "__")
	return server, name, server != ""
}

// percentiles uses the nearest-rank method: the p-th percentile of n
// sorted samples is the ceil(p/100*n)-th one, always an observed value.
func percentiles(xs []float64) Percentiles {
	if len(xs) == 0 {
		return Percentiles{}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	rank := func(p float64) float64 {
		i := int(math.Ceil(p/100*float64(len(s)))) - 1
		return s[max(0, min(i, len(s)-1))]
	}
	return Percentiles{N: len(s), P50: rank(50), P90: rank(90), P99: rank(99), Max: s[len(s)-1]}
}
