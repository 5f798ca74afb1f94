// Package config holds agent-guard's settings: the schema, the embedded
// default, strict parsing with validation, atomic saves and the paths of
// every file the guard owns.
package config

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path"
	"reflect"
	"strings"
)

//go:embed default.json
var defaultJSON []byte

// DefaultJSON returns the embedded default config, as written on first run.
func DefaultJSON() []byte { return bytes.Clone(defaultJSON) }

// Config is the whole user configuration. Field names are the JSON keys.
type Config struct {
	// Enabled off means every call is allowed and audited as "disabled";
	// red lines and self-protection still block while RedLinesWhenDisabled
	// is on (the clearly labelled second switch).
	Enabled              bool   `json:"enabled"`
	RedLinesWhenDisabled bool   `json:"red_lines_when_disabled"`
	Model                string `json:"model"`
	DegradeAskToDeny     bool   `json:"degrade_ask_to_deny"`
	// FullAccess is "auto" (read permission_mode; missing means full
	// access), "always" or "never".
	FullAccess string `json:"full_access"`

	BlockRisk        float64 `json:"block_risk"`
	BlockViolation   float64 `json:"block_violation"`
	ConfirmRisk      float64 `json:"confirm_risk"`
	ConfirmViolation float64 `json:"confirm_violation"`

	Fastpath Fastpath `json:"fastpath"`
	// MCPOverrides maps server -> tool glob -> risk class
	// ("readonly", "consequential", "destructive"); most specific wins.
	MCPOverrides map[string]map[string]string `json:"mcp_overrides"`
	// ScopedApprovals are the dialog's "always allow" answers (approvals.go).
	ScopedApprovals []ScopedApproval `json:"scoped_approvals,omitempty"`

	Cache    Cache    `json:"cache"`
	Log      Log      `json:"log"`
	Approval Approval `json:"approval"`
	TypeSafe TypeSafe `json:"typesafe"`
	Proxy    Proxy    `json:"proxy"`
}

// Fastpath lists are matched against each simple command, never the whole
// command string; MCPAllowlist names MCP servers.
type Fastpath struct {
	Allowlist    []string `json:"allowlist"`
	Denylist     []string `json:"denylist"`
	MCPAllowlist []string `json:"mcp_allowlist"`
}

type Cache struct {
	TTLMinutes int `json:"ttl_minutes"`
	MaxEntries int `json:"max_entries"`
}

type Log struct {
	Enabled bool `json:"enabled"`
}

// Approval configures our own dialog. Mode "dialog" shows it under full
// access; "agent" defers to the agent's own ask.
type Approval struct {
	TimeoutSeconds int    `json:"timeout_seconds"`
	Mode           string `json:"mode"`
}

type TypeSafe struct {
	Endpoint  string `json:"endpoint"`
	TimeoutMS int    `json:"timeout_ms"`
}

type Proxy struct {
	Enabled bool   `json:"enabled"`
	Host    string `json:"host"`
	Port    int    `json:"port"`
}

// Risk classes for MCP overrides.
const (
	ClassReadonly      = "readonly"
	ClassConsequential = "consequential"
	ClassDestructive   = "destructive"
)

// Default returns the embedded default config.
func Default() *Config {
	var c Config
	if err := json.Unmarshal(defaultJSON, &c); err != nil {
		panic("embedded default.json is broken: " + err.Error())
	}
	return &c
}

// Parse decodes data over the defaults (a key left out keeps its default),
// rejects unknown keys and trailing data, and validates the result.
func Parse(data []byte) (*Config, error) {
	// A JSON null (or an empty file) would decode as "no change" and
	// silently give the defaults; only an object is a config.
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) == 0 || t[0] != '{' {
		return nil, errors.New("config: the file must hold one JSON object ({...}); fix it or delete it to get the defaults back")
	}
	c := Default()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(c); err != nil {
		return nil, describeDecodeError(data, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("config: extra data after the JSON object; keep exactly one object in the file")
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	return c, nil
}

func describeDecodeError(data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := lineCol(data, se.Offset)
		return fmt.Errorf("config: not valid JSON at line %d, column %d (%v); fix the file or delete it to get the defaults back", line, col, err)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
		return errors.New("config: the JSON ends too early (a missing } or \"?); fix the file or delete it to get the defaults back")
	}
	msg := err.Error()
	if i := strings.Index(msg, "unknown field "); i >= 0 {
		return fmt.Errorf("config: unknown key %s; remove it or check its spelling", strings.TrimPrefix(msg[i:], "unknown field "))
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return fmt.Errorf("config: key %q must be %s, not a JSON %s", te.Field, jsonKind(te.Type), te.Value)
	}
	return fmt.Errorf("config: not valid JSON (%v); fix the file or delete it to get the defaults back", err)
}

// jsonKind names a Go type the way a person editing JSON thinks of it.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "a different type"
	}
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "a list"
	case reflect.Map, reflect.Struct:
		return "an object"
	}
	return "a " + t.String()
}

// lineCol turns a byte offset into a 1-based line and column for messages.
func lineCol(data []byte, off int64) (line, col int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line = 1 + bytes.Count(before, []byte{'\n'})
	col = int(off) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// Validate checks ranges and the order of the thresholds, naming the key.
func (c *Config) Validate() error {
	var errs []error
	for _, f := range []struct {
		key      string
		val, max float64
	}{
		{"block_risk", c.BlockRisk, 3}, {"confirm_risk", c.ConfirmRisk, 3},
		{"block_violation", c.BlockViolation, 1}, {"confirm_violation", c.ConfirmViolation, 1},
	} {
		if f.val < 0 || f.val > f.max {
			errs = append(errs, fmt.Errorf("%s %g is outside 0..%g", f.key, f.val, f.max))
		}
	}
	if c.ConfirmRisk > c.BlockRisk {
		errs = append(errs, fmt.Errorf("confirm_risk %g is above block_risk %g", c.ConfirmRisk, c.BlockRisk))
	}
	if c.ConfirmViolation > c.BlockViolation {
		errs = append(errs, fmt.Errorf("confirm_violation %g is above block_violation %g", c.ConfirmViolation, c.BlockViolation))
	}
	switch c.FullAccess {
	case "auto", "always", "never":
	default:
		errs = append(errs, fmt.Errorf("full_access %q must be \"auto\", \"always\" or \"never\"", c.FullAccess))
	}
	switch c.Approval.Mode {
	case "dialog", "agent":
	default:
		errs = append(errs, fmt.Errorf("approval.mode %q must be \"dialog\" or \"agent\"", c.Approval.Mode))
	}
	if c.Approval.TimeoutSeconds < 5 || c.Approval.TimeoutSeconds > 3600 {
		errs = append(errs, fmt.Errorf("approval.timeout_seconds %d is outside 5..3600", c.Approval.TimeoutSeconds))
	}
	if c.Cache.TTLMinutes < 0 || c.Cache.MaxEntries < 0 {
		errs = append(errs, errors.New("cache.ttl_minutes and cache.max_entries must not be negative"))
	}
	if c.TypeSafe.TimeoutMS < 100 || c.TypeSafe.TimeoutMS > 60000 {
		errs = append(errs, fmt.Errorf("typesafe.timeout_ms %d is outside 100..60000", c.TypeSafe.TimeoutMS))
	}
	if !strings.HasPrefix(c.TypeSafe.Endpoint, "https://") && !strings.HasPrefix(c.TypeSafe.Endpoint, "http://") {
		errs = append(errs, fmt.Errorf("typesafe.endpoint %q must be an http(s) URL", c.TypeSafe.Endpoint))
	}
	if strings.TrimSpace(c.Model) == "" {
		errs = append(errs, errors.New("model must not be empty (the default is \"jev-latest\")"))
	}
	if u, err := url.Parse(c.TypeSafe.Endpoint); err == nil && u.Host == "" {
		errs = append(errs, fmt.Errorf("typesafe.endpoint %q has no host", c.TypeSafe.Endpoint))
	}
	// An empty pattern could match every command; never accept one.
	for _, l := range []struct {
		key  string
		list []string
	}{
		{"fastpath.allowlist", c.Fastpath.Allowlist},
		{"fastpath.denylist", c.Fastpath.Denylist},
		{"fastpath.mcp_allowlist", c.Fastpath.MCPAllowlist},
	} {
		for i, p := range l.list {
			if strings.TrimSpace(p) == "" {
				errs = append(errs, fmt.Errorf("%s[%d] is empty; remove it (an empty pattern would match everything)", l.key, i))
			}
		}
	}
	if c.Proxy.Enabled && (c.Proxy.Host == "" || c.Proxy.Port <= 0 || c.Proxy.Port > 65535) {
		errs = append(errs, fmt.Errorf("proxy is enabled but proxy.host %q / proxy.port %d is not a usable address", c.Proxy.Host, c.Proxy.Port))
	}
	for server, tools := range c.MCPOverrides {
		if strings.TrimSpace(server) == "" {
			errs = append(errs, errors.New("mcp_overrides has an empty server name"))
		}
		for glob, class := range tools {
			if _, err := path.Match(glob, ""); err != nil || strings.TrimSpace(glob) == "" {
				errs = append(errs, fmt.Errorf("mcp_overrides[%q] has a bad tool glob %q", server, glob))
			}
			switch class {
			case ClassReadonly, ClassConsequential, ClassDestructive:
			default:
				errs = append(errs, fmt.Errorf("mcp_overrides[%q][%q] = %q must be readonly, consequential or destructive", server, glob, class))
			}
		}
	}
	errs = append(errs, c.validateScoped()...)
	if len(errs) > 0 {
		return fmt.Errorf("config: %w", errors.Join(errs...))
	}
	return nil
}

// Marshal renders the config as indented JSON, the form Save writes.
func (c *Config) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(c, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Clone returns a deep copy, so callers can edit without racing readers.
func (c *Config) Clone() *Config {
	b, err := json.Marshal(c)
	if err != nil {
		panic(err)
	}
	var out Config
	if err := json.Unmarshal(b, &out); err != nil {
		panic(err)
	}
	return &out
}
