package doctor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/agent-guard/agent-guard/app/config"
)

// KeyEnv holds the TypeSafe API key; ~/.agentguardrc is the fallback.
const KeyEnv = "TYPESAFE_API_KEY"

// apiKey returns the key and where it came from ("" when there is none).
// The rc file may hold the bare key or KEY=value lines (TYPESAFE_API_KEY
// or api_key, optionally with export and quotes).
func apiKey() (key, from string) {
	if k := strings.TrimSpace(os.Getenv(KeyEnv)); k != "" {
		return k, KeyEnv
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", ""
	}
	rc := filepath.Join(home, ".agentguardrc")
	data, err := os.ReadFile(rc)
	if err != nil {
		return "", ""
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, val, ok := strings.Cut(line, "=")
		if !ok {
			return line, rc
		}
		name = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), "export "))
		if strings.EqualFold(name, KeyEnv) || strings.EqualFold(name, "api_key") {
			return strings.Trim(strings.TrimSpace(val), `"'`), rc
		}
	}
	return "", ""
}

func checkTypeSafe(ctx context.Context, r *report, opt Options, cfg *config.Config) {
	key, from := apiKey()
	if key == "" {
		r.ok("TypeSafe key: not set; the grey zone goes to you as a confirm instead of the remote judge (set %s or put the key in ~/.agentguardrc to use it)", KeyEnv)
		return
	}
	r.ok("TypeSafe key: set (from %s)", from) // never the key itself
	if !opt.Online {
		r.note("TypeSafe reachability not checked; run 'agent-guard doctor --online' to call %s", cfg.TypeSafe.Endpoint)
		return
	}
	status, err := probe(ctx, opt.HTTPClient, cfg, key)
	switch {
	case err != nil:
		r.fix("TypeSafe: %s unreachable (%v): check the network or the proxy settings; meanwhile grey-zone calls become confirms", cfg.TypeSafe.Endpoint, err)
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		r.fix("TypeSafe: %s rejected the key from %s (HTTP %d): check the key", cfg.TypeSafe.Endpoint, from, status)
	case status/100 != 2:
		r.fix("TypeSafe: %s answered HTTP %d to a test request", cfg.TypeSafe.Endpoint, status)
	default:
		r.ok("TypeSafe: %s reachable and the key accepted", cfg.TypeSafe.Endpoint)
	}
}

// probe asks the remote judge about a harmless command, as the judge
// would, and returns the HTTP status.
func probe(ctx context.Context, client *http.Client, cfg *config.Config, key string) (int, error) {
	if client == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		if cfg.Proxy.Enabled {
			tr.Proxy = http.ProxyURL(&url.URL{Scheme: "http", Host: net.JoinHostPort(cfg.Proxy.Host, strconv.Itoa(cfg.Proxy.Port))})
		}
		client = &http.Client{Transport: tr}
	}
	body, _ := json.Marshal(map[string]any{
		"model": cfg.Model,
		"state": map[string]any{"tool": "Bash", "command": "git status"},
		"questions": []map[string]any{
			{"name": "destructive_risk", "type": "score", "criteria": []string{"0 read-only", "1 reversible", "2 affects services", "3 destructive"}},
		},
	})
	ctx, cancel := context.WithTimeout(ctx, time.Duration(cfg.TypeSafe.TimeoutMS)*time.Millisecond)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cfg.TypeSafe.Endpoint, bytes.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+key)
	resp, err := client.Do(req)
	if err != nil {
		return 0, fmt.Errorf("%v", stripKey(err.Error(), key))
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	return resp.StatusCode, nil
}

// stripKey makes sure an error text never carries the key.
func stripKey(s, key string) string { return strings.ReplaceAll(s, key, "<key>") }
