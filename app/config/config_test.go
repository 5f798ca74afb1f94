package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

func TestDefaultIsValid(t *testing.T) {
	c := Default()
	if err := c.Validate(); err != nil {
		t.Fatalf("embedded default does not validate: %v", err)
	}
	if c.BlockRisk != 2.5 || c.BlockViolation != 0.85 || c.ConfirmRisk != 1.5 || c.ConfirmViolation != 0.5 {
		t.Errorf("default thresholds = %v/%v/%v/%v, want 2.5/0.85/1.5/0.5", c.BlockRisk, c.BlockViolation, c.ConfirmRisk, c.ConfirmViolation)
	}
	if !c.Enabled || !c.DegradeAskToDeny || c.Model != "jev-latest" || c.FullAccess != "auto" ||
		c.Cache.TTLMinutes != 60 || c.Cache.MaxEntries != 500 || c.TypeSafe.TimeoutMS != 8000 || !c.Log.Enabled {
		t.Errorf("default = %+v", c)
	}
}

// Every key of issue 2 §1: a bad value gives an error naming the key.
func TestParseValidation(t *testing.T) {
	tests := []struct {
		name, json string
		want       string // substring of the error
	}{
		{"enabled type", `{"enabled": "yes"}`, `key "enabled" must be true or false`},
		{"null is not a config", `null`, "must hold one JSON object"},
		{"empty file", ` \n`, "must hold one JSON object"},
		{"array", `[{"enabled": true}]`, "must hold one JSON object"},
		{"model empty", `{"model": ""}`, "model must not be empty"},
		{"degrade type", `{"degrade_ask_to_deny": 1}`, `key "degrade_ask_to_deny" must be true or false`},
		{"full_access value", `{"full_access": "sometimes"}`, `full_access "sometimes" must be`},
		{"block_risk range", `{"block_risk": 3.5}`, "block_risk 3.5 is outside 0..3"},
		{"block_risk type", `{"block_risk": "high"}`, `key "block_risk" must be a number`},
		{"confirm_risk negative", `{"confirm_risk": -1}`, "confirm_risk -1 is outside 0..3"},
		{"confirm above block risk", `{"confirm_risk": 2.8}`, "confirm_risk 2.8 is above block_risk 2.5"},
		{"block_violation range", `{"block_violation": 1.2}`, "block_violation 1.2 is outside 0..1"},
		{"confirm above block violation", `{"confirm_violation": 0.9}`, "confirm_violation 0.9 is above block_violation 0.85"},
		{"allowlist empty pattern", `{"fastpath": {"allowlist": ["git status", " "]}}`, "fastpath.allowlist[1] is empty"},
		{"denylist empty pattern", `{"fastpath": {"denylist": [""]}}`, "fastpath.denylist[0] is empty"},
		{"mcp_allowlist empty", `{"fastpath": {"mcp_allowlist": [""]}}`, "fastpath.mcp_allowlist[0] is empty"},
		{"allowlist type", `{"fastpath": {"allowlist": "git status"}}`, `key "fastpath.allowlist" must be a list`},
		{"mcp_overrides class", `{"mcp_overrides": {"github": {"delete_*": "scary"}}}`, `mcp_overrides["github"]["delete_*"] = "scary" must be readonly, consequential or destructive`},
		{"mcp_overrides glob", `{"mcp_overrides": {"github": {"[bad": "readonly"}}}`, `bad tool glob "[bad"`},
		{"mcp_overrides server", `{"mcp_overrides": {"": {"x": "readonly"}}}`, "empty server name"},
		{"cache ttl negative", `{"cache": {"ttl_minutes": -5}}`, "cache.ttl_minutes and cache.max_entries must not be negative"},
		{"cache entries negative", `{"cache": {"max_entries": -1}}`, "cache.ttl_minutes and cache.max_entries must not be negative"},
		{"cache ttl type", `{"cache": {"ttl_minutes": 1.5}}`, `key "cache.ttl_minutes" must be a whole number`},
		{"log enabled type", `{"log": {"enabled": "no"}}`, `key "log.enabled" must be true or false`},
		{"approval timeout", `{"approval": {"timeout_seconds": 1}}`, "approval.timeout_seconds 1 is outside 5..3600"},
		{"approval mode", `{"approval": {"mode": "popup"}}`, `approval.mode "popup" must be "dialog" or "agent"`},
		{"typesafe endpoint scheme", `{"typesafe": {"endpoint": "ftp://x"}}`, `typesafe.endpoint "ftp://x" must be an http(s) URL`},
		{"typesafe endpoint host", `{"typesafe": {"endpoint": "https://"}}`, `typesafe.endpoint "https://" has no host`},
		{"typesafe timeout", `{"typesafe": {"timeout_ms": 10}}`, "typesafe.timeout_ms 10 is outside 100..60000"},
		{"proxy incomplete", `{"proxy": {"enabled": true, "host": "", "port": 8080}}`, "proxy is enabled but proxy.host"},
		{"proxy port", `{"proxy": {"enabled": true, "host": "p", "port": 70000}}`, "proxy.port 70000 is not a usable address"},
		{"unknown key", `{"block_risks": 2}`, `unknown key "block_risks"`},
		{"unknown nested key", `{"cache": {"ttl": 5}}`, `unknown key "ttl"`},
		{"syntax error line", "{\n  \"enabled\": true,\n  \"model\" \"x\"\n}", "not valid JSON at line 3, column"},
		{"truncated", `{"enabled": true`, "ends too early"},
		{"trailing data", `{} {}`, "extra data after the JSON object"},
		{"not an object", `[1]`, "config"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(tt.json))
			if err == nil {
				t.Fatalf("Parse(%s) = %+v, want an error containing %q", tt.json, c, tt.want)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Parse(%s) error = %q, want it to contain %q", tt.json, err, tt.want)
			}
		})
	}
}

func TestParseKeepsDefaultsForMissingKeys(t *testing.T) {
	c, err := Parse([]byte(`{"block_risk": 2.9, "cache": {"ttl_minutes": 5}, "fastpath": {"allowlist": ["make test"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	d := Default()
	if c.BlockRisk != 2.9 || c.Cache.TTLMinutes != 5 || !reflect.DeepEqual(c.Fastpath.Allowlist, []string{"make test"}) {
		t.Errorf("set keys not applied: %+v", c)
	}
	// Unset keys, including siblings inside a partly set object, keep defaults.
	if c.Cache.MaxEntries != d.Cache.MaxEntries || c.ConfirmRisk != d.ConfirmRisk || c.TypeSafe != d.TypeSafe || c.Approval != d.Approval {
		t.Errorf("defaults lost: %+v", c)
	}
	empty, err := Parse([]byte(`{}`))
	if err != nil || !reflect.DeepEqual(empty, d) {
		t.Errorf("Parse({}) = %+v, %v; want the defaults", empty, err)
	}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agent-guard", "config.json")
	// First Load creates the file from the embedded default.
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c, Default()) {
		t.Errorf("first Load = %+v, want defaults", c)
	}
	if data, _ := os.ReadFile(path); string(data) != string(DefaultJSON()) {
		t.Errorf("first Load wrote %q, want the embedded default", data)
	}
	c.BlockRisk = 2.7
	c.Fastpath.Denylist = []string{"terraform apply"}
	c.MCPOverrides = map[string]map[string]string{"github": {"get_*": ClassReadonly, "*": ClassConsequential}}
	c.Proxy = Proxy{Enabled: true, Host: "proxy.local", Port: 3128}
	if err := Save(path, c); err != nil {
		t.Fatal(err)
	}
	// A proxy weakens: it waits until accepted.
	if held, _ := Load(path); held.Proxy.Enabled {
		t.Error("a saved weakening (proxy) was in force before it was accepted")
	}
	if _, err := Accept(path, "", ByTerminal); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, c) {
		t.Errorf("round trip:\n got %+v\nwant %+v", got, c)
	}
	if runtime.GOOS != "windows" {
		if st, _ := os.Stat(path); st.Mode().Perm() != 0o600 {
			t.Errorf("saved config mode %v, want 0600", st.Mode().Perm())
		}
	}
	// Save refuses an invalid config and leaves the file alone.
	bad := c.Clone()
	bad.ConfirmRisk = 2.9
	if err := Save(path, bad); err == nil {
		t.Error("Save accepted confirm_risk above block_risk")
	}
	if again, _ := Load(path); !reflect.DeepEqual(again, c) {
		t.Error("a refused Save changed the file")
	}
	// No temp files left behind: the config, its record and the lock.
	entries, _ := os.ReadDir(filepath.Dir(path))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if want := []string{"accepted.json", "config.json", "config.json.lock"}; !reflect.DeepEqual(names, want) {
		t.Errorf("folder holds %v after saves, want %v", names, want)
	}
}

func TestLoadErrorsNameTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.json")
	os.WriteFile(path, []byte(`{"confirm_risk": 2.8}`), 0o600)
	_, err := Load(path)
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "confirm_risk 2.8 is above block_risk 2.5") {
		t.Errorf("Load = %v; want an error naming %s and the key", err, path)
	}
}

func TestCloneIsDeep(t *testing.T) {
	c := Default()
	c.Fastpath.Allowlist = []string{"a"}
	c.MCPOverrides = map[string]map[string]string{"s": {"t": ClassReadonly}}
	d := c.Clone()
	d.Fastpath.Allowlist[0] = "b"
	d.MCPOverrides["s"]["t"] = ClassDestructive
	if c.Fastpath.Allowlist[0] != "a" || c.MCPOverrides["s"]["t"] != ClassReadonly {
		t.Error("Clone shares slices or maps with the original")
	}
}

func TestDefaultPathsHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv(HomeEnv, home)
	p, err := DefaultPaths()
	if err != nil {
		t.Fatal(err)
	}
	want := Paths{Config: filepath.Join(home, "config.json"), CacheDir: filepath.Join(home, "cache"), Audit: filepath.Join(home, "audit.jsonl")}
	if p != want {
		t.Errorf("DefaultPaths = %+v, want %+v", p, want)
	}
}

// FuzzParse: Parse never panics, and whatever it accepts validates and
// survives a Marshal/Parse round trip unchanged.
func FuzzParse(f *testing.F) {
	f.Add(DefaultJSON())
	f.Add([]byte(`{}`))
	f.Add([]byte(`{"confirm_risk": 2.8}`))
	f.Add([]byte(`{"mcp_overrides": {"gh": {"get_*": "readonly"}}, "fastpath": {"allowlist": ["ls"]}}`))
	f.Add([]byte(`null`))
	f.Add([]byte(`{"block_risk": 1e400}`))
	f.Add([]byte("{\"model\":\"\xff\"}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse(data)
		if err != nil {
			return
		}
		if err := c.Validate(); err != nil {
			t.Fatalf("Parse accepted a config that does not validate: %v", err)
		}
		out, err := c.Marshal()
		if err != nil {
			t.Fatalf("Marshal of a parsed config: %v", err)
		}
		back, err := Parse(out)
		if err != nil {
			t.Fatalf("re-Parse of a saved config failed: %v\n%s", err, out)
		}
		a, _ := json.Marshal(c)
		b, _ := json.Marshal(back)
		if string(a) != string(b) {
			t.Fatalf("round trip changed the config:\n%s\n%s", a, b)
		}
	})
}
