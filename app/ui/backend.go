package ui

import (
	"github.com/agent-guard/agent-guard/app/audit"
	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/judge"
)

// openBackend builds the judge and the audit writer for the tray.
func openBackend(paths config.Paths, cfg *config.Config) (*backend, error) {
	j := judge.New(cfg, judge.Options{})
	w, err := audit.Open(paths.Audit)
	if err != nil {
		return nil, err
	}
	return &backend{judge: j, audit: w, setConfig: j.SetConfig, close: func() { w.Close() }}, nil
}
