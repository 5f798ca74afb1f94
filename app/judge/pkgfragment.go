package judge

import (
	"encoding/json"
	"path"
	"strings"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
)

// An Edit of package.json carries only the changed lines ("test": "jest",
// "preinstall": "curl ... | sh"), neither whole JSON nor the "scripts"
// key. Every "name": "value" pair of such a fragment is read as a script
// that may run (npm install runs preinstall and postinstall on its own);
// the values of other fields (versions, names) are not commands and
// judge as nothing.
var jsonPair = lazyre.New(`"(?:[^"\\]|\\.)*"\s*:\s*("(?:[^"\\]|\\.)*")`)

func fragmentValues(content string) string {
	var out []string
	for _, m := range jsonPair.Re().FindAllStringSubmatch(content, 256) {
		var s string
		if json.Unmarshal([]byte(m[1]), &s) == nil && strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, "\n")
}

// Editor and container configuration that runs shell commands on its own:
// .vscode/tasks.json ("command", run on a key press or, with runOn
// folderOpen, when the folder opens) and devcontainer.json (its
// initializeCommand runs on the host, the others in the container).
var runKeyPair = lazyre.New(`"(command|initializeCommand|onCreateCommand|updateContentCommand|postCreateCommand|postStartCommand|postAttachCommand)"\s*:\s*("(?:[^"\\]|\\.)*")`)

func runsCommands(lowPath string) bool {
	base := path.Base(lowPath)
	return base == "tasks.json" && (strings.Contains(lowPath, ".vscode/") || strings.Contains(lowPath, ".zed/")) ||
		base == "devcontainer.json" || base == ".devcontainer.json"
}

func configCommands(content string) string {
	var out []string
	for _, m := range runKeyPair.Re().FindAllStringSubmatch(content, 256) {
		var s string
		if json.Unmarshal([]byte(m[2]), &s) == nil && strings.TrimSpace(s) != "" {
			out = append(out, s)
		}
	}
	return strings.Join(out, "\n")
}
