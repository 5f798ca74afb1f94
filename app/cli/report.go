package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/hostproto"
	"github.com/agent-guard/agent-guard/app/report"
)

func init() {
	register("report", "the pilot's numbers from the audit log", runReport)
}

const reportUsage = `usage: agent-guard report [--since 3d] [--json] [--audit FILE]

Summarizes the audit log: calls by tool, level and source; remote judge
calls and the cache hit rate; approvals by decider and how long people took
to answer; the most frequent confirms and blocks (allowlist candidates); MCP
servers seen and how they were judged; the guard's own latency.

  --since D     only decisions from the last D: a Go duration (36h, 90m),
                days or weeks (3d, 2w, 1d12h), or a date (2026-11-28)
  --json        one JSON object for scripts
  --audit FILE  read this log instead of the guard's own

Percentiles are nearest-rank. Latency is duration_ms minus wait_ms, i.e.
the time the guard took without the time a person took to answer.
`

// reportNow is the clock for --since (tests pin it).
var reportNow = time.Now

func runReport(env Env) int {
	flags := flag.NewFlagSet("report", flag.ContinueOnError)
	flags.SetOutput(io.Discard)
	since := flags.String("since", "", "")
	asJSON := flags.Bool("json", false, "")
	path := flags.String("audit", "", "")
	if err := flags.Parse(env.Args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(env.Stdout, reportUsage)
			return 0
		}
		return reportBadUsage(env, err.Error())
	}
	if flags.NArg() > 0 {
		return reportBadUsage(env, fmt.Sprintf("unexpected argument %q", flags.Arg(0)))
	}
	from, err := report.ParseSince(*since, reportNow())
	if err != nil {
		return reportBadUsage(env, err.Error())
	}
	if *path == "" {
		p, err := config.DefaultPaths()
		if err != nil {
			fmt.Fprintf(env.Stderr, "agent-guard report: %v\n", err)
			return 1
		}
		*path = p.Audit
	}
	r, err := report.FromFile(*path, from)
	if errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(env.Stderr, "agent-guard report: no audit log at %s yet; it is written once the guard has judged a call (is log.enabled on?)\n", *path)
		return 1
	}
	if err != nil {
		fmt.Fprintf(env.Stderr, "agent-guard report: %v\n", err)
		return 1
	}
	if *asJSON {
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			fmt.Fprintf(env.Stderr, "agent-guard report: %v\n", err)
			return 1
		}
		fmt.Fprintf(env.Stdout, "%s\n", b)
		return 0
	}
	printReport(env.Stdout, r, *since)
	return 0
}

func reportBadUsage(env Env, msg string) int {
	fmt.Fprintf(env.Stderr, "agent-guard report: %s\n\n%s", msg, reportUsage)
	return 2
}

func printReport(out io.Writer, r *report.Report, since string) {
	w := tabwriter.NewWriter(out, 0, 0, 2, ' ', 0)
	defer w.Flush()
	p := func(format string, a ...any) { fmt.Fprintf(w, format+"\n", a...) }

	p("agent-guard report\t%s", r.Audit)
	period := "whole log"
	if r.Since != nil {
		period = "since " + r.Since.Local().Format("2006-01-02 15:04") + " (" + since + ")"
	}
	if r.First != nil {
		period += fmt.Sprintf(", decisions from %s to %s", r.First.Local().Format("2006-01-02 15:04"), r.Last.Local().Format("2006-01-02 15:04"))
	}
	p("period\t%s", period)
	skipped := ""
	if r.Skipped > 0 {
		skipped = fmt.Sprintf(" (%d corrupt lines skipped)", r.Skipped)
	}
	p("decisions\t%d%s", r.Total, skipped)
	if r.Total == 0 {
		p("\nNo decisions in this period.")
		return
	}

	counts := func(title string, cs []report.Count) {
		p("\n%s", title)
		for _, c := range cs {
			p("  %s\t%d\t%s", c.Name, c.Count, pct(c.Count, r.Total))
		}
	}
	counts("By level", r.ByLevel)
	p("\nBy host")
	p("  host\tcalls\tallow\tconfirm\tblock\tdenied")
	for _, h := range r.ByHost {
		p("  %s\t%d\t%d\t%d\t%d\t%d", hostName(h.Host), h.Count, h.Allow, h.Confirm, h.Block, h.Denied)
	}
	counts("By tool", r.ByTool)
	counts("By source", r.BySource)
	counts("Told the agent", r.ByDecision)

	p("\nRemote judge")
	p("  remote judge calls\t%d", r.Remote.APICalls)
	p("  cache hits\t%d", r.Remote.CacheHits)
	p("  cache hit rate\t%s", rate(r.Remote.CacheHitRate, r.Remote.APICalls+r.Remote.CacheHits))

	p("\nApprovals (confirm-level calls: %d)", r.Approvals.Total)
	if len(r.Approvals.ByDecider) > 0 {
		p("  decider\tcalls\tallowed\tdenied\tasked")
		for _, d := range r.Approvals.ByDecider {
			p("  %s\t%d\t%d\t%d\t%d", d.Decider, d.Count, d.Allowed, d.Denied, d.Asked)
		}
	}
	if wt := r.Approvals.Wait; wt.N > 0 {
		p("  time to answer: median %s, p90 %s (%d answers)", secs(wt.P50), secs(wt.P90), wt.N)
	}

	frequent := func(title string, list []report.Frequent, showAllowed bool) {
		p("\n%s", title)
		if len(list) == 0 {
			p("  none")
			return
		}
		if showAllowed {
			p("  count\tuser allowed\ttool\tinput")
		} else {
			p("  count\ttool\tinput")
		}
		for _, f := range list {
			in := oneLineInput(f.Input, 80)
			if showAllowed {
				p("  %d\t%d\t%s\t%s", f.Count, f.UserAllowed, f.Tool, in)
			} else {
				p("  %d\t%s\t%s", f.Count, f.Tool, in)
			}
		}
	}
	frequent("Most frequent confirms (allowlist candidates)", r.TopConfirms, true)
	frequent("Most frequent blocks", r.TopBlocks, false)

	p("\nMCP servers")
	if len(r.MCPServers) == 0 {
		p("  none seen")
	} else {
		p("  server\tcalls\tallow\tconfirm\tblock\ttools")
		for _, s := range r.MCPServers {
			p("  %s\t%d\t%d\t%d\t%d\t%s", s.Server, s.Calls, s.Allow, s.Confirm, s.Block, strings.Join(s.Tools, ", "))
		}
	}

	l := r.Latency
	p("\nGuard latency (without human wait)")
	p("  p50 %s\tp90 %s\tp99 %s\tmax %s\t(%d decisions)", millis(l.P50), millis(l.P90), millis(l.P99), millis(l.Max), l.N)
}

func pct(n, total int) string {
	if total == 0 {
		return ""
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(total))
}

func rate(r float64, n int) string {
	if n == 0 {
		return "n/a (no grey-zone calls)"
	}
	return fmt.Sprintf("%.1f%%", 100*r)
}

func secs(ms float64) string { return fmt.Sprintf("%.1f s", ms/1000) }

func millis(ms float64) string {
	if ms >= 100 {
		return fmt.Sprintf("%.0f ms", ms)
	}
	return fmt.Sprintf("%.1f ms", ms)
}

// oneLineInput keeps a table row on one line.
func oneLineInput(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// hostName is the audit's host name with its display name: "codex (Codex CLI)".
func hostName(name string) string {
	if h, ok := hostproto.Lookup(name); ok {
		return name + " (" + h.Display + ")"
	}
	return name
}
