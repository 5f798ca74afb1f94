package rules

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Programs that change the same things as ones the packs already know,
// by another name: Set-Acl (icacls), regedit (reg import), manage-bde
// (BitLocker, like cipher for a whole volume), podman/nerdctl system
// reset (docker system prune -a --volumes and more).

func init() {
	on(ruleSetAcl, "set-acl")
	on(ruleRegedit, "regedit", "regedit.exe", "regedt32")
	on(ruleManageBde, "manage-bde", "manage-bde.exe")
	on(ruleSystemReset, "podman", "nerdctl")
}

// ruleSetAcl: Set-Acl -Path X -AclObject $acl replaces X's access list;
// it is judged like icacls on X.
func ruleSetAcl(c *shell.Cmd, x *Ctx) (Finding, bool) {
	var targets []string
	for i := 0; i < len(c.Args); i++ {
		la := strings.ToLower(c.Args[i])
		switch {
		case la == "-path" || la == "-literalpath" || la == "-lp":
			if i+1 < len(c.Args) {
				targets = append(targets, c.Args[i+1])
				i++
			}
		case la == "-aclobject" || la == "-securitydescriptor" || la == "-filter" || la == "-include" || la == "-exclude":
			i++
		case strings.HasPrefix(la, "-"):
		default:
			if len(targets) == 0 {
				targets = append(targets, c.Args[i]) // Set-Acl X $acl: the first word is the path
			}
		}
	}
	if len(targets) == 0 {
		// Get-Item X | Set-Acl ...: the items come from the pipe.
		return pkUnsure(c, 1.5, "fs.perms-dynamic", "Set-Acl replaces the access list of items only known at run time")
	}
	var w Finding
	for k, t := range targets {
		f, ok := pkEval(pkInner(c, []string{"icacls", t, "/grant", "user:F"}), x)
		if ok && (k == 0 || f.Worse(w)) {
			w = f
		}
	}
	w.Reason = "Set-Acl: " + w.Reason
	w.Marked = c.Raw
	return w, true
}

// ruleRegedit: regedit /s x.reg (or regedit x.reg) merges a file into
// the registry, like reg import; /e exports.
func ruleRegedit(c *shell.Cmd, x *Ctx) (Finding, bool) {
	file := false
	for _, a := range c.Args {
		la := strings.ToLower(a)
		if la == "/e" || la == "-e" || la == "/a" {
			return pkAllow(c, 1, "reg.export", "exports registry keys to a file")
		}
		if strings.HasSuffix(strings.Trim(la, `"`), ".reg") || strings.Contains(la, shell.Dyn) {
			file = true
		}
	}
	if !file {
		return pkAllow(c, 0.5, "win.regedit-open", "opens the registry editor")
	}
	return pkRet(c, 3, 0.9, "sys.registry-import", "regedit merges a .reg file into the registry")
}

// ruleManageBde: BitLocker. Reading its state is harmless; turning it
// off or on, forcing recovery, locking a volume or changing its keys
// can leave the disk unreadable or unprotected.
func ruleManageBde(c *shell.Cmd, x *Ctx) (Finding, bool) {
	for _, a := range c.Args {
		switch strings.ToLower(strings.TrimLeft(a, "-/")) {
		case "status", "?", "h", "help":
			return pkAllow(c, 0, "disk.bitlocker-read", "shows the BitLocker state")
		case "protectors":
			for _, b := range c.Args {
				if lb := strings.ToLower(strings.TrimLeft(b, "-/")); lb == "get" {
					return pkAllow(c, 0, "disk.bitlocker-read", "shows the BitLocker key protectors")
				}
			}
		}
	}
	return pkRet(c, 2.2, 0.6, "disk.bitlocker", "changes BitLocker on a volume (off, on, recovery, lock or keys): the disk may become unreadable or unprotected")
}

// ruleSystemReset: podman/nerdctl system reset deletes every container,
// image, volume and network, in use or not.
func ruleSystemReset(c *shell.Cmd, x *Ctx) (Finding, bool) {
	ops := c.Operands()
	if len(ops) >= 2 && ops[0] == "system" && ops[1] == "reset" {
		return pkRet(c, 2.8, 0.7, "docker.system-reset", c.Name+" system reset deletes every container, image and volume: volume data cannot be recovered")
	}
	return Finding{}, false
}

func init() { on(ruleSetxPath, "setx") }

// ruleSetxPath: setx PATH replaces the user's PATH for every later
// program: "" empties it, and "%PATH%;..." copies the machine's PATH into
// the user's and cuts the whole at 1024 characters, so programs stop
// being found. (It may also put a folder of the agent's choosing first.)
func ruleSetxPath(c *shell.Cmd, x *Ctx) (Finding, bool) {
	for _, a := range c.Operands() {
		if strings.HasPrefix(a, "/") {
			continue
		}
		if strings.EqualFold(a, "path") {
			return pkRet(c, 2, 0.4, "sys.setx-path", "setx PATH replaces the PATH of every later program (and cuts it at 1024 characters): programs may stop being found, or other ones run in their place")
		}
		break
	}
	return Finding{}, false
}
