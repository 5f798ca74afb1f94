package rules

// Small helpers shared by the procs, containers, cloud, db, publish, creds,
// remote, interp, sysfiles, resources and everyday packs. Names carry a
// "pk" prefix so they cannot collide with other packs in this package.

import (
	"fmt"
	"path"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// pkF builds a finding; a violation of RedLineAt or more is a red line.
func pkF(c *shell.Cmd, risk, viol float64, rule, reason string) Finding {
	f := Finding{Risk: risk, Violation: viol, Rule: rule, Reason: reason, RedLine: viol >= RedLineAt}
	if c != nil {
		f.Marked = c.Raw
	}
	return f
}

// pkAllow is an explicit, certain allow (risk 0 read-only, 1 controlled).
func pkAllow(c *shell.Cmd, risk float64, rule, reason string) (Finding, bool) {
	return pkF(c, risk, 0, rule, reason), true
}

// pkUnsure is a low-risk finding the remote judge may raise.
func pkUnsure(c *shell.Cmd, risk float64, rule, reason string) (Finding, bool) {
	f := pkF(c, risk, 0, rule, reason)
	f.Uncertain = true
	return f, true
}

// pkRet wraps pkF for the common "return finding, true".
func pkRet(c *shell.Cmd, risk, viol float64, rule, reason string) (Finding, bool) {
	return pkF(c, risk, viol, rule, reason), true
}

// pkLow returns the lower-cased argument list.
func pkLow(c *shell.Cmd) []string {
	out := make([]string, len(c.Args))
	for i, a := range c.Args {
		out[i] = strings.ToLower(a)
	}
	return out
}

// pkHas reports whether any argument equals one of words (case-insensitive).
func pkHas(c *shell.Cmd, words ...string) bool {
	for _, a := range c.Args {
		for _, w := range words {
			if strings.EqualFold(a, w) {
				return true
			}
		}
	}
	return false
}

// pkHasPrefix reports whether any argument starts with one of the prefixes
// (case-insensitive), e.g. "--replicas=".
func pkHasPrefix(c *shell.Cmd, prefixes ...string) bool {
	for _, a := range c.Args {
		la := strings.ToLower(a)
		for _, p := range prefixes {
			if strings.HasPrefix(la, p) {
				return true
			}
		}
	}
	return false
}

// pkVal returns the value of an option given as "--name=v", "--name v",
// "-n v" or "-nv" (single-letter names only for the glued form).
func pkVal(c *shell.Cmd, names ...string) (string, bool) {
	for i, a := range c.Args {
		for _, n := range names {
			switch {
			case a == n:
				if i+1 < len(c.Args) {
					return c.Args[i+1], true
				}
				return "", true
			case strings.HasPrefix(a, n+"="):
				return a[len(n)+1:], true
			case len(n) == 2 && n[0] == '-' && n[1] != '-' && len(a) > 2 && strings.HasPrefix(a, n) && a[1] != '-':
				return a[2:], true
			}
		}
	}
	return "", false
}

// pkPos returns the positional words, skipping flags and the values of the
// flags listed in takesVal (exact spelling, e.g. "--profile", "-n").
func pkPos(args []string, takesVal *Set) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			out = append(out, args[i+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' {
			if !strings.Contains(a, "=") && takesVal.Has(a) {
				i++
			}
			continue
		}
		out = append(out, a)
	}
	return out
}

// pkSet makes a lookup set (built on first use: see Set).
func pkSet(words ...string) *Set { return newSet(words) }

// pkWinFlag reports a Windows-style switch (/F, -Force, /IM...) given by
// name without the leading / or -, case-insensitive.
func pkWinFlag(c *shell.Cmd, names ...string) bool {
	for _, a := range c.Args {
		if len(a) < 2 || (a[0] != '/' && a[0] != '-') {
			continue
		}
		body := strings.TrimLeft(a, "/-")
		body, _, _ = strings.Cut(body, ":")
		for _, n := range names {
			if strings.EqualFold(body, n) {
				return true
			}
		}
	}
	return false
}

// pkWinVal returns the word after a Windows-style switch (/IM x, -Name x)
// or glued after a colon (-Name:x).
func pkWinVal(c *shell.Cmd, names ...string) (string, bool) {
	for i, a := range c.Args {
		if len(a) < 2 || (a[0] != '/' && a[0] != '-') {
			continue
		}
		body := strings.TrimLeft(a, "/-")
		body, glued, hasColon := strings.Cut(body, ":")
		for _, n := range names {
			if strings.EqualFold(body, n) {
				if hasColon {
					return glued, true
				}
				if i+1 < len(c.Args) {
					return c.Args[i+1], true
				}
				return "", true
			}
		}
	}
	return "", false
}

// pkDyn reports whether s is (partly) unknown statically.
func pkDyn(s string) bool { return strings.Contains(s, shell.Dyn) }

// pkNorm normalizes a program word like the shell package does: base
// name, no leading backslash, no .exe, lower case.
func pkNorm(w string) string {
	w = strings.ReplaceAll(w, "\\", "/")
	w = path.Base(w)
	w = strings.ToLower(w)
	w = strings.TrimSuffix(w, ".exe")
	return w
}

// pkInner builds the command another program would run (docker exec,
// npx, cmd /c...), one nesting level deeper than parent.
func pkInner(parent *shell.Cmd, words []string) *shell.Cmd {
	if len(words) == 0 {
		return nil
	}
	ic := &shell.Cmd{
		Name:     pkNorm(words[0]),
		Args:     append([]string(nil), words[1:]...),
		Raw:      strings.Join(words, " "),
		Prog:     words[0],
		DynName:  pkDyn(words[0]),
		Wrappers: append(append([]string(nil), parent.Wrappers...), parent.Name),
		Depth:    parent.Depth + 1,
	}
	return ic
}

// pkMaxDepth bounds nested evaluation (cmd /c "powershell -c ...").
const pkMaxDepth = 6

// pkEval runs the registry on a command built by a pack (not seen by the
// walker) and returns the worst finding.
func pkEval(c *shell.Cmd, x *Ctx) (Finding, bool) {
	if c == nil {
		return Finding{}, false
	}
	if c.Depth > pkMaxDepth {
		// Commands inside commands inside commands: past this depth
		// nothing is read, so it is a question (fail closed).
		return Finding{Risk: 2, Violation: 0.3, Rule: "shell.nested-deep", Marked: c.Raw,
			Reason: fmt.Sprintf("runs commands nested more than %d programs deep; the innermost are not read", pkMaxDepth)}, true
	}
	var fs []Finding
	for _, r := range rulesFor(c.Name) {
		if f, ok := r.rule(c, x); ok {
			fs = append(fs, f)
		}
	}
	for _, r := range anyCmd {
		if f, ok := r.rule(c, x); ok {
			fs = append(fs, f)
		}
	}
	if f, ok := pkEvalLine(c, x); ok {
		fs = append(fs, f)
	}
	if len(fs) == 0 {
		return Finding{}, false
	}
	return Worst(fs...), true
}

// pkEvalLine judges a built command the way the walker would have, had it
// been written out: `docker exec web sh -c 'rm -rf /'` and `poetry run
// sudo rm -rf ~` hold a shell or a wrapper whose code the registry alone
// does not open. The line's finding adds to the direct rules' when the
// analysis opens something (more than one command, a wrapper, nested
// code) or finds the command worth a question.
func pkEvalLine(c *shell.Cmd, x *Ctx) (Finding, bool) {
	if c.Prog == "" || c.DynName || c.Depth >= pkMaxDepth {
		return Finding{}, false
	}
	var b strings.Builder
	b.WriteString(pkShQuote(c.Prog))
	for _, a := range c.Args {
		b.WriteByte(' ')
		b.WriteString(pkShQuote(a))
	}
	line := b.String()
	a := shell.AnalyzeDir(line, x.Cwd)
	opened := len(a.Cmds) > 1 || a.Err != nil || a.ForkBomb != ""
	for i := range a.Cmds {
		ic := &a.Cmds[i]
		opened = opened || ic.Depth > 0 || len(ic.Wrappers) > 0 || ic.HiddenCode
		ic.Depth += c.Depth // commands built from these count as deeper still (pkMaxDepth)
	}
	f := BashAnalysisOn(&a, line, x.Cwd, x.Home, x.M.deeper())
	if !opened && f.score() < 1.5 && !f.RedLine {
		// Nothing more than the direct rules saw: let them speak (their
		// ok=false still means "not recognised").
		return Finding{}, false
	}
	return f, true
}

// pkShQuote quotes one word for bash; a word that is not statically known
// becomes a variable, which the analysis reads as dynamic again.
func pkShQuote(w string) string {
	if w == "" {
		return "''"
	}
	if strings.Contains(w, shell.Dyn) {
		return `"` + strings.ReplaceAll(strings.ReplaceAll(w, `"`, `\"`), shell.Dyn, "${X}") + `"`
	}
	return "'" + strings.ReplaceAll(w, "'", `'\''`) + "'"
}

// pkAbs resolves p against cwd and home for matching: forward slashes,
// lower case; "" when the path is not statically known.
func pkAbs(p string, x *Ctx) string {
	if p == "" {
		return ""
	}
	p = strings.ReplaceAll(p, "\\", "/")
	lp := strings.ToLower(p)
	home := ""
	cwd := ""
	if x != nil {
		home = strings.ReplaceAll(x.Home, "\\", "/")
		cwd = strings.ReplaceAll(x.Cwd, "\\", "/")
	}
	for _, pre := range []string{"$home", "${home}", "%userprofile%", "$env:userprofile", "$env:home", shell.Dyn + "/"} {
		if strings.HasPrefix(lp, pre) {
			rest := p[len(pre):]
			if pre == shell.Dyn+"/" {
				rest = "/" + rest
			}
			p = home + rest
			lp = strings.ToLower(p)
			break
		}
	}
	switch {
	case p == "~":
		p = home
	case strings.HasPrefix(p, "~/"):
		p = home + p[1:]
	case pkDyn(p):
		return ""
	case len(p) >= 2 && p[1] == ':':
		// Windows drive path: keep as is.
	case strings.HasPrefix(p, "/"):
	default:
		if cwd != "" {
			p = cwd + "/" + p
		}
	}
	if !(len(p) >= 2 && p[1] == ':') {
		p = path.Clean(p)
	}
	return strings.ToLower(p)
}

// pkLocalHost reports whether a URL or host names this machine.
func pkLocalHost(u string) bool {
	h := pkHost(u)
	return h == "localhost" || h == "127.0.0.1" || h == "0.0.0.0" || h == "::1" || h == "[::1]" ||
		strings.HasSuffix(h, ".localhost") || h == "host.docker.internal"
}

// pkHost extracts the lower-cased host of a URL-ish word.
func pkHost(u string) string {
	u = strings.ToLower(u)
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	}
	if i := strings.IndexAny(u, "/?#"); i >= 0 {
		u = u[:i]
	}
	if i := strings.LastIndexByte(u, '@'); i >= 0 {
		u = u[i+1:]
	}
	if strings.HasPrefix(u, "[") {
		if j := strings.IndexByte(u, ']'); j > 0 {
			return u[:j+1]
		}
	}
	if i := strings.LastIndexByte(u, ':'); i >= 0 {
		u = u[:i]
	}
	return u
}

// pkEnvLookup returns the other commands of the line (nil-safe).
func pkAll(x *Ctx) []shell.Cmd {
	if x == nil || x.All == nil {
		return nil
	}
	return x.All.Cmds
}

// Programs whose first word picks what they do; an unknown first word
// means the action itself cannot be known statically.
var pkSubcommandTools = pkSet("npm", "yarn", "pnpm", "bun", "npx", "cargo", "go", "docker", "podman", "nerdctl", "docker-compose", "kubectl", "oc", "helm", "terraform", "tofu", "terragrunt", "pulumi", "aws", "gcloud", "gsutil", "az", "doctl", "gh", "glab", "systemctl", "service", "launchctl", "redis-cli", "mongosh", "heroku", "fly", "flyctl", "vercel", "netlify", "firebase", "supabase", "wrangler", "pip", "pip3", "uv", "poetry", "dotnet", "mvn", "gradle", "make", "brew", "apt", "apt-get", "dnf", "yum", "winget", "choco", "sc", "net", "reg", "schtasks", "wmic", "netsh", "crontab", "kill", "pkill", "killall", "taskkill", "stop-process")

func init() { onAny(ruleDynamicSubcommand) }

// ruleDynamicSubcommand: `npm $CMD`, `kubectl $VERB pods`, `aws $SVC ...`.
func ruleDynamicSubcommand(c *shell.Cmd, x *Ctx) (Finding, bool) {
	if !pkSubcommandTools.Has(c.Name) {
		return Finding{}, false
	}
	if c.Name == "kill" {
		// kill has no subcommands: a word known at run time is a PID
		// (kill $!, kill $(lsof -t -i:3000)), judged by the kill rule
		// (procs), which asks for any PID it cannot place.
		return Finding{}, false
	}
	prevFlag := false
	for _, a := range c.Args {
		if strings.HasPrefix(a, "-") && !pkDyn(a) {
			prevFlag = !strings.Contains(a, "=")
			continue
		}
		if prevFlag && pkDyn(a) {
			prevFlag = false // the value of an option (-n $NS)
			continue
		}
		if a == shell.Dyn || strings.HasPrefix(a, shell.Dyn) && c.Name != "kill" && c.Name != "make" {
			f := pkF(c, 1.5, 0.3, "dyn.subcommand", c.Name+" runs an action only known at run time")
			f.Uncertain = true
			return f, true
		}
		return Finding{}, false
	}
	return Finding{}, false
}
