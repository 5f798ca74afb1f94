package rules

import (
	"path"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Helpers that more than one pack uses, moved here from the pack file that
// first had them when the packs became packages of their own: a pack
// cannot reach into another pack, so what two packs share lives in the
// core (api.go exports it).

func pkLowOps(c *shell.Cmd) []string {
	ops := c.Operands() // a fresh slice: filtered in place, no second one
	out := ops[:0]
	for _, o := range ops {
		if strings.HasPrefix(o, "/") && len(o) > 1 && !strings.Contains(o[1:], "/") {
			continue // a Windows switch, not an operand
		}
		out = append(out, strings.ToLower(o))
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// pkIndex returns the index of the first argument equal to one of words.
func pkIndex(args []string, words ...string) int {
	for i, a := range args {
		for _, w := range words {
			if a == w {
				return i
			}
		}
	}
	return -1
}

func pkContains(list []string, w string) bool {
	for _, v := range list {
		if v == w {
			return true
		}
	}
	return false
}

func pkValIs(c *shell.Cmd, name, want string) bool {
	v, ok := pkVal(c, name)
	return ok && v == want
}

// pkContainsFold: case-insensitive substring test for ASCII, no allocation.
func pkContainsFold(s, sub string) bool {
	n := len(sub)
	if n == 0 {
		return true
	}
	if strings.IndexByte(s, sub[n-1]|0x20) < 0 && strings.IndexByte(s, sub[n-1]&^0x20) < 0 {
		return false
	}
	for i := 0; i+n <= len(s); i++ {
		if strings.EqualFold(s[i:i+n], sub) {
			return true
		}
	}
	return false
}

// pkRawWords splits a command's source text into words (quotes and
// brackets as separators), keeping backslashes for Windows paths.
func pkRawWords(raw string) []string {
	return strings.FieldsFunc(raw, func(r rune) bool {
		switch r {
		case ' ', '\t', '\n', '"', '\'', '(', ')', ',', ';', '|', '&', '`', '{', '}', '[', ']', '>':
			return true
		}
		return false
	})
}

const (
	pkNoSecret = iota
	pkWeak
	pkStrong
)

// shellQuote quotes s for a POSIX shell line.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '-' || r == '_' || r == '.' || r == '/' || r == '=' || r == ':' || r == '~' || unicode.IsLetter(r) || unicode.IsDigit(r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// splitName breaks a tool name into lower-case words on _ - . / space and
// camelCase boundaries ("createPullRequest" -> create pull request).
func splitName(name string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(name)
	for i, r := range rs {
		switch {
		case r == '_' || r == '-' || r == '.' || r == '/' || r == ' ' || r == ':':
			flush()
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(rs[i-1]) || unicode.IsDigit(rs[i-1]) || i+1 < len(rs) && unicode.IsLower(rs[i+1]) && unicode.IsUpper(rs[i-1])):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return out
}

// pkSizeBytes parses 100G, 1.5T, 512M, 10GiB, 1000000.
func pkSizeBytes(s string) (float64, bool) {
	s = strings.TrimSpace(strings.ToUpper(s))
	s = strings.TrimSuffix(strings.TrimSuffix(s, "IB"), "B")
	mult := 1.0
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		case 'P':
			mult = 1 << 50
		case 'E':
			mult = 1 << 60
		}
		if mult != 1 {
			s = s[:n-1]
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false
	}
	return v * mult, true
}

// Markers of deleting code, looked for in lower-cased code.
var (
	pkDelMarks = []string{"shutil.rmtree", "os.remove", "os.unlink", "os.rmdir", "os.removedirs", ".unlink(", ".rmdir(", "rmtree", "rmsync", "fs.rm(", "fs.rmdir", "fs.unlink", "promises.rm", "rimraf", "fse.remove", "fs.emptydir", "file.delete", "fileutils.rm", "file.unlink", "unlink(", "unlink ", "deno.remove", "remove-item", "files.delete", "directory.delete", "file.delete(", ".delete()", "removesync", "dir.rmdir", "rm_rf", "os.truncate", "truncate(", "send2trash", "remove_tree", "remove_dir_all", "os.removeall", "fileutils.remove_dir", "fileutils.rm_r"}
)

// Marks of code that writes, moves or removes files, looked for in
// lower-cased code (reading settings.json to print it is fine).
var (
	pkGuardWriteMark = []string{"'w", "\"w", "'a'", "\"a\"", "'a+", "\"a+", "'r+", "\"r+", "'x'", "write", "dump(", "remove", "unlink", "rmtree", "rmdir", "rename", "replace(", "truncate", "rmsync", "fs.rm", "copy", "move", "symlink", "chmod", "delete", "'>", "\">", "'+>", "out-file", "set-content", "add-content", "puts", "print f", "print $", "file.open", "mkdir", "touch", "bind(", "listen(", "put_contents", "fputs", "fwrite", "rm("}
)

func pkAnyOf(s string, marks []string) string {
	for _, m := range marks {
		if strings.Contains(s, m) {
			return m
		}
	}
	return ""
}

// infraReadOnly: help, version and dry-run options (those spellings mean
// the same in every CLI here; kafka-consumer-groups --dry-run too).
func infraReadOnly(args []string) bool {
	if len(args) > 0 && strings.EqualFold(args[0], "help") {
		return true // `vault help kv`; later "help" may be a name (nats stream rm help)
	}
	for _, a := range args {
		if a == "--" {
			return false
		}
		switch strings.ToLower(a) {
		case "-h", "--help", "-help", "--version", "-version", "--dry-run", "-dry-run", "--dryrun":
			return true
		}
		if strings.HasPrefix(a, "--dry-run=") && a != "--dry-run=none" && a != "--dry-run=false" {
			return true
		}
	}
	return false
}

// infraWords: the leading subcommand words, lower-cased: positional words
// up to the first one that is not a plain word (a path, URL, key=value).
func infraWords(args []string) []string {
	var out []string
	afterOpt := false
	for _, a := range args {
		if a == "--" {
			break // what follows is a command or operands
		}
		if strings.HasPrefix(a, "-") {
			afterOpt = !strings.Contains(a, "=")
			continue
		}
		if !plainWord(a) {
			if afterOpt {
				afterOpt = false // -s http://ci:8080: an option's value
				continue
			}
			break
		}
		afterOpt = false
		if len(out) >= 4 {
			break
		}
		out = append(out, strings.ToLower(a))
	}
	return out
}

// localToolManagers remove versions or plugins of developer tools on this
// machine (reinstallable): not a service deletion.
var localToolManagers = pkSet("rustup", "nvm", "pyenv", "rbenv", "asdf", "mise", "rtx", "sdk", "volta", "fnm", "n",
	"gvm", "goenv", "jenv", "nodenv", "pre-commit", "husky", "code", "codium", "cursor", "flutter", "dart", "sdkmanager",
	"tmux", "screen", "direnv", "zoxide", "ollama", "lefthook", "overcommit", "proto", "bob", "juliaup", "ghcup", "opam",
	"corepack", "jabba", "tfenv", "tfswitch", "kubectx", "kubens", "starship", "conan", "vcpkg", "spack", "sdkman",
	"nx", "turbo", "rush", "bazel", "bazelisk", "pants", "earthly", "ng", "expo", "storybook", "wails", "tauri", "hatch")

// pkStdinCode is code the walker saw reaching the interpreter's stdin.
func pkStdinCode(c *shell.Cmd) string {
	var parts []string
	for _, r := range c.Redirs {
		if r.Op == "<<" || r.Op == "<<-" || r.Op == "<<<" {
			parts = append(parts, r.Target)
		}
	}
	return strings.Join(parts, "\n")
}

// pkInnerShell returns the shell command lines handed to spawn calls as
// string literals, and backtick commands of Ruby/Perl/PHP.
func pkInnerShell(code string, backticks bool) []string {
	pkInitRe()
	var out []string
	for _, m := range pkCallRe.FindAllStringIndex(code, -1) {
		if s, ok := pkStringAt(code, m[1]); ok && strings.TrimSpace(s) != "" {
			out = append(out, s+pkMoreArgs(code, m[1]))
		}
	}
	if backticks {
		for i := 0; i < len(code); i++ {
			if code[i] == '`' {
				j := strings.IndexByte(code[i+1:], '`')
				if j < 0 {
					break
				}
				out = append(out, code[i+1:i+1+j])
				i += j + 1
			}
		}
		for _, pre := range []string{"%x(", "qx(", "%x{", "qx{"} {
			for k := strings.Index(code, pre); k >= 0; {
				closer := byte(')')
				if pre[len(pre)-1] == '{' {
					closer = '}'
				}
				e := strings.IndexByte(code[k+len(pre):], closer)
				if e < 0 {
					break
				}
				out = append(out, code[k+len(pre):k+len(pre)+e])
				n := strings.Index(code[k+len(pre)+e:], pre)
				if n < 0 {
					break
				}
				k = k + len(pre) + e + n
			}
		}
	}
	return out
}

// pkNamesGuard: the text names the guard (its process, service or files).
func pkNamesGuard(raw string) bool {
	low := strings.ToLower(raw)
	return strings.Contains(low, "agent-guard") || strings.Contains(low, "agent_guard") || strings.Contains(low, "agentguard")
}

// docker compose run's options that take a value.
var (
	pkComposeRunVal = pkSet("-e", "--env", "-v", "--volume", "-p", "--publish", "--name", "-w", "--workdir", "-u", "--user", "--entrypoint", "-l", "--label", "--index", "--env-file", "--pull", "--cap-add", "--cap-drop")
)

// Flag sets hoisted out of the rules (built once, not per command).
var (
	pkVFEveryday4 = pkSet("-i", "-p", "-l", "-o", "-F", "-J", "-L", "-R", "-D", "-W", "-b", "-c", "-E", "-e", "-m", "-O", "-Q", "-S", "-w", "-B", "-I")
)

// destroyVerbs are subcommand words that destroy, disable or wipe; a CLI
// the rules have no pack for is confirm when its subcommand path holds one.
var destroyVerbs = pkSet("delete", "del", "destroy", "purge", "drop", "reset", "disable", "uninstall", "wipe",
	"terminate", "remove", "rm", "rmi", "nuke", "truncate", "flush", "flushall", "flushdb", "erase", "deregister",
	"unregister", "teardown", "tear-down", "obliterate", "expunge", "decommission", "evict", "revoke", "unpublish",
	"deprovision", "kill", "shred", "scrub", "clear", "prune", "forget", "detach", "deactivate")

// infraReadVerbs end the search: the command reads (get, list, describe...).
var infraReadVerbs = pkSet("get", "list", "ls", "describe", "show", "status", "logs", "log", "info", "inspect",
	"view", "cat", "read", "search", "find", "whoami", "version", "help", "diff", "plan", "validate", "check",
	"lint", "watch", "top", "explain", "preview", "history", "print", "export", "dump", "tail", "stat", "stats", "query")

func plainWord(w string) bool {
	if w == "" || pkDyn(w) {
		return false
	}
	for i := 0; i < len(w); i++ {
		ch := w[i]
		if !(ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '-' || ch == '_' || ch == ':') {
			return false
		}
	}
	return true
}

var (
	pkBigPowOnce sync.Once
	pkBigPowRe   *regexp.Regexp
	pkCallRe     *regexp.Regexp
)

func pkInitRe() {
	pkBigPowOnce.Do(func() {
		pkBigPowRe = regexp.MustCompile(`(?:\*\*|<<)\s*\(?\s*([0-9]{1,3})\b`)
		pkCallRe = regexp.MustCompile(`(?i)(?:os\.system|os\.popen|os\.execute|io\.popen|subprocess\.[a-z_]+|check_output|check_call|getoutput|getstatusoutput|execsync|execfilesync|spawnsync|exec|spawn|system|shell_exec|passthru|popen|proc_open|capture2e?|capture3|do shell script|run|call)\s*\(?\s*`)
	})
}

// pkMoreArgs returns the further literal arguments of a list-form call
// (Perl exec "rm", "-rf", "/"; Ruby system("rm", "-rf", dir); Node
// spawn('rm', ['-rf', '/'])) that follow the first literal at s[i],
// each prefixed with a space; a non-literal argument becomes a dynamic word.
func pkMoreArgs(s string, i int) string {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i >= len(s) || s[i] == '[' {
		return ""
	}
	q := s[i]
	if q != '\'' && q != '"' {
		return ""
	}
	// skip the first literal
	j := i + 1
	for ; j < len(s) && s[j] != q; j++ {
		if s[j] == '\\' {
			j++
		}
	}
	var b strings.Builder
	for n := 0; n < 16 && j < len(s); n++ {
		k := j + 1
		for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
			k++
		}
		if k >= len(s) || s[k] != ',' {
			break
		}
		k++
		for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
			k++
		}
		if k >= len(s) {
			break
		}
		if s[k] == '[' {
			if a, ok := pkStringAt(s, k); ok {
				b.WriteString(" " + a)
			}
			break
		}
		if s[k] != '\'' && s[k] != '"' {
			b.WriteString(" " + shell.Dyn)
			break
		}
		a, ok := pkStringAt(s, k)
		if !ok {
			break
		}
		b.WriteString(" " + a)
		q2 := s[k]
		j = k + 1
		for ; j < len(s) && s[j] != q2; j++ {
			if s[j] == '\\' {
				j++
			}
		}
	}
	return b.String()
}

// pkStringAt parses the string literal (or Python/JS list of literals)
// starting at s[i]; it returns the text and true when one is there.
func pkStringAt(s string, i int) (string, bool) {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	if i >= len(s) {
		return "", false
	}
	if s[i] == '[' { // ['rm', '-rf', path]
		j := strings.IndexByte(s[i:], ']')
		if j < 0 {
			return "", false
		}
		var parts []string
		inner := s[i+1 : i+j]
		for _, p := range strings.Split(inner, ",") {
			p = strings.TrimSpace(p)
			if len(p) >= 2 && (p[0] == '\'' || p[0] == '"' || p[0] == '`') && p[len(p)-1] == p[0] {
				parts = append(parts, p[1:len(p)-1])
			} else if p != "" {
				parts = append(parts, shell.Dyn)
			}
		}
		return strings.Join(parts, " "), len(parts) > 0
	}
	q := s[i]
	if q != '\'' && q != '"' && q != '`' {
		return "", false
	}
	if strings.HasPrefix(s[i:], `"""`) || strings.HasPrefix(s[i:], `'''`) {
		end := strings.Index(s[i+3:], s[i:i+3])
		if end < 0 {
			return "", false
		}
		return s[i+3 : i+3+end], true
	}
	var b strings.Builder
	for j := i + 1; j < len(s); j++ {
		switch {
		case s[j] == '\\' && j+1 < len(s):
			b.WriteByte(s[j+1])
			j++
		case s[j] == q:
			return b.String(), true
		default:
			b.WriteByte(s[j])
		}
	}
	return "", false
}

// pkAuthContext: the text just before pos puts the value in an auth
// header or credential option (normal use of a token, not a leak).
func pkAuthContext(raw string, pos int) bool {
	start := pos - 60
	if start < 0 {
		start = 0
	}
	pre := strings.ToLower(raw[start:pos])
	// Only the current option and its value count.
	if i := strings.LastIndex(pre, " -"); i >= 0 {
		pre = pre[i:] + " "
	}
	for _, k := range []string{"authorization", "bearer", "token ", "token:", "-h ", "--header", "x-api-key", "api-key:", "apikey:", "private-token", "-u ", "--user ", "--user=", "-headers", "--oauth2-bearer", "x-auth", "circle-token", "--password", "-p "} {
		if strings.Contains(pre, k) {
			return true
		}
	}
	return false
}

// pkSecretVarRefs returns the positions in raw of references to secret
// environment variables ($X, ${X}, $env:X, %X%).
func pkSecretVarRefs(raw string) []int {
	var pos []int
	for i := 0; i < len(raw); i++ {
		var j int
		switch {
		case raw[i] == '$':
			j = i + 1
			if j < len(raw) && raw[j] == '{' {
				j++
			}
			if strings.HasPrefix(strings.ToLower(raw[j:]), "env:") {
				j += 4
			}
		case raw[i] == '%':
			j = i + 1
		default:
			continue
		}
		k := j
		for k < len(raw) && (raw[k] == '_' || raw[k] >= 'A' && raw[k] <= 'Z' || raw[k] >= 'a' && raw[k] <= 'z' || raw[k] >= '0' && raw[k] <= '9') {
			k++
		}
		if k > j && pkSecretVar(raw[j:k]) {
			if raw[i] == '%' && (k >= len(raw) || raw[k] != '%') {
				continue
			}
			pos = append(pos, i)
		}
		i = k - 1
		if i < 0 {
			i = 0
		}
	}
	return pos
}

// pkSecretVar reports whether an environment variable name looks secret.
func pkSecretVar(name string) bool {
	n := strings.ToUpper(name)
	for _, k := range []string{"TOKEN", "SECRET", "PASSWORD", "PASSWD", "PASSPHRASE", "API_KEY", "APIKEY", "PRIVATE_KEY", "ACCESS_KEY", "CREDENTIAL", "AUTH_KEY", "CLIENT_KEY", "_PAT", "SESSION_KEY", "SIGNING_KEY", "WEBHOOK_URL", "DATABASE_URL", "DB_PASS", "CONN_STR", "CONNECTION_STRING"} {
		if strings.Contains(n, k) {
			return true
		}
	}
	return false
}

// dlShown is the file as the reason shows it: its base name with the
// extension kept (i.exe, not i).
func dlShown(t string) string {
	return path.Base(strings.ReplaceAll(t, "\\", "/"))
}
