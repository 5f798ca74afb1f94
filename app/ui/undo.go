//go:build !nogui

package ui

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/ui/proto"
)

// undoReq is the payload of the "always allowed … [Undo]" notice window.
type undoReq struct {
	ConfigPath string   `json:"config_path"`
	IDs        []string `json:"ids"`   // config.ScopedApproval.ID of what was added
	Lines      []string `json:"lines"` // what is now always allowed
	Scope      string   `json:"scope"`
}

// showUndo tells the user what "Always…" just wrote, with an Undo: a
// desktop notification and a small window whose Undo removes exactly
// these approvals again (through config.Update).
func showUndo(sp *spawner, nt *notifier, configPath string, added []config.ScopedApproval, lines []string) {
	if len(added) == 0 {
		return
	}
	req := undoReq{ConfigPath: configPath, Lines: lines, Scope: added[0].Scope}
	for _, a := range added {
		req.IDs = append(req.IDs, a.ID())
	}
	nt.send("agent-guard: always allowed ("+req.Scope+")", strings.Join(lines, "\n")+"\nUndo it in the notice window or in Rules.")
	if err := sp.window(proto.VerbUndo, req); err != nil {
		nt.send("agent-guard: cannot open the Undo notice", err.Error())
	}
}
