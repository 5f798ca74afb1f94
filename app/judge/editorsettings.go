package judge

import (
	"encoding/json"
	"path"
	"strings"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
)

// Editor settings that run programs on their own: VS Code's (and Cursor's,
// VSCodium's) settings.json and .code-workspace files name a terminal
// shell and its arguments, interpreters, linters' and language servers'
// commands, run-on-save commands. A Write of one is judged by the commands
// it puts there, like tasks.json: "terminal.integrated.shellArgs.linux":
// ["-c", "curl ... | sh"] runs the download in every new terminal.

// settingsRunKeys: the last segment of a settings key (lower case) whose
// value is a program, its arguments or a command line.
var settingsRunKeys = map[string]bool{
	"shellargs": true, "args": true, "overridecommand": true, "cmd": true, "command": true, "commands": true,
	"executormap": true, "shell": true, "profiles": true, "automationprofile": true, "executablepath": true,
	"interpreterpath": true, "defaultinterpreterpath": true, "path": true, "runtime": true, "alternatetools": true,
}

// settingsRunKey: a segment of the dotted key names what runs
// ("terminal.integrated.shellArgs.osx", "rust-analyzer.server.path";
// "path" only as the last segment).
func settingsRunKey(k string) bool {
	segs := strings.Split(strings.ToLower(k), ".")
	for i, s := range segs {
		if settingsRunKeys[s] && (s != "path" || i == len(segs)-1) {
			return true
		}
	}
	return false
}

func editorSettings(lowPath string) bool {
	base := path.Base(lowPath)
	if path.Ext(base) == ".code-workspace" {
		return true
	}
	if base != "settings.json" {
		return false
	}
	for _, dir := range []string{".vscode/", ".cursor/", "/code/user/", "/code - insiders/user/", "/cursor/user/", "/vscodium/user/", "/windsurf/user/"} {
		if strings.Contains("/"+lowPath, dir) || strings.HasPrefix(lowPath, strings.TrimPrefix(dir, "/")) {
			return true
		}
	}
	return false
}

// jsoncComment and jsoncComma let settings files (JSON with comments and
// trailing commas) decode.
var (
	jsoncComment = lazyre.New(`(?m)("(?:[^"\\]|\\.)*")|//[^\n]*|/\*(?s:.*?)\*/`)
	jsoncComma   = lazyre.New(`,(\s*[}\]])`)
)

// settingsCommands returns the command lines a settings file holds, one a
// line. Content that does not decode (an Edit's fragment) is read pair by
// pair like a package.json fragment.
func settingsCommands(content string) string {
	clean := jsoncComment.Re().ReplaceAllStringFunc(content, func(m string) string {
		if strings.HasPrefix(m, `"`) {
			return m
		}
		return ""
	})
	clean = jsoncComma.ReplaceAllString(clean, "$1")
	var v any
	if json.Unmarshal([]byte(clean), &v) != nil {
		// An Edit's new lines: "key": value pairs without their braces.
		if json.Unmarshal([]byte("{"+strings.Trim(clean, " \t\r\n,")+"}"), &v) != nil {
			return fragmentValues(content)
		}
	}
	var out []string
	var walk func(v any, runs bool)
	walk = func(v any, runs bool) {
		switch v := v.(type) {
		case map[string]any:
			for k, e := range v {
				walk(e, runs || settingsRunKey(k))
			}
		case []any:
			var words []string
			for _, e := range v {
				s, ok := e.(string)
				if !ok {
					walk(e, runs)
					continue
				}
				words = append(words, s)
			}
			if runs && len(words) > 0 {
				out = append(out, argvLine(words))
			}
		case string:
			if runs && strings.TrimSpace(v) != "" {
				out = append(out, v)
			}
		}
	}
	walk(v, false)
	return strings.Join(out, "\n")
}

// argvLine: an argument list as a command line; the code after a shell's
// -c (or cmd's /c, PowerShell's -Command) is a line of its own.
func argvLine(words []string) string {
	for i, w := range words {
		switch strings.ToLower(w) {
		case "-c", "/c", "/k", "-command", "-lc", "-ic":
			if i+1 < len(words) {
				return strings.Join(words[i+1:], " ")
			}
		}
	}
	return strings.Join(words, " ")
}
