// Command agent-guard-hook is the PreToolUse hook ZCode and Claude Code run
// before each Bash, Write, Edit and MCP call. See package hookbridge.
package main

import (
	"os"

	"github.com/agent-guard/agent-guard/hookbridge"
)

func main() {
	ignoreSIGPIPE()
	os.Exit(hookbridge.Run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}
