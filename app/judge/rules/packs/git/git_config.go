package git

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/rules/packs/codeopts"

	"strconv"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/facts"
	"github.com/agent-guard/agent-guard/app/judge/opts"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Configuration git reads from its command line and environment, and the
// keys whose values git runs: an alias is judged as its expansion, a
// program-running key as the shell code or program it names.

// gitConfigs collects key=value settings from every place git takes them
// for one run: -c, --config-env, GIT_CONFIG_COUNT/KEY_n/VALUE_n and
// GIT_CONFIG_PARAMETERS (prefixed, given to env, or exported earlier in
// the line).
func gitConfigs(c *shell.Cmd, g *opts.Git, x *rules.Ctx) []string {
	cfg := append([]string(nil), g.Global.Values("c")...)
	env := codeopts.LineEnv(c, x)
	get := func(n string) (string, bool) {
		v, ok := "", false
		for _, kv := range env {
			if k, val, _ := strings.Cut(kv, "="); k == n {
				v, ok = val, true
			}
		}
		return v, ok
	}
	for _, ce := range g.Global.Values("config-env") {
		// --config-env=core.sshCommand=VAR: the value is $VAR.
		k, n, _ := strings.Cut(ce, "=")
		v, ok := get(n)
		if !ok {
			v = shell.Dyn
		}
		cfg = append(cfg, k+"="+v)
	}
	if cnt, ok := get("GIT_CONFIG_COUNT"); ok {
		n, err := strconv.Atoi(cnt)
		if err != nil || n > 64 || n < 0 {
			n = 64 // unknown count: every KEY_n given counts
		}
		for i := 0; i < n; i++ {
			k, ok := get("GIT_CONFIG_KEY_" + strconv.Itoa(i))
			if !ok {
				continue
			}
			v, _ := get("GIT_CONFIG_VALUE_" + strconv.Itoa(i))
			cfg = append(cfg, k+"="+v)
		}
	}
	if p, ok := get("GIT_CONFIG_PARAMETERS"); ok {
		cfg = append(cfg, gitConfigParams(p)...)
	}
	return cfg
}

// gitConfigParams reads GIT_CONFIG_PARAMETERS: shell-quoted 'key=value'
// or 'key'='value' entries separated by spaces.
func gitConfigParams(p string) []string {
	var out []string
	var b strings.Builder
	inQ := false
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for i := 0; i < len(p); i++ {
		ch := p[i]
		switch {
		case ch == '\'':
			inQ = !inQ
		case ch == '\\' && !inQ && i+1 < len(p):
			i++
			b.WriteByte(p[i])
		case (ch == ' ' || ch == '\t' || ch == '\n') && !inQ:
			flush()
		default:
			b.WriteByte(ch)
		}
	}
	flush()
	return out
}

// gitAlias returns the expansion of alias name, from configuration given
// for this run or `git config alias.NAME VALUE` earlier in the line.
func gitAlias(cfg []string, x *rules.Ctx, name string) (string, bool) {
	v, ok := "", false
	for _, kv := range cfg {
		k, val, _ := strings.Cut(kv, "=")
		if strings.EqualFold(k, "alias."+name) && strings.TrimSpace(val) != "" {
			v, ok = strings.TrimSpace(val), true
		}
	}
	if ok {
		return v, true
	}
	if d, ok := gitAliasDef(x, name); ok && strings.TrimSpace(d) != "" {
		return strings.TrimSpace(d), true
	}
	return "", false
}

// gitShellKeys: configuration whose value git hands to a shell (or runs
// as a program with arguments). Suffix entries start with ".".
var gitShellKeys = []string{"core.sshcommand", "core.pager", "core.editor", "sequence.editor", "core.askpass",
	"core.fsmonitor", "core.gitproxy", "core.alternaterefscommand", "diff.external", "credential.helper",
	"gpg.program", "uploadpack.packobjectshook", "interactive.difffilter", "sendemail.smtpserver",
	"sendemail.tocmd", "sendemail.cccmd", "pager.", ".textconv", ".command", ".cmd", ".clean", ".smudge",
	".process", ".driver", ".uploadpack", ".receivepack", ".helper", ".program", ".proxy"}

// gitConfigCode judges a key=value setting that makes git run code.
func gitConfigCode(c *shell.Cmd, k, v string, x *rules.Ctx) (rules.Finding, bool) {
	switch {
	case strings.HasPrefix(k, "alias."):
		return rules.Finding{}, false // judged as the alias runs
	case k == "core.hookspath":
		return rules.PkUnsure(c, 1.6, "git.config-hooks", "git -c core.hooksPath="+v+" runs the hooks of another folder")
	case k == "protocol.ext.allow" || k == "protocol.allow" && strings.EqualFold(v, "always"):
		return rules.PkUnsure(c, 1.6, "git.config-ext", "git "+k+"="+v+" lets ext:: URLs run commands")
	case k == "include.path" || strings.HasPrefix(k, "includeif."):
		return rules.PkUnsure(c, 1.5, "git.config-include", "git reads more configuration from "+v+" (it may run code)")
	}
	hit := false
	for _, ck := range gitShellKeys {
		if strings.HasPrefix(ck, ".") && strings.HasSuffix(k, ck) || strings.HasSuffix(ck, ".") && strings.HasPrefix(k, ck) || k == ck {
			hit = true
			break
		}
	}
	if !hit {
		return rules.Finding{}, false
	}
	if k == "credential.helper" && !strings.HasPrefix(v, "!") && !strings.ContainsAny(v, "/\\") {
		return rules.Finding{}, false // a git-credential-NAME helper
	}
	v = strings.TrimPrefix(v, "!")
	f, ok := codeopts.GitProgramValue(c, "git config "+k, v, x)
	if ok && (strings.ContainsAny(v, ";|&$`<>()") || gitCodeInterp(v)) {
		// More than a program with arguments: a shell line, or a shell or
		// interpreter given code, that git runs.
		f = rules.Worst(f, rules.Finding{Risk: 2, Violation: 0.4, Rule: "git.config-code", Marked: c.Raw,
			Reason: "git -c " + k + " makes git run another program: " + v})
	}
	return f, ok
}

// gitCodeInterp: the value starts a shell or interpreter (sh -c ..., python
// -c ...) rather than a pager, editor or ssh.
func gitCodeInterp(v string) bool {
	w := strings.Fields(v)
	if len(w) < 2 {
		return false
	}
	n := rules.PkNorm(w[0])
	return facts.RunsCode(n) || n == "env" || n == "eval"
}
