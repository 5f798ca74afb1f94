package rules

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// pkDryFlag reports a dry-run option (one of names) that the program
// reads as an option, not as the value of the option before it: in
// `helm upgrade app ./c --description --dry-run` the words "--dry-run"
// are the release's description and the upgrade is real. vals are the
// program's options that take a separate value; options that carry free
// text (pkTextVals) take one in every program. --dry-run=none / =false
// (kubectl, helm) is no dry run. Words after "--" are operands.
func pkDryFlag(c *shell.Cmd, vals *Set, names ...string) bool {
	found := false
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		if a == "--" {
			break
		}
		name, v, eq := strings.Cut(a, "=")
		for _, n := range names {
			if name == n {
				found = !eq || v != "none" && v != "false"
			}
		}
		if !eq && strings.HasPrefix(a, "-") && (vals.Has(a) || pkTextVals.Has(strings.TrimLeft(a, "-"))) {
			i++ // the next word is this option's value
		}
	}
	return found
}

// pkTextVals are long options that carry free text in the tools judged
// here (a message, a description, a title): their value is never an option.
var pkTextVals = pkSet("description", "message", "msg", "title", "body", "comment", "note", "notes", "reason",
	"summary", "subject", "annotation", "release-notes", "notes-file", "label", "labels")

// unknownDestroyVerb is ruleDestroyVerb for a program that has rules of
// its own which all passed on this call (splunk delete user alice: a pack
// knows some splunk verbs, not this one). Such a call is as unknown as a
// program without rules, and its destroying verb as much a question.
func unknownDestroyVerb(c *shell.Cmd) (Finding, bool) {
	if c.DynName || len(rulesFor(c.Name)) == 0 || localToolManagers.Has(c.Name) || len(c.Args) == 0 || infraReadOnly(c.Args) {
		return Finding{}, false
	}
	return destroyVerbFinding(c, c.Name, infraWords(c.Args))
}

// pkLiteralDeletes returns the paths an interpreter's delete calls name,
// when every occurrence of every delete marker is a call whose first
// argument is a plain string literal (shutil.rmtree('dist'),
// fs.rmSync("build", {...}), unlink "x.o"). Anything else (a variable, a
// concatenation, a method on a path object, emptying a file) gives
// ok=false and the generic judgment stands.
func pkLiteralDeletes(code, low string) (targets []string, ok bool) {
	if len(code) != len(low) {
		return nil, false // lower-casing changed the byte offsets
	}
	seen := map[int]bool{}
	for _, m := range pkDelMarks {
		if m == "os.truncate" || m == "truncate(" || m == ".delete()" || m == "remove-item" {
			if strings.Contains(low, m) {
				return nil, false
			}
			continue
		}
		for i := 0; ; {
			k := strings.Index(low[i:], m)
			if k < 0 {
				break
			}
			start := i + k + len(m)
			i = start
			t, end, ok := pkCallLiteral(code, start)
			if !ok {
				return nil, false
			}
			if !seen[end] {
				seen[end] = true
				targets = append(targets, t)
			}
		}
	}
	return targets, len(targets) > 0
}

// pkCallLiteral reads `( 'literal'` (the parenthesis optional, as in
// Perl's unlink "x") at code[i:], followed by , ) ; or the end.
func pkCallLiteral(code string, i int) (lit string, end int, ok bool) {
	skip := func() {
		for i < len(code) && (code[i] == ' ' || code[i] == '\t') {
			i++
		}
	}
	for i < len(code) && (code[i] >= 'a' && code[i] <= 'z' || code[i] >= 'A' && code[i] <= 'Z' || code[i] == '_') {
		i++ // the rest of the name: FileUtils.rm_rf, os.removedirs
	}
	skip()
	if i < len(code) && code[i] == '(' {
		i++
		skip()
	}
	if i >= len(code) || code[i] != '\'' && code[i] != '"' {
		return "", 0, false
	}
	q := code[i]
	j := strings.IndexByte(code[i+1:], q)
	if j < 0 {
		return "", 0, false
	}
	lit = code[i+1 : i+1+j]
	if lit == "" || strings.ContainsAny(lit, "\\$`{") {
		return "", 0, false // escapes or interpolation: not a plain literal
	}
	i += j + 2
	skip()
	if i < len(code) && code[i] != ',' && code[i] != ')' && code[i] != ';' && code[i] != '\n' {
		return "", 0, false // 'a' + b, 'x'.join(...)
	}
	return lit, i, true
}

func destroyVerbFinding(c *shell.Cmd, prog string, words []string) (Finding, bool) {
	for _, w := range words {
		if tailHeads.Has(w) {
			// mytool rm x: judged as `rm x` by the unknown-wrapper tail rule.
			return Finding{}, false
		}
		parts := strings.FieldsFunc(w, func(r rune) bool { return r == '-' || r == '_' || r == ':' })
		for _, p := range parts {
			if infraReadVerbs.Has(p) {
				return Finding{}, false
			}
		}
		for _, p := range parts {
			if destroyVerbs.Has(p) {
				f := pkF(c, 2, 0.3, "infra.destroy-verb", prog+" "+strings.Join(words, " ")+": a "+p+" on a service or tool the rules have no pack for; what it removes may not come back")
				f.Uncertain = true
				return f, true
			}
		}
	}
	return Finding{}, false
}
