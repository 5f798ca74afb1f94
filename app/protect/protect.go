// Package protect knows every path agent-guard depends on, computed from
// the same code that creates them (app/config, hookbridge/pipe,
// app/install, app/autostart, the running executable), never from a list
// kept by hand: the config, cache and audit folders, the socket and its
// folder, the guard's binaries, every host hook config and the hook
// command it names, and the autostart entry. The judge's self-protection
// blocks any call that would change one of them.
package protect

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/agent-guard/agent-guard/app/autostart"
	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/install"
	"github.com/agent-guard/agent-guard/app/peer"
	"github.com/agent-guard/agent-guard/app/pipe"
)

// Kind says what a protected path is for; the judge's rule id is
// "self." + Kind.
type Kind string

const (
	GuardFiles Kind = "guard-files"       // config.json and its folder
	GuardCache Kind = "guard-cache"       // the judgment cache (writing it poisons verdicts)
	AuditLog   Kind = "audit-log"         // the audit log and its folder
	Socket     Kind = "guard-socket"      // the hook's socket and its folder
	Binary     Kind = "guard-binary"      // agent-guard, agent-guard-hook and agent-guard-judge
	HookConfig Kind = "agent-hook-config" // a host's hook configuration
	Autostart  Kind = "autostart"         // the login entry
)

// Entry is one protected path.
type Entry struct {
	// Path is absolute and cleaned, with forward slashes.
	Path string
	Kind Kind
	// Tree: a folder that is the guard's own; everything below it is
	// protected too. Otherwise only the path itself (and, through Under,
	// the folders holding it).
	Tree bool
	// WriteOnly: a project's host config that holds no hook entry of
	// ours. Writing it can still switch the host's hooks off (so writes
	// are judged as self-protection), but deleting, moving or copying it
	// takes nothing from the guard.
	WriteOnly bool
	low       string // Path lower-cased, for matching
}

// Set is the protected set at one moment.
type Set struct {
	Entries []Entry
	// Home is the home folder the set was computed for.
	Home string
}

// Sources are what a Set is computed from. The environment (AGENT_GUARD_HOME,
// AGENT_GUARD_PIPE, XDG_*) is read from the process, like the guard does.
type Sources struct {
	Home string // the user's home
	Cwd  string // the call's project, for workspace-level host configs
	// Exe is the judging process's executable ("" = os.Executable()).
	Exe string
}

// Compute builds the set from scratch (it reads the host configs to find
// the hook command they run).
func Compute(src Sources) *Set {
	s := &Set{Home: Clean(src.Home)}
	add := func(p string, k Kind, tree bool) {
		if p = Clean(p); p != "" && p != "/" && p != s.Home {
			s.Entries = append(s.Entries, Entry{Path: p, Kind: k, Tree: tree, low: key(p)})
		}
	}
	if ps, err := config.DefaultPaths(); err == nil {
		add(filepath.Dir(ps.Config), GuardFiles, true)
		add(ps.CacheDir, GuardCache, true)
		add(filepath.Dir(ps.Audit), AuditLog, true)
		add(ps.Audit, AuditLog, false)
	}
	if g := os.Getenv(config.HomeEnv); g != "" {
		add(g, GuardFiles, true)
	}
	if src.Home != "" {
		// The per-user defaults whatever the environment says now: the
		// guard started at login may not share this process's XDG_*.
		for _, d := range defaultDirs {
			k := GuardFiles
			if strings.Contains(strings.ToLower(d), "cache") {
				k = GuardCache
			}
			add(filepath.Join(src.Home, d, "agent-guard"), k, true)
		}
	}
	if sock, err := pipe.Name(); err == nil && isFilePath(sock) {
		add(sock, Socket, false)
		add(pipe.ControlName(sock), Socket, false)
		if os.Getenv(pipe.Env) == "" {
			add(filepath.Dir(sock), Socket, true) // the private folder pipe creates
		}
	}
	for _, b := range binaries(src.Exe) {
		add(b, Binary, false)
	}
	for _, hc := range hostConfigTable(src.Home, src.Cwd) {
		cmds := hookCommands(hc.path)
		add(hc.path, HookConfig, false)
		if hc.workspace && hc.host != install.ZCode && !CarriesHook(hc.path) {
			s.Entries[len(s.Entries)-1].WriteOnly = true
		}
		for _, b := range cmds {
			add(b, Binary, false)
		}
	}
	if a := autostart.EntryPath(); a != "" {
		add(a, Autostart, false)
	}
	if src.Home != "" {
		// The same entries under the judge's home (the tray's login entry
		// may belong to a home other than this process's $HOME).
		add(filepath.Join(src.Home, ".config", "autostart", autostart.Name+".desktop"), Autostart, false)
		add(filepath.Join(src.Home, "Library", "LaunchAgents", autostart.Label+".plist"), Autostart, false)
	}
	return s
}

// defaultDirs are the config, cache and state folders (relative to home)
// under which the guard keeps an agent-guard folder on some OS.
var defaultDirs = []string{
	".config", ".cache", ".local/state", ".local/share",
	"Library/Application Support", "Library/Caches", "Library/Logs",
	"AppData/Roaming", "AppData/Local",
}

// isFilePath: a socket path, not a Windows named pipe (\\.\pipe\...),
// which no file operation can replace.
func isFilePath(p string) bool {
	low := strings.ToLower(strings.ReplaceAll(p, `\`, "/"))
	return !strings.HasPrefix(low, "//./pipe/")
}

// binaries are the judging process's executable when it is one of ours,
// and our other binary beside it (the release layout keeps both in one
// folder).
func binaries(exe string) []string {
	if exe == "" {
		exe, _ = os.Executable()
	}
	if exe == "" {
		return nil
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	if !OwnName(filepath.Base(exe)) {
		return nil
	}
	return siblings(exe)
}

// siblings is exe and the guard's binaries in its folder. The hook's
// fallback judge is named whether or not it is there: the hook runs
// whatever agent-guard-judge sits beside it, so creating one where it is
// missing must be refused as much as replacing it.
func siblings(exe string) []string {
	dir := filepath.Dir(exe)
	out := []string{exe}
	judge := peer.JudgeBeside(exe)
	if judge != exe {
		out = append(out, judge)
	}
	for _, n := range []string{"agent-guard", "agent-guard.exe", install.HookName, install.HookName + ".exe", peer.JudgeBase, peer.JudgeBase + ".exe"} {
		p := filepath.Join(dir, n)
		if p != exe && p != judge {
			if _, err := os.Stat(p); err == nil {
				out = append(out, p)
			}
		}
	}
	return out
}

// OwnName reports a base name of one of the guard's binaries.
func OwnName(base string) bool {
	b := strings.TrimSuffix(strings.ToLower(base), ".exe")
	return b == "agent-guard" || b == install.HookName || b == peer.JudgeBase
}

// Clean makes p absolute-looking, cleaned and slash-separated ("" stays "").
func Clean(p string) string {
	if p == "" {
		return ""
	}
	return filepath.ToSlash(filepath.Clean(p))
}

// Lookup reports the entry p (absolute, any slashes) is, or lies in.
// Matching is by key: case, separators, Windows variable spellings and
// short names do not matter.
func (s *Set) Lookup(p string) (Entry, bool) {
	low := key(p)
	best, found := Entry{}, false
	for _, e := range s.Entries {
		el := e.lower()
		if (low == el || e.Tree && within(low, el)) && (!found || len(e.Path) > len(best.Path)) {
			best, found = e, true // the most specific entry names it best
		}
	}
	return best, found
}

// Under returns the entries at or below dir: what deleting, moving or
// chmod-ing dir, or copying a tree into it, could reach.
func (s *Set) Under(dir string) []Entry {
	low := key(dir)
	var out []Entry
	for _, e := range s.Entries {
		if el := e.lower(); el == low || within(el, low) {
			out = append(out, e)
		}
	}
	return out
}

func (e Entry) lower() string {
	if e.low == "" {
		return key(e.Path) // an Entry made outside Compute
	}
	return e.low
}

// Binaries are the protected executables.
func (s *Set) Binaries() []string {
	var out []string
	for _, e := range s.Entries {
		if e.Kind == Binary {
			out = append(out, e.Path)
		}
	}
	return out
}

// within reports p strictly inside dir (both lower-case, cleaned).
func within(p, dir string) bool {
	if dir == "/" {
		return strings.HasPrefix(p, "/") && p != "/"
	}
	return len(p) > len(dir) && strings.HasPrefix(p, dir) && p[len(dir)] == '/'
}

// cacheTTL: the set is recomputed at most this often per (home, cwd);
// new installs are seen within it, and a judgment costs no file reads.
const cacheTTL = 2 * time.Second

type cached struct {
	set *Set
	at  time.Time
}

var (
	mu    sync.Mutex
	cache = map[[2]string]cached{}
)

// envKeys are the variables the set depends on (through app/config and
// hookbridge/pipe); a change of any of them is a new set.
var envKeys = []string{config.HomeEnv, pipe.Env, "HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME",
	"XDG_RUNTIME_DIR", "TMPDIR", "LocalAppData", "AppData", "USERPROFILE"}

// Current is Compute for this process, cached for a short while.
func Current(home, cwd string) *Set {
	var b strings.Builder
	b.WriteString(home)
	for _, e := range envKeys {
		b.WriteByte(0)
		b.WriteString(os.Getenv(e))
	}
	k := [2]string{b.String(), cwd}
	now := time.Now()
	mu.Lock()
	c, ok := cache[k]
	mu.Unlock()
	if ok && now.Sub(c.at) < cacheTTL {
		return c.set
	}
	s := Compute(Sources{Home: home, Cwd: cwd})
	mu.Lock()
	if len(cache) > 64 {
		clear(cache) // many projects: start over rather than grow
	}
	cache[k] = cached{set: s, at: now}
	mu.Unlock()
	return s
}

// Reset forgets the cached sets (tests that change the environment).
func Reset() {
	mu.Lock()
	clear(cache)
	mu.Unlock()
}
