package render

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/agent-guard/agent-guard/app/audit"
	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/wire"
)

func cfgWith(mut func(*config.Config)) *config.Config {
	c := config.Default()
	if mut != nil {
		mut(c)
	}
	return c
}

func TestFullAccess(t *testing.T) {
	cases := []struct {
		setting, mode string
		want          bool
	}{
		{"auto", "", true},
		{"auto", "bypassPermissions", true},
		{"auto", "dontAsk", true},
		{"auto", "auto", true},
		{"auto", "somethingNew", true},
		{"auto", "default", false},
		{"auto", "plan", false},
		{"auto", "acceptEdits", false},
		{"always", "default", true},
		{"never", "bypassPermissions", false},
		{"never", "", false},
	}
	for _, c := range cases {
		cfg := cfgWith(func(x *config.Config) { x.FullAccess = c.setting })
		if got := FullAccess(cfg, c.mode); got != c.want {
			t.Errorf("FullAccess(%s, %q) = %v, want %v", c.setting, c.mode, got, c.want)
		}
	}
}

func TestRender(t *testing.T) {
	allow := judge.Verdict{Level: judge.Allow, Source: "rule", Rule: "git.read", Reason: "read-only git"}
	confirm := judge.Verdict{Level: judge.Confirm, Source: "rule", Rule: "git.reset_hard", Reason: "discards uncommitted work", Risk: 2, Violation: 0.1}
	block := judge.Verdict{Level: judge.Block, Source: "rule", Rule: "rm.root", Reason: "deletes the whole filesystem", Risk: 3, Violation: 0.97}
	yes := &Answer{Allow: true, Decider: audit.DeciderUser, Reason: "allowed once"}
	no := &Answer{Allow: false, Decider: audit.DeciderUser, Reason: "denied in the dialog"}
	timeout := &Answer{Allow: false, Decider: audit.DeciderPolicy, Reason: "no answer within 120 s"}
	// A policy "allow" must never become an allow: only a human approves.
	bogus := &Answer{Allow: true, Decider: audit.DeciderPolicy}
	def := cfgWith(nil)
	noDegrade := cfgWith(func(c *config.Config) { c.DegradeAskToDeny = false })
	agentMode := cfgWith(func(c *config.Config) { c.Approval.Mode = "agent" })
	never := cfgWith(func(c *config.Config) { c.FullAccess = "never" })
	always := cfgWith(func(c *config.Config) { c.FullAccess = "always" })

	cases := []struct {
		name     string
		in       Input
		decision string
		decider  string
		contains []string
	}{
		{"allow", Input{Verdict: allow, Config: def}, wire.Allow, audit.DeciderAuto, []string{"git.read"}},
		{"allow without config", Input{Verdict: allow}, wire.Allow, audit.DeciderAuto, nil},
		{"block full access with dialog", Input{Verdict: block, Config: def, Dialog: true, Answer: yes}, wire.Deny, audit.DeciderAuto, []string{"rm.root", "risk 3.0", "0.97", "deletes the whole filesystem", "do not retry"}},
		{"block not full access", Input{Verdict: block, Config: def, PermissionMode: "default"}, wire.Deny, audit.DeciderAuto, []string{"blocked"}},
		{"confirm full access user allows", Input{Verdict: confirm, Config: def, Dialog: true, Answer: yes}, wire.Allow, audit.DeciderUser, []string{"approved"}},
		{"confirm full access user denies", Input{Verdict: confirm, Config: def, Dialog: true, Answer: no}, wire.Deny, audit.DeciderUser, []string{"denied in the dialog", "git.reset_hard", "A human must confirm", "explain to the user"}},
		{"confirm full access timeout", Input{Verdict: confirm, Config: def, Dialog: true, Answer: timeout}, wire.Deny, audit.DeciderPolicy, []string{"no answer within 120 s"}},
		{"confirm policy allow is deny", Input{Verdict: confirm, Config: def, Dialog: true, Answer: bogus}, wire.Deny, audit.DeciderPolicy, nil},
		{"confirm dialog but no answer", Input{Verdict: confirm, Config: def, Dialog: true}, wire.Deny, audit.DeciderPolicy, []string{"No approval answer"}},
		{"confirm full access no dialog", Input{Verdict: confirm, Config: def}, wire.Deny, audit.DeciderPolicy, []string{"could not ask anyone", "start the agent-guard tray app"}},
		{"confirm full access no dialog bypass", Input{Verdict: confirm, Config: def, PermissionMode: "bypassPermissions", Answer: yes}, wire.Deny, audit.DeciderPolicy, nil},
		{"confirm fallback full access", Input{Verdict: confirm, Config: def, Fallback: true}, wire.Deny, audit.DeciderPolicy, []string{"agent-guard is not running"}},
		{"confirm fallback not full access", Input{Verdict: confirm, Config: def, Fallback: true, PermissionMode: "default"}, wire.Ask, audit.DeciderAuto, nil},
		{"confirm not full access", Input{Verdict: confirm, Config: def, PermissionMode: "default", Dialog: true}, wire.Ask, audit.DeciderAuto, []string{"git.reset_hard"}},
		{"confirm plan mode", Input{Verdict: confirm, Config: def, PermissionMode: "plan"}, wire.Ask, audit.DeciderAuto, nil},
		{"confirm acceptEdits", Input{Verdict: confirm, Config: def, PermissionMode: "acceptEdits"}, wire.Ask, audit.DeciderAuto, nil},
		{"confirm full access never", Input{Verdict: confirm, Config: never, PermissionMode: "bypassPermissions", Dialog: true}, wire.Ask, audit.DeciderAuto, nil},
		{"confirm full access always with dialog", Input{Verdict: confirm, Config: always, PermissionMode: "default", Dialog: true, Answer: yes}, wire.Allow, audit.DeciderUser, nil},
		{"confirm full access no degrade", Input{Verdict: confirm, Config: noDegrade}, wire.Ask, audit.DeciderAuto, nil},
		{"confirm agent mode full access", Input{Verdict: confirm, Config: agentMode, Dialog: true, Answer: yes}, wire.Deny, audit.DeciderPolicy, []string{"approval.mode"}},
		{"confirm agent mode not full access", Input{Verdict: confirm, Config: agentMode, PermissionMode: "default"}, wire.Ask, audit.DeciderAuto, nil},
		{"unknown level", Input{Verdict: judge.Verdict{Level: judge.Level(7)}, Config: def}, wire.Deny, audit.DeciderPolicy, []string{"unknown"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := Render(c.in)
			if out.Decision != c.decision || out.Decider != c.decider {
				t.Fatalf("got %s by %s, want %s by %s (reason %q)", out.Decision, out.Decider, c.decision, c.decider, out.Reason)
			}
			for _, s := range c.contains {
				if !strings.Contains(out.Reason, s) {
					t.Errorf("reason %q lacks %q", out.Reason, s)
				}
			}
			if out.Decision == wire.Deny {
				for _, s := range []string{"Judged", "A human must confirm", "Stop here", "do not retry"} {
					if !strings.Contains(out.Reason, s) {
						t.Errorf("deny reason %q lacks %q", out.Reason, s)
					}
				}
			}
		})
	}
}

func TestNeedsApproval(t *testing.T) {
	confirm := judge.Verdict{Level: judge.Confirm}
	def := cfgWith(nil)
	if !NeedsApproval(confirm, def, "", true) {
		t.Error("confirm, full access, dialog: want approval")
	}
	if NeedsApproval(confirm, def, "", false) {
		t.Error("no dialog: no approval")
	}
	if NeedsApproval(confirm, def, "default", true) {
		t.Error("not full access: the host asks")
	}
	if NeedsApproval(judge.Verdict{Level: judge.Block}, def, "", true) {
		t.Error("block is never approvable")
	}
	if NeedsApproval(judge.Verdict{Level: judge.Allow}, def, "", true) {
		t.Error("allow needs no approval")
	}
}

// A reason must never hand the agent a way out: no shell command, no
// "allow-once" instruction it could follow itself.
func TestReasonsCarryNoUnblockCommand(t *testing.T) {
	v := judge.Verdict{Level: judge.Confirm, Rule: "x", Reason: "why"}
	for _, in := range []Input{
		{Verdict: v, Config: cfgWith(nil)},
		{Verdict: v, Config: cfgWith(nil), Fallback: true},
		{Verdict: judge.Verdict{Level: judge.Block}, Config: cfgWith(nil)},
	} {
		r := Render(in).Reason
		for _, bad := range []string{"agent-guard allow", "agent-guard serve", "--", "`", "$ "} {
			if strings.Contains(r, bad) {
				t.Errorf("reason %q contains %q", r, bad)
			}
		}
	}
}

// judged writes what the fmt version wrote.
func TestJudgedAsFmt(t *testing.T) {
	old := func(v judge.Verdict) string {
		var b strings.Builder
		fmt.Fprintf(&b, "Judged %s: risk %.1f of 3 (%s), red-line probability %.2f", v.Level, v.Risk, ladder(v.Risk), v.Violation)
		if v.Rule != "" {
			fmt.Fprintf(&b, ", rule %s", v.Rule)
		}
		if v.Source != "" {
			fmt.Fprintf(&b, ", by %s", v.Source)
		}
		b.WriteString(".")
		if r := strings.TrimSpace(v.Reason); r != "" {
			b.WriteString(" ")
			b.WriteString(sentence(r))
		}
		return b.String()
	}
	for _, v := range []judge.Verdict{
		{},
		{Level: judge.Allow, Rule: "git.read", Source: "rule", Reason: "git status only reads the repository"},
		{Level: judge.Block, Risk: 3, Violation: 1, Rule: "fs.rm-root", Source: "rule", Reason: "  deletes / %s %d  "},
		{Level: judge.Confirm, Risk: 1.55, Violation: 0.505, Source: "api", Reason: "grey zone."},
		{Level: judge.Level(7), Risk: -0.04, Violation: 0.994999, Reason: "ü"},
		{Risk: math.NaN(), Violation: math.Inf(1)},
		{Risk: math.Inf(-1), Violation: 1e300},
	} {
		if got, want := judged(v), old(v); got != want {
			t.Errorf("got  %q\nwant %q", got, want)
		}
	}
}
