package rules

import (
	"path"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Permission and ownership changes: chmod, chown, chgrp, chattr,
// setfacl, icacls, takeown, attrib.

func rulePerms(c *shell.Cmd, x *Ctx) (Finding, bool) {
	recursive := c.Flag('R', "--recursive")
	ops := c.Operands()
	win := c.Name == "icacls" || c.Name == "cacls" || c.Name == "takeown" || c.Name == "attrib"
	if win {
		for _, a := range c.Args {
			la := strings.ToLower(a)
			if la == "/t" || la == "/r" || la == "/s" {
				recursive = true
			}
		}
		ops = nil
		for _, a := range c.Args {
			if !strings.HasPrefix(a, "/") && !strings.HasPrefix(a, "+") && !strings.HasPrefix(a, "-") || strings.Contains(a, ":\\") {
				ops = append(ops, a)
			}
		}
	}
	mode := ""
	if c.Name == "icacls" || c.Name == "cacls" {
		// icacls x /grant Everyone:F: like chmod 777.
		for k, a := range ops {
			p, perm, ok := strings.Cut(strings.ToLower(a), ":")
			if ok && !strings.HasPrefix(perm, "\\") && icaclsEveryone[strings.TrimPrefix(p, "builtin\\")] && strings.ContainsAny(strings.ReplaceAll(strings.ReplaceAll(perm, "(oi)", ""), "(ci)", ""), "fmw") {
				mode = "777"
				ops = append(ops[:k:k], ops[k+1:]...)
				break
			}
		}
	}
	switch c.Name {
	case "chmod", "chown", "chgrp":
		if len(ops) > 0 {
			mode, ops = ops[0], ops[1:]
			for _, a := range c.Args {
				if strings.HasPrefix(a, "--reference") {
					ops = append([]string{mode}, ops...)
					mode = ""
					break
				}
			}
		}
	case "chattr":
		// chattr +i file: the mode starts with + or -, which Operands drops.
		for _, a := range c.Args {
			if len(a) > 1 && (a[0] == '+' || a[0] == '-' || a[0] == '=') && strings.Trim(a[1:], "aAcCdDeFijmPsStTux") == "" {
				mode = a
			}
		}
	case "setfacl":
		ops = ops[:0:0]
		skip := false
		for _, a := range c.Args {
			if skip {
				skip = false
				continue
			}
			if a == "-m" || a == "-x" || a == "-M" || a == "-X" || a == "--modify" || a == "--remove" {
				skip = true
				continue
			}
			if !strings.HasPrefix(a, "-") {
				ops = append(ops, a)
			}
		}
	}
	var w Finding
	have := false
	for _, t := range ops {
		f := fsPermTarget(c, t, recursive, mode, x)
		if !have || f.Worse(w) {
			w, have = f, true
		}
	}
	if !have {
		return Finding{Risk: 0.5, Rule: "fs.perms", Reason: c.Name + " without a file", Marked: c.Raw}, true
	}
	return w, true
}

func fsPermTarget(c *shell.Cmd, t string, recursive bool, mode string, x *Ctx) Finding {
	if f, ok := Protected(t, x.Cwd, x.Home); ok {
		return f
	}
	mk := func(risk, viol float64, rule, reason string) Finding {
		return Finding{Risk: risk, Violation: viol, Rule: rule, Reason: reason, Marked: c.Raw, RedLine: viol >= RedLineAt}
	}
	shown := strings.ReplaceAll(t, shell.Dyn, "$?")
	s := fsClassify(t, x)
	setuid := c.Name == "chmod" && (strings.Contains(mode, "+s") || strings.Contains(mode, "u+s") ||
		len(mode) == 4 && (mode[0] == '4' || mode[0] == '2' || mode[0] == '6') && strings.Trim(mode, "01234567") == "")
	lockout := c.Name == "chmod" && (mode == "000" || mode == "0" || mode == "0000" || strings.HasSuffix(mode, "-rwx") || mode == "a=" || mode == "u-r")
	wide := strings.Contains(mode, "777") || strings.Contains(mode, "666") || strings.Contains(mode, "o+w") ||
		strings.Contains(mode, "a+w") || mode == "+w" || setuid || lockout
	switch s {
	case fsRoot, fsHome:
		if recursive {
			return mk(3, 0.9, "fs.perms-tree", c.Name+" -R on "+shown+": changes every file's permissions or owner; hard to undo")
		}
		return mk(2, 0.5, "fs.perms-top", c.Name+" on "+shown+" changes who can use the whole folder")
	case fsSystem:
		return mk(3, 0.9, "fs.perms-system", c.Name+" on "+shown+": changing system files' permissions or owners can break the system or open it up")
	case fsHomeKey:
		if strings.Contains(t, ".ssh") || strings.Contains(t, ".gnupg") {
			if wide {
				return mk(2.5, 0.7, "fs.perms-keys", c.Name+pmMode(mode)+" on "+shown+" exposes private keys")
			}
			return mk(1, 0, "fs.perms-keys", c.Name+" on "+shown+" (key folder permissions)")
		}
		if recursive {
			return mk(2, 0.4, "fs.perms-user-data", c.Name+" -R on "+shown)
		}
	case fsUnknown:
		if recursive {
			return mk(2, 0.3, "fs.perms-dynamic", c.Name+" -R on a path only known at run time")
		}
		f := mk(1, 0, "fs.perms-dynamic", c.Name+" on a path only known at run time")
		f.Uncertain = true
		return f
	case fsSoftware:
		if recursive || wide {
			return mk(2, 0.3, "fs.perms-software", c.Name+pmMode(mode)+" on "+shown+": installed software outside the project")
		}
		f := mk(1, 0, "fs.perms-software", c.Name+" on "+shown)
		f.Uncertain = true
		return f
	case fsOutside, fsGitDir, fsBackup:
		if recursive {
			return mk(2, 0.3, "fs.perms-outside", c.Name+" -R on "+shown+": outside the project")
		}
		f := mk(1.2, 0.1, "fs.perms-outside", c.Name+" on "+shown+": outside the project")
		f.Uncertain = true
		return f
	case fsCwdAll:
		if recursive && wide {
			return mk(1.8, 0.2, "fs.perms-project", c.Name+" -R"+pmMode(mode)+" on the whole project")
		}
		user, _, _ := strings.Cut(mode, ":")
		self := strings.Contains(mode, shell.Dyn) || user == path.Base(strings.ReplaceAll(x.Home, "\\", "/")) || user == ""
		if recursive && c.Name != "chmod" && !self {
			return mk(1.8, 0.2, "fs.perms-project", c.Name+" -R"+pmMode(mode)+" hands the whole project to another owner")
		}
		if recursive && c.Name != "chmod" {
			f := mk(1.2, 0.1, "fs.perms-project", c.Name+" -R"+pmMode(mode)+" on the whole project")
			f.Uncertain = true
			return f
		}
	}
	if c.Name == "chattr" && strings.Contains(mode, "i") {
		return mk(1.5, 0.2, "fs.chattr-immutable", "chattr "+mode+" changes the immutable flag of "+shown)
	}
	if setuid {
		return mk(1.8, 0.5, "fs.perms-setuid", "chmod "+mode+" makes "+shown+" run with its owner's rights (setuid/setgid)")
	}
	if wide && recursive {
		return mk(1.5, 0.2, "fs.perms-wide", c.Name+pmMode(mode)+" -R makes files writable by everyone or readable by no one")
	}
	return mk(0.5, 0, "fs.perms-project", c.Name+" on "+shown+" inside the project")
}

// icaclsEveryone: principals that mean every user of the machine.
var icaclsEveryone = map[string]bool{"everyone": true, "*s-1-1-0": true, "users": true, "*s-1-5-32-545": true,
	"authenticated users": true, "*s-1-5-11": true}

// pmMode is the mode as a reason shows it after the program's name: ""
// when there is none (chown --reference, find -exec chown), so reasons
// never read "chown  on".
func pmMode(mode string) string {
	if mode == "" {
		return ""
	}
	return " " + mode
}
