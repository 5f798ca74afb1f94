package autostart

// RunKey is the registry key holding the login entry (value Name).
const RunKey = `HKCU\` + runKey

// EntryPath is "" on Windows: the entry is the Run key's value, not a file.
func EntryPath() string { return "" }
