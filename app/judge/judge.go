package judge

import (
	"context"
	"sync/atomic"

	"github.com/agent-guard/agent-guard/app/config"
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
}

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

// New returns a judge over cfg.
func New(cfg *config.Config, opts Options) *Judge {
	j := &Judge{opts: opts}
	j.cfg.Store(cfg)
	return j
}

// SetConfig swaps the config for the next call.
func (j *Judge) SetConfig(cfg *config.Config) { j.cfg.Store(cfg) }

// Config returns the config in force.
func (j *Judge) Config() *config.Config { return j.cfg.Load() }

// Judge returns the verdict for one call. TODO(judge helper): real pipeline.
func (j *Judge) Judge(ctx context.Context, s State) Verdict {
	return Verdict{Level: Confirm, Source: SourceError, Reason: "judge pipeline not built yet"}
}
