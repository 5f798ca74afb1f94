package rules

import (
	"encoding/json"
	"path"
	"strings"
)

// An MCP file-system write (filesystem write_file, edit_file,
// create_directory) is a Write by another name: judged by the same path
// rules, so writing src/config/defaults.json is allowed as it is through
// the Write tool. Scripts and recipes, whose content runs later, keep the
// generic MCP judgment (confirm), as does anything the path rules flag.

var mcpFileTools = map[string]bool{"write_file": true, "edit_file": true, "create_file": true, "create_directory": true,
	"write": true, "edit": true, "str_replace": true, "insert": true, "append_file": true, "write_text_file": true, "make_directory": true, "mkdir": true,
	// Desktop Commander, JetBrains' and Serena's file tools
	"edit_block": true, "create_new_file_with_text": true, "replace_file_text_by_path": true, "create_text_file": true}

var mcpPathKeys = []string{"path", "file_path", "filePath", "filename", "file", "pathInProject", "relative_path", "relativePath"}

func mcpFileWrite(tool, args, cwd, home string) (Finding, bool) {
	if !mcpFileTools[strings.ToLower(tool)] {
		return Finding{}, false
	}
	var in map[string]any
	if json.Unmarshal([]byte(args), &in) != nil {
		return Finding{}, false
	}
	p := ""
	for _, k := range mcpPathKeys {
		if v, ok := in[k].(string); ok && v != "" {
			p = v
			break
		}
	}
	if p == "" || cwd == "" && !strings.HasPrefix(p, "/") {
		return Finding{}, false
	}
	for k := range in {
		if k == "edits" || k == "content" || k == "text" || k == "new_string" || k == "old_string" || k == "dryRun" || k == "dry_run" || k == "expected_replacements" {
			continue
		}
		for _, pk := range mcpPathKeys {
			if k == pk {
				goto ok
			}
		}
		return Finding{}, false // another target (a move's source, a second path): the generic rules
	ok:
	}
	low := strings.ToLower(path.Base(strings.ReplaceAll(p, "\\", "/")))
	switch ext := path.Ext(low); {
	case ext == ".sh" || ext == ".bash" || ext == ".ps1" || ext == ".bat" || ext == ".cmd" || ext == ".zsh",
		low == "makefile" || low == "package.json" || low == "justfile" || low == "conftest.py" || low == "setup.py" || low == "build.rs",
		strings.Contains(strings.ReplaceAll(p, "\\", "/"), ".git/hooks/"):
		return Finding{}, false
	}
	if f, ok := WriteSecretOut(p, args); ok {
		return f, true
	}
	if f, ok := EnvPersistWrite(p, args, cwd, home); ok {
		return f, true // hooks switched off, or a variable the guard reads, for later sessions
	}
	f := WritePath(p, cwd, home)
	if f.RedLine || f.Risk >= 1.5 || f.Violation >= 0.5 || SelfFinding(f) {
		return f, true
	}
	f.Rule, f.Reason = "mcp.write-file", "an MCP file-system write, judged like Write: "+f.Reason
	f.Uncertain = false
	return f, true
}
