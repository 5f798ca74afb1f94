package install

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// How each host starts its hook command on Windows, so the line we write
// must parse back to our paths under that shell's rules:
//   - argv: no shell (ZCode's process hook: command + args; the Amp and
//     opencode plugins spawn HOOK with ARGS);
//   - powershell: Copilot CLI's "powershell" field, the command of Cursor,
//     Gemini CLI and Codex (each runs hooks through PowerShell on Windows),
//     Cline's .ps1 hook file;
//   - bash: Claude Code runs hooks through Git Bash on Windows;
//   - cmd: the rest, whose Windows shell is not documented: Node's
//     spawn(..., {shell: true}) uses cmd.exe, whose quoting is
//     CreateProcess's.
var windowsShell = map[string]string{
	ZCode: "argv", Amp: "argv", OpenCode: "argv",
	Copilot: "powershell", Cursor: "powershell", Gemini: "powershell", Codex: "powershell", Cline: "powershell",
	Claude: "bash",
}

// A user folder with Chinese characters (the first user writes Chinese),
// with and without a space: every host's installed line starts exactly
// our hook and passes exactly our guard path.
func TestInstallWindowsUserFolder(t *testing.T) {
	for _, dir := range []string{`C:\Users\张 三\AppData\Local\agent-guard`, `C:\Users\张三\AppData\Local\agent-guard`} {
		t.Run(filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(dir)))), func(t *testing.T) { installWindowsUserFolder(t, dir) })
	}
}

func installWindowsUserFolder(t *testing.T, dir string) {
	h := Hook{Path: dir + `\agent-guard-hook.exe`, Guard: dir + `\agent-guard.exe`, Timing: TimingFor(120)}
	for _, host := range AllHosts() {
		t.Run(host, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "cfg", "config")
			if _, err := Install(host, path, h, Options{Now: testNow}); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			shell := windowsShell[host]
			if shell == "" {
				shell = "cmd"
				if !strings.Contains(dir, " ") {
					// Not known: the bare line has / (for Git Bash);
					// PowerShell runs it, cmd would not.
					t.Skipf("%s's Windows shell is not documented; its bare line is written for sh and PowerShell", host)
				}
			}
			lines := installedLines(t, host, data)
			if len(lines) == 0 {
				t.Fatalf("no hook line found in:\n%s", data)
			}
			for _, l := range lines {
				var words []string
				var err error
				switch {
				case l.argv != nil:
					words = l.argv
				case shell == "powershell":
					words, err = parsePowerShell(l.line)
				case shell == "bash":
					words, err = parseBash(l.line)
				default:
					words, err = parseCmd(l.line)
				}
				if err != nil {
					t.Errorf("%s would not run %q: %v", shell, l.line, err)
					continue
				}
				checkWords(t, shell, l.line, words, h)
			}
			// Our own reader (doctor, uninstall, the protected paths)
			// finds both paths whole too.
			in, err := Inspect(host, data)
			if err != nil || in == nil {
				t.Fatalf("Inspect: %+v %v", in, err)
			}
			checkWords(t, "Inspect", in.Command+" ...", append([]string{in.Command}, in.Args...), h)
		})
	}
}

type hookLine struct {
	line string   // a command line for the host's shell
	argv []string // or the argv itself (no shell)
}

var (
	kimiLine   = regexp.MustCompile(`(?m)^command = (".*")$`)
	jsHook     = regexp.MustCompile(`(?m)^const HOOK = (.*);$`)
	jsArgs     = regexp.MustCompile(`(?m)^const ARGS = (.*);$`)
	clineLineR = regexp.MustCompile(`(?m)^\s*\[Console\]::In\.ReadToEnd\(\) \| (& .*)$`)
)

// installedLines finds our entries' command lines in an installed file.
func installedLines(t *testing.T, host string, data []byte) []hookLine {
	t.Helper()
	switch host {
	case Kimi:
		var out []hookLine
		for _, m := range kimiLine.FindAllSubmatch(data, -1) {
			var s string
			if err := json.Unmarshal(m[1], &s); err != nil {
				t.Fatal(err)
			}
			out = append(out, hookLine{line: s})
		}
		return out
	case Amp, OpenCode:
		hm, am := jsHook.FindSubmatch(data), jsArgs.FindSubmatch(data)
		if hm == nil || am == nil {
			return nil
		}
		var hook string
		var args []string
		if json.Unmarshal(hm[1], &hook) != nil || json.Unmarshal(am[1], &args) != nil {
			t.Fatalf("HOOK/ARGS are not JSON literals: %s %s", hm[1], am[1])
		}
		return []hookLine{{argv: append([]string{hook}, args...)}}
	case Cline:
		var out []hookLine
		for _, m := range clineLineR.FindAllSubmatch(data, -1) {
			out = append(out, hookLine{line: string(m[1])})
		}
		return out
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatal(err)
	}
	var out []hookLine
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			if ps, ok := v["powershell"].(string); ok && strings.Contains(ps, HookName) {
				out = append(out, hookLine{line: ps})
				return
			}
			if c, ok := v["command"].(string); ok && strings.Contains(c, HookName) {
				if args, ok := v["args"].([]any); ok {
					argv := []string{c}
					for _, a := range args {
						s, _ := a.(string)
						argv = append(argv, s)
					}
					out = append(out, hookLine{argv: argv})
				} else {
					out = append(out, hookLine{line: c})
				}
				return
			}
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// checkWords: the program is our hook and --guard's value our guard. A
// shell that runs a program by name takes / and \ alike, so the two are
// compared as Windows paths.
func checkWords(t *testing.T, shell, line string, words []string, h Hook) {
	t.Helper()
	if len(words) == 0 || filepath.FromSlash(words[0]) != h.Path {
		t.Errorf("%s starts %q from %q, want %q", shell, first(words), line, h.Path)
	}
	guard := ""
	for i, w := range words {
		if w == "--guard" && i+1 < len(words) {
			guard = words[i+1]
		}
	}
	if filepath.FromSlash(guard) != h.Guard {
		t.Errorf("%s passes --guard %q from %q, want %q", shell, guard, line, h.Guard)
	}
}

func first(w []string) string {
	if len(w) == 0 {
		return ""
	}
	return w[0]
}

// parsePowerShell reads a PowerShell command line of the forms a hook
// uses: a bare program path, or & and a quoted one; arguments bare or in
// quotes ('...' with ” for a quote; "..." without $ or `). A quoted
// program without & is a string, not a command: PowerShell refuses the
// line.
func parsePowerShell(s string) ([]string, error) {
	s = strings.TrimSpace(s)
	call := false
	if rest, ok := strings.CutPrefix(s, "& "); ok {
		call, s = true, rest
	}
	words, quoted, err := splitQuoted(s, func(q byte, body string) error {
		if q == '"' && strings.ContainsAny(body, "$`") {
			return errString("a $ or ` inside \"...\" would be expanded")
		}
		return nil
	}, true)
	if err != nil {
		return nil, err
	}
	if len(words) > 0 && quoted[0] && !call {
		return nil, errString("a quoted program needs the call operator &")
	}
	for i, w := range words {
		if !quoted[i] && strings.ContainsAny(w, "'\"$`&|;<>(){}@#,") {
			return nil, errString("a bare word has a PowerShell special character: " + w)
		}
	}
	return words, nil
}

// parseBash reads a sh line: "..." (\ escapes only $ ` " \), '...', and
// bare words in which \ escapes the next character.
func parseBash(s string) ([]string, error) {
	var words []string
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i >= len(s) {
			return words, nil
		}
		var b strings.Builder
		for i < len(s) && s[i] != ' ' && s[i] != '\t' {
			switch c := s[i]; c {
			case '\'':
				j := strings.IndexByte(s[i+1:], '\'')
				if j < 0 {
					return nil, errString("unterminated '")
				}
				b.WriteString(s[i+1 : i+1+j])
				i += j + 2
			case '"':
				i++
				for ; i < len(s) && s[i] != '"'; i++ {
					if s[i] == '$' || s[i] == '`' {
						return nil, errString("$ or ` inside \"...\"")
					}
					if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\", s[i+1]) >= 0 {
						i++
					}
					b.WriteByte(s[i])
				}
				if i >= len(s) {
					return nil, errString("unterminated \"")
				}
				i++
			case '\\':
				if i+1 < len(s) {
					b.WriteByte(s[i+1])
				}
				i += 2
			default:
				if strings.IndexByte("$`&|;<>(){}*?~#", c) >= 0 {
					return nil, errString("a bare sh special character " + string(c))
				}
				b.WriteByte(c)
				i++
			}
		}
		words = append(words, b.String())
	}
}

// parseCmd reads a line cmd.exe passes on to CreateProcess: "..." words
// (no quote inside), bare words without cmd's special characters, and a
// bare program name without / (cmd takes C:/x as the drive C: and a
// switch).
func parseCmd(s string) ([]string, error) {
	words, quoted, err := splitQuoted(s, func(q byte, body string) error {
		if q == '\'' {
			return errString("cmd does not know '...' quoting")
		}
		if strings.Contains(body, "%") {
			return errString("% inside \"...\" is expanded by cmd")
		}
		return nil
	}, false)
	if err != nil {
		return nil, err
	}
	for i, w := range words {
		if !quoted[i] && strings.ContainsAny(w, "&|<>^%()\"") {
			return nil, errString("a bare word has a cmd special character: " + w)
		}
	}
	if len(words) > 0 && !quoted[0] && strings.Contains(words[0], "/") {
		return nil, errString("cmd reads / in a bare program path as a switch: " + words[0])
	}
	return words, nil
}

// splitQuoted splits s into words that are each wholly quoted ("..." or,
// when single, '...' with ” doubling) or bare.
func splitQuoted(s string, check func(q byte, body string) error, single bool) ([]string, []bool, error) {
	var words []string
	var quoted []bool
	i := 0
	for {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i >= len(s) {
			return words, quoted, nil
		}
		q := s[i]
		if q == '"' || q == '\'' {
			var b strings.Builder
			j := i + 1
			for ; j < len(s); j++ {
				if s[j] == q {
					if q == '\'' && single && j+1 < len(s) && s[j+1] == '\'' {
						b.WriteByte(q)
						j++
						continue
					}
					break
				}
				b.WriteByte(s[j])
			}
			if j >= len(s) {
				return nil, nil, errString("unterminated quote")
			}
			if err := check(q, b.String()); err != nil {
				return nil, nil, err
			}
			if j+1 < len(s) && s[j+1] != ' ' && s[j+1] != '\t' {
				return nil, nil, errString("text right after a closing quote")
			}
			words, quoted = append(words, b.String()), append(quoted, true)
			i = j + 1
			continue
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		words, quoted = append(words, s[i:j]), append(quoted, false)
		i = j
	}
}

type errString string

func (e errString) Error() string { return string(e) }
