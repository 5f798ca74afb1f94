package config

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func withEdit(edit func(*Config)) *Config {
	c := Default()
	edit(c)
	return c
}

// Every key of the issue that lowers protection is a weakening, and the
// opposite direction is not.
func TestWeakeningsTable(t *testing.T) {
	for _, tc := range []struct {
		name   string
		edit   func(*Config)
		key    string // "" means: not a weakening
		inText string
	}{
		{"guard off", func(c *Config) { c.Enabled = false }, "enabled", "turns the guard off"},
		{"red lines off", func(c *Config) { c.RedLinesWhenDisabled = false }, "red_lines_when_disabled", "red lines"},
		{"degrade off", func(c *Config) { c.DegradeAskToDeny = false }, "degrade_ask_to_deny", "false"},
		{"log off", func(c *Config) { c.Log.Enabled = false }, "log.enabled", "audit log"},
		{"higher block risk", func(c *Config) { c.BlockRisk = 3 }, "block_risk", "2.5 -> 3"},
		{"higher block violation", func(c *Config) { c.BlockViolation = 0.95 }, "block_violation", ""},
		{"higher confirm risk", func(c *Config) { c.ConfirmRisk = 2 }, "confirm_risk", ""},
		{"higher confirm violation", func(c *Config) { c.ConfirmViolation = 0.6 }, "confirm_violation", ""},
		{"full access never", func(c *Config) { c.FullAccess = "never" }, "full_access", `"never"`},
		{"approval by agent", func(c *Config) { c.Approval.Mode = "agent" }, "approval.mode", "agent"},
		{"allowlist entry", func(c *Config) { c.Fastpath.Allowlist = []string{"rm *"} }, "fastpath.allowlist", `adds "rm *"`},
		{"mcp allowlist entry", func(c *Config) { c.Fastpath.MCPAllowlist = []string{"db"} }, "fastpath.mcp_allowlist", `adds "db"`},
		{"scoped approval", func(c *Config) {
			c.ScopedApprovals = []ScopedApproval{{Scope: ScopeEverywhere, Tool: "Bash", Pattern: "git reset --hard HEAD~3", Rule: "git.reset-hard"}}
		}, "scoped_approvals", "without asking you"},
		{"mcp override readonly", func(c *Config) {
			c.MCPOverrides = map[string]map[string]string{"db": {"drop_*": ClassReadonly}}
		}, `mcp_overrides["db"]["drop_*"]`, "less risky"},
		{"endpoint", func(c *Config) { c.TypeSafe.Endpoint = "http://127.0.0.1:9/v1" }, "typesafe.endpoint", "anything is safe"},
		{"model", func(c *Config) { c.Model = "lenient" }, "model", ""},
		{"proxy on", func(c *Config) { c.Proxy = Proxy{Enabled: true, Host: "p", Port: 1} }, "proxy.enabled", ""},

		{"lower block risk", func(c *Config) { c.BlockRisk = 2 }, "", ""},
		{"lower confirm", func(c *Config) { c.ConfirmRisk = 1; c.ConfirmViolation = 0.3 }, "", ""},
		{"full access always", func(c *Config) { c.FullAccess = "always" }, "", ""},
		{"denylist entry", func(c *Config) { c.Fastpath.Denylist = []string{"make deploy"} }, "", ""},
		{"mcp override destructive", func(c *Config) {
			c.MCPOverrides = map[string]map[string]string{"db": {"*": ClassDestructive}}
		}, "", ""},
		{"timeouts and cache", func(c *Config) {
			c.Approval.TimeoutSeconds = 30
			c.Cache.TTLMinutes = 5
			c.TypeSafe.TimeoutMS = 2000
		}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Weakenings(Default(), withEdit(tc.edit))
			if tc.key == "" {
				if len(got) != 0 {
					t.Fatalf("Weakenings = %+v, want none", got)
				}
				return
			}
			if len(got) == 0 || got[0].Key != tc.key {
				t.Fatalf("Weakenings = %+v, want key %s", got, tc.key)
			}
			if !strings.Contains(got[0].Text, tc.inText) {
				t.Errorf("text %q lacks %q", got[0].Text, tc.inText)
			}
			// The way back is never a weakening.
			if back := Weakenings(withEdit(tc.edit), Default()); len(back) != 0 && tc.key != "typesafe.endpoint" && tc.key != "model" {
				t.Errorf("the way back is held too: %+v", back)
			}
		})
	}
}

// Removing a denylist entry or a destructive override weakens; removing
// an allowlist entry or a readonly override does not.
func TestWeakeningsRemovals(t *testing.T) {
	strict := withEdit(func(c *Config) {
		c.Fastpath.Denylist = []string{"a", "b"}
		c.Fastpath.Allowlist = []string{"git status"}
		c.MCPOverrides = map[string]map[string]string{"db": {"drop_*": ClassDestructive, "get_*": ClassReadonly}}
	})
	loose := withEdit(func(c *Config) {
		c.Fastpath.Denylist = []string{"a"}
		c.MCPOverrides = map[string]map[string]string{"db": {}}
	})
	var keys []string
	for _, ch := range Weakenings(strict, loose) {
		keys = append(keys, ch.Key+" "+ch.Old)
	}
	want := []string{`fastpath.denylist "b"`, `mcp_overrides["db"]["drop_*"] "destructive"`}
	if !reflect.DeepEqual(keys, want) {
		t.Errorf("weakenings %v, want %v", keys, want)
	}
}

// A key the table does not know counts as weakening on any change, so a
// setting added to Config later is held until someone ranks it.
func TestUnknownKeyWeakens(t *testing.T) {
	if r := ruleFor([]string{"some_new_switch"}); r.dir != anyChange {
		t.Fatalf("unknown key rule = %+v, want anyChange", r)
	}
	d := diff{old: &leaf{path: []string{"some_new_switch"}, val: true}, new: &leaf{path: []string{"some_new_switch"}, val: false}}
	if !weakens(ruleFor(d.leaf().path), d, nil) {
		t.Error("a change of an unknown key is not a weakening")
	}
	// Every key of today's Config is ranked on purpose.
	for id, l := range leaves(Default()) {
		if ruleFor(l.path).path == "" {
			t.Errorf("key %q has no row in the table of directions", id)
		}
	}
}

// A mixed change applies its strengthening parts at once and holds the rest.
func TestMergeMixed(t *testing.T) {
	disk := withEdit(func(c *Config) {
		c.Enabled = false                             // weakens
		c.Fastpath.Denylist = []string{"make deploy"} // strengthens
		c.Fastpath.Allowlist = []string{"rm *"}       // weakens
		c.BlockRisk = 2.2                             // strengthens
		c.Approval.TimeoutSeconds = 60                // neutral
		c.MCPOverrides = map[string]map[string]string{"db": {"*": ClassDestructive, "get": ClassReadonly}}
	})
	got, held := Merge(Default(), disk)
	if !got.Enabled || len(got.Fastpath.Allowlist) != 0 || got.MCPOverrides["db"]["get"] != "" {
		t.Errorf("a weakening applied: %+v", got)
	}
	if !reflect.DeepEqual(got.Fastpath.Denylist, []string{"make deploy"}) || got.BlockRisk != 2.2 ||
		got.Approval.TimeoutSeconds != 60 || got.MCPOverrides["db"]["*"] != ClassDestructive {
		t.Errorf("a strengthening did not apply: %+v", got)
	}
	var keys []string
	for _, h := range held {
		keys = append(keys, h.Key)
	}
	if want := []string{"enabled", "fastpath.allowlist", `mcp_overrides["db"]["get"]`}; !reflect.DeepEqual(keys, want) {
		t.Errorf("held %v, want %v", keys, want)
	}
	// Accepting the rest later gives exactly the file.
	if again, h := Merge(got, disk); len(Weakenings(got, disk)) != 3 || len(h) != 3 || again.Enabled != true {
		t.Errorf("second merge: %+v %v", again, h)
	}
}

// A partial result that would not validate holds the whole change.
func TestMergeInvalidPartHoldsAll(t *testing.T) {
	disk := withEdit(func(c *Config) {
		c.BlockRisk = 1.0
		c.ConfirmRisk = 1.0
		c.ConfirmViolation = 0.9
		c.BlockViolation = 0.9
	})
	// block_violation up (weakens, held at 0.85) with confirm_violation
	// 0.9 (up too, held) is fine; make one that breaks: confirm up held,
	// block down applied -> confirm 1.5 > block 1.0.
	disk.ConfirmRisk = 1.0
	base := withEdit(func(c *Config) { c.ConfirmRisk = 0.5 })
	got, held := Merge(base, disk)
	if len(held) == 0 {
		t.Fatal("nothing held")
	}
	if err := got.Validate(); err != nil {
		t.Fatalf("merged config invalid: %v", err)
	}
	if b, _ := json.Marshal(got); len(b) == 0 {
		t.Fatal("empty")
	}
}
