package protect

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/agent-guard/agent-guard/app/install"
)

// hostConfig is one place a host reads hooks from, as app/install writes
// them (user level under home, workspace level under the project).
type hostConfig struct {
	host      string // install.ZCode, install.Claude, or "" when we never write it
	path      string
	workspace bool // under the project, not the home
}

// hostConfigs lists every host hook config: the ones app/install writes
// (its path functions, so a host added there is protected here) and the
// same host's other files that can hold hooks (Claude Code's local and
// project settings).
func hostConfigs(home, cwd string) []string {
	var out []string
	for _, hc := range hostConfigTable(home, cwd) {
		out = append(out, hc.path)
	}
	return out
}

func hostConfigTable(home, cwd string) []hostConfig {
	var t []hostConfig
	add := func(host, p string) { t = append(t, hostConfig{host, p, false}) }
	addW := func(host, p string) { t = append(t, hostConfig{host, p, true}) }
	for _, host := range install.AllHosts() {
		ps, err := install.ConfigPaths(home, host)
		if err != nil || home == "" {
			continue
		}
		for _, p := range ps {
			add(host, p)
			// The same file under the project: hosts read project-level
			// hooks from the folder they use under home (.claude/,
			// .cursor/, .gemini/, ...).
			if rel, err := filepath.Rel(home, p); err == nil && rooted(cwd) && install.ProjectTwin(host) && !strings.HasPrefix(rel, "..") {
				addW(host, filepath.Join(cwd, rel))
			}
		}
		if rooted(cwd) {
			for _, p := range install.WorkspaceConfigPaths(cwd, host) {
				addW(host, p)
			}
		}
	}
	if home != "" {
		add(install.Claude, filepath.Join(home, ".claude", "settings.local.json"))
	}
	if rooted(cwd) {
		addW(install.ZCode, install.ZCodeWorkspacePath(cwd))
		addW(install.Claude, filepath.Join(cwd, ".claude", "settings.local.json"))
	}
	return t
}

// hookCommands are the binaries a host config runs as our hook (and the
// agent-guard beside it), read with app/install's own parser. Results are
// kept per file by size and modification time.
func hookCommands(path string) []string {
	fi, err := os.Stat(path)
	if err != nil || fi.IsDir() || fi.Size() > 4<<20 {
		return nil
	}
	return hookCache.get(path, fi, func() ([]string, bool) { return readHookCommands(path) })
}

func readHookCommands(path string) ([]string, bool) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, false
	}
	var out []string
	for _, host := range install.AllHosts() {
		in, err := install.Inspect(host, data)
		if err != nil || in == nil || in.Command == "" {
			continue
		}
		cmd := in.Command
		if !filepath.IsAbs(cmd) {
			continue // a bare name found on PATH: the host's, not a file we know
		}
		if r, err := filepath.EvalSymlinks(cmd); err == nil {
			out = append(out, cmd)
			cmd = r
		}
		out = append(out, siblings(cmd)...)
		for _, a := range in.Args {
			// an argument naming our server binary (the hook's identity
			// check): --server /x/agent-guard or --server=/x/agent-guard
			if _, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "-") {
				a = v
			}
			if a = strings.TrimSpace(a); filepath.IsAbs(a) && OwnName(filepath.Base(a)) {
				out = append(out, a)
			}
		}
	}
	return out, true
}

var (
	hookCache  = &fileMemo[[]string]{max: 256}
	carryCache = &fileMemo[bool]{max: 256}
)

// CarriesHook reports whether the host config at path holds a hook entry
// that runs one of the guard's binaries (any host's format, read with
// app/install's own parser). Unreadable or missing files hold none.
func CarriesHook(path string) bool {
	fi, err := os.Stat(path)
	if err != nil || fi.IsDir() || fi.Size() > 4<<20 {
		return false
	}
	return carryCache.get(path, fi, func() (bool, bool) { return carriesHook(path), true })
}

func carriesHook(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	for _, host := range install.AllHosts() {
		in, err := install.Inspect(host, data)
		if err != nil || in == nil || in.Command == "" {
			continue
		}
		if OwnName(filepath.Base(filepath.FromSlash(in.Command))) || strings.Contains(strings.ToLower(in.Command), "agent-guard") {
			return true
		}
	}
	return false
}

// rooted: an absolute path, or one rooted without a drive (/work/proj,
// \work\proj), which hosts on Windows also send.
func rooted(p string) bool {
	return p != "" && (filepath.IsAbs(p) || p[0] == '/' || p[0] == '\\')
}
