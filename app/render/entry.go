package render

import (
	"strings"
	"time"

	"github.com/agent-guard/agent-guard/app/audit"
	"github.com/agent-guard/agent-guard/app/judge"
)

// Subject is the part of a call the audit digest shows: the command, the
// file path, or the MCP tool and its arguments.
func Subject(s judge.State) string {
	switch {
	case s.Command != "":
		return s.Command
	case s.Server != "":
		return strings.TrimSpace(s.Server + "/" + s.MCPTool + " " + s.Args)
	case s.FilePath != "":
		return s.FilePath
	}
	return s.Args
}

// Entry builds the audit line for one rendered decision. source overrides
// the verdict's source when not empty (the hook's fallback writes
// "fallback").
func Entry(host string, ev judge.Event, s judge.State, v judge.Verdict, out Output, source string, start time.Time, wait time.Duration) audit.Entry {
	if source == "" {
		source = v.Source
	}
	tool := s.Tool
	if tool == "" {
		tool = ev.ToolName
	}
	cwd := s.Cwd
	if cwd == "" {
		cwd = ev.Cwd
	}
	return audit.Entry{
		TS:         start.UTC(),
		Host:       host,
		Session:    ev.SessionID,
		Cwd:        cwd,
		Tool:       tool,
		Input:      audit.Digest(Subject(s)),
		Source:     source,
		Rule:       v.Rule,
		Risk:       v.Risk,
		RiskProbs:  v.RiskProbs,
		Violation:  v.Violation,
		Level:      v.Level.String(),
		Decision:   out.Decision,
		Decider:    out.Decider,
		Reason:     out.Reason,
		DurationMS: ms(time.Since(start)),
		WaitMS:     ms(wait),
		Answer:     out.Answer,
		Approval:   out.Approval,
	}
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
