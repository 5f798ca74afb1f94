package rules

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// A mode that lets other users read a secret file (chmod 644 ~/.ssh/id_rsa,
// chmod o+r ~/.aws/credentials, icacls key /grant Everyone:R) hands the
// secret to every account and service on the machine: leaking
// credentials, whatever the folder it sits in. Tightening (600, 700,
// go-r) stays everyday.

func init() { on(rulePermSecret, "chmod", "icacls") }

// modeOpensRead: the mode gives read to other users (the group is most
// often the user's own, so 640 is left alone).
func modeOpensRead(mode string) bool {
	if mode == "" {
		return false
	}
	if strings.Trim(mode, "01234567") == "" {
		if len(mode) < 3 {
			return false
		}
		return (mode[len(mode)-1]-'0')&4 != 0
	}
	for _, cl := range strings.Split(mode, ",") {
		who := strings.TrimLeft(cl, "ugoa")
		whoPart := cl[:len(cl)-len(who)]
		if who == "" || (who[0] != '+' && who[0] != '=') {
			continue
		}
		perms := who[1:]
		if !strings.ContainsAny(perms, "r") {
			continue
		}
		if whoPart == "" || strings.ContainsAny(whoPart, "oa") {
			return true
		}
	}
	return false
}

func rulePermSecret(c *shell.Cmd, x *Ctx) (Finding, bool) {
	var targets []string
	switch c.Name {
	case "chmod":
		ops := c.Operands()
		if len(ops) < 2 || !modeOpensRead(ops[0]) {
			return Finding{}, false
		}
		targets = ops[1:]
	case "icacls":
		grant := false
		for i, a := range c.Args {
			la := strings.ToLower(a)
			if (la == "/grant" || la == "/grant:r") && i+1 < len(c.Args) {
				p, perm, ok := strings.Cut(strings.ToLower(c.Args[i+1]), ":")
				p = strings.TrimPrefix(p, "builtin\\")
				if ok && (icaclsEveryone[p] || p == "users" || p == "authenticated users" || p == "*s-1-1-0") &&
					strings.ContainsAny(strings.NewReplacer("(oi)", "", "(ci)", "", "(io)", "", "(np)", "").Replace(perm), "rfm") {
					grant = true
				}
			}
		}
		if !grant {
			return Finding{}, false
		}
		for _, a := range c.Args {
			if !strings.HasPrefix(a, "/") || strings.Contains(a, ":\\") {
				if !strings.Contains(a, ":") || strings.Contains(a, ":\\") {
					targets = append(targets, a)
				}
			}
		}
	}
	for _, t := range targets {
		if k, what := pkSecretPath(t, x); k == pkStrong {
			return pkRet(c, 2.2, 0.6, "fs.perms-secret-readable", c.Name+" lets other users read "+what+" ("+t+"): every account and service on the machine could take it")
		}
	}
	return Finding{}, false
}
