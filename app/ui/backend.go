//go:build !nogui

package ui

import (
	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/guard"
	"github.com/agent-guard/agent-guard/app/judge/typesafe"
)

// openBackend wires the guard (judge, cache, remote judge, audit) for the
// tray. cfg is the config to start with.
func openBackend(paths config.Paths, cfg *config.Config) (*backend, error) {
	g, err := guard.Open(guard.Options{Paths: paths, Config: cfg, NewRemote: typesafe.Remote})
	if err != nil {
		return nil, err
	}
	be := &backend{judge: g.Judge, setConfig: g.SetConfig, saveCache: g.SaveCache, close: func() { _ = g.Close() }}
	if g.Audit != nil {
		be.audit = g.Audit
	}
	return be, nil
}
