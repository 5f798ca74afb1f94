package rules

import (
	"os/exec"
	"path"
	"path/filepath"
	"strings"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// guardVarMark is in every variable the guard reads (AGENT_GUARD_HOME,
// AGENT_GUARD_PIPE, ...): set persistently, the next host start runs a
// guard with another config, socket or nothing at all.
const guardVarMark = "agent_guard"

// fish's set -U (universal) persists across sessions. Compiled on first
// use: every fallback process pays for what the rules package compiles
// at init.
var regexpFishUniversal = lazyre.New(`\bset\s+(-[a-zA-Z]*U[a-zA-Z]*)`)

func envPersistFinding(c *shell.Cmd, how string) Finding {
	return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.env-persist", Marked: c.Raw,
		Reason: how + " sets a variable or limit the guard or the agent's hooks depend on (AGENT_GUARD_*, the config folders, the hosts' hook switches, a ulimit a hook cannot run under) for later sessions: the next start would run without the guard or with another config; ask the user to do it"}
}

// selfEnvPersist: setx, launchctl setenv, systemctl set-environment, reg
// add ...\Environment, [Environment]::SetEnvironmentVariable, and writes
// of AGENT_GUARD_* lines into shell start-up and environment files
// (echo >> ~/.bashrc, tee -a, sed -i, here-docs). Also the autostart Run
// value.
func selfEnvPersist(c *shell.Cmd, x *Ctx) (Finding, bool) {
	raw := strings.ToLower(c.Raw)
	// Whether the line's own text assigns a watched variable: asked once
	// (it was asked up to three times), the answer depends on c.Raw only.
	_, rawAssigns := guardEnvAssigned(c.Raw)
	// setx NODE_OPTIONS "--require x.js": the value, not the name, decides
	named := strings.Contains(raw, "node_options") && nodeInjectRe.MatchString(c.Raw)
	for _, a := range c.Args {
		if guardEnvName(a) {
			named = true
			break
		}
	}
	switch c.Name {
	case "setx":
		if named {
			return envPersistFinding(c, "setx"), true
		}
	case "launchctl":
		if named && (hasArg(c, "setenv") || hasArg(c, "unsetenv")) {
			return envPersistFinding(c, "launchctl setenv"), true
		}
	case "systemctl", "dbus-update-activation-environment":
		if named && (c.Name != "systemctl" || hasArg(c, "set-environment") || hasArg(c, "import-environment") || hasArg(c, "unset-environment")) {
			return envPersistFinding(c, c.Name), true
		}
	case "reg", "set-itemproperty", "sp", "new-itemproperty", "remove-itemproperty", "rp", "rename-itemproperty":
		if strings.Contains(raw, "environment") && (rawAssigns || named) {
			return envPersistFinding(c, c.Name), true
		}
		if strings.Contains(raw, "image file execution options") && (strings.Contains(raw, "agent-guard") || strings.Contains(raw, "agent_guard")) {
			return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.guard-binary", Marked: c.Raw,
				Reason: "sets Image File Execution Options for agent-guard's binary (another program would run instead of it): an agent must not switch off its own guard; ask the user to do it"}, true
		}
		if strings.Contains(raw, `currentversion\run`) || strings.Contains(raw, "currentversion/run") {
			if strings.Contains(raw, "agent-guard") || strings.Contains(raw, "agent_guard") || c.Name == "reg" && hasArg(c, "delete") {
				return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.autostart", Marked: c.Raw,
					Reason: "changes the Windows Run key that starts agent-guard at login: an agent must not switch off its own guard; ask the user to do it"}, true
			}
		}
	}
	if rawAssigns && strings.Contains(raw, "setenvironmentvariable") {
		return envPersistFinding(c, "[Environment]::SetEnvironmentVariable"), true
	}
	// Writes into an environment or start-up file carrying the variable:
	// in the arguments, a here-doc, or a command piping into this one.
	carries := rawAssigns || named
	for _, r := range c.Redirs {
		if _, ok := guardEnvAssigned(r.Target); ok && (r.Op == "<<" || r.Op == "<<<" || r.Op == "<<-") {
			carries = true
		}
	}
	if !carries && len(c.PipedFrom) > 0 && x.All != nil {
		for i := range x.All.Cmds {
			o := &x.All.Cmds[i]
			if _, ok := guardEnvAssigned(o.Raw); ok && o != c && contains(c.PipedFrom, o.Name) {
				carries = true
			}
		}
	}
	if c.Name == "fish" && carries && regexpFishUniversal.MatchString(c.Raw) {
		return envPersistFinding(c, "a fish universal variable (set -U)"), true
	}
	if !carries {
		return Finding{}, false
	}
	var targets []string
	for _, r := range c.Redirs {
		switch r.Op {
		case ">", ">>", ">|", "&>", "&>>", "<>":
			targets = append(targets, r.Target)
		}
	}
	switch c.Name {
	case "tee", "sed", "perl", "awk", "gawk", "ex", "ed", "cp", "mv", "install", "dd", "add-content", "set-content", "out-file", "ac", "sc":
		targets = append(targets, c.Operands()...)
	}
	targets = append(targets, writtenBy(c)...)
	if strings.Contains(raw, "> $profile") || strings.Contains(raw, ">$profile") || strings.Contains(raw, "$profile") && (c.Name == "add-content" || c.Name == "set-content" || c.Name == "out-file" || c.Name == "ac" || c.Name == "sc" || c.Name == "tee-object") {
		return envPersistFinding(c, "writing $PROFILE"), true
	}
	for _, t := range targets {
		if envFile(t, x.Cwd, x.Home) {
			return envPersistFinding(c, "writing "+t), true
		}
	}
	return Finding{}, false
}

func hasArg(c *shell.Cmd, a string) bool {
	for _, b := range c.Args {
		if strings.EqualFold(b, a) {
			return true
		}
	}
	return false
}

func contains(l []string, s string) bool {
	for _, v := range l {
		if v == s {
			return true
		}
	}
	return false
}

// envFile: a file whose content becomes environment of later sessions.
func envFile(p, cwd, home string) bool {
	n := normalize(p, cwd, home)
	low, base := n.low, lastSeg(n.low)
	if base == "$profile" || strings.HasPrefix(base, "$profile.") {
		return true // PowerShell's profile script
	}
	return rcFiles[base] || hasSeq(low, "environment.d") || base == "environment.plist" && hasSeq(low, ".macosx") || base == ".pam_environment" || base == "environment" ||
		hasSeq(low, "profile.d") || base == "profile" || base == "bash.bashrc" || base == "zshenv" ||
		hasSeq(low, ".config/fish") || hasSeq(low, "plasma-workspace/env") || base == ".envrc" ||
		strings.HasSuffix(base, ".plist") && hasSeq(low, "launchagents") ||
		strings.HasSuffix(base, ".ps1") && (hasSeq(low, "windowspowershell") || hasSeq(low, "documents/powershell"))
}

// EnvPersistWrite judges a Write/Edit putting an AGENT_GUARD_* variable
// into an environment or start-up file (self.env-persist: block).
func EnvPersistWrite(p, content, cwd, home string) (Finding, bool) {
	if strings.HasPrefix(strings.ToLower(p), "file:") {
		// a file:// URL as the path: the file it names
		if u, ok := mcpPathLike(p); ok {
			if f, ok := Protected(u, cwd, home); ok {
				return f, true
			}
		}
	}
	if f, ok := HooksOffWrite(p, content, cwd, home); ok {
		return f, true
	}
	if f, ok := runsLaterWrite(p, content, cwd, home); ok {
		return f, true // before the plugin confirm: a plugin's hooks are read
	}
	if f, ok := hostPluginWrite(p, cwd, home); ok {
		return f, true
	}
	if _, ok := guardEnvAssigned(content); !ok || !envFile(p, cwd, home) {
		return Finding{}, false
	}
	return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.env-persist", Marked: p,
		Reason: "writes an AGENT_GUARD_* variable into " + p + " for later sessions: the next start would run the guard with another config or none; ask the user to do it"}, true
}

// buildOutputs are the flags naming a build's output file (or, dir,
// folder) per program.
var buildOutputs = map[string]struct{ file, dir []string }{
	"go":      {file: []string{"-o"}},
	"tinygo":  {file: []string{"-o"}},
	"gcc":     {file: []string{"-o"}},
	"g++":     {file: []string{"-o"}},
	"cc":      {file: []string{"-o"}},
	"c++":     {file: []string{"-o"}},
	"clang":   {file: []string{"-o"}},
	"clang++": {file: []string{"-o"}},
	"rustc":   {file: []string{"-o"}, dir: []string{"--out-dir"}},
	"cargo":   {dir: []string{"--out-dir", "--artifact-dir"}},
	"zig":     {file: []string{"-femit-bin"}},
	"dotnet":  {dir: []string{"-o", "--output"}},
	"esbuild": {file: []string{"--outfile"}, dir: []string{"--outdir"}},
	"bun":     {file: []string{"--outfile"}, dir: []string{"--outdir"}},
	"deno":    {file: []string{"--output", "-o"}},
	"sort":    {file: []string{"-o", "--output"}},
	"objcopy": {},
	"strip":   {file: []string{"-o"}},
	"upx":     {file: []string{"-o"}},
}

// selfBuildOutput: go build -o PATH, cargo build --out-dir DIR, ... over
// one of the guard's binaries (or into the folder holding them).
func selfBuildOutput(c *shell.Cmd, x *Ctx) (Finding, bool) {
	spec, ok := buildOutputs[c.Name]
	if !ok {
		return Finding{}, false
	}
	val := func(flags []string, i int) string {
		a := c.Args[i]
		for _, fl := range flags {
			switch {
			case a == fl && i+1 < len(c.Args):
				return c.Args[i+1]
			case strings.HasPrefix(a, fl+"="):
				return a[len(fl)+1:]
			}
		}
		return ""
	}
	for i := range c.Args {
		if v := val(spec.file, i); v != "" {
			if f, ok := Protected(v, x.Cwd, x.Home); ok {
				f.Reason = c.Name + " writes its output over " + v + ": " + f.Reason
				f.Marked = c.Raw
				return f, true
			}
			if strings.HasSuffix(v, "/") || strings.HasSuffix(v, "\\") || isDirOnDisk(normalize(v, x.Cwd, x.Home).abs) {
				if f, ok := binaryDir(c, v, x); ok {
					return f, true
				}
				if c.Name == "go" || c.Name == "tinygo" {
					// go build -o DIR/ PKG writes DIR/<PKG's last element>
					for _, op := range c.Operands() {
						name := path.Base(strings.TrimSuffix(strings.TrimRight(slashify(op), "/"), "/..."))
						if op == v || name == "." || name == "build" || name == "/" || strings.HasSuffix(name, ".go") {
							continue
						}
						out := strings.TrimRight(v, "/\\") + "/" + name
						if f, ok := Protected(out, x.Cwd, x.Home); ok {
							f.Reason = c.Name + " writes its output " + out + ": " + f.Reason
							f.Marked = c.Raw
							return f, true
						}
					}
				}
			}
		}
		if v := val(spec.dir, i); v != "" {
			if f, ok := binaryDir(c, v, x); ok {
				return f, true
			}
		}
	}
	return Finding{}, false
}

// binaryDir: dir holds one of the guard's binaries, so a build output
// into it may replace one.
func binaryDir(c *shell.Cmd, dir string, x *Ctx) (Finding, bool) {
	n := normalize(dir, x.Cwd, x.Home)
	if n.dynamic || !isAbs(n.abs) {
		return Finding{}, false
	}
	for _, b := range setFor(x.Cwd, x.Home).Binaries() {
		if strings.EqualFold(filepath.ToSlash(filepath.Dir(b)), n.abs) || strings.EqualFold(filepath.ToSlash(filepath.Dir(b)), realPath(n.abs)) {
			return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.guard-binary", Marked: c.Raw,
				Reason: c.Name + " writes its output into " + dir + ", the folder of the guard's own " + filepath.Base(b) + ": an agent must not replace its own guard; ask the user to do it"}, true
		}
	}
	return Finding{}, false
}

// selfExec: a program run by path (or found on PATH under another name)
// that is one of the guard's binaries: a copy or the installed file. Its
// verb is judged like `agent-guard VERB`.
func selfExec(c *shell.Cmd, x *Ctx) (Finding, bool) {
	if c.Name == "" || c.Func || guardNames[c.Name] {
		return Finding{}, false
	}
	p := slashify(c.Prog)
	switch {
	case strings.Contains(p, "/"):
		n := normalize(p, x.Cwd, x.Home)
		if n.dynamic || !isAbs(n.abs) {
			return Finding{}, false
		}
		p = n.abs
	case len(rulesFor(c.Name)) == 0 && p != "":
		// An unknown name: what PATH would run.
		lp, err := exec.LookPath(p)
		if err != nil {
			return Finding{}, false
		}
		p = lp
	default:
		return Finding{}, false
	}
	if !setFor(x.Cwd, x.Home).IsGuardBinary(filepath.FromSlash(p)) {
		return Finding{}, false
	}
	f := guardVerb(c, true)
	f.Reason = c.Prog + " is agent-guard's own binary: " + f.Reason
	return f, true
}

// hostPluginWrite: a new file in a host's plugin or hook folder (opencode
// and Amp plugins, Cline's hooks) is code the host loads into itself on
// its next start, beside the guard's own plugin: confirm, so the user
// sees it. The guard's own file there is protected (self.*).
func hostPluginWrite(p, cwd, home string) (Finding, bool) {
	return HostPluginWrite(p, cwd, home)
}

// hostPluginDirs are the home's folders whose files an agent host loads
// as code (plugins, extensions and hook scripts, with their own hooks):
// opencode, Amp, Cline, Claude Code's plugins, Gemini CLI's and Qwen
// Code's extensions.
var hostPluginDirs = []string{".config/opencode/plugin/", ".config/opencode/plugins/", ".config/amp/plugins/",
	"documents/cline/hooks/", ".clinerules/hooks/", ".claude/plugins/", ".gemini/extensions/", ".qwen/extensions/"}

// HostPluginWrite is hostPluginWrite for the packs: a copy's landing
// paths are judged as the writes they are.
func HostPluginWrite(p, cwd, home string) (Finding, bool) {
	if l := strings.ToLower(p); !strings.Contains(l, "plugin") && !strings.Contains(l, "hooks") && !strings.Contains(l, "extensions") {
		return Finding{}, false // the cheap test first: this runs for every write
	}
	if f, ok := Protected(p, cwd, home); ok {
		return f, true // the guard's own plugin: the red line, not this confirm
	}
	n := normalize(p, cwd, home)
	rel, ok := homeRoot(n.low, n.lowHome)
	if !ok || n.dynamic {
		return Finding{}, false
	}
	for _, d := range hostPluginDirs {
		if strings.HasPrefix(rel, d) {
			return Finding{Risk: 2, Violation: 0.6, Rule: "guard.host-plugin", Marked: p,
				Reason: "writes " + p + ", code the agent host loads into itself on its next start, where the guard's own plugin runs: the user should see it"}, true
		}
	}
	return Finding{}, false
}
