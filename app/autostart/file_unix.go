//go:build !windows

package autostart

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/agent-guard/agent-guard/app/config"
)

// writeEntry writes a login file atomically, creating its folder.
func writeEntry(path, content string) error {
	return config.WriteFileAtomic(path, []byte(content))
}

func removeEntry(path string) error {
	err := os.Remove(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

func exists(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

func homeJoin(elem ...string) (string, error) {
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(append([]string{home}, elem...)...), nil
}

// enable and disable are the same on every Unix: only entryPath and
// entryContent differ (XDG .desktop file, macOS LaunchAgent).
func enable(exe string) error {
	p, err := entryPath()
	if err != nil {
		return err
	}
	return writeEntry(p, entryContent(exe))
}

func disable() error {
	p, err := entryPath()
	if err != nil {
		return err
	}
	return removeEntry(p)
}
