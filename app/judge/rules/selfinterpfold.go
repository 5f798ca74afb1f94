package rules

import (
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Interpreter code that spells a guard path in pieces ('~/.cl'+'aude',
// joinpath(homedir(), ".config", "agent-guard"), chr(46)+..., a reversed
// or base64 literal) names no protected path as one literal, so the
// literal check misses it. foldLiterals undoes the common spellings the
// way the interpreter would and hands back the strings the code builds;
// each is then judged like a literal.

var (
	// a literal, then what follows it up to the next literal
	foldLitRe = lazyre.New(`'([^'\n]*)'|"([^"\n]*)"`)
	// chr(46), String.fromCharCode(46,99), [char]46, map(chr,[46,99])
	foldChrRe = lazyre.New(`(?i)(?:chr|fromcharcode|\[char\])\s*\(?\s*\[?\s*((?:\d{1,3}\s*,\s*)*\d{1,3})\s*\]?\s*\)?|map\(\s*chr\s*,\s*\[\s*((?:\d{1,3}\s*,\s*)*\d{1,3})\s*\]\s*\)`)
	// a call that joins path pieces
	foldJoinRe = lazyre.New(`(?i)(?:os\.path\.join|path\.join|path\.resolve|joinpath|file\.join|join-path|path\.combine|filepath\.join|catfile|\bpath)\s*\(([^()]*(?:\([^()]*\)[^()]*)*)\)|\(\s*join-path\s+([^()]*)\)`)
	// code that ends in the home folder and a concatenation operator
	foldHomeBefore = lazyre.New(`(?i)(home|homedir\(\)|home\(\)|userprofile|homedir)\s*\)?\s*(\+|\.\.|\.|,|\+=)\s*$`)
	// PowerShell's $env:NAME right before a concatenated literal, and
	// as the first argument of a join
	foldWinEnvBefore = lazyre.New(`(?i)\$env:([a-z_][a-z0-9_]*)\s*\)?\s*\+\s*$`)
	foldWinEnvFirst  = lazyre.New(`(?i)^\s*\$env:([a-z_][a-z0-9_]*)`)
	// a hex literal being decoded
	foldHexRe = lazyre.New(`(?i)(?:fromhex|unhexlify|hex2bin|hex_decode|pack\(\s*['"]h\*['"]\s*,)\W{0,10}['"]((?:[0-9a-f]{2}){4,})['"]|['"]((?:[0-9a-f]{2}){4,})['"]\s*,\s*['"]hex['"]`)
	// a base64 literal being decoded
	foldB64Re = lazyre.New(`(?i)(?:b64decode|atob|frombase64string|decode64|base64_decode|unpack1?\(\s*['"]m)\W{0,40}['"]([A-Za-z0-9+/=]{8,})['"]|['"]([A-Za-z0-9+/=]{8,})['"]\s*,\s*['"]base64['"]`)
)

// foldLiterals returns the strings code builds from pieces (at most 64).
func foldLiterals(code string) []string {
	var out []string
	add := func(s string) {
		if s != "" && len(out) < 64 {
			out = append(out, s)
		}
	}
	// chr runs become literals, so that concatenation folds them in
	c := foldChrRe.Re().ReplaceAllStringFunc(code, func(m string) string {
		sub := foldChrRe.Re().FindStringSubmatch(m)
		nums := sub[1] + sub[2]
		var b strings.Builder
		for _, n := range strings.Split(nums, ",") {
			v, err := strconv.Atoi(strings.TrimSpace(n))
			if err != nil || v < 32 || v > 126 {
				return m
			}
			b.WriteByte(byte(v))
		}
		return "'" + strings.ReplaceAll(b.String(), "'", "") + "'"
	})
	// ''.join(...) around a chr list is only glue
	c = strings.NewReplacer("''.join(", "(", `"".join(`, "(").Replace(c)
	for _, m := range foldB64Re.Re().FindAllStringSubmatch(c, 8) {
		if d, err := base64.StdEncoding.DecodeString(m[1] + m[2]); err == nil && printable(d) {
			add(string(d))
			for _, l := range quotedRe.FindAllStringSubmatch(string(d), 16) {
				add(l[1] + l[2]) // os.system('pkill agent-guard') inside the decoded code
			}
			for _, s := range foldLiterals(string(d)) {
				add(s)
			}
		}
	}
	for _, m := range foldHexRe.Re().FindAllStringSubmatch(c, 8) {
		if d, err := hex.DecodeString(m[1] + m[2]); err == nil && printable(d) {
			add(string(d)) // bytes.fromhex('706b...'), Buffer.from('706b...', 'hex')
		}
	}
	for _, l := range strings.Split(c, "\n") {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, "exec ") {
			add(strings.TrimPrefix(t, "exec ")) // Tcl: exec pkill agent-guard
		}
	}
	homeCode := containsAnyOf(strings.ToLower(c), homeMarks)
	locs := foldLitRe.Re().FindAllStringSubmatchIndex(c, 128)
	lit := func(i int) string {
		m := locs[i]
		var v string
		if m[2] >= 0 {
			v = c[m[2]:m[3]]
		} else {
			v = c[m[4]:m[5]]
		}
		if v == "HOME" || strings.EqualFold(v, "USERPROFILE") {
			return "~" // getenv("HOME")
		}
		return v
	}
	// concatenation: literals glued by + . .. & or only blanks
	for i := 0; i < len(locs); {
		s := lit(i)
		j := i + 1
		for ; j < len(locs); j++ {
			glue := strings.Trim(c[locs[j-1][1]:locs[j][0]], "() \t")
			if glue != "+" && glue != "." && glue != ".." && glue != "&" && glue != "" && glue != "+'" {
				break
			}
			s += lit(j)
		}
		after := c[locs[j-1][1]:]
		if homeCode {
			// format!("{}/.claude/settings.json", home), "%s/.codex" % home
			for _, f := range []string{"{}/", "{0}/", "%s/", "%v/", "{home}/", "${home}/", "#{home}/"} {
				if strings.HasPrefix(strings.ToLower(s), f) {
					add("~/" + s[len(f):])
				}
			}
		}
		if m := foldWinEnvBefore.Re().FindStringSubmatch(c[:locs[i][0]]); m != nil && (strings.HasPrefix(s, "/") || strings.HasPrefix(s, `\`)) {
			add("%" + m[1] + "%" + s) // $env:APPDATA + '\agent-guard'
		}
		if (strings.HasPrefix(s, "/") || strings.HasPrefix(s, `\`)) && foldHomeBefore.Re().MatchString(c[:locs[i][0]]) {
			s = "~" + s // Bun.env.HOME + '/.claude/...', homedir() .. "/x"
			if j == i+1 {
				add(s)
			}
		}
		if strings.HasPrefix(strings.TrimSpace(after), "[::-1]") || strings.HasPrefix(strings.TrimSpace(after), ".reverse") ||
			strings.HasPrefix(strings.TrimLeft(after, ") "), ":reverse") || strings.HasPrefix(strings.TrimLeft(after, ") "), ".reverse") ||
			strings.HasSuffix(strings.TrimSpace(c[:locs[i][0]]), "strrev(") ||
			strings.HasSuffix(strings.TrimSpace(c[:locs[i][0]]), "reverse(") || strings.HasSuffix(strings.TrimSpace(c[:locs[i][0]]), "reverse") {
			add(reverseString(s))
		}
		if strings.Contains(c[:locs[i][0]], "rot13") || strings.Contains(after, "rot13") || strings.Contains(after, "rot_13") {
			add(rot13(s))
		}
		if j > i+1 {
			add(s)
		}
		i = j
	}
	// join calls: their literal pieces with '/', under the home folder
	// when the call names it
	for _, m := range foldJoinRe.Re().FindAllStringSubmatch(c, 16) {
		args := m[1] + m[2] // os.path.join(...), (Join-Path $HOME 'x')
		var parts []string
		for _, l := range foldLitRe.Re().FindAllStringSubmatch(args, 16) {
			parts = append(parts, strings.Trim(l[1]+l[2], `/\`))
		}
		if len(parts) == 0 {
			continue
		}
		p := strings.Join(parts, "/")
		low := strings.ToLower(args)
		if m := foldWinEnvFirst.Re().FindStringSubmatch(args); m != nil {
			p = "%" + m[1] + "%/" + p // (Join-Path $env:APPDATA 'agent-guard')
		}
		if containsAnyOf(low, homeMarks) || strings.Contains(low, "path.home") || strings.Contains(low, "dir.home") {
			if !strings.HasPrefix(p, "~") {
				p = "~/" + p
			}
		}
		add(p)
	}
	return out
}

func printable(b []byte) bool {
	for _, c := range b {
		if c < 9 || c > 126 {
			return false
		}
	}
	return true
}

func reverseString(s string) string {
	r := []rune(s)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r)
}

func rot13(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case c >= 'a' && c <= 'z':
			b[i] = 'a' + (c-'a'+13)%26
		case c >= 'A' && c <= 'Z':
			b[i] = 'A' + (c-'A'+13)%26
		}
	}
	return string(b)
}

// selfFolded judges the strings interpreter code builds from pieces: a
// protected path among them when the code writes or removes files, a
// self-protection command line when it starts programs.
func selfFolded(name, code, cwd, home string) (Finding, bool) {
	low := strings.ToLower(code)
	writes := containsAnyOf(low, pkGuardWriteMark)
	spawns := containsAnyOf(low, spawnMarks)
	if !writes && !spawns {
		return Finding{}, false
	}
	if spawns && strings.Contains(low, "kill") && (strings.Contains(low, "pidof") || strings.Contains(low, "pgrep")) && guardWord(low) {
		// kill 9, `pidof agent-guard`: the pid comes from a lookup of the guard
		return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.kill-guard",
			Reason: "the " + name + " code looks up agent-guard's process and kills it: an agent must not switch off its own guard; ask the user to do it"}, true
	}
	if spawns && strings.Contains(low, "agent_guard_") {
		// os.environ['AGENT_GUARD_HOME'] = ...; execvp('claude', ...)
		for _, m := range quotedRe.FindAllStringSubmatch(code, 64) {
			if _, ok := nestedHosts[strings.ToLower(strings.TrimSpace(m[1]+m[2]))]; ok {
				return hooksOffFinding(m[1]+m[2], "the "+name+" code starting "+m[1]+m[2]+" with an AGENT_GUARD_* variable changed"), true
			}
		}
	}
	for _, s := range foldLiterals(code) {
		if writes && !strings.ContainsAny(s, "\n{}$") && !strings.Contains(s, "%s") && !strings.Contains(s, "%d") && strings.ContainsAny(s, `/\`) {
			if f, ok := Protected(s, cwd, home); ok {
				f.Reason = "the " + name + " code builds " + s + " from pieces and writes or removes files: " + f.Reason
				return f, true
			}
		}
		if spawns && strings.ContainsAny(s, " \t") {
			if f, _, ok := selfInCode([]string{s}, cwd, home, 4096); ok {
				f.Reason = "the " + name + " code builds and runs " + OneLineCut(s, 80) + ": " + f.Reason
				return f, true
			}
		}
	}
	return Finding{}, false
}

// substEnvRefs replaces the code's reads of the variables the command
// is started with (A=agent-guard python3 -c "...os.environ['A']...") by
// their values as literals, so the pieces fold.
func substEnvRefs(code string, env []string) string {
	for _, kv := range env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" || strings.Contains(v, shell.Dyn) || strings.ContainsAny(v, `'"`) || !strings.Contains(code, k) {
			continue
		}
		lit := "'" + v + "'"
		for _, ref := range []string{
			"os.environ['" + k + "']", `os.environ["` + k + `"]`, "os.environ.get('" + k + "')", `os.environ.get("` + k + `")`,
			"os.getenv('" + k + "')", `os.getenv("` + k + `")`, "process.env." + k, "process.env['" + k + "']", `process.env["` + k + `"]`,
			"ENV['" + k + "']", `ENV["` + k + `"]`, "$ENV{" + k + "}", "$ENV{'" + k + "'}", `getenv("` + k + `")`, "getenv('" + k + "')",
			`Deno.env.get("` + k + `")`, "Deno.env.get('" + k + "')", "Bun.env." + k, "$env:" + k, `os.Getenv("` + k + `")`,
			`ENV("` + k + `")`, `Sys.getenv("` + k + `")`,
		} {
			code = strings.ReplaceAll(code, ref, lit)
		}
	}
	return code
}
