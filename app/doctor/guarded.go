package doctor

import (
	"encoding/json"
	"path/filepath"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/depend"
	"github.com/agent-guard/agent-guard/app/install"
	"github.com/agent-guard/agent-guard/app/internal/sharedfile"
	"github.com/agent-guard/agent-guard/app/peer"
)

// checkGuarded reports what the tamper protection sees: a config change
// waiting for the user, what the running tray found changed behind its
// back (hook entries, binaries), and whether the binaries are a
// root-owned system install or replaceable user files.
func checkGuarded(r *report, cfgPath string, hooks []installedHook) {
	if st, err := config.Peek(cfgPath); err == nil && st.Pending() {
		r.fix("config: %d change(s) of %s lower protection and wait for you (not in force): review them with 'agent-guard config show-pending', then 'agent-guard config accept' or 'reject' in your own terminal", len(st.Held), cfgPath)
	}
	var status struct {
		Problems []string `json:"problems"`
	}
	if b, err := sharedfile.ReadFile(filepath.Join(filepath.Dir(cfgPath), depend.StatusFile)); err == nil && json.Unmarshal(b, &status) == nil {
		for _, p := range status.Problems {
			r.fix("unguarded (seen by the tray): %s", p)
		}
	}
	system, user := []string{}, []string{}
	for _, h := range hooks {
		// The judge beside the hook is what runs without the tray: it
		// must be root-owned too (a missing one is checkJudge's to report).
		judge := peer.JudgeBeside(h.path)
		if install.RootOwned(h.path) && install.RootOwned(filepath.Dir(h.path)) && (!exists(judge) || install.RootOwned(judge)) {
			system = append(system, h.path)
		} else {
			user = append(user, h.path)
		}
	}
	switch {
	case len(hooks) == 0:
	case len(user) == 0:
		r.ok("install mode: system (root-owned): %v cannot be replaced without sudo", system)
	default:
		r.note("install mode: user: %v can be replaced by any process running as you (the judge blocks it, nothing else does); 'sudo agent-guard install --system' puts the binaries in a root-owned folder", user)
	}
}
