package hostproto

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the expected outputs in testdata from the code (review the diff!)")

// goldenCase is one fixture: a host's stdin and the decision the judge
// would give, to the exact bytes and exit code the hook prints, and the
// common event the host's input becomes.
type goldenCase struct {
	Name     string `json:"name"`
	Stdin    string `json:"stdin"`
	Decision string `json:"decision"`
	Reason   string `json:"reason"`

	Judged bool              `json:"judged"`
	Error  string            `json:"error,omitempty"` // substring of the parse error
	Event  json.RawMessage   `json:"event,omitempty"` // Normalized(), per part for Parts
	Parts  []json.RawMessage `json:"parts,omitempty"`
	Stdout string            `json:"stdout"`
	Stderr string            `json:"stderr"`
	Code   int               `json:"code"`
}

// pipeline is what the hook does with a host's stdin and a decision:
// not ours -> silent; unreadable -> deny; else render the decision.
func pipeline(h Host, stdin []byte, decision, reason string) (Event, bool, error, Output) {
	ev, judged, err := h.Parse(stdin)
	switch {
	case err != nil:
		return ev, judged, err, h.Render(Deny, "agent-guard-hook: the event could not be read ("+err.Error()+").")
	case !judged:
		return ev, judged, nil, h.Silent()
	}
	return ev, judged, nil, h.Render(decision, reason)
}

func TestGolden(t *testing.T) {
	for _, h := range All() {
		t.Run(h.Name, func(t *testing.T) {
			path := filepath.Join("testdata", h.Name+".json")
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("every host needs golden fixtures: %v", err)
			}
			var cases []goldenCase
			if err := json.Unmarshal(data, &cases); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
			seen := map[string]bool{}
			for i := range cases {
				c := &cases[i]
				ev, judged, perr, out := pipeline(h, []byte(c.Stdin), c.Decision, c.Reason)
				if judged && perr == nil {
					seen[c.Decision] = true
				}
				if perr != nil {
					seen["malformed"] = true
				}
				if *update {
					c.Judged, c.Error, c.Event, c.Parts = judged, "", nil, nil
					if perr != nil {
						c.Error = perr.Error()
					} else if judged {
						c.Event = ev.Normalized()
						for _, p := range ev.Parts {
							c.Parts = append(c.Parts, p.Normalized())
						}
					}
					c.Stdout, c.Stderr, c.Code = string(out.Stdout), string(out.Stderr), out.Code
					continue
				}
				if judged != c.Judged {
					t.Errorf("%s: judged %v, want %v", c.Name, judged, c.Judged)
				}
				if (perr != nil) != (c.Error != "") || (perr != nil && !strings.Contains(perr.Error(), c.Error)) {
					t.Errorf("%s: parse error %v, want %q", c.Name, perr, c.Error)
				}
				if perr == nil && judged {
					if !jsonEqual(ev.Normalized(), c.Event) {
						t.Errorf("%s: event\n got %s\nwant %s", c.Name, ev.Normalized(), c.Event)
					}
					if len(ev.Parts) != len(c.Parts) {
						t.Errorf("%s: %d parts, want %d", c.Name, len(ev.Parts), len(c.Parts))
					}
					for j := 0; j < len(ev.Parts) && j < len(c.Parts); j++ {
						if !jsonEqual(ev.Parts[j].Normalized(), c.Parts[j]) {
							t.Errorf("%s: part %d\n got %s\nwant %s", c.Name, j, ev.Parts[j].Normalized(), c.Parts[j])
						}
					}
				}
				if string(out.Stdout) != c.Stdout || string(out.Stderr) != c.Stderr || out.Code != c.Code {
					t.Errorf("%s: output\n got stdout %q stderr %q code %d\nwant stdout %q stderr %q code %d",
						c.Name, out.Stdout, out.Stderr, out.Code, c.Stdout, c.Stderr, c.Code)
				}
			}
			if *update {
				var b bytes.Buffer
				enc := json.NewEncoder(&b)
				enc.SetEscapeHTML(false)
				enc.SetIndent("", "  ")
				if err := enc.Encode(cases); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			for _, want := range []string{Allow, Deny, Ask, "malformed"} {
				if !seen[want] {
					t.Errorf("%s has no fixture for %s", path, want)
				}
			}
		})
	}
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}
