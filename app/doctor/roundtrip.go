package doctor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/agent-guard/agent-guard/app/hostproto"
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

// roundTrips runs the real hook binary, for each installed host in that
// host's own dialect and with the entry's own arguments, on a harmless and
// a red-line shell call, and reads its answers the way the host does: the
// red line must come out as a deny that host honours.
func roundTrips(ctx context.Context, r *report, opt Options, hooks []installedHook) {
	var runs []installedHook
	seen := map[string]bool{}
	for _, h := range hooks {
		if install.CheckExecutable(h.path) == nil && !seen[h.host] {
			seen[h.host] = true
			runs = append(runs, h)
		}
	}
	if len(runs) == 0 {
		p, err := install.FindHook(opt.Hook)
		if err != nil {
			r.fix("round trip: no hook to run (%v)", err)
			return
		}
		runs = []installedHook{{host: install.ZCode, path: p}}
	}
	for _, h := range runs {
		proto, ok := hostproto.Lookup(h.host)
		if !ok {
			r.fix("round trip: %s is no host the hook speaks", h.host)
			continue
		}
		for _, c := range []struct{ what, command, want string }{
			{"harmless", harmlessCommand, hostproto.Allow},
			{"red line", redLineCommand, hostproto.Deny},
		} {
			start := time.Now()
			decision, reason, err := runHook(ctx, h, proto, c.command)
			took := time.Since(start).Round(time.Millisecond)
			switch {
			case err != nil:
				r.fix("round trip %s (%s `%s`): %s failed: %v", proto.Display, c.what, c.command, h.path, err)
			case decision != c.want:
				r.fix("round trip %s (%s `%s`): %s would %s it, want %s (%s): check the config's lists and thresholds, and that agent-guard and agent-guard-hook are the same version", proto.Display, c.what, c.command, proto.Display, decision, c.want, reason)
			default:
				r.ok("round trip %s (%s `%s`): %s honoured, in %s through %s", proto.Display, c.what, c.command, decision, took, h.path)
			}
		}
	}
}

// hookArgs are the entry's arguments with our own deadline, or the
// minimal ones when the entry has none.
func hookArgs(h installedHook) []string {
	out := []string{}
	hasHost := false
	for i := 0; i < len(h.args); i++ {
		a := h.args[i]
		switch {
		case a == "--deadline" && i+1 < len(h.args):
			i++
			continue
		case strings.HasPrefix(a, "--deadline="):
			continue
		case a == "--host":
			hasHost = true
		}
		out = append(out, strings.Trim(a, `"'`))
	}
	if !hasHost {
		out = append(out, "--host", h.host)
	}
	return append(out, "--deadline", tripDeadline.String())
}

// runHook feeds one shell event in the host's dialect to the hook as the
// host would and returns what the host makes of the answer.
func runHook(ctx context.Context, h installedHook, proto hostproto.Host, command string) (decision, reason string, err error) {
	cwd, _ := os.UserHomeDir()
	ctx, cancel := context.WithTimeout(ctx, tripDeadline+10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, h.path, hookArgs(h)...)
	cmd.Stdin = bytes.NewReader(proto.ShellEvent(command, cwd, doctorSession))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		return "", "", fmt.Errorf("%v %s", err, strings.TrimSpace(stderr.String()))
	}
	decision, reason, herr := proto.HostDecision(hostproto.Output{Stdout: stdout.Bytes(), Stderr: stderr.Bytes(), Code: code})
	if herr != nil {
		return "", "", fmt.Errorf("%v (stderr %q)", herr, strings.TrimSpace(stderr.String()))
	}
	return decision, reason, nil
}
