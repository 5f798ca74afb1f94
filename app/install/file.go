package install

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/peer"
)

// ZCodeUserPath is ZCode's user-level config under home.
func ZCodeUserPath(home string) string { return filepath.Join(home, ".zcode", "cli", "config.json") }

// ZCodeWorkspacePath is ZCode's config for the workspace dir.
func ZCodeWorkspacePath(dir string) string { return filepath.Join(dir, ".zcode", "config.json") }

// ClaudePath is Claude Code's user settings under home.
func ClaudePath(home string) string { return filepath.Join(home, ".claude", "settings.json") }

// Options for Install and Uninstall.
type Options struct {
	DryRun bool      // compute and return the result, write nothing
	Now    time.Time // names the backup; zero means time.Now()
}

// Result says what happened to one host config file.
type Result struct {
	Path    string // the config file (symlinks resolved)
	Backup  string // the copy of the old file; "" when none was written
	Changed bool   // the content differs (written unless DryRun)
	Removed int    // Uninstall: entries of ours removed
	Content []byte // the resulting file
}

// Install puts hook h into host's config at path, creating the file if
// needed. A file that is not valid JSON is left untouched.
func Install(host, path string, h Hook, opt Options) (Result, error) {
	res, err := update(path, opt, func(data []byte, exists bool) ([]byte, bool, int, error) {
		out, err := Apply(host, data, h)
		return out, err == nil && (!exists || !sameContent(data, out)), 0, err
	})
	if err == nil && host == Cline && !opt.DryRun {
		// Cline runs only an executable hook file; the write leaves 0600.
		if err := os.Chmod(res.Path, 0o700); err != nil {
			return res, fmt.Errorf("install: cannot make %s executable: %v", res.Path, err)
		}
	}
	return res, err
}

// Uninstall removes our hook from host's config at path. A file without
// our entry, or no file, is left as it is.
func Uninstall(host, path string, opt Options) (Result, error) {
	return update(path, opt, func(data []byte, exists bool) ([]byte, bool, int, error) {
		if !exists {
			return nil, false, 0, nil
		}
		out, n, err := Remove(host, data)
		if n == 0 {
			out = data
		}
		return out, n > 0, n, err
	})
}

type editFunc func(data []byte, exists bool) (out []byte, changed bool, removed int, err error)

func update(path string, opt Options, edit editFunc) (Result, error) {
	// Keep a symlinked config (dotfile managers) a symlink: edit its target.
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	res := Result{Path: path}
	data, err := os.ReadFile(path)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return res, fmt.Errorf("install: cannot read %s: %v", path, err)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) // a BOM from a Windows editor
	res.Content, res.Changed, res.Removed, err = edit(data, exists)
	if err != nil {
		return res, fmt.Errorf("install: %s: %v; the file was not changed", path, err)
	}
	if opt.DryRun || !res.Changed {
		return res, nil
	}
	if exists {
		if res.Backup, err = backup(path, data, opt.Now); err != nil {
			return res, fmt.Errorf("install: cannot write a backup of %s (%v); the file was not changed", path, err)
		}
	}
	if res.Content == nil && res.Removed > 0 { // the whole file was ours
		if err := os.Remove(path); err != nil {
			return res, fmt.Errorf("install: cannot remove %s: %v", path, err)
		}
		return res, nil
	}
	if err := config.WriteFileAtomic(path, res.Content); err != nil {
		return res, fmt.Errorf("install: cannot write %s: %v", path, err)
	}
	return res, nil
}

// sameContent is true for equal bytes, or JSON equal but for layout.
func sameContent(a, b []byte) bool { return bytes.Equal(a, b) || sameJSON(a, b) }

// sameJSON compares two documents ignoring whitespace, so reinstalling
// over a file that only differs in layout does not rewrite it.
func sameJSON(a, b []byte) bool {
	if len(bytes.TrimSpace(a)) == 0 {
		a = []byte("{}")
	}
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return false
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
}

// backup copies the old content to path.bak-YYYYMMDD-HHMMSS, never over an
// existing backup (a second run in the same second gets a -2 suffix).
func backup(path string, data []byte, now time.Time) (string, error) {
	if now.IsZero() {
		now = time.Now()
	}
	base := path + ".bak-" + now.Format("20060102-150405")
	for i := 1; ; i++ {
		name := base
		if i > 1 {
			name = fmt.Sprintf("%s-%d", base, i)
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) && i < 100 {
			continue
		}
		if err != nil {
			return "", err
		}
		if _, err := f.Write(data); err != nil {
			f.Close()
			return "", err
		}
		return name, f.Close()
	}
}

// HookBinary is the hook's file name on this OS.
func HookBinary() string {
	if runtime.GOOS == "windows" {
		return HookName + ".exe"
	}
	return HookName
}

// FindHook returns the absolute path of the hook: explicit when given,
// else agent-guard-hook next to the running executable (the release
// layout), with symlinks resolved. It errors when there is no such file.
func FindHook(explicit string) (string, error) {
	path := explicit
	if path == "" {
		exe, err := os.Executable()
		if err != nil {
			return "", fmt.Errorf("install: cannot locate the running agent-guard (%v); pass --hook PATH", err)
		}
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		path = filepath.Join(filepath.Dir(exe), HookBinary())
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real
	}
	if err := CheckExecutable(abs); err != nil {
		if explicit == "" {
			return "", fmt.Errorf("install: %s not found next to agent-guard (%v); keep the two binaries together as in the release archive, or pass --hook PATH", HookBinary(), err)
		}
		return "", fmt.Errorf("install: --hook %s: %v", explicit, err)
	}
	return abs, nil
}

// FindJudge returns the fallback judge beside the hook at hookPath (the
// hook execs agent-guard-judge from its own folder when no tray answers),
// or why it cannot be run there.
func FindJudge(hookPath string) (string, error) {
	judge := peer.JudgeBeside(hookPath)
	err := peer.CheckJudge(judge, hookPath)
	if err == nil {
		err = CheckExecutable(judge)
	}
	if err != nil {
		return judge, fmt.Errorf("install: the hook's fallback judge %s cannot run (%v); keep %s beside %s as in the release archive: without it, every call the agent makes while agent-guard is not running is denied", judge, err, peer.JudgeName(), filepath.Base(hookPath))
	}
	return judge, nil
}

// CheckExecutable reports why path is not a runnable file, or nil.
func CheckExecutable(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", path)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("%s is not executable (chmod +x it)", path)
	}
	return nil
}

// HookFor returns the hook entry for the approval timeout in cfg.
func HookFor(path string, cfg *config.Config) Hook {
	return Hook{Path: path, Timing: TimingFor(cfg.Approval.TimeoutSeconds)}
}

// ReadConfig loads the guard's config without creating it: a missing file
// means the defaults, which is what the tray will write on first start.
func ReadConfig() (*config.Config, string, error) {
	paths, err := config.DefaultPaths()
	if err != nil {
		return nil, "", err
	}
	data, err := os.ReadFile(paths.Config)
	if errors.Is(err, fs.ErrNotExist) {
		return config.Default(), paths.Config, nil
	}
	if err != nil {
		return nil, paths.Config, fmt.Errorf("config: cannot read %s: %v", paths.Config, err)
	}
	c, err := config.Parse(data)
	if err != nil {
		return nil, paths.Config, fmt.Errorf("%s: %w", paths.Config, err)
	}
	return c, paths.Config, nil
}
