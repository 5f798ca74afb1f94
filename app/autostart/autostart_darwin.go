package autostart

// entryPath is ~/Library/LaunchAgents/ai.agentguard.tray.plist; launchd
// reads it at the next login (RunAtLoad), so nothing is loaded now.
func entryPath() (string, error) {
	return homeJoin("Library", "LaunchAgents", Label+".plist")
}

func enabled() bool {
	p, err := entryPath()
	return err == nil && exists(p)
}

// entryContent is the login file written for exe.
func entryContent(exe string) string { return launchAgent(exe) }
