// Package tskey finds the TypeSafe API key and holds the mock remote
// judge: what agent-guard's judge needs of TypeSafe without linking a
// network client. agent-guard-judge, which every hook fallback starts,
// links this and not package typesafe: net/http and crypto/tls cost about
// 0.6 ms of init and page faults per start (measured on an empty
// program: 1.27 -> 1.89 ms median).
package tskey

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge"
)

// ErrNoKey: no API key configured.
var ErrNoKey = errors.New("no TypeSafe API key: set TYPESAFE_API_KEY or put api_key=... in ~/.agentguardrc, or run offline")

// Stub is the remote of `check --mock`: fixed answers, no network.
type Stub struct{ Risk, Violation float64 }

// NewStub returns the standard mock: risk 1.0, violation 0.1.
func NewStub() Stub { return Stub{Risk: 1, Violation: 0.1} }

// Judge returns the fixed values.
func (s Stub) Judge(ctx context.Context, _ judge.State) (float64, float64, []float64, error) {
	return s.Risk, s.Violation, nil, ctx.Err()
}

// KeyEnv is the environment variable holding the API key.
const KeyEnv = "TYPESAFE_API_KEY"

// LookupKey finds the API key: $TYPESAFE_API_KEY, then the file
// ~/.agentguardrc, which may hold either lines `TYPESAFE_API_KEY=...` or
// `api_key=...` (optionally `export `, quotes, # comments) or a JSON
// object {"api_key": "..."}. It returns "" (and no error) when there is
// none; an unreadable or malformed file is an error. home "" means
// os.UserHomeDir().
func LookupKey(home string) (key, source string, err error) {
	if k := strings.TrimSpace(os.Getenv(KeyEnv)); k != "" {
		return k, "$" + KeyEnv, nil
	}
	if home == "" {
		if home, err = os.UserHomeDir(); err != nil {
			return "", "", nil
		}
	}
	path := home + string(os.PathSeparator) + ".agentguardrc"
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return "", "", nil
	}
	if err != nil {
		return "", "", fmt.Errorf("typesafe: cannot read %s: %v", path, err)
	}
	k, err := parseRC(data)
	if err != nil {
		return "", "", fmt.Errorf("typesafe: %s: %v", path, err)
	}
	if k == "" {
		return "", "", nil
	}
	return k, path, nil
}

func parseRC(data []byte) (string, error) {
	t := bytes.TrimSpace(data)
	if len(t) > 0 && t[0] == '{' {
		var m map[string]any
		if err := json.Unmarshal(t, &m); err != nil {
			return "", errors.New("looks like JSON but does not parse; want {\"api_key\": \"...\"}")
		}
		for _, k := range []string{"api_key", "typesafe_api_key", KeyEnv} {
			if v, ok := m[k].(string); ok && strings.TrimSpace(v) != "" {
				return strings.TrimSpace(v), nil
			}
		}
		return "", nil
	}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		line = strings.TrimPrefix(line, "export ")
		name, val, ok := strings.Cut(line, "=")
		if !ok {
			continue
		}
		name = strings.TrimSpace(name)
		if name != KeyEnv && !strings.EqualFold(name, "api_key") {
			continue
		}
		val = strings.TrimSpace(val)
		if len(val) >= 2 && (val[0] == '"' && val[len(val)-1] == '"' || val[0] == '\'' && val[len(val)-1] == '\'') {
			val = val[1 : len(val)-1]
		}
		if val != "" {
			return val, nil
		}
	}
	return "", nil
}
