package hostproto

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// No host input, however broken, panics; whatever parses as judged is a
// judged tool with a JSON object input that the judge's form reads back.
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.json"))
	for _, p := range files {
		data, _ := os.ReadFile(p)
		var cases []goldenCase
		json.Unmarshal(data, &cases)
		for _, c := range cases {
			f.Add(c.Stdin)
		}
	}
	f.Add(`{"tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Update File: a\n*** Move to: b\n@@\n-x\n+y\n*** End Patch"}}`)
	f.Fuzz(func(t *testing.T, stdin string) {
		for _, h := range All() {
			ev, judged, err := h.Parse([]byte(stdin))
			if err != nil || !judged {
				continue
			}
			for _, p := range ev.Each() {
				if !Judged(p.ToolName) {
					t.Fatalf("%s: judged event with tool %q", h.Name, p.ToolName)
				}
				// Claude's dialect passes tool_input on as sent (the judge
				// denies a non-object); every other host's is an object.
				var in map[string]any
				if err := json.Unmarshal(p.ToolInput, &in); err != nil && h.parse != nil && !claudeFamily(h) {
					t.Fatalf("%s: tool input %q is not an object: %v", h.Name, p.ToolInput, err)
				}
				if len(p.ToolInput) > 0 && !json.Valid(p.ToolInput) {
					t.Fatalf("%s: tool input %q is not JSON", h.Name, p.ToolInput)
				}
				var back Event
				if err := json.Unmarshal(p.Normalized(), &back); err != nil || back.ToolName != p.ToolName {
					t.Fatalf("%s: normalized %s does not read back: %v", h.Name, p.Normalized(), err)
				}
			}
			h.Render(Deny, stdin) // never panics on any reason text
		}
	})
}

func claudeFamily(h Host) bool { return h.Name == "claude" || h.Name == "zcode" }
