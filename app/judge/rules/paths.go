package rules

// WritePath judges writing or editing the file at path (Write/Edit tools,
// and shell redirections / tee / cp / mv targets). TODO(H2): real rules.
func WritePath(path, cwd, home string) Finding {
	return Finding{}
}

// Protected reports whether path is one of the guard's own files or the
// agent's hook configuration (self-protection: block). TODO(H2).
func Protected(path, cwd, home string) (Finding, bool) {
	return Finding{}, false
}
