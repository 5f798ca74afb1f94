package fallback

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/peer"
)

// The remote grey-zone judge (TypeSafe) is an HTTPS call, and net/http
// with crypto/tls costs every process that links them ~0.6 ms of init
// and page faults at start. agent-guard-judge starts on every hook
// fallback and asks the remote judge on few of them (a key configured,
// a grey-zone call, not in the cache), so it does not link them: it runs
// `agent-guard remote-judge` (app/cli), the genuine agent-guard the hook
// trusts, for each question instead. Contract:
//
//	agent-guard remote-judge --budget-ms N < judge.State (JSON)
//
// stdout is one RemoteAnswer; any other exit, or anything else on
// stdout, is a failure, which the judge turns into asking the user. The
// child reads the key itself (TYPESAFE_API_KEY or ~/.agentguardrc, the
// environment and home this process has), so the key never crosses the
// pipe or a command line.

// RemoteVerb is agent-guard's hidden verb that asks the remote judge.
const RemoteVerb = "remote-judge"

// RemoteAnswer is what RemoteVerb prints: the remote judge's answer.
type RemoteAnswer struct {
	Risk      float64   `json:"risk"`
	Violation float64   `json:"violation"`
	Probs     []float64 `json:"probs,omitempty"`
}

// Check rejects an answer outside the ranges the judge works in.
func (a RemoteAnswer) Check() error {
	if !(a.Risk >= 0 && a.Risk <= 3) || !(a.Violation >= 0 && a.Violation <= 1) {
		return fmt.Errorf("risk %v or violation %v out of range", a.Risk, a.Violation)
	}
	for _, p := range a.Probs {
		if !(p >= 0 && p <= 1) {
			return fmt.Errorf("probability %v out of range", p)
		}
	}
	return nil
}

// childRemote asks the remote judge through `guard remote-judge`.
type childRemote struct{ guard string }

// newChildRemote is guard.Options.NewRemote for the fallback: guard is
// the agent-guard binary the hook trusts (its --guard, passed on), or
// agent-guard beside this binary. It must pass the checks the hook makes
// of this judge (a regular file, this binary's owner).
func newChildRemote(guard string) func(*config.Config, string) (judge.Remote, error) {
	return func(*config.Config, string) (judge.Remote, error) {
		self, err := peer.SelfPath()
		if err != nil {
			return nil, fmt.Errorf("this judge's own path is unknown (%v)", err)
		}
		if guard == "" {
			guard = peer.DefaultBinary()
		}
		if err := peer.CheckJudge(guard, self); err != nil {
			return nil, fmt.Errorf("agent-guard, which asks it for this judge, cannot be run: %v", err)
		}
		return childRemote{guard}, nil
	}
}

func (r childRemote) Judge(ctx context.Context, s judge.State) (risk, violation float64, probs []float64, err error) {
	body, err := json.Marshal(s)
	if err != nil {
		return 0, 0, nil, err
	}
	budget := 30 * time.Second
	if d, ok := ctx.Deadline(); ok {
		budget = time.Until(d)
	}
	if budget < time.Millisecond {
		return 0, 0, nil, context.DeadlineExceeded
	}
	cmd := exec.CommandContext(ctx, r.guard, RemoteVerb, "--budget-ms", strconv.FormatInt(budget.Milliseconds(), 10))
	cmd.Stdin = bytes.NewReader(body)
	var out, errb capped
	out.max, errb.max = 64<<10, 4<<10
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = 100 * time.Millisecond // a grandchild holding the pipes cannot hold us
	err = cmd.Run()
	switch {
	case ctx.Err() != nil:
		return 0, 0, nil, fmt.Errorf("no answer within %v", budget.Round(time.Millisecond))
	case err != nil:
		return 0, 0, nil, fmt.Errorf("%s %s failed (%v: %s)", r.guard, RemoteVerb, err, oneLine(errb.String()))
	}
	var a RemoteAnswer
	dec := json.NewDecoder(bytes.NewReader(out.Bytes()))
	dec.DisallowUnknownFields()
	if out.over || dec.Decode(&a) != nil || dec.More() {
		return 0, 0, nil, fmt.Errorf("%s %s sent a broken answer", r.guard, RemoteVerb)
	}
	if err := a.Check(); err != nil {
		return 0, 0, nil, fmt.Errorf("%s %s sent a broken answer (%v)", r.guard, RemoteVerb, err)
	}
	return a.Risk, a.Violation, a.Probs, nil
}

func oneLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if s == "" {
		return "no message"
	}
	return s
}

// capped keeps at most max bytes and notes that more came.
type capped struct {
	bytes.Buffer
	max  int
	over bool
}

func (c *capped) Write(p []byte) (int, error) {
	n := len(p)
	if room := c.max - c.Len(); n > room {
		c.over = true
		p = p[:max(room, 0)]
	}
	c.Buffer.Write(p)
	return n, nil
}
