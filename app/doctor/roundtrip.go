package doctor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/agent-guard/agent-guard/app/install"
)

// The two events sent through the real hook. The red line is only ever a
// string handed to the judge; nothing executes it.
const (
	harmlessCommand = "git status"
	redLineCommand  = "rm -rf /"
	doctorSession   = "agent-guard-doctor"
	// tripDeadline bounds each round trip; a harmless call answers in
	// milliseconds and a red line never waits for a person.
	tripDeadline = 20 * time.Second
)

// roundTrips runs the real hook binary on a harmless and a red-line event
// and expects allow and deny.
func roundTrips(ctx context.Context, r *report, opt Options, hooks []installedHook) {
	hook, host := "", install.ZCode
	for _, h := range hooks {
		if install.CheckExecutable(h.path) == nil {
			hook, host = h.path, h.host
			break
		}
	}
	if hook == "" {
		p, err := install.FindHook(opt.Hook)
		if err != nil {
			r.fix("round trip: no hook to run (%v)", err)
			return
		}
		hook = p
	}
	for _, c := range []struct{ what, command, want string }{
		{"harmless", harmlessCommand, "allow"},
		{"red line", redLineCommand, "deny"},
	} {
		start := time.Now()
		decision, reason, err := runHook(ctx, hook, host, c.command)
		took := time.Since(start).Round(time.Millisecond)
		switch {
		case err != nil:
			r.fix("round trip (%s `%s`): %s failed: %v", c.what, c.command, hook, err)
		case decision != c.want:
			r.fix("round trip (%s `%s`): got %s, want %s (%s): check the config's lists and thresholds, and that agent-guard and agent-guard-hook are the same version", c.what, c.command, decision, c.want, reason)
		default:
			r.ok("round trip (%s `%s`): %s in %s through %s", c.what, c.command, decision, took, hook)
		}
	}
}

// runHook feeds one PreToolUse event to the hook as the host would and
// returns its decision: the JSON answer on exit 0, deny on exit 2.
func runHook(ctx context.Context, hook, host, command string) (decision, reason string, err error) {
	cwd, _ := os.UserHomeDir()
	input, _ := json.Marshal(map[string]any{
		"hook_event_name": "PreToolUse",
		"session_id":      doctorSession,
		"cwd":             cwd,
		"tool_name":       "Bash",
		"tool_input":      map[string]string{"command": command},
		"permission_mode": "bypassPermissions",
	})
	ctx, cancel := context.WithTimeout(ctx, tripDeadline+10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, hook, "--host", host, "--deadline", tripDeadline.String())
	cmd.Stdin = bytes.NewReader(input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 2 {
		return "deny", strings.TrimSpace(stderr.String()), nil
	}
	if err != nil {
		return "", "", fmt.Errorf("%v %s", err, strings.TrimSpace(stderr.String()))
	}
	var out struct {
		H struct {
			Decision string `json:"permissionDecision"`
			Reason   string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil || out.H.Decision == "" {
		return "", "", fmt.Errorf("unreadable answer %q", stdout.String())
	}
	return out.H.Decision, out.H.Reason, nil
}
