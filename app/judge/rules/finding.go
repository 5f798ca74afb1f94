package rules

// Finding is one rule's judgment.
type Finding struct {
	Risk      float64 // 0 read-only; 1 controlled; 2 services/mass/history; 3 destructive
	Violation float64 // red-line probability 0..1
	Rule      string  // stable id, e.g. "fs.rm-root"
	Reason    string  // one human sentence
	Marked    string  // the text that decided (for the dialog)
	// RedLine: a red line or self-protection; never "Always allow".
	RedLine bool
	// Uncertain: the local rules could not settle it (unknown program,
	// grey zone); the remote judge may be asked and may only raise it.
	Uncertain bool
	// NameOnly: the rule knew the program but not its arguments (the
	// everyday "builds, tests" or "reads or reports" verdicts), so its
	// words are still read for a dangerous tail (mytool rm -rf ~; see
	// tailFinding in bash.go).
	NameOnly bool
	// Start and End are the byte offsets of the judged span in the text
	// the rule read (the Bash command, the script content); End 0 means
	// unknown. Set by the plumbing (BashAnalysis), not by each pack.
	Start, End int
}

// Worse reports whether f outranks g (higher violation or risk).
func (f Finding) Worse(g Finding) bool {
	if f.RedLine != g.RedLine {
		return f.RedLine
	}
	fs, gs := f.score(), g.score()
	if fs != gs {
		return fs > gs
	}
	if a, b := SelfFinding(f), SelfFinding(g); a != b {
		return a // equally bad: self-protection names it (no setting lifts it)
	}
	return !f.Uncertain && g.Uncertain
}

// score orders findings on one axis: a violation of RedLineAt counts like
// risk 2.55 (block), 0.5 like 1.5 (confirm).
func (f Finding) score() float64 {
	v := f.Violation * 3
	if f.Risk > v {
		return f.Risk
	}
	return v
}

// Worst returns the worst of the findings (zero Finding when none).
func Worst(fs ...Finding) Finding {
	var w Finding
	for i, f := range fs {
		if i == 0 || f.Worse(w) {
			w = f
		}
	}
	return w
}
