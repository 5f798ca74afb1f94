//go:build !nogui

package ui

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/approval"
	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/server"
	"github.com/agent-guard/agent-guard/app/ui/proto"
)

// fakeDialog plays a dialog process: it reads the prompt and then runs script.
type fakeDialog struct {
	mu       sync.Mutex
	prompts  []proto.Prompt
	controls []proto.Control
}

func (f *fakeDialog) starter(script func(p proto.Prompt, out io.Writer, ctl <-chan proto.Control)) starter {
	return func(verb string) (*child, error) {
		if verb != proto.VerbPrompt {
			return nil, errors.New("unexpected verb " + verb)
		}
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		done := make(chan struct{})
		go func() {
			defer close(done)
			defer outW.Close()
			s := proto.NewScanner(inR)
			if !s.Scan() {
				return
			}
			var p proto.Prompt
			_ = json.Unmarshal(s.Bytes(), &p)
			f.mu.Lock()
			f.prompts = append(f.prompts, p)
			f.mu.Unlock()
			ctl := make(chan proto.Control, 10)
			go func() {
				defer close(ctl)
				for s.Scan() {
					var c proto.Control
					_ = json.Unmarshal(s.Bytes(), &c)
					f.mu.Lock()
					f.controls = append(f.controls, c)
					f.mu.Unlock()
					ctl <- c
				}
			}()
			script(p, outW, ctl)
		}()
		return &child{
			stdin: inW, stdout: outR,
			wait: func() error { <-done; return nil },
			kill: func() { inR.CloseWithError(errors.New("killed")); outW.CloseWithError(errors.New("killed")) },
		}, nil
	}
}

func reply(action string) func(proto.Prompt, io.Writer, <-chan proto.Control) {
	return func(p proto.Prompt, out io.Writer, _ <-chan proto.Control) {
		scope := ""
		if action == proto.ActionAlways {
			scope = proto.ScopeWorkspace
		}
		_ = proto.Write(out, proto.Reply{ID: p.ID, Action: action, Scope: scope})
	}
}

func bashPrompt(cmd string) server.Prompt {
	return server.Prompt{
		Host: "claude", Session: "s1",
		State:    judge.State{Tool: "Bash", Command: cmd, Cwd: "/w"},
		Verdict:  judge.Verdict{Level: judge.Confirm, Risk: 2, Rule: "git.reset-hard", Reason: "r", Marked: cmd},
		Deadline: time.Now().Add(time.Minute),
	}
}

func startPrompter(t *testing.T, st starter, onAlways func(func(*config.Config) error) error) (*approval.Queue, *prompter) {
	t.Helper()
	q := approval.New(approval.Options{})
	if onAlways == nil {
		onAlways = func(func(*config.Config) error) error { return nil }
	}
	p := newPrompter(q, st, onAlways, nil)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go p.run(ctx)
	return q, p
}

func ask(q *approval.Queue, pr server.Prompt) server.Answer {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return asker{q: q}.Ask(ctx, pr)
}

func TestPrompterAnswers(t *testing.T) {
	tests := []struct {
		name        string
		script      func(proto.Prompt, io.Writer, <-chan proto.Control)
		allow       bool
		decider     string
		reasonWords string
	}{
		{"allow once", reply(proto.ActionAllow), true, "user", "allowed once"},
		{"deny", reply(proto.ActionDeny), false, "user", "denied in the agent-guard dialog"},
		{"always", reply(proto.ActionAlways), true, "user", "always allowed"},
		{"dialog exits without answer", func(proto.Prompt, io.Writer, <-chan proto.Control) {}, false, "policy", "closed without an answer"},
		{"garbage answer", func(p proto.Prompt, out io.Writer, _ <-chan proto.Control) { _, _ = out.Write([]byte("yes please\n")) }, false, "policy", "broken answer"},
		{"answer for another item", func(p proto.Prompt, out io.Writer, _ <-chan proto.Control) {
			_ = proto.Write(out, proto.Reply{ID: p.ID + 1, Action: proto.ActionAllow})
		}, false, "policy", "expected"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := &fakeDialog{}
			var edits []func(*config.Config) error
			var mu sync.Mutex
			q, _ := startPrompter(t, f.starter(tc.script), func(e func(*config.Config) error) error {
				mu.Lock()
				edits = append(edits, e)
				mu.Unlock()
				return nil
			})
			a := ask(q, bashPrompt("git reset --hard HEAD~1"))
			if a.Allow != tc.allow || a.Decider != tc.decider || !contains(a.Reason, tc.reasonWords) {
				t.Fatalf("answer %+v, want allow=%v decider=%s reason~%q", a, tc.allow, tc.decider, tc.reasonWords)
			}
			mu.Lock()
			defer mu.Unlock()
			if (tc.name == "always") != (len(edits) == 1) {
				t.Fatalf("%d config edits", len(edits))
			}
			if len(edits) == 1 {
				c := config.Default()
				if err := edits[0](c); err != nil || len(c.ScopedApprovals) != 1 {
					t.Fatalf("always edit gave %+v %v", c.ScopedApprovals, err)
				}
				if a := c.ScopedApprovals[0]; a.Scope != config.ScopeWorkspace || a.Workspace != "/w" || a.Pattern != "git reset --hard HEAD~1" || a.Host != "claude" || a.AddedAt.IsZero() {
					t.Fatalf("approval %+v, want the command in workspace /w from claude, dated", a)
				}
				if len(c.Fastpath.Allowlist) != 0 {
					t.Fatalf("always wrote a global allowlist entry: %v", c.Fastpath.Allowlist)
				}
			}
			f.mu.Lock()
			defer f.mu.Unlock()
			if len(f.prompts) != 1 || f.prompts[0].Call.Text != "git reset --hard HEAD~1" || len(f.prompts[0].Always) != 1 ||
				f.prompts[0].HostName != "Claude Code" || f.prompts[0].Session != "s1" || len(f.prompts[0].Scopes) != 3 {
				t.Fatalf("prompts %+v", f.prompts)
			}
		})
	}
}

func TestPrompterCannotStartDenies(t *testing.T) {
	var errs []error
	var mu sync.Mutex
	q := approval.New(approval.Options{})
	p := newPrompter(q, func(string) (*child, error) { return nil, errors.New("no display") },
		func(func(*config.Config) error) error { return nil }, func(err error) { mu.Lock(); errs = append(errs, err); mu.Unlock() })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go p.run(ctx)
	a := ask(q, bashPrompt("x"))
	if a.Allow || a.Decider != "policy" || !contains(a.Reason, "no display") {
		t.Fatalf("answer %+v", a)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(errs) != 1 {
		t.Fatalf("onError called %d times", len(errs))
	}
}

// An item answered elsewhere (the tray menu) closes its dialog, and the
// next pending item gets a dialog of its own.
func TestPrompterQueueAndCloseOnOutsideAnswer(t *testing.T) {
	f := &fakeDialog{}
	waitClose := func(p proto.Prompt, out io.Writer, ctl <-chan proto.Control) {
		for c := range ctl {
			if c.Type == "close" {
				return
			}
		}
	}
	q, _ := startPrompter(t, f.starter(waitClose), nil)
	res := make(chan server.Answer, 2)
	go func() { res <- ask(q, bashPrompt("first")) }()
	waitUntil(t, func() bool { f.mu.Lock(); defer f.mu.Unlock(); return len(f.prompts) == 1 })
	go func() { res <- ask(q, bashPrompt("second")) }()
	waitUntil(t, func() bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		return slices.Contains(f.controls, proto.Control{Type: "queue", Queue: 2})
	})
	first := q.Pending()[0]
	if first.Item.Input != "first" {
		t.Fatalf("head %+v", first.Item)
	}
	q.Answer(first.ID, true, "allowed once from the tray menu")
	if a := <-res; !a.Allow || a.Decider != "user" {
		t.Fatalf("first %+v", a)
	}
	waitUntil(t, func() bool { f.mu.Lock(); defer f.mu.Unlock(); return len(f.prompts) == 2 })
	f.mu.Lock()
	if f.prompts[1].Call.Text != "second" {
		t.Fatalf("second dialog shows %q", f.prompts[1].Call.Text)
	}
	f.mu.Unlock()
	q.Answer(q.Pending()[0].ID, false, "")
	if a := <-res; a.Allow {
		t.Fatalf("second %+v", a)
	}
}

func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("condition not met in time")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func contains(s, sub string) bool {
	return len(sub) == 0 || (len(s) >= len(sub) && indexOf(s, sub) >= 0)
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}
