package shell

// Mixed readings: a line taken for PowerShell is read as bash too (and the
// other way), and what the second reading finds is merged.

import (
	"fmt"
	"strings"
)

// merge adds what another reading of src finds: with ps, the bash
// reading of a line taken for PowerShell (the Bash tool is bash even on
// Windows, Git Bash, so `Get-Help x; $(echo rm) -rf ~` must not hide its
// rm); without, bash's reading of the original text before Windows
// trailing backslashes were doubled. Commands the first reading found
// are not added twice; neither are commands with a dynamic name that are
// PowerShell expressions ($env:CI = "true" read by bash), nor ones that
// only lack a variable the PowerShell pass knew. The other reading's
// parse error does not count (the line was read).
func (w *walker) merge(src string, ps bool) {
	var ba Analysis
	// The other reading's nested code gets no further readings of its own
	// (child walkers inherit the flags), and it spends the line's budget.
	bw := &walker{a: &ba, st: &shared{parsed: w.st.parsed}, depth: w.depth, bashOnly: true, rawBS: true}
	func() {
		defer func() { _ = recover() }()
		bw.run(src)
	}()
	w.st.parsed = bw.st.parsed
	if bw.st.stopped {
		w.setErr(fmt.Errorf("more than %d bytes of nested code", 4*MaxInput))
		w.st.stopped = true
	}
	if ba.ForkBomb != "" && w.a.ForkBomb == "" {
		w.a.ForkBomb = ba.ForkBomb
	}
	if ba.Exhaust != "" && w.a.Exhaust == "" {
		w.a.Exhaust = ba.Exhaust
	}
	have := map[string]bool{}
	for _, c := range w.a.Cmds {
		have[c.Name] = true
		have[c.Name+"\x00"+strings.Join(c.Args, "\x00")] = true
	}
	for _, c := range ba.Cmds {
		if c.Name == "" && !c.DynName || have[c.Name+"\x00"+strings.Join(c.Args, "\x00")] || strings.ContainsAny(c.Name, "{}()") {
			continue
		}
		if c.DynName && (!ps || ba.Err != nil || psExpr(c.Raw)) {
			// (Unparsable for bash: its naive pieces of PowerShell syntax
			// like ($f in ...) are no programs bash would run.)
			continue
		}
		if ps && strings.Contains(c.Name, "\n") && psLiteral(strings.TrimSpace(c.Raw)) && strings.HasPrefix(strings.TrimSpace(c.Raw), "@") {
			// @" ... "@ | Set-Content x: a here-string, which bash reads
			// as a program named by the whole text (no such program).
			continue
		}
		if ps && have[c.Name] && (len(c.PipedFrom) > 0 || len(c.Args) == 0) && len(c.Operands()) == 0 && isCmdlet(c.Prog) {
			// gci | Where-Object { ... } | Remove-Item: bash reads the
			// cmdlet with no path (there is no such program for bash, and
			// the naive pieces of a line it cannot parse lose the pipe);
			// the PowerShell pass judged the same cmdlet with its input.
			continue
		}
		if raw := strings.TrimSpace(c.Raw); ps && c.Obfuscated && len(c.Args) == 0 && strings.Contains(raw, "','") &&
			(psLiteral(raw) && strings.Contains(c.Name, ",") || strings.HasPrefix(raw, "@(") && strings.HasSuffix(raw, ")")) {
			// 'bin','obj' | ...: PowerShell's list of strings, which bash
			// reads as one program named "bin,obj" that no one has (or,
			// as @('a','b'), a glob for a file of that name).
			continue
		}
		if ps && have[c.Name] && c.Dynamic() {
			// Remove-Item $out after $out = "dist": the PowerShell pass
			// knew the variable; bash only sees an unknown.
			continue
		}
		if w.stop() {
			return
		}
		w.emit(c)
	}
}

// psExpr: a statement that is a PowerShell variable expression
// ($env:CI = "true", $files.Count), not bash running a variable ($CMD -rf /).
func psExpr(raw string) bool {
	raw = strings.TrimSpace(raw)
	if !strings.HasPrefix(raw, "$") {
		return true // a { or ( artefact of PowerShell syntax
	}
	j := 0
	for j < len(raw) && strings.IndexByte(" \t;|&(){}'\"", raw[j]) < 0 {
		j++
	}
	if j > 1 && j < len(raw) && raw[j-1] == '[' {
		// $PSDefaultParameterValues['Out-File:Encoding'] = 'utf8': an
		// assignment to an element (only that: a bare $x['a'] is not taken).
		if k := strings.IndexByte(raw[j:], ']'); k >= 0 {
			rest := strings.TrimLeft(raw[j+k+1:], " \t")
			return strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "==") && psVarExpr(raw[:j-1], rest)
		}
	}
	return psVarExpr(raw[:j], raw[j:])
}
