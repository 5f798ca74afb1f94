package judge

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/judge/disk"
	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/session"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Remote is the grey-zone judge (TypeSafe). It returns risk 0..3 and a
// red-line probability 0..1, or an error that becomes confirm.
type Remote interface {
	Judge(ctx context.Context, s State) (risk, violation float64, probs []float64, err error)
}

// Options wire the optional stages of the pipeline.
type Options struct {
	Remote  Remote // nil: local rules only (offline)
	Cache   Cache  // nil: no cache
	Offline bool   // never call Remote
	// Home is the user's home folder for ~ and $HOME; "" means
	// os.UserHomeDir() (tests set it).
	Home string
	// Budget bounds the local rules' time for one call; over it the call
	// is confirm (0: DefaultBudget).
	Budget time.Duration
	// Disk lets the rules look at the machine (git recoverability,
	// blast radius, scripts and recipes about to run); nil: text only.
	Disk *disk.Looker
	// Sessions is the session memory (files written, names defined);
	// nil: none. See machine.go.
	Sessions *session.Store
	// DryRun: read the session memory but add nothing to it (check).
	DryRun bool
}

// DefaultBudget is the local rules' time for one call. Real calls take
// microseconds; the caps in app/judge/shell keep hostile lines far below
// this, and the budget is the backstop that keeps every answer under a
// second whatever a rule does.
const DefaultBudget = 500 * time.Millisecond

// Cache stores remote judgments by key (see app/judge/cache).
type Cache interface {
	Get(key string) (risk, violation float64, ok bool)
	Put(key string, risk, violation float64)
}

// Judge runs the pipeline of DESIGN.md. Safe for concurrent use; the
// config can be swapped at any time and applies to the next call.
type Judge struct {
	cfg  atomic.Pointer[config.Config]
	opts Options
}

// New returns a judge over cfg (nil: the embedded default).
func New(cfg *config.Config, opts Options) *Judge {
	if opts.Home == "" {
		opts.Home, _ = os.UserHomeDir()
	}
	j := &Judge{opts: opts}
	j.SetConfig(cfg)
	return j
}

// SetConfig swaps the config for the next call (nil: the default).
func (j *Judge) SetConfig(cfg *config.Config) {
	if cfg == nil {
		cfg = config.Default()
	}
	j.cfg.Store(cfg)
}

// Config returns the config in force.
func (j *Judge) Config() *config.Config { return j.cfg.Load() }

// ThresholdsOf returns the config's decision thresholds.
func ThresholdsOf(c *config.Config) Thresholds {
	return Thresholds{BlockRisk: c.BlockRisk, BlockViolation: c.BlockViolation, ConfirmRisk: c.ConfirmRisk, ConfirmViolation: c.ConfirmViolation}
}

// Judge returns the verdict for one call. It never panics: an internal
// error becomes confirm with the error as the reason.
//
// Order (DESIGN.md "The judge"): local analysis including self-protection;
// self-protection blocks whatever the config says; the disabled switch;
// the user's denylist blocks;
// red lines block; the user's allowlists allow; settled findings decide;
// uncertain ones go to the cache and then the remote judge, which can
// only raise the local judgment; Decide with the config's thresholds.
func (j *Judge) Judge(ctx context.Context, s State) (v Verdict) {
	defer j.remember(s, &v) // registered first, so it sees the final verdict
	defer func() {
		if r := recover(); r != nil {
			v = Verdict{Level: Confirm, Source: SourceError, Rule: "judge.internal-error", Risk: 2,
				Reason: fmt.Sprintf("internal error in the judge (%v); asking instead of guessing. Please report it.", r)}
		}
	}()
	cfg := j.cfg.Load()
	th := ThresholdsOf(cfg)
	if s.Tool == "" {
		return Verdict{Level: Confirm, Source: SourceError, Rule: "judge.no-tool", Risk: 2, Reason: "the call names no tool; cannot judge it"}
	}
	if !Judged(s.Tool) {
		return Verdict{Level: Allow, Source: SourceRule, Rule: "tool.not-judged", Reason: "agent-guard does not judge the " + s.Tool + " tool"}
	}
	// One analysis of the command line serves the rules and the fast path;
	// both run under the time budget.
	f, a, ok := j.localBudget(s)
	if !ok {
		if s.Tool == "Bash" && rules.GuardWord(s.Command) {
			// A line naming the guard that could not be judged in time: a
			// confirm would ask the user to approve it unjudged, and the
			// slow paths (disk look-ups, globs) can be aimed at.
			return Verdict{Level: Block, Source: SourceSelf, Rule: "self.over-budget", Risk: 3, Violation: 1, RedLine: true,
				Reason: fmt.Sprintf("judging this call took longer than %v, and it names agent-guard: a line about the agent's own guard that could not be judged is not asked but refused; simplify the command", j.budget())}
		}
		return Verdict{Level: Confirm, Source: SourceError, Rule: "judge.over-budget", Risk: 2,
			Reason: fmt.Sprintf("judging this call took longer than %v, so it is asked instead of guessed; simplify the command", j.budget())}
	}
	if f.Rule == "" {
		f.Rule, f.Reason = "local.none", "no rule matched"
	}
	// Rules quote the words they judged, and a word only known at run
	// time carries the walk's marker (shell.Dyn, a NUL byte): people read
	// the reason, so it says $? as the rules' own texts do.
	f.Reason = strings.ReplaceAll(strings.ReplaceAll(f.Reason, shell.Dyn, "$?"), "\x00", "$?")
	self := rules.SelfRule(f.Rule)
	// A red line is flagged by its rule; a red-line probability of RedLineAt
	// or more counts as one too, whatever the configured thresholds.
	red := f.RedLine || self || f.Violation >= rules.RedLineAt

	// Self-protection comes before every config key: a config the agent
	// could write (enabled, red_lines_when_disabled, allowlists,
	// thresholds) must not be what turns the guard's own protection off.
	if self {
		v := fromFinding(f, Block, SourceSelf)
		v.RedLine = true
		if !cfg.Enabled {
			v.Reason += " (agent-guard is switched off, but self-protection always blocks)"
		}
		return v
	}
	if !cfg.Enabled {
		if red && cfg.RedLinesWhenDisabled {
			v := fromFinding(f, Block, SourceRule)
			v.Reason += " (agent-guard is switched off, but red lines still block)"
			return v
		}
		v := fromFinding(f, Allow, SourceDisabled)
		v.Reason = "agent-guard is switched off: allowed without checking (local rules: " + Decide(f.Risk, f.Violation, th).String() + ", " + f.Reason + ")"
		return v
	}
	if pat, c, ok := denied(cfg, s, a); ok {
		v := fromFinding(f, Block, SourceFastpathBlock)
		v.Rule = "fastpath.denylist"
		v.Reason = "matches your denylist pattern " + quote(pat) + ": " + c
		v.Marked = c
		v.Risk = max(v.Risk, th.BlockRisk)
		return v
	}
	if red {
		return fromFinding(f, Block, SourceRule)
	}
	if s.Server != "" && matchAny(cfg.Fastpath.MCPAllowlist, s.Server) != "" {
		v := fromFinding(f, Allow, SourceFastpathMCP)
		v.Rule = "fastpath.mcp_allowlist"
		v.Reason = "MCP server " + quote(s.Server) + " is on your mcp_allowlist (local rules: " + f.Reason + ")"
		return v
	}
	if s.Tool == "Bash" && allowed(cfg, s, a, j.opts.Home) {
		v := fromFinding(f, Allow, SourceFastpathAllow)
		v.Rule = "fastpath.allowlist"
		v.Reason = "every command matches your allowlist: " + oneLine(s.Command, 120)
		return v
	}
	if a, ok := scopedAllowed(cfg, s, f, j.opts.Home, j.machine(s), j.opts.Remote == nil || j.opts.Offline); ok {
		v := fromFinding(f, Allow, SourceFastpathAllow)
		v.Rule = "fastpath.scoped-approval"
		v.Reason = "you always allowed " + quote(oneLine(a.Pattern+a.Args, 80)) + " (" + a.Scope + ", added " + a.AddedAt.Local().Format("2006-01-02 15:04") + ")"
		return v
	}
	if !f.Uncertain {
		return fromFinding(f, Decide(f.Risk, f.Violation, th), SourceRule)
	}
	return j.grey(ctx, s, f, th)
}

// inlineBytes: inputs up to this size are judged without the watchdog.
const inlineBytes = 1024

func (j *Judge) budget() time.Duration {
	if j.opts.Budget > 0 {
		return j.opts.Budget
	}
	return DefaultBudget
}

// localBudget runs the local rules within the budget. Over it, ok is
// false and the rules finish in the background (their caps bound them);
// the caller does not wait for them. A panic in the rules is raised again
// here, for Judge's recover to turn into confirm.
func (j *Judge) localBudget(s State) (rules.Finding, *shell.Analysis, bool) {
	if len(s.Command)+len(s.Content)+len(s.Args) <= inlineBytes {
		// Short input: the shell caps bound the work to microseconds and
		// disk lookups carry their own limits, so the hand-off to a
		// goroutine (half the cost of a typical call) is not paid. Called
		// directly, not through run: a closure the goroutine shares
		// would move s to the heap on every call (so that path is a
		// function of its own, localAside: in this one, it moved s anyway).
		a := analyze(s)
		return j.local(s, a), a, true
	}
	return j.localAside(s)
}

// localAside is localBudget for long input: the rules run in a goroutine
// and the caller waits for them at most the budget.
func (j *Judge) localAside(s State) (rules.Finding, *shell.Analysis, bool) {
	run := func() (rules.Finding, *shell.Analysis) {
		a := analyze(s)
		return j.local(s, a), a
	}
	type result struct {
		f     rules.Finding
		a     *shell.Analysis
		panic any
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{panic: r}
			}
		}()
		f, a := run()
		done <- result{f: f, a: a}
	}()
	t := time.NewTimer(j.budget())
	defer t.Stop()
	select {
	case r := <-done:
		if r.panic != nil {
			panic(r.panic)
		}
		return r.f, r.a, true
	case <-t.C:
		return rules.Finding{}, nil, false
	}
}

// grey settles an uncertain local finding with the cache or the remote
// judge. Both can only raise it.
func (j *Judge) grey(ctx context.Context, s State, f rules.Finding, th Thresholds) Verdict {
	key := ""
	if j.opts.Cache != nil {
		key = Key(s)
		if r, viol, ok := j.opts.Cache.Get(key); ok {
			return raised(f, r, viol, nil, th, SourceCache, "cached remote judgment")
		}
	}
	if j.opts.Remote == nil || j.opts.Offline {
		v := fromFinding(f, Decide(f.Risk, f.Violation, th), SourceRule)
		return v
	}
	// Only the remote judge gets the 2 KB cut; the rules saw everything.
	r, viol, probs, err := j.opts.Remote.Judge(ctx, s.ForRemote())
	if err != nil {
		lvl := max(Confirm, Decide(f.Risk, f.Violation, th))
		v := fromFinding(f, lvl, SourceAPI)
		v.Reason = "the remote judge failed (" + err.Error() + "), so asking instead; local rules: " + f.Reason
		return v
	}
	if key != "" {
		j.opts.Cache.Put(key, r, viol)
	}
	return raised(f, r, viol, probs, th, SourceAPI, "remote judge")
}

// raised merges a remote judgment into the local finding: the higher
// risk and the higher violation count.
func raised(f rules.Finding, r, viol float64, probs []float64, th Thresholds, src, who string) Verdict {
	risk, vio := max(f.Risk, r), max(f.Violation, viol)
	v := fromFinding(f, Decide(risk, vio, th), src)
	v.Risk, v.Violation, v.RiskProbs = risk, vio, probs
	v.RedLine = v.RedLine || vio >= rules.RedLineAt
	v.Reason = fmt.Sprintf("%s: risk %.1f, red-line %.2f; local rules: %s", who, r, viol, f.Reason)
	return v
}

func fromFinding(f rules.Finding, l Level, src string) Verdict {
	return Verdict{Level: l, Source: src, Rule: f.Rule, Reason: f.Reason, Risk: f.Risk, Violation: f.Violation,
		RedLine: f.RedLine || rules.SelfRule(f.Rule) || f.Violation >= rules.RedLineAt, Marked: f.Marked,
		MarkStart: f.Start, MarkEnd: f.End}
}

func quote(s string) string { return "\"" + s + "\"" }

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}
