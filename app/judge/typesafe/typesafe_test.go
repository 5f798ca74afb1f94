package typesafe

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/judge"
)

const testKey = "ts-SECRET-key-0123456789abcdef"

var state = judge.State{Tool: "Bash", Command: "make deploy", Cwd: "/home/dev/proj", PermissionMode: "bypassPermissions"}

func client(t *testing.T, url string, timeout time.Duration) *Client {
	t.Helper()
	c, err := New(Options{Endpoint: url, Key: testKey, Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestSuccessAndRequestShape(t *testing.T) {
	var got map[string]any
	var auth string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth = r.Header.Get("Authorization")
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
			http.Error(w, "bad", 400)
			return
		}
		json.NewDecoder(r.Body).Decode(&got)
		io.WriteString(w, `{"answers":{"destructive_risk":{"score":1.7,"probs":[0.1,0.2,0.6,0.1]},"policy_violation":{"noul":0.25}}}`)
	}))
	defer srv.Close()
	r, v, p, err := client(t, srv.URL, 5*time.Second).Judge(context.Background(), state)
	if err != nil || r != 1.7 || v != 0.25 || len(p) != 4 {
		t.Fatalf("Judge = %v %v %v %v", r, v, p, err)
	}
	if auth != "Bearer "+testKey {
		t.Errorf("Authorization = %q", auth)
	}
	if got["model"] != "jev-latest" {
		t.Errorf("model = %v", got["model"])
	}
	st, _ := got["state"].(map[string]any)
	if st["tool"] != "Bash" || st["command"] != "make deploy" || st["cwd"] != "/home/dev/proj" || st["permission_mode"] != nil {
		t.Errorf("state = %v", st)
	}
	qs, _ := got["questions"].([]any)
	if len(qs) != 2 {
		t.Fatalf("questions = %v", qs)
	}
	q0, q1 := qs[0].(map[string]any), qs[1].(map[string]any)
	if q0["id"] != "destructive_risk" || q0["type"] != "score" || len(q0["criteria"].([]any)) != 4 {
		t.Errorf("question 0 = %v", q0)
	}
	if q1["id"] != "policy_violation" || q1["type"] != "noul" || len(q1["criteria"].([]any)) < 5 {
		t.Errorf("question 1 = %v", q1)
	}
}

func TestFailures(t *testing.T) {
	tests := []struct {
		name   string
		status int
		body   string
		want   string
	}{
		{"401", 401, `{"error":"bad key"}`, "API key was refused"},
		{"403", 403, ``, "API key was refused"},
		{"429", 429, ``, "rate limited"},
		{"400", 400, `{"error":"unknown model"}`, "HTTP 400: {\"error\":\"unknown model\"}"},
		{"500", 500, `oops`, "server error (HTTP 500)"},
		{"503", 503, ``, "server error (HTTP 503)"},
		{"malformed", 200, `{"answers":`, "not valid JSON"},
		{"html", 200, `<html>hi</html>`, "not valid JSON"},
		{"no answers", 200, `{}`, "no \"answers\""},
		{"no score", 200, `{"answers":{"destructive_risk":{},"policy_violation":{"noul":0.1}}}`, "destructive_risk.score"},
		{"no noul", 200, `{"answers":{"destructive_risk":{"score":1}}}`, "policy_violation.noul"},
		{"score string", 200, `{"answers":{"destructive_risk":{"score":"high"},"policy_violation":{"noul":0.1}}}`, "not valid JSON"},
		{"risk range", 200, `{"answers":{"destructive_risk":{"score":3.5},"policy_violation":{"noul":0.1}}}`, "outside 0..3"},
		{"risk negative", 200, `{"answers":{"destructive_risk":{"score":-1},"policy_violation":{"noul":0.1}}}`, "outside 0..3"},
		{"noul range", 200, `{"answers":{"destructive_risk":{"score":1},"policy_violation":{"noul":1.2}}}`, "outside 0..1"},
		{"echo key", 500, testKey, "server error"},
		{"echo key 4xx", 422, `your key ` + testKey + ` is bad`, "HTTP 422"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.WriteHeader(tt.status)
				io.WriteString(w, tt.body)
			}))
			defer srv.Close()
			_, _, _, err := client(t, srv.URL, 5*time.Second).Judge(context.Background(), state)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v; want it to contain %q", err, tt.want)
			}
			if strings.Contains(err.Error(), testKey) {
				t.Fatalf("error leaks the key: %v", err)
			}
		})
	}
}

func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	start := time.Now()
	_, _, _, err := client(t, srv.URL, 200*time.Millisecond).Judge(context.Background(), state)
	if err == nil || !strings.Contains(err.Error(), "timeout") {
		t.Fatalf("err = %v; want a timeout", err)
	}
	if time.Since(start) > 20*time.Second {
		t.Fatalf("timeout not enforced")
	}
}

func TestNetworkError(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now
	_, _, _, err = client(t, "http://"+addr+"/v1/systemone", 5*time.Second).Judge(context.Background(), state)
	if err == nil || !strings.Contains(err.Error(), "cannot reach") || strings.Contains(err.Error(), testKey) {
		t.Fatalf("err = %v", err)
	}
}

func TestNoKey(t *testing.T) {
	if _, err := New(Options{Endpoint: "https://x", Key: " "}); !errors.Is(err, ErrNoKey) {
		t.Fatalf("err = %v; want ErrNoKey", err)
	}
	if _, err := New(Options{Endpoint: "ftp://x", Key: "k"}); err == nil {
		t.Fatal("accepted a non-http endpoint")
	}
}

func TestFromConfig(t *testing.T) {
	c := config.Default()
	c.Proxy = config.Proxy{Enabled: true, Host: "127.0.0.1", Port: 3128}
	cl, err := FromConfig(c, testKey)
	if err != nil {
		t.Fatal(err)
	}
	if cl.timeout != 8*time.Second || cl.model != "jev-latest" || cl.endpoint != "https://api.typesafe.ai/v1/systemone" {
		t.Errorf("client = %+v", cl)
	}
	tr := cl.hc.Transport.(*http.Transport)
	req, _ := http.NewRequest("POST", cl.endpoint, nil)
	u, err := tr.Proxy(req)
	if err != nil || u == nil || u.Host != "127.0.0.1:3128" {
		t.Errorf("proxy = %v %v", u, err)
	}
}

// connectProxy is a minimal HTTP CONNECT proxy on 127.0.0.1:0. It answers
// "200 Connection established" in full before splicing, and uses the
// buffered reader for the client side so no byte the client sent early is
// lost (the cause of "first record does not look like a TLS handshake").
type connectProxy struct {
	ln      net.Listener
	mu      sync.Mutex
	targets []string
	wg      sync.WaitGroup
}

func newConnectProxy(t *testing.T) *connectProxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &connectProxy{ln: ln}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.wg.Add(1)
			go func() { defer p.wg.Done(); p.serve(c) }()
		}
	}()
	t.Cleanup(func() { ln.Close(); p.wg.Wait() })
	return p
}

func (p *connectProxy) serve(c net.Conn) {
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	br := bufio.NewReader(c)
	req, err := http.ReadRequest(br)
	if err != nil {
		return
	}
	if req.Method != http.MethodConnect {
		io.WriteString(c, "HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
		return
	}
	p.mu.Lock()
	p.targets = append(p.targets, req.Host)
	p.mu.Unlock()
	up, err := net.DialTimeout("tcp", req.Host, 10*time.Second)
	if err != nil {
		io.WriteString(c, "HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
		return
	}
	defer up.Close()
	up.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := io.WriteString(c, "HTTP/1.1 200 Connection established\r\n\r\n"); err != nil {
		return
	}
	done := make(chan struct{}, 2)
	go func() { io.Copy(up, br); closeWrite(up); done <- struct{}{} }()
	go func() { io.Copy(c, up); closeWrite(c); done <- struct{}{} }()
	<-done
	<-done
}

func closeWrite(c net.Conn) {
	if tc, ok := c.(*net.TCPConn); ok {
		tc.CloseWrite()
	}
}

func (p *connectProxy) seen() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.targets...)
}

func TestProxyConnectForHTTPS(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		io.WriteString(w, `{"answers":{"destructive_risk":{"score":2.0},"policy_violation":{"noul":0.5}}}`)
	}))
	defer srv.Close()
	proxy := newConnectProxy(t)
	tlsCfg := srv.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
	c, err := New(Options{Endpoint: srv.URL + "/v1/systemone", Key: testKey, Timeout: 20 * time.Second,
		Proxy: proxy.ln.Addr().String(), TLS: tlsCfg})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, v, _, err := c.Judge(ctx, state)
	if err != nil || r != 2 || v != 0.5 {
		t.Fatalf("through proxy: %v %v %v", r, v, err)
	}
	host := strings.TrimPrefix(srv.URL, "https://")
	if got := proxy.seen(); len(got) != 1 || got[0] != host {
		t.Fatalf("proxy saw CONNECT %v; want [%s]", got, host)
	}
	if hits.Load() != 1 {
		t.Fatalf("server hits = %d", hits.Load())
	}
	c.hc.CloseIdleConnections()
}

func TestStub(t *testing.T) {
	r, v, _, err := NewStub().Judge(context.Background(), state)
	if err != nil || r != 1 || v != 0.1 {
		t.Fatalf("stub = %v %v %v", r, v, err)
	}
	var _ judge.Remote = NewStub()
	var _ judge.Remote = (*Client)(nil)
}

func TestLookupKey(t *testing.T) {
	home := t.TempDir()
	rc := filepath.Join(home, ".agentguardrc")
	t.Setenv(KeyEnv, "")
	if k, _, err := LookupKey(home); k != "" || err != nil {
		t.Fatalf("no key anywhere: %q %v", k, err)
	}
	files := map[string]string{
		"# comment\nTYPESAFE_API_KEY=abc123\n":  "abc123",
		"export TYPESAFE_API_KEY=\"abc 123\"\n": "abc 123",
		"other=1\napi_key = 'xyz'\n":            "xyz",
		`{"api_key": "json-key"}`:               "json-key",
		"  {\"typesafe_api_key\":\"j2\"}\n":     "j2",
		"nothing here\n":                        "",
		"api_key=\n":                            "",
	}
	for content, want := range files {
		os.WriteFile(rc, []byte(content), 0o600)
		k, src, err := LookupKey(home)
		if err != nil || k != want || (want != "" && src != rc) {
			t.Errorf("rc %q: got %q %q %v; want %q", content, k, src, err, want)
		}
	}
	os.WriteFile(rc, []byte(`{"api_key": `), 0o600)
	if _, _, err := LookupKey(home); err == nil || !strings.Contains(err.Error(), "does not parse") {
		t.Error("malformed JSON rc accepted")
	}
	t.Setenv(KeyEnv, "env-key")
	if k, src, _ := LookupKey(home); k != "env-key" || src != "$"+KeyEnv {
		t.Errorf("env first: %q %q", k, src)
	}
}
