// Package guard wires the judge to its config, cache, remote judge and
// audit log, the same way for the tray's server, the hook's in-process
// fallback, `agent-guard check` and the tray menu.
package guard

import (
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/agent-guard/agent-guard/app/audit"
	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/judge/cache"
	"github.com/agent-guard/agent-guard/app/judge/disk"
	"github.com/agent-guard/agent-guard/app/judge/session"
	"github.com/agent-guard/agent-guard/app/judge/tskey"
)

// Options say where the files are and how to reach the remote judge.
type Options struct {
	Paths   config.Paths
	Offline bool           // local rules only, never the network
	Mock    bool           // the remote is tskey.Stub (no network)
	Config  *config.Config // optional: use this instead of loading Paths.Config
	// Home is the user's home for ~ and for ~/.agentguardrc ("" = the real one).
	Home string
	// DryRun: judge without adding to the session memory (`check`), so
	// a dry run cannot mark files as the agent's scratch.
	DryRun bool
	// NewRemote builds the remote judge from the config and the API key
	// when there is one: typesafe.Remote in agent-guard; in
	// agent-guard-judge a child process running agent-guard (package
	// fallback), so that the binary every hook fallback starts does not
	// link net/http and crypto/tls. nil: no remote judge (RemoteNote
	// says so), and the grey zone is asked of the user.
	NewRemote func(cfg *config.Config, key string) (judge.Remote, error)
}

// Guard is the wired judge. Safe for concurrent use.
type Guard struct {
	Judge *judge.Judge
	Audit *audit.Writer
	Paths config.Paths
	// RemoteNote says which remote judge is in use, or why none is
	// ("offline", "mock", "no API key: ...").
	RemoteNote string
	// CacheNote is set when the cache file was discarded on load.
	CacheNote string

	cache *cache.Cache
	mu    sync.Mutex
}

// Open loads the config (config.Load creates the default on first run),
// the judgment cache, the remote judge and the audit writer. A broken
// cache file is discarded (CacheNote says so); a broken config is an
// error, since guessing a config would be failing open.
func Open(o Options) (*Guard, error) {
	cfg := o.Config
	if cfg == nil {
		var err error
		if cfg, err = config.Load(o.Paths.Config); err != nil {
			return nil, err
		}
	}
	g := &Guard{Paths: o.Paths, cache: cache.FromConfig(cfg)}
	if o.Paths.CacheDir != "" {
		if err := g.cache.Load(g.cachePath()); err != nil {
			g.CacheNote = err.Error()
		}
	}
	var remote judge.Remote
	switch {
	case o.Mock:
		remote, g.RemoteNote = tskey.NewStub(), "mock (fixed answers, no network)"
	case o.Offline:
		g.RemoteNote = "offline (local rules only)"
	default:
		key, src, err := tskey.LookupKey(o.Home)
		switch {
		case err != nil:
			g.RemoteNote = "no remote judge: " + err.Error()
		case key == "":
			g.RemoteNote = "no remote judge: " + tskey.ErrNoKey.Error()
		case o.NewRemote == nil:
			g.RemoteNote = "no remote judge: this program has no client for it"
		default:
			c, err := o.NewRemote(cfg, key)
			if err != nil {
				g.RemoteNote = "no remote judge: " + err.Error()
			} else {
				remote, g.RemoteNote = c, "TypeSafe ("+cfg.Model+", key from "+src+")"
			}
		}
	}
	// The judge looks at the disk and keeps a session memory beside the
	// cache, so the server and the hook's fallback share it (issue 11).
	var sessions *session.Store
	if o.Paths.CacheDir != "" {
		sessions = session.Open(filepath.Join(o.Paths.CacheDir, session.DirName), time.Duration(cfg.Cache.TTLMinutes)*time.Minute)
	}
	g.Judge = judge.New(cfg, judge.Options{Remote: remote, Cache: g.cache, Offline: o.Offline, Home: o.Home,
		Disk: disk.New(0), Sessions: sessions, DryRun: o.DryRun})
	if o.Paths.Audit != "" {
		w, err := audit.Open(o.Paths.Audit)
		if err != nil {
			return nil, fmt.Errorf("guard: cannot open the audit log: %w", err)
		}
		g.Audit = w
	}
	return g, nil
}

func (g *Guard) cachePath() string { return filepath.Join(g.Paths.CacheDir, cache.FileName) }

// Config returns the config in force.
func (g *Guard) Config() *config.Config { return g.Judge.Config() }

// SetConfig swaps the config (after a reload or a change in the tray) and
// applies its cache limits.
func (g *Guard) SetConfig(c *config.Config) {
	if c == nil {
		return
	}
	g.Judge.SetConfig(c)
	g.cache.SetLimits(time.Duration(c.Cache.TTLMinutes)*time.Minute, c.Cache.MaxEntries)
}

// SaveCache persists the judgment cache (atomic).
func (g *Guard) SaveCache() error {
	if g.Paths.CacheDir == "" {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.cache.Save(g.cachePath())
}

// Close saves the cache and closes the audit log.
func (g *Guard) Close() error {
	errs := []error{g.SaveCache()}
	if g.Audit != nil {
		errs = append(errs, g.Audit.Close())
	}
	return errors.Join(errs...)
}
