package rules

import (
	"strconv"
	"strings"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
)

// The variables that decide which guard runs, or whether a host runs
// its hooks at all: AGENT_GUARD_* (config home, socket), the folders the
// guard and the hosts read their configs from (XDG_*, HOME, CODEX_HOME,
// CLAUDE_CONFIG_DIR, ...) and the hosts' modes without hooks. Set for
// later sessions (rc files, environment.d, setx, launchctl setenv), the
// next start of the agent runs without its guard: self.env-persist.
// A folder variable set to its usual value moves nothing and is left to
// the shell start-up file rule.

// guardEnvDefaults maps each watched variable to the values that keep
// it where it is by default ("" = any value is a change).
var guardEnvDefaults = map[string][]string{
	"xdg_config_home":    {"$home/.config", "${home}/.config", "~/.config"},
	"xdg_cache_home":     {"$home/.cache", "${home}/.cache", "~/.cache"},
	"xdg_state_home":     {"$home/.local/state", "${home}/.local/state", "~/.local/state"},
	"xdg_data_home":      {"$home/.local/share", "${home}/.local/share", "~/.local/share"},
	"xdg_runtime_dir":    {"/run/user/$uid", "/run/user/$(id -u)", "/run/user/${uid}"},
	"codex_home":         {"$home/.codex", "${home}/.codex", "~/.codex"},
	"claude_config_dir":  {"$home/.claude", "${home}/.claude", "~/.claude"},
	"copilot_home":       {"$home/.copilot", "${home}/.copilot", "~/.copilot"},
	"kimi_code_home":     {"$home/.kimi-code", "${home}/.kimi-code", "~/.kimi-code"},
	"gemini_cli_home":    {"$home", "${home}", "~"},
	"claude_code_simple": {}, "claude_code_safe_mode": {}, "home": {}, "userprofile": {}, "appdata": {}, "localappdata": {},
	// code loaded into the tray (a cgo program) at its next start
	"ld_preload": {}, "dyld_insert_libraries": {}, "ld_audit": {},
	// code every non-interactive bash runs first: the hosts start hook
	// commands through a shell, and code that exits 0 there answers allow
	"bash_env": {},
	// where the guard's call to the remote judge goes and which
	// certificates it trusts: set for later sessions, a proxy of the
	// agent's can answer for the remote judge (Go reads HTTPS_PROXY,
	// SSL_CERT_FILE, SSL_CERT_DIR; the others are the same move for the
	// Python and curl clients of the same service)
	"https_proxy": {}, "http_proxy": {}, "all_proxy": {}, "ssl_cert_file": {}, "ssl_cert_dir": {},
	"requests_ca_bundle": {}, "curl_ca_bundle": {},
	// git's own view, which the guard reads (tracked and clean is
	// recoverable): another repository, work tree or config (with an
	// fsmonitor or a safe.directory) for every later git it runs
	"git_dir": {}, "git_work_tree": {}, "git_config_global": {}, "git_config_system": {}, "git_exec_path": {},
}

// guardEnvNameParts: one of these is in every watched name.
var guardEnvNameParts = []string{"xdg_", "home", "_dir", "claude_code_", "userprofile", "appdata", "preload", "insert_libraries", "ld_audit", "bash_env", "node_options", "proxy", "ssl_cert", "ca_bundle", "git_"}

// guardEnvAssignRe finds NAME=value, NAME value (fish set, csh setenv,
// launchctl, PowerShell's SetEnvironmentVariable('NAME', ...)).
var guardEnvAssignRe = lazyre.New(`(?i)(?:^|[^a-z0-9_$])(agent_guard_[a-z0-9_]*|xdg_config_home|xdg_cache_home|xdg_state_home|xdg_data_home|xdg_runtime_dir|codex_home|claude_config_dir|copilot_home|kimi_code_home|gemini_cli_home|claude_code_simple|claude_code_safe_mode|home|userprofile|appdata|localappdata|ld_preload|ld_audit|bash_env|dyld_insert_libraries|https_proxy|http_proxy|all_proxy|ssl_cert_file|ssl_cert_dir|requests_ca_bundle|curl_ca_bundle|git_dir|git_work_tree|git_config_global|git_config_system|git_exec_path)` +
	`(?:\s*=\s*|['"]\s*,\s*|\s+)(?:['"]?)([^\s'";|&)]*)`)

// setLike are the forms where NAME is followed by a space and its value.
var setLikeRe = lazyre.New(`(?i)(\bset\s+(-[a-z]+\s+)*|\bsetenv\s+|\bsetx\s+|launchctl\s+setenv\s+|setenvironmentvariable\(\s*['"]|set-environment\s+|\$env:)$`)

// guardEnvAssigned reports the first watched variable text sets to a
// value other than its default.
func guardEnvAssigned(text string) (string, bool) {
	low := strings.ToLower(text)
	if strings.Contains(low, guardVarMark) {
		return "AGENT_GUARD_*", true
	}
	if strings.Contains(low, "node_options") && nodeInjectRe.MatchString(text) {
		return "NODE_OPTIONS", true // code loaded into every Node host (Claude Code, Gemini CLI)
	}
	if strings.Contains(low, "ulimit") {
		if m, ok := starveLimit(text); ok {
			return m, true // every later hook would run out of CPU time, files or processes
		}
	}
	if strings.Contains(low, "hook") {
		if m := hookEnvOffRe.FindString(text); m != "" {
			return m, true // a host's own switch: CODEX_DISABLE_HOOKS=1
		}
	}
	// The cheap tests first (this runs for every command): an assignment
	// needs "=", "set" or a ",", and one of the names.
	if !strings.ContainsAny(low, "=,") && !strings.Contains(low, "set") {
		return "", false
	}
	if !containsAnyOf(low, guardEnvNameParts) {
		return "", false
	}
	for _, m := range guardEnvAssignRe.FindAllStringSubmatchIndex(text, -1) {
		name := strings.ToLower(text[m[2]:m[3]])
		sep := text[m[3]:m[4]]
		val := strings.ToLower(text[m[4]:m[5]])
		if !strings.Contains(sep, "=") && !strings.Contains(sep, ",") {
			// NAME VALUE: only after set/setenv/setx/launchctl setenv
			if !setLikeRe.MatchString(text[:m[2]]) {
				continue
			}
		}
		if strings.Contains(sep, "=") && m[2] > 0 && text[m[2]-1] == '$' {
			continue // $HOME=... is no assignment
		}
		if isDefaultEnv(name, val) {
			continue
		}
		return strings.ToUpper(name), true
	}
	return "", false
}

func isDefaultEnv(name, val string) bool {
	val = strings.Trim(val, `"'`)
	for _, d := range guardEnvDefaults[name] {
		if val == d {
			return true
		}
	}
	return false
}

// guardEnvName: the argument names a watched variable (setx NAME value,
// systemctl set-environment NAME=value, reg add ... /v NAME).
func guardEnvName(a string) bool {
	l := strings.ToLower(a)
	if strings.Contains(l, guardVarMark) {
		return true
	}
	name, val, hasVal := strings.Cut(l, "=")
	if _, ok := guardEnvDefaults[name]; !ok {
		return false
	}
	return !hasVal || !isDefaultEnv(name, val)
}

// hostEnvRe: a host config's env block setting a watched variable
// ("env": {"CLAUDE_CONFIG_DIR": "/tmp/x"}): the host gives it to the
// hooks it runs, our hook included.
var hostEnvRe = lazyre.New(`(?i)["']?(agent_guard_[a-z0-9_]*|xdg_config_home|xdg_state_home|xdg_cache_home|xdg_runtime_dir|codex_home|claude_config_dir|claude_code_simple|claude_code_safe_mode|home|userprofile|appdata|localappdata|ld_preload|dyld_insert_libraries)["']?\s*[:=]`)

func hostEnvSet(text string) bool {
	low := strings.ToLower(text) // once: this runs for every command
	if !containsAnyOf(low, guardEnvNameParts) && !strings.Contains(low, guardVarMark) {
		return false
	}
	for _, m := range hostEnvRe.FindAllStringIndex(text, -1) {
		if q := text[m[0]]; q != '"' && q != '\'' && m[0] > 0 && strings.ContainsRune("$/{._", rune(text[m[0]-1])) {
			continue // $HOME, ${HOME}, a path or a longer name
		}
		return true
	}
	return false
}

// hookEnvOffRe: a variable that switches a host's hooks off.
var hookEnvOffRe = lazyre.New(`(?i)[a-z0-9_]*(disable[a-z0-9_]*hooks?|hooks?_?(disabled?|off|skip))[a-z0-9_]*\s*=\s*['"]?(1|true|yes|on)\b`)

// ulimitRe finds a ulimit that sets one limit: its flags and value.
var ulimitRe = lazyre.New(`\bulimit\s+((?:-[HS]\s+)?-[a-zA-Z]*[tnuvmdf][a-zA-Z]*)\s+(\d+)`)

// starveLimits are the values under which a limit starves a hook: CPU
// seconds, open files, processes, memory in KB, file size in blocks.
// Raising limits (ulimit -n 65536) or lifting them is everyday work.
var starveLimits = map[byte]int{'t': 60, 'n': 64, 'u': 100, 'v': 1 << 16, 'm': 1 << 16, 'd': 1 << 16, 'f': 1024}

// starveLimit reports a ulimit in text low enough that a hook started
// under it fails (and a failing hook lets the host's call through).
func starveLimit(text string) (string, bool) {
	for _, m := range ulimitRe.FindAllStringSubmatch(text, 16) {
		flags := strings.TrimPrefix(strings.TrimPrefix(strings.TrimPrefix(m[1], "-H "), "-S "), "-")
		v, err := strconv.Atoi(m[2])
		if err != nil {
			continue
		}
		for i := 0; i < len(flags); i++ {
			if lim, ok := starveLimits[flags[i]]; ok && v < lim {
				return "ulimit -" + flags + " " + m[2], true
			}
		}
	}
	return "", false
}

// nodeInjectRe: NODE_OPTIONS that load code into every node process
// (--require, -r, --import, --loader); memory and warning flags are
// everyday settings.
var nodeInjectRe = lazyre.New(`(?i)node_options[\s'"]*(?:=|,|\s)[^\n]*?(?:--require|--import|--loader|--experimental-loader|(?:^|[\s"'=])-r\s)`)
