package decide

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/audit"
	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/hostproto"
	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/wire"
)

func call(event string) Call {
	now := time.Now()
	return Call{Host: wire.HostClaude, Event: []byte(event), Start: now, Deadline: now.Add(time.Minute)}
}

const (
	gitStatus = `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"git status"}}`
	resetHard = `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"git reset --hard"}}`
	wipeHome  = `{"hook_event_name":"PreToolUse","session_id":"s","tool_name":"Bash","tool_input":{"command":"rm -rf ~"}}`
)

// The real judge, offline: the driver is what the server and the
// fallback share, so it is tested with the rules they run.
func realDeps() Deps {
	return Deps{Judge: judge.New(config.Default(), judge.Options{Offline: true, Home: "/home/dev"})}
}

func TestDecide(t *testing.T) {
	cases := []struct {
		name, event string
		deps        func(Deps) Deps
		decision    string
		source      string
		decider     string
		reasonHas   string
	}{
		{"allow", gitStatus, nil, wire.Allow, judge.SourceRule, audit.DeciderAuto, "allowed"},
		{"block", wipeHome, nil, wire.Deny, judge.SourceRule, audit.DeciderAuto, "blocked"},
		{"confirm, no dialog", resetHard, nil, wire.Deny, judge.SourceRule, audit.DeciderPolicy, "could not ask anyone"},
		{"confirm in the fallback", resetHard, func(d Deps) Deps { d.Fallback = true; return d }, wire.Deny, judge.SourceFallback, audit.DeciderPolicy, "agent-guard is not running"},
		{"fallback with a note", gitStatus, func(d Deps) Deps { d.Fallback, d.Note = true, "the process serving s is x"; return d }, wire.Allow, judge.SourceFallback, audit.DeciderAuto, "agent-guard-hook: the process serving s is x, so the call was judged without it."},
		{"approved in the dialog", resetHard, func(d Deps) Deps {
			d.Asker = AskerFunc(func(context.Context, Prompt) Answer { return Answer{Allow: true, Decider: audit.DeciderUser} })
			return d
		}, wire.Allow, judge.SourceRule, audit.DeciderUser, "approved"},
		{"unreadable", `{"tool_name":"Bash","tool_input":{}}`, nil, wire.Deny, judge.SourceError, audit.DeciderPolicy, "could not read this tool call"},
		{"not an object", `[1]`, func(d Deps) Deps { d.Fallback = true; return d }, wire.Deny, judge.SourceError, audit.DeciderPolicy, "could not read"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := realDeps()
			if c.deps != nil {
				d = c.deps(d)
			}
			r := Decide(context.Background(), call(c.event), d)
			e := r.Worst.Entry
			if r.Decision != c.decision || e.Decision != c.decision || e.Source != c.source || e.Decider != c.decider || !strings.Contains(r.Reason, c.reasonHas) || e.Reason != r.Reason {
				t.Fatalf("%s %s\nentry %+v", r.Decision, r.Reason, e)
			}
			// The host's finished output is exactly hostproto's rendering.
			if want := hostproto.Claude.Render(c.decision, r.Reason); !bytes.Equal(want.Stdout, r.Out.Stdout) || want.Code != r.Out.Code || len(r.Parts) != 1 {
				t.Fatalf("output %q, want %q", r.Out.Stdout, want.Stdout)
			}
			if e.Host != wire.HostClaude || (c.source != judge.SourceError && (e.Session != "s" || e.Tool != "Bash")) {
				t.Fatalf("entry %+v", e)
			}
			if resp := r.Response(); resp.Validate() != nil || resp.Decision != c.decision {
				t.Fatalf("response %+v", resp)
			}
		})
	}
}

// A dialog that outlives the request is cut off by its context's cause.
func TestAskReasonIsTheCause(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	d := realDeps()
	hold := make(chan struct{})
	defer close(hold)
	d.Asker = AskerFunc(func(ctx context.Context, p Prompt) Answer {
		cancel(errors.New("the hook disconnected before anyone answered"))
		<-hold // an Asker that ignores its context
		return Answer{Allow: true, Decider: audit.DeciderUser}
	})
	r := Decide(ctx, call(resetHard), d)
	if r.Decision != wire.Deny || !strings.Contains(r.Reason, "the hook disconnected") {
		t.Fatalf("%+v", r)
	}
}

type panicJudge struct{}

func (panicJudge) Judge(context.Context, judge.State) judge.Verdict { panic("boom") }

func TestPanicIsADeny(t *testing.T) {
	var problems []error
	r := Decide(context.Background(), call(gitStatus), Deps{Judge: panicJudge{}, OnProblem: func(err error) { problems = append(problems, err) }})
	if r.Decision != wire.Deny || r.Worst.Entry.Source != judge.SourceError || len(problems) != 1 {
		t.Fatalf("%+v %v", r, problems)
	}
}

// A host call with several parts (a Codex patch over two files) judges
// each; the strictest decides and every part has its audit line.
func TestPartsStrictestWins(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: notes.txt\n+hello\n*** Delete File: /etc/passwd\n*** End Patch\n"
	ev, _ := json.Marshal(map[string]any{"hook_event_name": "PreToolUse", "session_id": "p", "tool_name": "apply_patch", "tool_input": map[string]string{"command": patch}, "cwd": "/home/dev/proj"})
	c := call(string(ev))
	c.Host = "codex"
	r := Decide(context.Background(), c, realDeps())
	if r.Decision != wire.Deny || len(r.Parts) != 2 || !strings.Contains(r.Reason, "(change 2 of 2)") {
		t.Fatalf("%s %d %s", r.Decision, len(r.Parts), r.Reason)
	}
	if r.Parts[0].Entry.Decision != wire.Allow || r.Parts[1].Entry.Decision != wire.Deny {
		t.Fatalf("entries %+v", r.Parts)
	}
	if want := hostproto.Codex.Render(wire.Deny, r.Reason); !bytes.Equal(want.Stdout, r.Out.Stdout) || want.Code != r.Out.Code {
		t.Fatalf("codex output %q", r.Out.Stdout)
	}
}

func TestUnknownHostAndSkippedEvents(t *testing.T) {
	c := call(gitStatus)
	c.Host = "nosuch"
	if r := Decide(context.Background(), c, realDeps()); r.Decision != wire.Deny {
		t.Fatalf("unknown host: %+v", r)
	}
	r := Decide(context.Background(), call(`{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`), realDeps())
	if r.Decision != wire.Deny || !strings.Contains(r.Reason, "should not have sent it") || r.Worst.Entry.Source != judge.SourceError {
		t.Fatalf("not ours: %+v", r)
	}
}
