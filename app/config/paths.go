package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/agent-guard/agent-guard/app/internal/sharedfile"
)

// Paths are the files agent-guard owns.
type Paths struct {
	Config   string // config.json
	CacheDir string // judgment cache folder
	Audit    string // audit.jsonl
}

// HomeEnv moves every file under one folder (tests and portable installs).
const HomeEnv = "AGENT_GUARD_HOME"

// DefaultPaths resolves the per-user locations, or AGENT_GUARD_HOME.
func DefaultPaths() (Paths, error) {
	if home := os.Getenv(HomeEnv); home != "" {
		return Paths{
			Config:   filepath.Join(home, "config.json"),
			CacheDir: filepath.Join(home, "cache"),
			Audit:    filepath.Join(home, "audit.jsonl"),
		}, nil
	}
	cfgDir, err := os.UserConfigDir()
	if err != nil {
		return Paths{}, fmt.Errorf("config: cannot find the user config folder (%v); set %s to a folder agent-guard may use", err, HomeEnv)
	}
	cacheDir, err := os.UserCacheDir()
	if err != nil {
		return Paths{}, fmt.Errorf("config: cannot find the user cache folder (%v); set %s to a folder agent-guard may use", err, HomeEnv)
	}
	return Paths{
		Config:   filepath.Join(cfgDir, "agent-guard", "config.json"),
		CacheDir: filepath.Join(cacheDir, "agent-guard"),
		Audit:    filepath.Join(stateDir(), "agent-guard", "audit.jsonl"),
	}, nil
}

// Load returns the config in force for the file at path (see Resolve): a
// missing file is created from the embedded default on first run; a
// weakening in the file is not in force until a person accepts it. A
// file that does not parse is an error naming the file.
func Load(path string) (*Config, error) {
	st, err := Resolve(path)
	if err != nil {
		return nil, err
	}
	return st.InForce, nil
}

// Save validates c and writes it atomically.
func Save(path string, c *Config) error {
	if err := c.Validate(); err != nil {
		return err
	}
	data, err := c.Marshal()
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, data)
}

// WriteFileAtomic writes data to a temp file beside path, syncs it and
// renames it over path, so readers see the old or the new file, never half.
// Read such files with sharedfile.ReadFile, which lets the rename go ahead
// on Windows.
func WriteFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp) // no-op after a successful rename
	if err := f.Chmod(0o600); err != nil && !errors.Is(err, errors.ErrUnsupported) {
		f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	// Windows refuses the rename while another process reads the file
	// (a server reloading the config, the cache in another hook).
	return sharedfile.Replace(tmp, path)
}

// stateDir is where logs belong: XDG_STATE_HOME or ~/.local/state on Unix,
// LocalAppData on Windows, ~/Library/Logs on macOS.
func stateDir() string {
	if d := os.Getenv("XDG_STATE_HOME"); d != "" {
		return d
	}
	if d := os.Getenv("LocalAppData"); d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return os.TempDir()
	}
	if isDarwin {
		return filepath.Join(home, "Library", "Logs")
	}
	return filepath.Join(home, ".local", "state")
}
