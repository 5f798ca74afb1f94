// Package render turns a verdict into the host's decision (DESIGN.md step
// 9). It is pure: the server and the hook's fallback both call it, so a
// verdict renders the same whichever of them judged it.
package render

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/agent-guard/agent-guard/app/audit"
	"github.com/agent-guard/agent-guard/app/config"
	"github.com/agent-guard/agent-guard/app/judge"
	"github.com/agent-guard/agent-guard/app/wire"
)

// Answer is a human's (or the approval policy's) answer to a pending
// approval.
type Answer struct {
	Allow bool
	// Decider is audit.DeciderUser when a human clicked, audit.DeciderPolicy
	// when a timeout, a closed dialog or a cancelled hook decided.
	Decider string
	// Reason says what happened ("denied in the dialog", "no answer
	// within 120 s"); it becomes part of the host's reason. An allow whose
	// Reason starts with "always" was an always-allow (a rule was added):
	// the audit records it as approval "always", any other allow as "once".
	Reason string
}

// Input is everything a decision depends on.
type Input struct {
	Verdict judge.Verdict
	Config  *config.Config
	// PermissionMode is the host's permission_mode ("" when not sent).
	PermissionMode string
	// Dialog is true when agent-guard's own approval dialog can be shown.
	Dialog bool
	// Answer is the approval's answer, when one was asked (see NeedsApproval).
	Answer *Answer
	// Fallback is true when the hook judged in-process because agent-guard
	// was not running; it only changes the wording of the reason.
	Fallback bool
}

// Output is the host decision with its reason and who decided.
type Output struct {
	Decision string // wire.Allow | wire.Ask | wire.Deny
	Reason   string
	Decider  string // audit.DeciderAuto | DeciderUser | DeciderPolicy
	// Answer and Approval are set when an approval was asked: its own
	// words, and for a human's allow whether it was once or always.
	Answer   string
	Approval string // audit.ApprovalOnce | audit.ApprovalAlways | ""
}

// approvalOf reads a human's allow: the dialog's answer says "always ..."
// only when it added an always-allow rule; an "always" whose rule could
// not be saved answers "allowed once ...".
func approvalOf(reason string) string {
	if strings.HasPrefix(strings.ToLower(strings.TrimSpace(reason)), "always") {
		return audit.ApprovalAlways
	}
	return audit.ApprovalOnce
}

// FullAccess reports whether the host runs without its own prompts, so its
// "ask" cannot be trusted to reach a human. full_access "auto" reads the
// permission mode; a missing or unknown mode counts as full access (fail
// closed: an "ask" that is waved through would be an allow).
func FullAccess(cfg *config.Config, permissionMode string) bool {
	switch cfg.FullAccess {
	case "always":
		return true
	case "never":
		return false
	}
	switch permissionMode {
	case "default", "plan", "acceptEdits":
		return false
	}
	return true
}

// NeedsApproval reports whether a confirm goes to agent-guard's dialog:
// under full access, with approval mode "dialog" and a dialog available.
func NeedsApproval(v judge.Verdict, cfg *config.Config, permissionMode string, dialog bool) bool {
	return v.Level == judge.Confirm && dialog && cfg.Approval.Mode == "dialog" && FullAccess(cfg, permissionMode)
}

// Render decides. A block is always deny; allow is allow; a confirm is the
// approval's answer when our dialog was used, "ask" when the host's own
// prompt can be trusted (not full access), and otherwise deny when
// degrade_ask_to_deny is on (the default), "ask" when it is off. Anything
// unexpected (an unknown level, a missing answer) is deny.
func Render(in Input) Output {
	v := in.Verdict
	cfg := in.Config
	if cfg == nil {
		cfg = config.Default()
	}
	switch v.Level {
	case judge.Allow:
		return Output{Decision: wire.Allow, Reason: allowReason(v), Decider: audit.DeciderAuto}
	case judge.Block:
		return Output{Decision: wire.Deny, Reason: denyReason(v, "blocked", "agent-guard's rules block calls like this one."), Decider: audit.DeciderAuto}
	case judge.Confirm:
	default:
		return Output{Decision: wire.Deny, Reason: denyReason(v, "could not judge", fmt.Sprintf("The verdict level %v is unknown, so the call is denied.", v.Level)), Decider: audit.DeciderPolicy}
	}

	full := FullAccess(cfg, in.PermissionMode)
	if NeedsApproval(v, cfg, in.PermissionMode, in.Dialog) {
		a := in.Answer
		if a == nil {
			return Output{Decision: wire.Deny, Reason: denyReason(v, "needs confirmation", "No approval answer came back, so the call is denied."), Decider: audit.DeciderPolicy}
		}
		decider := a.Decider
		if decider != audit.DeciderUser {
			decider = audit.DeciderPolicy
		}
		if a.Allow && decider == audit.DeciderUser {
			return Output{Decision: wire.Allow, Reason: "agent-guard: the user approved this call in agent-guard's dialog. " + judged(v), Decider: decider,
				Answer: a.Reason, Approval: approvalOf(a.Reason)}
		}
		why := a.Reason
		if why == "" {
			why = "The user did not approve it."
		}
		return Output{Decision: wire.Deny, Reason: denyReason(v, "needs confirmation", sentence(why)), Decider: decider, Answer: a.Reason}
	}
	if !full {
		return Output{Decision: wire.Ask, Reason: "agent-guard: this call needs a human's confirmation. " + judged(v), Decider: audit.DeciderAuto}
	}
	if !cfg.DegradeAskToDeny {
		return Output{Decision: wire.Ask, Reason: "agent-guard: this call needs a human's confirmation; degrade_ask_to_deny is off, so the host is asked. " + judged(v), Decider: audit.DeciderAuto}
	}
	var why string
	switch {
	case in.Fallback:
		why = "agent-guard is not running, so no one could be asked; the user must start the agent-guard app to approve such calls."
	case cfg.Approval.Mode != "dialog":
		why = "agent-guard's approval dialog is turned off (approval.mode is \"agent\") and the agent runs with full access, so no one could be asked."
	default:
		why = "agent-guard could not ask anyone: no approval dialog is available; the user must start the agent-guard tray app to approve such calls."
	}
	return Output{Decision: wire.Deny, Reason: denyReason(v, "needs confirmation", why), Decider: audit.DeciderPolicy}
}

func allowReason(v judge.Verdict) string {
	return judgedAfter("agent-guard: allowed. ", v)
}

// denyReason follows the seed's template: what was judged, that a human
// must confirm, and that the agent must stop rather than work around it.
// It never contains a command: nothing in it unblocks the agent.
func denyReason(v judge.Verdict, what, why string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "agent-guard denied this call (%s). ", what)
	b.WriteString(judged(v))
	b.WriteString(" ")
	b.WriteString(why)
	b.WriteString(" A human must confirm such a call. Stop here and explain to the user what you wanted to do and why; do not retry, split or rewrite the command or use another tool to get around this decision.")
	return b.String()
}

// judged describes the verdict: level, risk, red-line probability, rule.
// judged is "Judged allow: risk 0.0 of 3 (read-only), red-line
// probability 0.00, rule r, by s. Reason." Built with appends, not fmt
// (the same text; TestJudgedAsFmt): every call's reason is made here.
func judged(v judge.Verdict) string { return judgedAfter("", v) }

// judgedAfter is prefix + judged(v), in one allocation (every allow's
// reason is made here).
func judgedAfter(prefix string, v judge.Verdict) string {
	r := strings.TrimSpace(v.Reason)
	b := make([]byte, 0, 130+len(prefix)+len(v.Rule)+len(v.Source)+len(r))
	b = append(b, prefix...)
	b = append(b, "Judged "...)
	b = append(b, v.Level.String()...)
	b = append(b, ": risk "...)
	b = strconv.AppendFloat(b, v.Risk, 'f', 1, 64)
	b = append(b, " of 3 ("...)
	b = append(b, ladder(v.Risk)...)
	b = append(b, "), red-line probability "...)
	b = strconv.AppendFloat(b, v.Violation, 'f', 2, 64)
	if v.Rule != "" {
		b = append(b, ", rule "...)
		b = append(b, v.Rule...)
	}
	if v.Source != "" {
		b = append(b, ", by "...)
		b = append(b, v.Source...)
	}
	b = append(b, '.')
	if r != "" {
		b = append(b, ' ')
		b = append(b, r...)
		if end := r[len(r)-1]; end != '.' && end != '!' && end != '?' {
			b = append(b, '.') // as sentence(r): r is trimmed and not empty
		}
	}
	return string(b)
}

func ladder(risk float64) string {
	switch {
	case risk >= 2.5:
		return "destructive and irreversible"
	case risk >= 1.5:
		return "affects services, mass changes or history"
	case risk >= 0.5:
		return "controlled, reversible"
	}
	return "read-only"
}

func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	if r := s[len(s)-1]; r != '.' && r != '!' && r != '?' {
		s += "."
	}
	return s
}
