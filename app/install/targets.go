package install

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Target is one host config file agent-guard can be installed into.
type Target struct {
	Host  string // ZCode or Claude
	Path  string // the config file
	Label string // for people: "ZCode (user)", "ZCode (workspace /w)", "Claude Code"
	// Workspace is the ZCode workspace folder, "" for user-level configs.
	Workspace string
}

// Targets lists the config files the flags name: ZCode's user level (or,
// with a workspace, that workspace's config instead) and Claude Code's
// settings, under os.UserHomeDir (HOME; USERPROFILE on Windows). A
// workspace must be an existing folder, so a typo does not create a stray
// .zcode somewhere.
func Targets(zcode, claude bool, workspace string) ([]Target, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil, fmt.Errorf("install: cannot find your home folder (%v); set HOME (USERPROFILE on Windows)", err)
	}
	var ts []Target
	if zcode && workspace == "" {
		ts = append(ts, Target{Host: ZCode, Path: ZCodeUserPath(home), Label: "ZCode (user)"})
	}
	if workspace != "" {
		dir, err := filepath.Abs(workspace)
		if err != nil {
			return nil, err
		}
		if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("install: workspace %s is not an existing folder", dir)
		}
		ts = append(ts, Target{Host: ZCode, Path: ZCodeWorkspacePath(dir), Label: "ZCode (workspace " + dir + ")", Workspace: dir})
	}
	if claude {
		ts = append(ts, Target{Host: Claude, Path: ClaudePath(home), Label: "Claude Code"})
	}
	if len(ts) == 0 {
		return nil, errors.New("install: name a host: --zcode, --claude or --workspace DIR")
	}
	return ts, nil
}
