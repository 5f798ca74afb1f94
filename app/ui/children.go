//go:build !nogui

package ui

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/agent-guard/agent-guard/app/approval"
	"github.com/agent-guard/agent-guard/app/audit"
	"github.com/agent-guard/agent-guard/app/ui/proto"
)

// Payloads of the window children (one JSON line on stdin).
type settingsReq struct {
	ConfigPath string `json:"config_path"`
	KeyStatus  string `json:"key_status"`
}

type recentReq struct {
	Title     string        `json:"title,omitempty"`
	Note      string        `json:"note,omitempty"`
	AuditPath string        `json:"audit_path,omitempty"` // read the log when Entries is nil
	Entries   []audit.Entry `json:"entries,omitempty"`
}

type notifyReq struct {
	Title string `json:"title"`
	Body  string `json:"body"`
}

func settingsPayload(configPath string) (string, any) {
	return proto.VerbSettings, settingsReq{ConfigPath: configPath, KeyStatus: keyStatus()}
}

func rulesPayload(configPath string) (string, any) {
	return proto.VerbRules, rulesReq{ConfigPath: configPath}
}

func recentPayload(auditPath string) (string, any) {
	return proto.VerbRecent, recentReq{AuditPath: auditPath}
}

func missedPayload(ms []approval.Missed) (string, any) {
	r := recentReq{
		Title: "agent-guard — denied while you were away",
		Note: fmt.Sprintf("%d approval(s) timed out without an answer and were denied. "+
			"The agent was told to stop and explain; ask it to retry if you want the call to run.", len(ms)),
		Entries: []audit.Entry{},
	}
	for _, m := range ms {
		r.Entries = append(r.Entries, audit.Entry{
			TS: m.At, Tool: m.Item.Tool, Input: m.Item.Input, Level: "confirm",
			Decision: "deny", Decider: audit.DeciderPolicy, Reason: "no answer in time",
		})
	}
	return proto.VerbRecent, r
}

// keyStatus says whether a TypeSafe key is configured, never showing it:
// the first 4 and last 2 characters at most.
func keyStatus() string {
	key, from := strings.TrimSpace(os.Getenv("TYPESAFE_API_KEY")), "TYPESAFE_API_KEY"
	if key == "" {
		if home, err := os.UserHomeDir(); err == nil {
			from = "~/.agentguardrc"
			if data, err := os.ReadFile(filepath.Join(home, ".agentguardrc")); err == nil {
				key = rcKey(data)
			}
		}
	}
	if key == "" {
		return "not configured (local rules only; grey-zone calls ask you)"
	}
	return fmt.Sprintf("configured in %s (%s)", from, mask(key))
}

func rcKey(data []byte) string {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, val, ok := strings.Cut(line, "=")
		if !ok {
			return line
		}
		name = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(name), "export "))
		if strings.EqualFold(name, "TYPESAFE_API_KEY") || strings.EqualFold(name, "api_key") {
			return strings.Trim(strings.TrimSpace(val), `"'`)
		}
	}
	return ""
}

func mask(key string) string {
	r := []rune(key)
	if len(r) < 12 {
		return "••••"
	}
	return string(r[:4]) + "••••" + string(r[len(r)-2:])
}

// spawner starts window children from this executable, never from
// whatever file sits at its path now: an agent that replaced the binary
// must not get its own "dialog" started, whose answer the tray would take
// as the user's. On Linux the child is started through /proc/self/exe,
// which the kernel resolves to the running image itself (even after the
// file at the path was replaced or deleted). Elsewhere the path is
// hashed at start and hashed again before each start; a different file
// is refused. The answer is read only from the stdout pipe made for the
// child, never from the socket or a file.
type spawner struct {
	exe  string // the path the tray was started from
	self string // what to exec: /proc/self/exe on Linux, else exe
	sum  string // exe's SHA-256 at start ("" on Linux: not needed)

	mu      sync.Mutex
	running map[string]bool // one window per verb
}

// newSpawner pins the running binary (see spawner).
func newSpawner(exe string) *spawner {
	s := &spawner{exe: exe, self: exe}
	if runtime.GOOS == "linux" {
		if _, err := os.Stat("/proc/self/exe"); err == nil {
			s.self = "/proc/self/exe"
			return s
		}
	}
	if exe != "" {
		s.sum, _ = fileSum(exe)
	}
	return s
}

func fileSum(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func (s *spawner) command(verb string) (*exec.Cmd, error) {
	if s.exe == "" || s.self == "" {
		return nil, fmt.Errorf("cannot find agent-guard's own executable")
	}
	if s.self != "/proc/self/exe" {
		if s.sum == "" {
			return nil, fmt.Errorf("agent-guard could not hash its own executable %s at start, so it cannot tell it from a replacement; restart agent-guard", s.exe)
		}
		if now, err := fileSum(s.exe); err != nil || now != s.sum {
			return nil, fmt.Errorf("agent-guard's executable %s is not the file the tray started from (replaced or unreadable); no window is started from it: restart agent-guard from a genuine copy", s.exe)
		}
	}
	cmd := exec.Command(s.self, verb)
	cmd.Stderr = os.Stderr
	return cmd, nil
}

// start runs a child whose stdin/stdout the caller keeps (the prompt).
func (s *spawner) start(verb string) (*child, error) {
	cmd, err := s.command(verb)
	if err != nil {
		return nil, err
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &child{stdin: in, stdout: out, wait: cmd.Wait, kill: func() { _ = cmd.Process.Kill() }}, nil
}

// ask runs a window child with one payload line and returns its one
// reply line, read from the stdout pipe made for this child (nil when it
// exits without answering, or ctx ends first: then the child is killed).
func (s *spawner) ask(ctx context.Context, verb string, payload any) ([]byte, error) {
	c, err := s.start(verb)
	if err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, c.kill)
	defer stop()
	if err := proto.Write(c.stdin, payload); err != nil {
		c.kill()
		_ = c.wait()
		return nil, err
	}
	sc := proto.NewScanner(c.stdout)
	var line []byte
	if sc.Scan() {
		line = append([]byte(nil), sc.Bytes()...)
	}
	c.stdin.Close()
	c.kill() // one answer is all we take; the window closes itself
	_ = c.wait()
	return line, nil
}

// window runs a fire-and-forget window child with one payload line.
func (s *spawner) window(verb string, payload any) error {
	s.mu.Lock()
	if s.running == nil {
		s.running = map[string]bool{}
	}
	if s.running[verb] {
		s.mu.Unlock()
		return nil // already open
	}
	s.running[verb] = true
	s.mu.Unlock()
	done := func() { s.mu.Lock(); delete(s.running, verb); s.mu.Unlock() }

	c, err := s.start(verb)
	if err != nil {
		done()
		return err
	}
	if err := proto.Write(c.stdin, payload); err != nil {
		c.kill()
		_ = c.wait()
		done()
		return err
	}
	c.stdin.Close()
	go func() { _ = c.wait(); done() }()
	return nil
}
