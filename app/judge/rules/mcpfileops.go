package rules

import (
	"encoding/json"
	"strings"
)

// An MCP file-system delete or move (filesystem move_file, a server's
// delete_file or remove_directory) is rm or mv by another name: judged by
// the same path rules, so deleting a scratch file of the project is
// everyday while deleting the home is the red line rm -rf ~ is. The tool's
// verb alone (mcp.delete, mcp.mutating) confirmed both.

// mcpFileOps: tool name (lower case) -> the shell program it stands for.
// A delete is read as rm -rf: a tool's "recursive" flag or a folder
// cannot be told from its name.
var mcpFileOps = map[string]string{
	"delete_file": "rm", "remove_file": "rm", "delete_directory": "rm", "remove_directory": "rm",
	"delete_path": "rm", "delete_folder": "rm", "remove_folder": "rm", "delete": "rm", "remove": "rm",
	"rm": "rm", "rmdir": "rm", "unlink": "rm", "delete_files": "rm", "remove_files": "rm",
	"move_file": "mv", "rename_file": "mv", "move": "mv", "rename": "mv", "move_path": "mv",
	"move_directory": "mv", "rename_path": "mv", "copy_file": "cp", "copy": "cp", "copy_path": "cp",
	"copy_directory": "cp",
}

// Keys naming the target(s), in the order a move reads them, and the
// flags that may come with them; any other key means the tool does more
// than this reading knows, and the generic MCP judgment stays.
var (
	mcpOpSources = []string{"source", "src", "from", "old_path", "oldPath", "sourcePath", "source_path", "path", "file_path", "filePath", "paths", "files"}
	mcpOpDests   = []string{"destination", "dest", "dst", "to", "new_path", "newPath", "destinationPath", "destination_path", "target"}
	mcpOpFlags   = map[string]bool{"recursive": true, "force": true, "overwrite": true, "dryRun": true, "dry_run": true}
)

func mcpFileOp(tool, args, cwd, home string) (Finding, bool) {
	prog, ok := mcpFileOps[strings.ToLower(tool)]
	if !ok {
		return Finding{}, false
	}
	var in map[string]any
	if json.Unmarshal([]byte(args), &in) != nil {
		return Finding{}, false
	}
	var srcs, dsts []string
	known := map[string]bool{}
	collect := func(keys []string, into *[]string) {
		for _, k := range keys {
			known[k] = true
			switch v := in[k].(type) {
			case string:
				*into = append(*into, v)
			case []any:
				for _, e := range v {
					if s, ok := e.(string); ok {
						*into = append(*into, s)
					}
				}
			}
		}
	}
	collect(mcpOpSources, &srcs)
	collect(mcpOpDests, &dsts)
	for k := range in {
		if !known[k] && !mcpOpFlags[k] {
			return Finding{}, false
		}
	}
	for _, p := range append(append([]string{}, srcs...), dsts...) {
		if p == "" || cwd == "" && !isAbs(slashify(p)) {
			return Finding{}, false
		}
	}
	line := ""
	switch {
	case prog == "rm" && len(srcs) > 0 && len(dsts) == 0:
		line = "rm -rf --"
		for _, s := range srcs {
			line += " " + shellQuote(s)
		}
	case prog != "rm" && len(srcs) == 1 && len(dsts) == 1:
		line = prog + " -r -- " + shellQuote(srcs[0]) + " " + shellQuote(dsts[0])
		if prog == "mv" {
			line = "mv -- " + shellQuote(srcs[0]) + " " + shellQuote(dsts[0])
		}
	default:
		return Finding{}, false
	}
	return mcpAsLine(line, cwd, home, "an MCP file-system "+prog+", judged like the shell's: ", "mcp.file-op", false)
}

// mcpAsLine judges an MCP call as the shell line it stands for, run in
// cwd: a strong finding keeps its rule with what (how the tool was read)
// before its reason; a milder one becomes rule, so the catalog names the
// MCP tool. With unknown (the call had arguments the line could not
// spell) only a strong finding counts.
func mcpAsLine(line, cwd, home, what, rule string, unknown bool) (Finding, bool) {
	f := Bash(line, cwd, home)
	if f.Rule == "" || unknown && !(f.RedLine || f.Risk >= 2.5 || f.Violation >= 0.85) {
		return Finding{}, false
	}
	f.Reason = what + f.Reason
	if f.RedLine || f.Risk >= 1.5 || f.Violation >= 0.5 || SelfFinding(f) {
		return f, true
	}
	f.Rule = rule
	f.Uncertain = false
	return f, true
}

// mcpArgsMap reads an MCP call's arguments as a JSON object (none is an
// empty one); ok is false for anything else.
func mcpArgsMap(args string) (map[string]any, bool) {
	in := map[string]any{}
	if strings.TrimSpace(args) == "" {
		return in, true
	}
	if json.Unmarshal([]byte(args), &in) != nil {
		return nil, false
	}
	return in, true
}
