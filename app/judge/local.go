package judge

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// local is the rules' judgment of one call (self-protection included);
// a is the Bash command's analysis (see analyze).
func (j *Judge) local(s State, a *shell.Analysis) rules.Finding {
	home := j.opts.Home
	switch {
	case s.Tool == "Bash":
		if m := j.machine(s); m != nil {
			return rules.BashAnalysisOn(a, s.Command, s.Cwd, home, m)
		}
		return bashRule(a, s.Command, s.Cwd, home)
	case s.Server != "" || strings.HasPrefix(s.Tool, "mcp__"):
		f := rules.MCPAt(s.Server, s.MCPTool, s.Args, s.Cwd, home, j.cfg.Load().MCPOverrides)
		if f.Rule == "mcp.write-file" {
			// Judged like Write by its path: its content too, when the
			// file is one whose commands run later (a CI workflow, a
			// Dockerfile, a hook, editor tasks).
			if w, ok := mcpAsWrite(s); ok {
				if c, ok := scriptContent(w); ok {
					f = rules.Worst(f, contentFinding(c, w, home))
				}
				if g, ok := ciWhole(w); ok {
					f = rules.Worst(f, g)
				}
			}
		}
		return f
	}
	if f, ok := rules.EnvPersistWrite(s.FilePath, s.Content, s.Cwd, home); ok {
		return f
	}
	f := rules.WritePath(s.FilePath, s.Cwd, home) // self-protection first
	if rules.SelfFinding(f) {
		return f
	}
	if g, ok := rules.WriteSecretOut(s.FilePath, s.Content); ok {
		return g
	}
	if g, ok := rules.WriteTransport(s.FilePath, writtenText(s)); ok {
		f = rules.Worst(f, g) // certificate checks off for every later install (tlswrite.go)
	}
	if m := j.machine(s); m != nil && s.Tool == "Write" {
		if g, ok := rules.WriteOn(s.FilePath, s.Cwd, home, s.Content == "", m); ok {
			f = rules.Worst(f, g)
		}
	}
	if c, ok := scriptContent(s); ok {
		f = rules.Worst(f, contentFinding(c, s, home))
	}
	if g, ok := ciWhole(s); ok {
		f = rules.Worst(f, g)
	}
	return f
}

// ciWhole judges what a workflow does as a whole rather than step by
// step: a pull request's own code checked out under pull_request_target
// (the "pwn request"), every secret dumped at once (toJSON(secrets)).
func ciWhole(s State) (rules.Finding, bool) {
	if !ciFile(s.FilePath) {
		return rules.Finding{}, false
	}
	text := writtenText(s)
	if w := ciPwnRequest(text); w != "" {
		return rules.Finding{Risk: 2, Violation: 0.45, Rule: "write.script-danger", Marked: w,
			Reason: "writes a workflow (" + s.FilePath + ") that checks out and runs a pull request's own code under pull_request_target, with the repository's secrets and a write token: whoever opens a pull request runs code there"}, true
	}
	if strings.Contains(strings.ToLower(text), "tojson(secrets)") {
		return rules.Finding{Risk: 2, Violation: 0.45, Rule: "write.script-danger", Marked: "toJSON(secrets)",
			Reason: "writes a workflow (" + s.FilePath + ") that puts every secret of the repository (toJSON(secrets)) into one value: no step needs them all"}, true
	}
	return rules.Finding{}, false
}

// mcpAsWrite reads an MCP file-system write (write_file {path, content},
// edit_file {path, edits: [{oldText, newText}]}) as the Write or Edit it
// is: the file and the text it puts there.
func mcpAsWrite(s State) (State, bool) {
	var in map[string]any
	if json.Unmarshal([]byte(s.Args), &in) != nil {
		return State{}, false
	}
	w := State{Tool: "Write", Cwd: s.Cwd}
	for _, k := range []string{"path", "file_path", "filePath", "filename", "file", "pathInProject", "relative_path", "relativePath"} {
		if v, ok := in[k].(string); ok && v != "" {
			w.FilePath = v
			break
		}
	}
	var parts []string
	for _, k := range []string{"content", "text", "new_string", "newText", "new_str"} {
		if v, ok := in[k].(string); ok && v != "" {
			parts = append(parts, v)
		}
	}
	if edits, ok := in["edits"].([]any); ok {
		w.Tool = "Edit"
		for _, e := range edits {
			if m, ok := e.(map[string]any); ok {
				for _, k := range []string{"newText", "new_string", "newString", "new_str", "text"} {
					if v, ok := m[k].(string); ok && v != "" {
						parts = append(parts, v)
					}
				}
			}
		}
	}
	if w.FilePath == "" || len(parts) == 0 {
		return State{}, false
	}
	w.Content = strings.Join(parts, "\n")
	return w, true
}

// pyAuto: Python files that run on their own (setup.py by pip install,
// conftest.py by pytest).
func pyAuto(p string) bool {
	base := path.Base(strings.ToLower(strings.ReplaceAll(p, "\\", "/")))
	return base == "setup.py" || base == "conftest.py"
}

// manifestTasks returns the commands of composer.json's "scripts" (a
// string or a list each) and deno.json's "tasks" (a string or
// {"command": ...}); a fragment (an Edit) falls back to its quoted values.
func manifestTasks(content string) string {
	var m struct {
		Scripts map[string]any `json:"scripts"`
		Tasks   map[string]any `json:"tasks"`
	}
	if json.Unmarshal([]byte(content), &m) != nil {
		return packageScripts(content)
	}
	var out []string
	add := func(v any) {
		switch v := v.(type) {
		case string:
			out = append(out, v)
		case []any:
			for _, e := range v {
				if s, ok := e.(string); ok {
					out = append(out, s)
				}
			}
		case map[string]any:
			if s, ok := v["command"].(string); ok {
				out = append(out, s)
			}
		}
	}
	for _, v := range m.Scripts {
		add(v)
	}
	for _, v := range m.Tasks {
		add(v)
	}
	return strings.Join(out, "\n")
}

// writtenText is the text a Write or Edit puts into the file (a
// MultiEdit's new strings joined).
func writtenText(s State) string {
	if s.Tool == "MultiEdit" {
		return multiEditText(s.Content)
	}
	return s.Content
}

// scriptContent returns the shell code a Write/Edit puts into a file that
// is run later (shell scripts, Makefile recipes, package.json scripts,
// notebook shell lines, files with a shebang). Writing a dangerous
// command into deploy.sh and then running ./deploy.sh would otherwise slip
// past the Bash rules ("tool switching").
func scriptContent(s State) (string, bool) {
	content := s.Content
	if s.Tool == "MultiEdit" {
		content = multiEditText(content)
	}
	if strings.TrimSpace(content) == "" {
		return "", false
	}
	low := strings.ToLower(strings.ReplaceAll(s.FilePath, "\\", "/"))
	base := path.Base(low)
	ext := path.Ext(base)
	switch {
	case ext == ".sh" || ext == ".bash" || ext == ".zsh" || ext == ".ksh" || ext == ".command" ||
		strings.HasPrefix(content, "#!") && !strings.HasPrefix(content, "#![") ||
		strings.Contains(low, "/.git/hooks/") || strings.HasPrefix(low, ".git/hooks/") || strings.Contains(low, ".husky/") ||
		base == ".envrc": // direnv runs it on entering the folder
		return content, true
	case ciFile(s.FilePath):
		return ciScripts(content), true // judged by ciWorth in contentFinding
	case base == ".pre-commit-config.yaml" || base == ".pre-commit-config.yml" || base == "lefthook.yml" || base == ".lefthook.yml":
		return hookEntries(content), true // run by git commit on this machine
	case composeFile(base):
		if line := composeReach(content); line != "" {
			return line, true
		}
		return "", false
	case pyAuto(low):
		// pip install and pytest run these on their own: judged as the
		// Python they are, fed to python3.
		return "python3 <<'AGENT_GUARD_PY'\n" + strings.TrimRight(content, "\n") + "\nAGENT_GUARD_PY", true
	case dockerFile(base):
		// Judged by ciWorth too (a build container): only a secret
		// leaving counts, and a RUN line that names no variable and no
		// secret file's word (apt-get, rm -rf /var/cache/apk/*) has none.
		if runs := dockerRuns(content); strings.Contains(runs, "$") || rules.MaybeSecret(runs) {
			return runs, true
		}
		return "", false
	case ext == ".ps1" || ext == ".psm1" || ext == ".bat" || ext == ".cmd":
		return lineByLine(content, ""), true
	case base == "makefile" || base == "gnumakefile" || ext == ".mk":
		return recipes(content, false), true
	case base == "justfile" || base == ".justfile":
		return recipes(content, true), true // just takes recipes indented with spaces too
	case base == "package.json":
		return packageScripts(content), true
	case base == "composer.json" || base == "deno.json" || base == "deno.jsonc":
		return manifestTasks(content), true // composer's scripts run on install, deno's tasks by name
	case base == "taskfile.yml" || base == "taskfile.yaml" || base == "taskfile.dist.yml":
		return yamlCommands(content, "cmds", "cmd"), true
	case runsCommands(low):
		return configCommands(content), true
	case editorSettings(low):
		return settingsCommands(content), true
	case ext == ".ipynb" || s.Tool == "NotebookEdit":
		return lineByLine(content, "!"), true
	case interpSource(ext) != "" && len(content) <= 32<<10 && rules.MayNameGuard(content):
		// a program run later by hand, a skill, a test: only what it would
		// do to the guard is judged (contentFinding keeps self findings)
		return interpSource(ext) + " <<'AGENT_GUARD_SRC'\n" + strings.TrimRight(content, "\n") + "\nAGENT_GUARD_SRC", true
	}
	return "", false
}

// interpSource is the interpreter of a source file by its extension, ""
// for none: its code is read like that interpreter's -c code.
func interpSource(ext string) string {
	switch ext {
	case ".py", ".pyw":
		return "python3"
	case ".js", ".mjs", ".cjs", ".ts", ".mts", ".cts":
		return "node"
	case ".rb":
		return "ruby"
	case ".pl", ".pm":
		return "perl"
	case ".php":
		return "php"
	case ".lua":
		return "lua"
	}
	return ""
}

// contentFinding judges script content with the Bash rules and caps the
// result at confirm: the write itself harms nothing, running it would.
func contentFinding(code string, s State, home string) rules.Finding {
	if strings.TrimSpace(code) == "" {
		return rules.Finding{}
	}
	if len(code) > shell.MaxInput {
		// The shell reader stops at MaxInput: what lies beyond is unread.
		return rules.Finding{Risk: 2, Violation: 0.3, Rule: "write.script-too-large", Marked: s.FilePath,
			Reason: fmt.Sprintf("writes a script (%s) of %d KB, more than the %d KB the guard reads whole: what it would run cannot all be judged", s.FilePath, len(code)>>10, shell.MaxInput>>10)}
	}
	an := shell.Analyze(code)
	b := bashRule(&an, code, s.Cwd, home)
	if !(b.RedLine || rules.SelfRule(b.Rule) || !b.Uncertain && (b.Risk >= 2 || b.Violation >= 0.5)) {
		return rules.Finding{}
	}
	if interpSource(path.Ext(strings.ToLower(s.FilePath))) != "" && !pyAuto(s.FilePath) && !rules.SelfRule(b.Rule) {
		return rules.Finding{} // a program's own deletes and spawns are its business until it runs
	}
	if pyAuto(s.FilePath) && !(b.RedLine || b.Violation >= 0.5) {
		return rules.Finding{} // setup code may spawn git or clean its temp folders
	}
	if ci := ciFile(s.FilePath); (ci || dockerFile(path.Base(strings.ToLower(strings.ReplaceAll(s.FilePath, "\\", "/"))))) && !ciWorth(b, ci) {
		return rules.Finding{}
	}
	if rules.SelfRule(b.Rule) {
		// A script that would switch the guard off is the same red line
		// as the command: it is written to be run in a later call, where
		// a script's content may no longer be read (a task runner, an
		// IDE, a relative path the agent renames first).
		b.Reason = "writes a script (" + s.FilePath + ") that would, when run: " + b.Reason
		if code != s.Content || b.End <= 0 {
			b.Start, b.End = 0, 0
			if k := strings.Index(s.Content, b.Marked); b.Marked != "" && k >= 0 {
				b.Start, b.End = k, k+len(b.Marked)
			}
		}
		return b
	}
	f := rules.Finding{
		Risk: 2, Violation: min(b.Violation, 0.45), Rule: "write.script-danger", Marked: b.Marked,
		Reason: "writes a script (" + s.FilePath + ") that would run a dangerous command when executed: " + b.Reason,
	}
	// The span is into code; it is the content's own offsets only when
	// the code is the content (a script), else find the marked text.
	switch {
	case code == s.Content && b.End > 0:
		f.Start, f.End = b.Start, b.End
	case b.Marked != "":
		if k := strings.Index(s.Content, b.Marked); k >= 0 {
			f.Start, f.End = k, k+len(b.Marked)
		}
	}
	return f
}

// lineByLine keeps lines (optionally only those starting with prefix,
// which is cut) and joins them with newlines so each line is one command
// and a line the bash parser cannot read does not hide the others.
func lineByLine(content, prefix string) string {
	var out []string
	for _, l := range strings.Split(content, "\n") {
		l = strings.TrimSpace(l)
		if prefix != "" {
			// notebook JSON lines look like: "!rm -rf x\n",
			l = strings.Trim(l, `",`)
			l = strings.TrimSuffix(l, `\n`)
			if !strings.HasPrefix(l, prefix) {
				continue
			}
			l = strings.TrimPrefix(l, prefix)
		}
		if l == "" || strings.HasPrefix(l, "#") || strings.HasPrefix(strings.ToLower(l), "rem ") || strings.HasPrefix(l, "::") {
			continue
		}
		out = append(out, l)
	}
	return strings.Join(out, "\n")
}

// recipes returns a Makefile's recipe lines (tab-indented; a justfile's
// also space-indented), without the @ and - prefixes make strips.
func recipes(content string, spaces bool) string {
	var out []string
	for _, l := range strings.Split(content, "\n") {
		if !strings.HasPrefix(l, "\t") && !(spaces && strings.HasPrefix(l, " ")) {
			continue
		}
		l = strings.TrimLeft(strings.TrimSpace(l), "@-+")
		if l != "" {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// packageScripts returns npm's scripts, one per line. A truncated file
// (2 KB prefix) falls back to the text after "scripts".
func packageScripts(content string) string {
	var p struct {
		Scripts map[string]string `json:"scripts"`
	}
	if json.Unmarshal([]byte(content), &p) == nil {
		var out []string
		for _, v := range p.Scripts {
			out = append(out, v)
		}
		return strings.Join(out, "\n")
	}
	i := strings.Index(content, `"scripts"`)
	if i < 0 {
		return fragmentValues(content)
	}
	rest := content[i:]
	if k := strings.Index(rest, "}"); k >= 0 {
		rest = rest[:k+1]
	}
	var out []string
	for _, l := range strings.Split(rest, "\n") {
		_, v, ok := strings.Cut(l, `":`)
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal([]byte(strings.TrimSuffix(strings.TrimSpace(v), ",")), &s) == nil {
			out = append(out, s)
		}
	}
	return strings.Join(out, "\n")
}

// multiEditText joins the new_string of every edit in a MultiEdit.
func multiEditText(raw string) string {
	var edits []struct {
		New  string `json:"new_string"`
		NewC string `json:"newString"`
	}
	if json.Unmarshal([]byte(raw), &edits) != nil {
		return ""
	}
	var out []string
	for _, e := range edits {
		out = append(out, e.New+e.NewC)
	}
	return strings.Join(out, "\n")
}
