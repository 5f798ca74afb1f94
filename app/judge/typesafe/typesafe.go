// Package typesafe is the typed client of the remote grey-zone judge,
// TypeSafe System One (DESIGN.md "The judge", step 7): one POST with two
// questions, destructive_risk (a score on the 4-level ladder) and
// policy_violation (a noul over the red lines). No retries; every failure
// is an error that says which and what to do, and never holds the key.
package typesafe

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/judge/tskey"
)

// Ladder is the destructive_risk criteria, level 0 to 3.
var Ladder = []string{
	"0: read-only; changes nothing (listing, reading, status, builds and tests inside the project)",
	"1: controlled and reversible changes (editing project files, installing a package, a local commit)",
	"2: affects services or many files, or rewrites git history (stopping services, mass deletes inside the project, reset --hard, dropping containers)",
	"3: destructive and irreversible (deleting home, system or backup data, wiping disks, force-pushing over a remote, dropping databases)",
}

// RedLines are the policy_violation criteria.
var RedLines = []string{
	"force-pushes over a remote branch or otherwise destroys shared history",
	"formats, wipes or writes raw data to a disk or partition",
	"edits system files: sudoers, users and passwords, hosts, boot, services, registry",
	"reads, leaks or exports credentials, keys or tokens to anywhere outside the machine",
	"fork bombs or deliberate resource exhaustion",
	"deletes backups, snapshots or other unrecoverable data",
	"disables, edits or kills the agent's own safety guard or its hook configuration",
}

// Client asks TypeSafe. Safe for concurrent use.
type Client struct {
	endpoint, model, key string
	timeout              time.Duration
	hc                   *http.Client
}

// Options configure a Client; FromConfig fills them from the config.
type Options struct {
	Endpoint string
	Model    string
	Key      string
	Timeout  time.Duration // whole request; default 8 s
	Proxy    string        // "host:port" of an HTTP CONNECT proxy, or ""
	TLS      *tls.Config   // nil: system roots (tests pass the test server's)
}

// New returns a client, or ErrNoKey.
func New(o Options) (*Client, error) {
	if strings.TrimSpace(o.Key) == "" {
		return nil, ErrNoKey
	}
	u, err := url.Parse(o.Endpoint)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return nil, fmt.Errorf("typesafe: endpoint %q is not an http(s) URL; fix typesafe.endpoint in the config", o.Endpoint)
	}
	if o.Timeout <= 0 {
		o.Timeout = 8 * time.Second
	}
	if o.Model == "" {
		o.Model = "jev-latest"
	}
	tr := &http.Transport{
		Proxy:               nil, // only the configured proxy, never the environment's
		DialContext:         (&net.Dialer{Timeout: o.Timeout, KeepAlive: 30 * time.Second}).DialContext,
		TLSHandshakeTimeout: o.Timeout,
		TLSClientConfig:     o.TLS,
		MaxIdleConns:        4,
		IdleConnTimeout:     90 * time.Second,
		ForceAttemptHTTP2:   true,
	}
	if o.Proxy != "" {
		tr.Proxy = http.ProxyURL(&url.URL{Scheme: "http", Host: o.Proxy})
	}
	return &Client{endpoint: o.Endpoint, model: o.Model, key: strings.TrimSpace(o.Key), timeout: o.Timeout,
		hc: &http.Client{Transport: tr, Timeout: o.Timeout}}, nil
}

// FromConfig builds a client from the config (endpoint, model, timeout,
// proxy) and key.
func FromConfig(c *config.Config, key string) (*Client, error) {
	o := Options{Endpoint: c.TypeSafe.Endpoint, Model: c.Model, Key: key,
		Timeout: time.Duration(c.TypeSafe.TimeoutMS) * time.Millisecond}
	if c.Proxy.Enabled {
		o.Proxy = net.JoinHostPort(c.Proxy.Host, strconv.Itoa(c.Proxy.Port))
	}
	return New(o)
}

type question struct {
	ID       string   `json:"id"`
	Type     string   `json:"type"`
	Criteria []string `json:"criteria"`
}

type request struct {
	Model     string      `json:"model"`
	State     judge.State `json:"state"`
	Questions []question  `json:"questions"`
}

type response struct {
	Answers *struct {
		DestructiveRisk *struct {
			Score *float64  `json:"score"`
			Probs []float64 `json:"probs"`
		} `json:"destructive_risk"`
		PolicyViolation *struct {
			Noul *float64 `json:"noul"`
		} `json:"policy_violation"`
	} `json:"answers"`
}

// Body returns the JSON request body for s (exported for tests and docs).
func (c *Client) Body(s judge.State) ([]byte, error) {
	s.PermissionMode = "" // not the remote's business
	return json.Marshal(request{Model: c.model, State: s, Questions: []question{
		{ID: "destructive_risk", Type: "score", Criteria: Ladder},
		{ID: "policy_violation", Type: "noul", Criteria: RedLines},
	}})
}

// Judge asks once: risk 0..3, violation 0..1, and the risk distribution
// over the 4 levels when the answer carries one.
func (c *Client) Judge(ctx context.Context, s judge.State) (risk, violation float64, probs []float64, err error) {
	defer func() {
		if err != nil {
			err = c.scrub(err)
		}
	}()
	body, err := c.Body(s)
	if err != nil {
		return 0, 0, nil, fmt.Errorf("typesafe: cannot encode the request: %v", err)
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.endpoint, bytes.NewReader(body))
	if err != nil {
		return 0, 0, nil, fmt.Errorf("typesafe: bad request: %v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.key)
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, 0, nil, c.netErr(ctx, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil {
		return 0, 0, nil, c.netErr(ctx, err)
	}
	if err := statusErr(resp.StatusCode, data); err != nil {
		return 0, 0, nil, err
	}
	return parseAnswer(data)
}

func (c *Client) netErr(ctx context.Context, err error) error {
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.As(err, &ne) && ne.Timeout() {
		return fmt.Errorf("typesafe: no answer within %v (timeout); check the network or the proxy settings, or run offline", c.timeout)
	}
	if errors.Is(err, context.Canceled) {
		return errors.New("typesafe: request cancelled")
	}
	host := c.endpoint
	if u, e := url.Parse(c.endpoint); e == nil {
		host = u.Host
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // the URL is already named below
	}
	return fmt.Errorf("typesafe: cannot reach %s (network error: %v); check the network or the proxy settings, or run offline", host, err)
}

func statusErr(code int, body []byte) error {
	switch {
	case code >= 200 && code < 300:
		return nil
	case code == http.StatusUnauthorized || code == http.StatusForbidden:
		return fmt.Errorf("typesafe: the API key was refused (HTTP %d); check TYPESAFE_API_KEY or api_key in ~/.agentguardrc", code)
	case code == http.StatusTooManyRequests:
		return fmt.Errorf("typesafe: rate limited (HTTP 429); wait a moment or check the plan's quota")
	case code >= 400 && code < 500:
		return fmt.Errorf("typesafe: request rejected (HTTP %d: %s); check typesafe.endpoint and model in the config", code, snippet(body))
	}
	return fmt.Errorf("typesafe: server error (HTTP %d); the service is having trouble, try again later or run offline", code)
}

func snippet(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) > 160 {
		s = s[:160] + "..."
	}
	return s
}

// parseAnswer validates the answer's schema and ranges.
func parseAnswer(data []byte) (risk, violation float64, probs []float64, err error) {
	var r response
	if err := json.Unmarshal(data, &r); err != nil {
		return 0, 0, nil, fmt.Errorf("typesafe: the answer is not valid JSON (%v); the service may have changed, run offline meanwhile", err)
	}
	switch {
	case r.Answers == nil:
		return 0, 0, nil, errors.New("typesafe: the answer has no \"answers\" object (schema violation)")
	case r.Answers.DestructiveRisk == nil || r.Answers.DestructiveRisk.Score == nil:
		return 0, 0, nil, errors.New("typesafe: the answer lacks answers.destructive_risk.score (schema violation)")
	case r.Answers.PolicyViolation == nil || r.Answers.PolicyViolation.Noul == nil:
		return 0, 0, nil, errors.New("typesafe: the answer lacks answers.policy_violation.noul (schema violation)")
	}
	risk, violation = *r.Answers.DestructiveRisk.Score, *r.Answers.PolicyViolation.Noul
	if risk < 0 || risk > 3 {
		return 0, 0, nil, fmt.Errorf("typesafe: destructive_risk.score %g is outside 0..3 (schema violation)", risk)
	}
	if violation < 0 || violation > 1 {
		return 0, 0, nil, fmt.Errorf("typesafe: policy_violation.noul %g is outside 0..1 (schema violation)", violation)
	}
	if p := r.Answers.DestructiveRisk.Probs; len(p) == 4 {
		ok := true
		for _, x := range p {
			ok = ok && x >= 0 && x <= 1
		}
		if ok {
			probs = p
		}
	}
	return risk, violation, probs, nil
}

// scrub makes sure no error text carries the key.
func (c *Client) scrub(err error) error {
	if c.key != "" && strings.Contains(err.Error(), c.key) {
		return errors.New(strings.ReplaceAll(err.Error(), c.key, "[redacted]"))
	}
	return err
}

// The key lookup and the mock live in package tskey, which links no
// network client: agent-guard-judge needs them at every start.

// KeyEnv is the environment variable holding the API key.
const KeyEnv = tskey.KeyEnv

// ErrNoKey: no API key configured.
var ErrNoKey = tskey.ErrNoKey

// Stub is the remote of `check --mock` (tskey.Stub).
type Stub = tskey.Stub

// NewStub returns the standard mock (tskey.NewStub).
func NewStub() Stub { return tskey.NewStub() }

// LookupKey finds the API key (tskey.LookupKey).
func LookupKey(home string) (key, source string, err error) { return tskey.LookupKey(home) }

// Remote is FromConfig as the judge.Remote that guard.Options.NewRemote
// wants: agent-guard's own remote judge.
func Remote(c *config.Config, key string) (judge.Remote, error) {
	cl, err := FromConfig(c, key)
	if err != nil {
		return nil, err // not a typed nil in the interface
	}
	return cl, nil
}
