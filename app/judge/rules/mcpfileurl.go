package rules

import (
	"net/url"
	"strings"
)

// A browser or fetch tool given a file:// URL reads that local file and
// hands its content to the model, as a read_file tool would: the URL's
// path is judged by the same secret-file classifier.

var urlKeys = words(`url uri href link page address`)

// mcpFileURL judges a file:// URL argument; ok=false for other URLs.
func mcpFileURL(v, cwd, home string) (Finding, bool) {
	p, ok := fileURLPath(strings.TrimSpace(v))
	if !ok {
		return Finding{}, false
	}
	k, what := pkSecretPath(p, &Ctx{Cwd: cwd, Home: home})
	switch k {
	case pkStrong:
		return Finding{Risk: 2, Violation: 0.6, Rule: "mcp.read-secret", Reason: "an MCP tool opens " + what + " (" + v + "); its content would reach the model", Marked: v}, true
	case pkWeak:
		return Finding{Risk: 1.5, Violation: 0.3, Rule: "mcp.read-secret", Reason: "an MCP tool opens " + what + " (" + v + ")", Marked: v}, true
	}
	return Finding{}, false
}

// fileURLPath is the path a file: URL names (file:///C:/x is C:/x), with
// its escapes undone and any query or fragment cut; ok is false for
// anything but a file: URL.
func fileURLPath(v string) (string, bool) {
	if !strings.HasPrefix(strings.ToLower(v), "file:") {
		return "", false
	}
	p := strings.TrimPrefix(v[len("file:"):], "//")
	if u, err := url.PathUnescape(p); err == nil {
		p = u
	}
	if i := strings.IndexAny(p, "?#"); i >= 0 {
		p = p[:i]
	}
	if len(p) >= 3 && p[0] == '/' && p[2] == ':' {
		p = p[1:] // file:///C:/Users/...
	}
	return p, true
}
