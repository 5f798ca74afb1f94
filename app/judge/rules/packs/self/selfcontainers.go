package self

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// A container with a host folder mounted writable can change anything in
// it, with no command the judge sees: mounting the guard's files, or a
// folder holding them (~/.config, ~, /), read-write is a write to every
// one of them (self.*). Read-only mounts (:ro, readonly) are reads.

func init() { pack.OnAny(ruleSelfMounts) }

var containerCLIs = map[string]bool{"docker": true, "podman": true, "nerdctl": true, "finch": true, "lima": true,
	"colima": true, "apptainer": true, "singularity": true, "systemd-nspawn": true, "bwrap": true, "firejail": true}

func ruleSelfMounts(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if !containerCLIs[c.Name] {
		return rules.Finding{}, false
	}
	for _, m := range hostMounts(c) {
		if m.ro || m.src == "" || strings.Contains(m.src, shell.Dyn) {
			continue
		}
		n := rules.Normalize(m.src, x.Cwd, x.Home)
		if n.Dynamic() {
			continue
		}
		f, ok := rules.Protected(m.src, x.Cwd, x.Home)
		if !ok {
			f, ok = rules.ProtectedBelow(n, m.src, x.Cwd, x.Home) // a folder holding our files, on disk
		}
		if ok {
			f.Reason = c.Name + " mounts " + m.src + " writable into a container: " + f.Reason
			f.Marked = c.Raw
			return f, true
		}
		if !n.HomeKnown() {
			continue
		}
		own := []string{n.LowHome() + "/.config/agent-guard", n.LowHome() + "/.local/state/agent-guard", n.LowHome() + "/.local/bin/agent-guard-hook"}
		for _, r := range rules.UserHostRels() {
			own = append(own, n.LowHome()+"/"+r)
		}
		for _, own := range own {
			if rules.Under(own, n.Low()) {
				return rules.Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.guard-tree", Marked: c.Raw,
					Reason: c.Name + " mounts " + m.src + " writable into a container, and with it the agent's own guard and hook configuration: an agent must not switch off its own guard; mount it :ro or ask the user"}, true
			}
		}
	}
	return rules.Finding{}, false
}

type hostMount struct {
	src string
	ro  bool
}

// hostMounts reads -v/--volume SRC:DST[:OPTS], --mount
// type=bind,src=...,readonly, bwrap --bind SRC DST, nspawn --bind=SRC.
func hostMounts(c *shell.Cmd) []hostMount {
	var out []hostMount
	vol := func(spec string) {
		drive := ""
		if rules.HasDrive(spec) { // C:\x:/y
			drive, spec = spec[:2], spec[2:]
		}
		parts := strings.Split(spec, ":")
		if len(parts) < 2 {
			return // a named volume or a bare container path
		}
		src := drive + parts[0]
		if !rules.IsAbs(rules.Slashify(src)) && !strings.HasPrefix(src, "$") && !strings.HasPrefix(src, "%") && !strings.HasPrefix(src, ".") {
			return // a named volume
		}
		ro := len(parts) > 2 && (strings.Contains(","+parts[2]+",", ",ro,") || strings.Contains(parts[2], "readonly"))
		out = append(out, hostMount{src: src, ro: ro})
	}
	mount := func(spec string) {
		m := hostMount{}
		for _, kv := range strings.Split(spec, ",") {
			k, v, _ := strings.Cut(kv, "=")
			switch strings.ToLower(k) {
			case "source", "src":
				m.src = v
			case "readonly", "ro":
				m.ro = v == "" || v == "true" || v == "1"
			case "type":
				if v != "bind" {
					return
				}
			}
		}
		out = append(out, m)
	}
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		next := ""
		if i+1 < len(c.Args) {
			next = c.Args[i+1]
		}
		switch {
		case a == "-v" || a == "--volume":
			vol(next)
			i++
		case strings.HasPrefix(a, "--volume="):
			vol(a[9:])
		case strings.HasPrefix(a, "-v") && len(a) > 2 && !strings.HasPrefix(a, "--"):
			vol(a[2:])
		case a == "--mount":
			mount(next)
			i++
		case strings.HasPrefix(a, "--mount="):
			mount(a[8:])
		case a == "--bind" || a == "--bind-try" || a == "-B":
			if c.Name == "apptainer" || c.Name == "singularity" {
				vol(next + ":")
			} else {
				out = append(out, hostMount{src: next})
			}
			i++
		case a == "--ro-bind" || a == "--bind-ro":
			i++
		case strings.HasPrefix(a, "--bind="):
			out = append(out, hostMount{src: strings.SplitN(a[7:], ":", 2)[0]})
		}
	}
	return out
}
