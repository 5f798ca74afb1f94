package rules

import "os"

// guardHome is $AGENT_GUARD_HOME, read per call so tests can set it.
func guardHome() string { return os.Getenv("AGENT_GUARD_HOME") }
