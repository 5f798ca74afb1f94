package approval

import "github.com/agent-guard/agent-guard/app/hostproto"

// HostName is the display name of a host id (hostproto's Display), else
// the id itself ("an agent" when empty), so a new host is never shown
// blank.
func HostName(id string) string {
	if h, ok := hostproto.Lookup(id); ok && h.Display != "" {
		return h.Display
	}
	if id == "" {
		return "an agent"
	}
	return id
}
