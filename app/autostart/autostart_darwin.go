package autostart

// entryPath is ~/Library/LaunchAgents/ai.agentguard.tray.plist; launchd
// reads it at the next login (RunAtLoad), so nothing is loaded now.
func entryPath() (string, error) {
	return homeJoin("Library", "LaunchAgents", Label+".plist")
}

func enable(exe string) error {
	p, err := entryPath()
	if err != nil {
		return err
	}
	return writeEntry(p, launchAgent(exe))
}

func disable() error {
	p, err := entryPath()
	if err != nil {
		return err
	}
	return removeEntry(p)
}

func enabled() bool {
	p, err := entryPath()
	return err == nil && exists(p)
}
