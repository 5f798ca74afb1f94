package rules

import (
	"encoding/json"
	"path"
	"strconv"
	"strings"
)

// Self-protection for MCP calls, whatever the server calls its arguments:
// the generic MCP rules know a fixed list of path keys (path, file_path,
// ...), so {"pathInProject": "../.claude/settings.json"} or a file:// URL
// in "path" slipped past them. Here every string value of a tool that may
// change something is read as a path when it looks like one, and a tool
// that kills or stops something is read for the guard's name.

// mcpTextKeys hold file content or edit text, not a target: a path
// written into a file is data.
var mcpTextKeys = words(`content contents text new_string old_string newtext oldtext new_text old_text edits body
	data value replacement needle repl pattern message description comment title`)

// mcpKillWords in a tool's name make it one that stops processes.
var mcpKillWords = words(`kill killall pkill terminate stop signal end suspend`)

// mcpSelf reports a self-protection finding for an MCP call: a mutating
// tool that names a protected path in any argument, or a tool that stops
// processes named like the guard.
func mcpSelf(server, tool, args, cwd, home string, mutating bool) (Finding, bool) {
	if strings.TrimSpace(args) == "" {
		return Finding{}, false
	}
	var m map[string]any
	if json.Unmarshal([]byte(args), &m) != nil {
		m = partialObject(args)
	}
	kills, runs := false, false
	for _, w := range splitName(tool) {
		kills = kills || mcpKillWords.Has(w)
		runs = runs || mcpRunWords.Has(w) || execVerbs.Has(w)
	}
	fileTool := mcpFileTools[strings.ToLower(tool)]
	if mutating {
		if f, ok := mcpSelfCode(server, tool, runs, m, cwd, home); ok {
			return f, true
		}
		if !fileTool {
			if _, ok := guardEnvAssigned(args); ok && strings.Contains(strings.ToLower(args), "agent_guard_") {
				// registry_set HKCU\Environment AGENT_GUARD_HOME, set_env ...
				return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.env-persist", Marked: tool,
					Reason: "the MCP tool mcp__" + server + "__" + tool + " sets an AGENT_GUARD_* variable: the guard's next start would run with another config or none; ask the user to do it"}, true
			}
		}
	}
	if mutating {
		if f, ok := mcpExtractInto(server, tool, m, cwd, home); ok {
			return f, true
		}
	}
	var out Finding
	found := false
	if kills {
		// {"pid": 1234}: the guard's process by number
		for _, k := range []string{"pid", "processId", "process_id", "id"} {
			if n, ok := m[k].(float64); ok && n > 0 && n == float64(int(n)) {
				if what, ok := setFor(cwd, home).GuardPID(int(n)); ok {
					return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.kill-guard", Marked: k,
						Reason: "the MCP tool mcp__" + server + "__" + tool + " stops process " + strconv.Itoa(int(n)) + ", which is agent-guard itself (" + what + "): an agent must not switch off its own guard; ask the user to do it"}, true
				}
			}
		}
	}
	walkStrings(m, "", 0, func(key, v string) {
		if found {
			return
		}
		k, _, _ := strings.Cut(strings.ToLower(key), "\x00")
		if kills && guardWord(v) && !mcpTextKeys.Has(k) {
			out, found = Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.kill-guard", Marked: v,
				Reason: "the MCP tool mcp__" + server + "__" + tool + " stops " + v + ", the agent's own guard: an agent must not switch off its own guard; ask the user to do it"}, true
			return
		}
		if !mutating || mcpTextKeys.Has(k) || cmdKeys.Has(k) {
			return
		}
		p, ok := mcpPathLike(v)
		base := strings.ToLower(path.Base(slashify(p)))
		if !ok || pathKeys.Has(k) && p == v && !mcpScriptName(base) {
			// the generic rules judge a path under a known key (a
			// file:// URL they do not read); a non-file tool's edit of
			// a dotfile or script still comes here for its content
			return
		}
		if f, ok := Protected(p, cwd, home); ok {
			f.Reason = "the MCP tool mcp__" + server + "__" + tool + " names " + v + " (argument " + key + "): " + f.Reason
			f.Marked = v
			out, found = f, true
			return
		}
		// an edit or append to a start-up file, task runner or script
		// that runs later: its arguments are its new content
		if !mcpScriptName(base) {
			return
		}
		if f, ok := EnvPersistWrite(p, args, cwd, home); ok {
			f.Reason = "the MCP tool mcp__" + server + "__" + tool + ": " + f.Reason
			out, found = f, true
		}
	})
	return out, found
}

// mcpRunWords in a tool's name (beyond the exec verbs) make it one that
// runs or types what it is given.
var mcpRunWords = words(`eval evaluate send type keys keystrokes cell python node javascript repl interpret code script`)

// mcpCodeKeys carry code or keystrokes for a tool that runs them.
var mcpCodeKeys = words(`code source snippet cell keys text input stdin expression program_text script`)

// mcpSelfCode: a tool that runs something, given it under a key the
// generic rules do not read as a command (argv arrays, program plus
// arguments, code for an interpreter, keys sent to a terminal): judged
// as that command line, and as interpreter code, for self-protection.
func mcpSelfCode(server, tool string, runs bool, m map[string]any, cwd, home string) (Finding, bool) {
	var codes []string
	line := func(prog string, list []any) string {
		words := []string{prog}
		for _, a := range list {
			if s, ok := a.(string); ok {
				words = append(words, s)
			}
		}
		return strings.TrimSpace(shellJoin(words))
	}
	for _, k := range []string{"argv", "cmdline", "command_line"} {
		if list, ok := m[k].([]any); ok && len(list) > 0 {
			if p, ok := list[0].(string); ok {
				codes = append(codes, line(p, list[1:]))
			}
		}
	}
	for _, k := range []string{"program", "executable", "exe", "binary", "file"} {
		p, ok := m[k].(string)
		if !ok || p == "" {
			continue
		}
		for _, ak := range []string{"arguments", "args", "argv", "params"} {
			if list, ok := m[ak].([]any); ok {
				codes = append(codes, line(p, list))
			} else if a, ok := m[ak].(string); ok {
				codes = append(codes, p+" "+a)
			}
		}
	}
	walkStrings(m, "", 0, func(key, v string) {
		k, _, _ := strings.Cut(strings.ToLower(key), "\x00")
		if runs && mcpCodeKeys.Has(k) && len(v) < 8192 {
			c := strings.TrimPrefix(strings.TrimSpace(v), "!")                // a notebook's shell escape
			codes = append(codes, shellJoin([]string{"python3", "-c", v}), c) // code first, then as a command line
		}
	})
	if f, code, ok := selfInCode(codes, cwd, home, 16384); ok {
		f.Reason = "the MCP tool mcp__" + server + "__" + tool + " runs " + oneLineCut(code, 80) + ": " + f.Reason
		return f, true
	}
	return Finding{}, false
}

// mcpPathLike: the value read as a path when it looks like one (a
// file:// URL's path, a name with a separator, ~ or a variable), else
// false. One line, no spaces around, short: prose is not a path.
func mcpPathLike(v string) (string, bool) {
	v = strings.TrimSpace(v)
	if i := strings.IndexByte(v, 0); i >= 0 {
		v = v[:i] // the OS reads a path up to its NUL, or refuses it
	}
	if v == "" || len(v) > 1024 || strings.ContainsAny(v, "\n\r") {
		return "", false
	}
	if p, ok := fileURLPath(v); ok {
		return p, p != ""
	}
	if strings.Contains(v, "://") || !strings.ContainsAny(v, `/\~$%`) {
		return "", false
	}
	return v, true
}

// mcpScriptName: files mcpFileWrite leaves to the generic rules because
// their content runs later (scripts, recipes, package scripts); their
// content is read here for self-protection.
func mcpScriptName(base string) bool {
	switch path.Ext(base) {
	case ".sh", ".bash", ".zsh", ".ps1", ".bat", ".cmd", ".mk":
		return true
	}
	switch base {
	case "makefile", "gnumakefile", "justfile", "package.json", "conftest.py", "setup.py", "build.rs", "tasks.json", "taskfile.yml":
		return true
	}
	return strings.HasPrefix(base, ".") // a dotfile: start-up files, .envrc, .gitconfig
}

// mcpUnpackWords in a tool's name make it one that writes content it
// carries (an archive, a backup, a remote tree) into a folder.
var mcpUnpackWords = words(`extract unzip untar unpack decompress unarchive restore sync expand`)

// mcpDestKeys name the folder such a tool writes into.
var mcpDestKeys = words(`destination dest target target_dir targetdir output output_dir outdir out_dir outputdir to directory dir extract_to extractto destination_path destinationpath dest_dir destdir`)

// mcpExtractInto: an MCP tool that unpacks, restores or syncs into a
// folder that holds the guard's files or a host's hook config (the home,
// ~/.config, ~/.claude): what it writes cannot be seen, as tar -C ~
// (self.extract-into).
func mcpExtractInto(server, tool string, m map[string]any, cwd, home string) (Finding, bool) {
	unpack := false
	for _, w := range splitName(tool) {
		unpack = unpack || mcpUnpackWords.Has(w)
	}
	if !unpack {
		return Finding{}, false
	}
	for k, v := range m {
		d, ok := v.(string)
		if !ok || !mcpDestKeys.Has(strings.ToLower(strings.ReplaceAll(k, "-", "_"))) {
			continue
		}
		if f, ok := Protected(d, cwd, home); ok {
			return f, true
		}
		n := normalize(d, cwd, home)
		if n.dynamic || !n.homeKnown {
			continue
		}
		if h := anyHomeOf(n.low); h != "" && h != n.lowHome {
			// C:\Users\张伟\AppData\Roaming: the machine's user's home
			// named by its literal path, mapped onto the judge's
			n = normalize(strings.TrimRight(home, "/")+n.low[len(h):], cwd, home)
		}
		dir := strings.TrimRight(n.low, "/")
		for _, e := range setFor(cwd, home).Under(n.abs) {
			el := strings.ToLower(e.Path)
			if !presumed(e) || !(dir == strings.TrimRight(n.lowHome, "/") || path.Dir(el) == dir || path.Dir(path.Dir(el)) == dir) {
				continue
			}
			return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.extract-into", Marked: d,
				Reason: "the MCP tool mcp__" + server + "__" + tool + " writes what it carries into " + d + ", where the agent's own guard keeps " + e.Path + " (" + string(e.Kind) + "): it may carry an older or emptied copy; ask the user to do it"}, true
		}
	}
	return Finding{}, false
}
