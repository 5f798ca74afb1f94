package rules

// Self-protection helpers that the core's own checks read as well as the
// rules of packs/self: what a command writes (writeSpecs, writtenBy), files
// run later by themselves (cron lines, plists, rc files), names the guard
// goes by (8.3 short names, drive paths, the tray binary) and protected
// paths presumed from a glob or a folder. They moved here from the self
// rule files when those became packs/self, so that the protected-path
// classifier (paths.go, selfpaths.go) keeps them without importing a pack.

import (
	"encoding/json"
	"path"
	"strings"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
	"github.com/agent-guard/agent-guard/app/judge/shell"
	"github.com/agent-guard/agent-guard/app/protect"
)

func drivePath(p string) string {
	m := drivePathRe.FindStringSubmatch(p)
	if m == nil {
		return ""
	}
	return strings.ToLower(m[1]+m[2]) + ":" + m[3]
}

// expand83 replaces 8.3 aliases in p by the protected long names they may
// stand for (the first that fits each); p when there are none.
func expand83(p string) string {
	if !strings.Contains(p, "~") {
		return p
	}
	segs := strings.Split(p, "/")
	changed := false
	for i, s := range segs {
		if i == 0 || !strings.Contains(s, "~") {
			continue
		}
		ls := strings.ToLower(s)
		for _, l := range longNames {
			if shortMatch(ls, l) {
				segs[i], changed = l, true
				break
			}
		}
	}
	if !changed {
		return p
	}
	return strings.Join(segs, "/")
}

// globByName judges the lower-case glob g by the protected names alone.
func globByName(set *protect.Set, g, p, home string, tree bool) (Finding, bool) {
	for _, s := range strings.Split(g, "/") {
		if !literalEnough(s) {
			return Finding{}, false
		}
	}
	for _, e := range set.Entries {
		if !presumed(e) || !strings.HasPrefix(strings.ToLower(e.Path), strings.ToLower(slashify(home))+"/") {
			continue
		}
		if globHits(g, e, tree) {
			return selfFinding(string(e.Kind), p, " (the pattern matches "+e.Path+")"), true
		}
	}
	if h := slashify(home); h != "" {
		for _, c := range []string{"/.claude/settings.json", "/.claude/settings.local.json", "/.zcode/cli/config.json", "/.agentguardrc"} {
			if globHits(g, protect.Entry{Path: cleanAbs(h) + c, Kind: protect.HookConfig}, tree) {
				return selfFinding(string(protect.HookConfig), p, " (the pattern matches ~"+c+")"), true
			}
		}
	}
	// a binary's name by pattern: enough of it to mean the guard (agent-g*,
	// *guard-hook*), not any agent-* tool
	if base := lastSeg(g); hasGlob(base) && (strings.Contains(base, "guard") || strings.Contains(base, "agent-g")) {
		for _, b := range guardBinaryNames {
			if ok, _ := path.Match(base, b); ok {
				return selfFinding(string(protect.Binary), p, " (the pattern matches "+b+")"), true
			}
		}
	}
	return Finding{}, false
}

// jsonUnescaper undoes the JSON escapes that matter to a shell reading
// (built once: a Replacer per call cost more than its Replace).
var jsonUnescaper = strings.NewReplacer(`\n`, "\n", `\t`, "\t", `\"`, `"`, `\/`, "/")

// runsLaterWrite judges content written to a file the system runs by
// itself: a self-protection finding among its commands blocks the write.
func runsLaterWrite(p, content, cwd, home string) (Finding, bool) {
	if strings.TrimSpace(content) == "" || len(content) > 64<<10 {
		return Finding{}, false
	}
	kind := laterKind(p, cwd, home)
	if kind == "" {
		return Finding{}, false
	}
	if !strings.Contains(content, "\n") {
		// an MCP call's arguments as JSON text: its newlines are escaped
		content = jsonUnescaper.Replace(content)
	}
	if f, code, ok := selfInCode(laterCode(kind, content), cwd, home, 2*len(content)+64); ok {
		f.Reason = "writes " + p + ", which " + kind + " runs by itself later, with " + oneLineCut(strings.TrimSpace(code), 80) + ": " + f.Reason
		f.Marked = p
		return f, true
	}
	if kind == instrKind {
		return instructionsWrite(p, content, cwd, home)
	}
	return Finding{}, false
}

// trayBinary: the tray's own binary has the name of its folders
// (agent-guard), so it is protected by name only in a bin folder outside
// the project (~/.local/bin/agent-guard, /usr/local/bin/agent-guard).
func trayBinary(n np) bool {
	if n.dynamic || n.inProject || lastSeg(n.low) != "agent-guard" {
		return false
	}
	return path.Base(path.Dir(n.low)) == "bin"
}

// writtenBy lists the paths c writes according to writeSpecs.
func writtenBy(c *shell.Cmd) []string {
	spec, ok := writeSpecs[c.Name]
	if !ok {
		return nil
	}
	if spec.when != nil && !hasAnyFlag(c, spec.when) {
		return nil
	}
	var out []string
	for i, a := range c.Args {
		la := strings.ToLower(a)
		for _, v := range spec.values {
			switch {
			case strings.HasSuffix(v, "=") || strings.HasSuffix(v, ":"):
				// dd of=FILE, socat UNIX-LISTEN:PATH,fork
				if j := strings.Index(la, v); j >= 0 && (j == 0 || strings.ContainsAny(la[j-1:j], " ,!")) {
					p := a[j+len(v):]
					if k := strings.IndexByte(p, ','); k >= 0 {
						p = p[:k]
					}
					out = append(out, p)
				}
			case a == v && i+1 < len(c.Args):
				out = append(out, c.Args[i+1])
			case strings.HasPrefix(a, v+"="):
				out = append(out, a[len(v)+1:])
			case len(v) == 2 && v[0] == '-' && strings.HasPrefix(a, v) && len(a) > 2 && !strings.HasPrefix(a, "--"):
				out = append(out, a[2:]) // -oFILE
			}
		}
	}
	if !spec.all {
		return out
	}
	if spec.unless != nil && hasAnyFlag(c, spec.unless) {
		return out
	}
	ops := operandsOf(c)
	if spec.skipFirst > 0 && !hasScriptFlag(c) {
		if len(ops) <= spec.skipFirst {
			return out
		}
		ops = ops[spec.skipFirst:]
	}
	return append(out, ops...)
}

// drivePath maps the ways to reach a Windows drive from elsewhere
// (/mnt/c/... in WSL, \\localhost\c$\..., \\?\UNC\localhost\c$\...) to
// c:/...; "" when p is none of them.
var drivePathRe = lazyre.New(`(?i)^(?:/mnt/([a-z])|//?(?:\?/unc/)?(?:localhost|127\.0\.0\.1|\.)/([a-z])\$)(/.*)?$`)

// guardBinaryNames are the guard's executables by name: a glob that
// matches one of them writes or removes it wherever it lies.
var guardBinaryNames = []string{"agent-guard-hook", "agent-guard-hook.exe", "agent-guard-judge",
	"agent-guard-judge.exe", "agent-guard.exe"}

// hasAnyFlag: one of flags among c's arguments; a one-letter flag also
// inside a short cluster (-pi, -i.bak, -ni, -Ei) or with a value glued on.
func hasAnyFlag(c *shell.Cmd, flags []string) bool {
	for _, a := range c.Args {
		for _, f := range flags {
			switch {
			case a == f || strings.HasPrefix(a, f+"=") || !strings.HasPrefix(f, "-") && strings.EqualFold(a, f):
				return true
			case len(f) == 2 && f[0] == '-' && len(a) > 1 && a[0] == '-' && a[1] != '-':
				// -i inside a cluster; for perl/sed also -i.bak / -iSUFFIX
				cl := a[1:]
				if k := strings.IndexAny(cl, ".~"); k >= 0 {
					cl = cl[:k]
				}
				if c.Name == "perl" || c.Name == "ruby" {
					// -Mstrict, -Ilib, -rjson: a flag with its value glued on
					if k := strings.IndexAny(cl, "MmIrx0CdDlF"); k >= 0 {
						cl = cl[:k]
					}
				}
				if strings.IndexByte(cl, f[1]) >= 0 {
					return true
				}
			}
		}
	}
	return false
}

// hasScriptFlag: sed -e/-f, perl -e give the script by flag, so every
// operand is a file.
func hasScriptFlag(c *shell.Cmd) bool {
	for _, a := range c.Args {
		if a == "-e" || a == "-f" || a == "--expression" || a == "--file" || strings.HasPrefix(a, "--expression=") {
			return true
		}
	}
	return false
}

// laterCode is the shell code in content that kind runs.
func laterCode(kind, content string) []string {
	var out []string
	switch kind {
	case "the login session", "systemd":
		for _, m := range execLineRe.FindAllStringSubmatch(content, 64) {
			out = append(out, m[1])
		}
	case "launchd":
		for _, m := range plistArgsRe.FindAllStringSubmatch(content, 8) {
			var words []string
			for _, s := range plistStrRe.FindAllStringSubmatch(m[1], 64) {
				words = append(words, s[1])
			}
			out = append(out, shellJoin(words))
		}
		for _, m := range plistProgRe.FindAllStringSubmatch(content, 8) {
			out = append(out, m[1])
		}
	case "cron":
		for _, l := range strings.Split(content, "\n") {
			if c := cronCommand(l); c != "" {
				out = append(out, c)
			}
		}
	case "the Windows login":
		out = append(out, lineByLineText(content))
	case instrKind:
		out = append(out, instructionCode(content)...)
	case "the agent host's MCP servers":
		out = append(out, mcpServerCommands(content)...)
	case "the next make or just", "the next task run", "the next npm run", "the editor", "python", "the next git command",
		"the next build", "the next commit or test run", "the agent host":
		out = append(out, laterLines(kind, content)...)
	default:
		out = append(out, content)
	}
	return out
}

// laterKind names what runs the file, "" when nothing does by itself.
func laterKind(p, cwd, home string) string {
	n := normalize(p, cwd, home)
	low, base := n.low, lastSeg(n.low)
	switch {
	case hasSeq(low, ".config/autostart") && strings.HasSuffix(base, ".desktop"):
		return "the login session"
	case hasSeq(low, "start menu/programs/startup"):
		return "the Windows login"
	case base == "rc" && hasSeq(low, ".ssh") || base == ".xprofile" || base == ".xinitrc" || base == ".xsession" || base == ".xsessionrc":
		return "the next login"
	case hasSeq(low, "systemd/user") || hasSeq(low, "systemd/system") || strings.HasSuffix(base, ".service") || strings.HasSuffix(base, ".timer"):
		return "systemd"
	case hasSeq(low, "launchagents") || hasSeq(low, "launchdaemons"):
		return "launchd"
	case hasSeq(low, "var/spool/cron") || hasSeq(low, "etc/cron.d") || strings.HasPrefix(base, "crontab"):
		return "cron"
	case envFile(p, cwd, home) || base == ".bash_aliases" || base == ".zsh_aliases" || base == ".aliases":
		return "every new shell"
	case path.Base(path.Dir(low)) == "bin" && isHostCommand(base):
		// ~/.local/bin/claude: a wrapper that shadows the agent host's own
		// command runs at the host's next start
		return "the next start of " + base
	case hasSeq(low, ".git/hooks") || hasSeq(low, ".husky"):
		return "git"
	case base == "makefile" || base == "gnumakefile" || strings.HasSuffix(base, ".mk") || base == "justfile" || base == ".justfile":
		return "the next make or just"
	case base == "taskfile.yml" || base == "taskfile.yaml" || base == "taskfile.dist.yml":
		return "the next task run"
	case base == "package.json":
		return "the next npm run"
	case base == "tasks.json" && hasSeq(low, ".vscode"):
		return "the editor"
	case base == "conftest.py" || base == "setup.py" || base == "noxfile.py" || base == "sitecustomize.py" ||
		base == "usercustomize.py" || strings.HasSuffix(base, ".pth"):
		return "python"
	case base == "build.rs" || base == "build.gradle" || base == "build.gradle.kts" || base == "gulpfile.js" ||
		base == "gruntfile.js" || base == "rakefile" || base == "vite.config.js" || base == "vite.config.ts" ||
		base == "webpack.config.js" || base == "jest.config.js" || base == "next.config.js" || base == "babel.config.js":
		return "the next build"
	case base == ".pre-commit-config.yaml" || base == "lefthook.yml" || base == "lefthook.yaml" || base == ".lefthook.yml" ||
		base == "bitbucket-pipelines.yml" || base == ".gitlab-ci.yml" || base == "tox.ini":
		return "the next commit or test run"
	case base == ".gitconfig" || base == "config" && (hasSeq(low, ".config/git/config") || hasSeq(low, ".git/config")):
		return "the next git command"
	case base == ".mcp.json" || base == "mcp.json" || base == ".claude.json" || base == "claude_desktop_config.json" ||
		base == "mcp_config.json" || base == "mcp_settings.json":
		// MCP servers: the host starts each server's command (with its
		// args) at its next start, before any tool call is judged
		return "the agent host's MCP servers"
	case instructionFile(low):
		return instrKind
	case base == "gemini-extension.json" || base == "qwen-extension.json":
		return "the agent host's MCP servers"
	case base == "plugin.json" && hasSeq(low, ".claude-plugin") || base == "hooks.json" && (hasSeq(low, "hooks") || hasSeq(low, ".claude-plugin")):
		// a plugin's hooks: the host runs them at its next start
		return "the agent host"
	case (strings.HasSuffix(base, ".json") || strings.HasSuffix(base, ".toml")) && hostConfigShaped(low):
		// hooks of other events, apiKeyHelper, statusLine: commands the
		// host runs on its next start in that folder
		return "the agent host"
	}
	return ""
}

// gitCodeKeys are git settings whose value git runs as a command.
var gitCodeKeys = map[string]bool{"fsmonitor": true, "pager": true, "editor": true, "sshcommand": true,
	"askpass": true, "external": true, "textconv": true, "helper": true, "cmd": true, "hookspath": false,
	"sequenceeditor": true, "command": true, "clean": true, "smudge": true, "process": true}

// laterLines are the commands of a task-runner or git config file, one a
// line: indented recipe lines, YAML list items, JSON "command"/script
// values, git settings that hold commands (alias = !cmd, fsmonitor = cmd).
func laterLines(kind, content string) []string {
	var out []string
	switch kind {
	case "the next npm run":
		var pj struct {
			Scripts map[string]string `json:"scripts"`
		}
		if json.Unmarshal([]byte(content), &pj) == nil {
			for _, v := range pj.Scripts {
				out = append(out, v)
			}
			return out
		}
		fallthrough // cut or broken: every quoted command-like value
	case "the editor", "the agent host":
		for _, m := range laterJSONCmdRe.FindAllStringSubmatch(content, 128) {
			var v string
			if json.Unmarshal([]byte(`"`+m[1]+`"`), &v) == nil {
				out = append(out, v)
			}
		}
		return out
	case "python", "the next build":
		// code: its string literals are read as interpreter code's are
		return []string{shellJoin([]string{"python3", "-c", content})}
	}
	for _, l := range strings.Split(content, "\n") {
		t := strings.TrimSpace(l)
		switch kind {
		case "the next make or just":
			if l != t && t != "" {
				out = append(out, strings.TrimLeft(t, "@-+"))
			}
		case "the next commit or test run":
			for _, k := range []string{"entry:", "run:", "script:", "commands =", "- "} {
				if strings.HasPrefix(t, k) {
					out = append(out, strings.Trim(strings.TrimSpace(t[len(k):]), `'"`))
					break
				}
			}
		case "the next task run":
			if strings.HasPrefix(t, "- ") {
				t = strings.TrimPrefix(strings.TrimSpace(t[2:]), "cmd:")
				out = append(out, strings.Trim(strings.TrimSpace(t), `'"`))
			} else if strings.HasPrefix(t, "cmd:") {
				out = append(out, strings.Trim(strings.TrimSpace(t[4:]), `'"`))
			}
		case "the next git command":
			k, v, ok := strings.Cut(t, "=")
			k = strings.ToLower(strings.TrimSpace(k))
			v = strings.Trim(strings.TrimSpace(v), `"`)
			if !ok || v == "" {
				continue
			}
			if strings.HasPrefix(v, "!") {
				out = append(out, v[1:]) // alias.x = !cmd
			} else if gitCodeKeys[k] {
				out = append(out, v)
			}
		}
	}
	return out
}

// literalEnough: every segment of g that has a wildcard keeps at least
// four characters of the name it stands for (agent-g*, .clau*), so the
// pattern was written for that name; * alone or .c* could mean anything.
func literalEnough(seg string) bool {
	if !hasGlob(seg) {
		return true
	}
	lit := 0
	in := false
	for _, r := range seg {
		switch {
		case r == '[':
			in = true
		case r == ']':
			in = false
		case in || r == '*' || r == '?':
		default:
			lit++
		}
	}
	return lit >= 4
}

// longNames are the names on the way to a protected path that Windows
// gives a short 8.3 alias (AGENT-~1 for agent-guard, CLAUDE~1 for
// .claude, SETTIN~1.JSO for settings.json).
var longNames = []string{"agent-guard", ".claude", "settings.json", "settings.local.json", ".zcode", ".codex",
	".cursor", ".gemini", "hooks.json", "config.json", "config.toml", "agent-guard-hook.exe", "agent-guard.exe",
	"agent-guard-judge.exe", ".agentguardrc", "appdata", "application data", ".config", ".local", ".kimi-code",
	".codeium", ".copilot", ".factory", ".qwen", ".augment", ".kiro", "windsurf", "startup", "start menu"}

// operandsOf are c's non-flag words, skipping the values of the flags
// that take one for the programs in writeSpecs (-e CODE, -c CMD, -s FILE).
func operandsOf(c *shell.Cmd) []string {
	takes := map[string]bool{"-e": true, "-E": true, "-c": true, "-f": true, "-o": true,
		"--eval": true, "--expression": true, "-l": true, "-x": true, "-W": true, "--cmd": true, "-u": true,
		"-p": true, "--remove-section": true, "-R": true, "-j": true, "--set-rpath": true, "--output": true}
	switch c.Name {
	case "perl", "ruby":
		takes["-l"], takes["-x"] = false, false
	case "gzip", "gunzip", "bzip2", "xz", "lzma", "zstd", "lz4", "compress", "nc", "ncat", "netcat":
		takes = map[string]bool{"-S": true, "--suffix": true, "-o": true, "-T": true, "-w": true, "-p": true, "-s": true, "-x": true}
	case "strip", "objcopy":
		takes["-s"], takes["-p"] = false, false
	case "awk", "gawk":
		takes = map[string]bool{"-i": true, "-f": true, "-v": true, "-F": true, "-e": true, "--include": true}
	}
	var out []string
	dashdash := false
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		switch {
		case dashdash:
			out = append(out, a)
		case a == "--":
			dashdash = true
		case strings.HasPrefix(a, "+") && (c.Name == "vim" || c.Name == "vi" || c.Name == "nvim" || c.Name == "ex" || c.Name == "emacs"):
			// +cmd / +N: an editor command, not a file
		case len(a) > 1 && a[0] == '-':
			if takes[a] && i+1 < len(c.Args) {
				i++
			}
		case (c.Name == "awk" || c.Name == "gawk") && len(out) == 0 && !hasScriptFlag(c):
			out = append(out, "") // the program text
		case c.Name == "git" && a == "config":
		default:
			out = append(out, a)
		}
	}
	if (c.Name == "awk" || c.Name == "gawk") && len(out) > 0 && out[0] == "" {
		out = out[1:]
	}
	return out
}

// presumed: an entry that is the guard's by where it lies, so its absence
// now says nothing (caches only cost speed; a project's host settings
// without our hook are not the guard's).
func presumed(e protect.Entry) bool {
	if e.WriteOnly {
		return false
	}
	switch e.Kind {
	case protect.GuardFiles, protect.AuditLog, protect.HookConfig, protect.Autostart, protect.Binary:
		return true
	}
	return false
}

// shortMatch: seg (lower case) is an 8.3 alias that long may have.
func shortMatch(seg, long string) bool {
	i := strings.IndexByte(seg, '~')
	if i < 1 || i > 6 {
		return false
	}
	num, ext, _ := strings.Cut(seg[i+1:], ".")
	if num == "" || strings.Trim(num, "0123456789") != "" {
		return false
	}
	l := strings.ReplaceAll(strings.TrimLeft(long, ". "), " ", "")
	base, lext := l, ""
	if k := strings.LastIndexByte(l, '.'); k > 0 {
		base, lext = strings.ReplaceAll(l[:k], ".", ""), l[k+1:]
	}
	if len(lext) > 3 {
		lext = lext[:3]
	}
	return strings.HasPrefix(base, seg[:i]) && ext == lext
}

var writeSpecs = map[string]writeSpec{
	// in-place text editors
	"sed":  {all: true, when: []string{"-i", "--in-place", "-I"}, skipFirst: 1},
	"gsed": {all: true, when: []string{"-i", "--in-place", "-I"}, skipFirst: 1},
	"perl": {all: true, when: []string{"-i"}},
	"ruby": {all: true, when: []string{"-i"}},
	"awk":  {all: true, when: []string{"inplace"}}, "gawk": {all: true, when: []string{"inplace"}},
	"yq": {all: true, when: []string{"-i", "--inplace"}},
	"sd": {all: true, skipFirst: 2}, "rpl": {all: true, skipFirst: 2}, "ruplacer": {all: true, skipFirst: 2},
	"dasel": {values: []string{"-f", "--file"}}, "crudini": {all: true},
	"sponge": {all: true},
	// editors: scripted (-c, -s, -e, --batch) or not, they write what they open
	"vi": {all: true}, "vim": {all: true}, "nvim": {all: true}, "view": {all: true}, "ex": {all: true},
	"ed": {all: true}, "red": {all: true}, "emacs": {all: true}, "nano": {all: true}, "micro": {all: true},
	"kak": {all: true}, "hx": {all: true}, "helix": {all: true}, "joe": {all: true}, "mcedit": {all: true},
	"vis": {all: true}, "pico": {all: true}, "jed": {all: true}, "mg": {all: true},
	// binary rewriters
	"strip": {all: true, values: []string{"-o"}, unless: []string{"-o"}}, "sstrip": {all: true},
	"objcopy": {all: true}, "patchelf": {all: true}, "install_name_tool": {all: true},
	"codesign": {all: true}, "chrpath": {all: true}, "upx": {all: true, values: []string{"-o"}, unless: []string{"-o"}},
	"xattr": {all: true}, "setfattr": {all: true},
	// writers naming their output
	"dd":      {values: []string{"of="}},
	"sort":    {values: []string{"-o", "--output"}},
	"uniq":    {skipFirst: 1, all: true},
	"xxd":     {skipFirst: 1, all: true, when: []string{"-r"}},
	"openssl": {values: []string{"-out"}},
	"gpg":     {values: []string{"-o", "--output"}},
	"base64":  {values: []string{"-o", "--output"}},
	"git":     {values: []string{"--file", "-f"}, when: []string{"config"}},
	"mkfifo":  {all: true}, "mknod": {all: true},
	"rename": {all: true, skipFirst: 1}, "prename": {all: true, skipFirst: 1}, "perl-rename": {all: true, skipFirst: 1},
	"mmv":        {all: true},
	"ssh-keygen": {values: []string{"-f"}}, "pandoc": {values: []string{"-o", "--output"}},
	"wkhtmltopdf": {all: true, skipFirst: 1}, "magick": {all: true, skipFirst: 1}, "convert": {all: true, skipFirst: 1},
	// compressors replace their input with the packed (or unpacked) file
	"gzip":     {all: true, unless: []string{"-c", "--stdout", "-k", "--keep", "-l", "--list", "-t", "--test"}},
	"gunzip":   {all: true, unless: []string{"-c", "--stdout", "-k", "--keep", "-l", "--list", "-t", "--test"}},
	"bzip2":    {all: true, unless: []string{"-c", "--stdout", "-k", "--keep", "-t", "--test"}},
	"xz":       {all: true, unless: []string{"-c", "--stdout", "-k", "--keep", "-l", "--list", "-t", "--test"}},
	"lzma":     {all: true, unless: []string{"-c", "--stdout", "-k", "--keep"}},
	"zstd":     {all: true, when: []string{"--rm"}},
	"lz4":      {all: true, when: []string{"--rm"}},
	"compress": {all: true, unless: []string{"-c"}},
	// unix-socket listeners: the bind creates the file at the path
	"nc": {all: true, when: []string{"-U"}}, "ncat": {all: true, when: []string{"-U", "--unixsock"}},
	"netcat":  {all: true, when: []string{"-U"}},
	"socat":   {values: []string{"unix-listen:", "unix-l:", "unix-recvfrom:", "unix-recv:", "unix-connect:", "unix:", "unix-client:", "create:", "open:", "gopen:"}},
	"sqlite3": {all: true}, "sqlite": {all: true},
	"systemd-socket-activate": {values: []string{"-l", "--listen"}},
}

// cronCommand is the command of a crontab line (after the five time
// fields or an @keyword), "" for comments and variable lines.
func cronCommand(l string) string {
	l = strings.TrimSpace(l)
	if l == "" || strings.HasPrefix(l, "#") {
		return ""
	}
	f := strings.Fields(l)
	n := 5
	if strings.HasPrefix(f[0], "@") {
		n = 1
	}
	if len(f) <= n {
		return ""
	}
	return strings.Join(f[n:], " ")
}

var (
	// "command": "..." in a tasks.json, "x": "..." in package.json scripts
	laterJSONCmdRe = lazyre.New(`(?i)"(?:command|[a-z][a-z0-9:_-]*)"\s*:\s*"((?:[^"\\]|\\.)+)"`)
	execLineRe     = lazyre.New(`(?m)^\s*(?:Exec|TryExec|ExecStart|ExecStartPre|ExecStartPost|ExecStop|ExecStopPost|ExecReload|ExecCondition)\s*=\s*[-@:+!]*(.+)$`)
	plistArgsRe    = lazyre.New(`(?s)<key>\s*ProgramArguments\s*</key>\s*<array>(.*?)</array>`)
	plistStrRe     = lazyre.New(`<string>([^<]*)</string>`)
	plistProgRe    = lazyre.New(`(?s)<key>\s*Program\s*</key>\s*<string>([^<]*)</string>`)
)

// isHostCommand: the name of an agent host's command (claude, codex, ...).
func isHostCommand(base string) bool {
	base = strings.TrimSuffix(strings.TrimSuffix(base, ".exe"), ".cmd")
	_, ok := nestedHosts[base]
	return ok
}

// lineByLineText keeps each non-empty line as its own command (a .cmd or
// .ps1 in the Startup folder).
func lineByLineText(content string) string {
	var out []string
	for _, l := range strings.Split(strings.ReplaceAll(content, "\r", ""), "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(strings.ToLower(l), "@echo") && !strings.HasPrefix(strings.ToLower(l), "rem ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

func shellJoin(args []string) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		if strings.ContainsAny(a, " \t'\"$;&|") {
			b.WriteString("'" + strings.ReplaceAll(a, "'", `'\''`) + "'")
		} else {
			b.WriteString(a)
		}
	}
	return b.String()
}

// writeSpec says which arguments of a program are written.
type writeSpec struct {
	// all: every operand (after the flags) may be written.
	all bool
	// when: the operands are written only with one of these flags (a
	// short letter inside a cluster counts: -pi, -i.bak, -ni); nil means
	// always.
	when []string
	// values: flags whose value is a written path (-o FILE, of=FILE,
	// --output=FILE, UNIX-LISTEN:PATH).
	values []string
	// skipFirst: the first operand is a script or pattern, not a file
	// (sed 's/a/b/' FILE, sd FROM TO FILE skips two).
	skipFirst int
	// unless: flags that make the operands read-only (gzip -c, strip -o).
	unless []string
}

var nestedHosts = map[string]nestedHost{
	"claude": {envOff: []string{"CLAUDE_CONFIG_DIR", "CLAUDE_CODE_SIMPLE", "CLAUDE_CODE_SAFE_MODE"},
		bypass:  []string{"--dangerously-skip-permissions", "--allow-dangerously-skip-permissions"},
		bypassV: map[string][]string{"--permission-mode": {"bypasspermissions", "dontask", "acceptedits"}}},
	"codex": {envOff: []string{"CODEX_HOME"},
		bypass: []string{"--dangerously-bypass-approvals-and-sandbox", "--yolo", "--full-auto"},
		bypassV: map[string][]string{"-a": {"never"}, "--ask-for-approval": {"never"},
			"-s": {"danger-full-access"}, "--sandbox": {"danger-full-access"}}},
	"gemini": {envOff: []string{"GEMINI_CLI_HOME", "GEMINI_CLI_SYSTEM_SETTINGS_PATH"}, bypass: []string{"--yolo", "-y"},
		bypassV: map[string][]string{"--approval-mode": {"yolo", "auto_edit"}}},
	"qwen":         {bypass: []string{"--yolo", "-y"}, bypassV: map[string][]string{"--approval-mode": {"yolo", "auto-edit", "auto_edit"}}},
	"agy":          {bypass: []string{"--dangerously-skip-permissions"}},
	"cursor-agent": {bypass: []string{"--force", "-f", "--yolo"}},
	"copilot":      {envOff: []string{"COPILOT_HOME"}, bypass: []string{"--allow-all-tools", "--allow-all", "--yolo", "--allow-all-paths"}},
	"droid":        {bypass: []string{"--skip-permissions-unsafe"}},
	"auggie":       {},
	"kimi":         {envOff: []string{"KIMI_CODE_HOME"}, bypass: []string{"--yolo", "-y"}},
	"opencode":     {},
	"amp":          {bypass: []string{"--dangerously-allow-all"}},
	"zcode":        {bypass: []string{"--yolo", "--full-access"}},
	"kiro-cli":     {bypass: []string{"--trust-all-tools"}},
	"windsurf":     {},
}

// nestedHost is what one host CLI takes.
type nestedHost struct {
	envOff  []string // variables that move its config (or hooks) away
	bypass  []string // flags (a prefix before "=" also matches) that skip its permission prompts
	bypassV map[string][]string
}

// mcpServerCommands are the command lines of the MCP servers a JSON
// config declares ({"command": "sh", "args": ["-c", "..."]} anywhere in
// it), each joined into one shell line.
func mcpServerCommands(content string) []string {
	var v any
	if json.Unmarshal([]byte(content), &v) != nil {
		return []string{content} // not JSON (yet): its text as it is
	}
	var out []string
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if depth > 8 || len(out) > 64 {
			return
		}
		switch t := v.(type) {
		case map[string]any:
			if cmd, ok := t["command"].(string); ok && cmd != "" {
				words := []string{cmd}
				if args, ok := t["args"].([]any); ok {
					for _, a := range args {
						if s, ok := a.(string); ok {
							words = append(words, s)
						}
					}
				}
				out = append(out, shellJoin(words))
			}
			for _, e := range t {
				walk(e, depth+1)
			}
		case []any:
			for _, e := range t {
				walk(e, depth+1)
			}
		}
	}
	walk(v, 0)
	return out
}
