package everyday

import (
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// npm pkg set scripts.postinstall='CMD' (npm set-script NAME CMD, pnpm pkg
// set) writes a package.json script: CMD runs on the next npm install (a
// lifecycle script) or npm run NAME. Like a Write of package.json, the
// script is judged by its command, a question at most; when the same line
// then runs it (npm install, npm run NAME), the command runs now and is
// judged as it is.

func init() {
	pack.On(ruleNpmScriptSet, "npm", "pnpm", "yarn", "bun")
}

var npmLifecycle = map[string]bool{"preinstall": true, "install": true, "postinstall": true, "prepare": true,
	"preprepare": true, "postprepare": true, "prepublish": true, "prepack": true, "postpack": true, "dependencies": true}

func ruleNpmScriptSet(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if c.Depth >= rules.PkMaxDepth {
		return rules.Finding{}, false
	}
	ops := c.Operands()
	var pairs [][2]string
	switch {
	case len(ops) >= 3 && ops[0] == "pkg" && ops[1] == "set":
		for _, kv := range ops[2:] {
			k, v, ok := strings.Cut(kv, "=")
			if name, isScript := strings.CutPrefix(k, "scripts."); ok && isScript && name != "" {
				pairs = append(pairs, [2]string{name, v})
			}
		}
	case len(ops) >= 3 && ops[0] == "set-script":
		pairs = append(pairs, [2]string{ops[1], strings.Join(ops[2:], " ")})
	}
	var worst rules.Finding
	have := false
	for _, p := range pairs {
		name, code := p[0], p[1]
		f := rules.BashOn(strings.ReplaceAll(code, shell.Dyn, "$X"), x.Cwd, x.Home, x.M.Deeper())
		if !(f.RedLine || f.Score() >= 1.5) {
			continue
		}
		f.Marked = c.Raw
		if npmRunsLater(x, c, name) {
			f.Reason = "the package script " + name + ", run later in this line: " + f.Reason
		} else {
			f = rules.Finding{Risk: 2, Violation: min(f.Violation, 0.45), Rule: "npm.script-set", Marked: c.Raw,
				Reason: c.Name + " sets the package script " + name + ", which would run a dangerous command: " + f.Reason}
		}
		if !have || f.Worse(worst) {
			worst, have = f, true
		}
	}
	return worst, have
}

// npmRunsLater: a package manager later in the line runs script name
// (install runs the lifecycle scripts, run NAME or yarn NAME runs it).
func npmRunsLater(x *rules.Ctx, self *shell.Cmd, name string) bool {
	if x.All == nil {
		return false
	}
	after := false
	for i := range x.All.Cmds {
		c := &x.All.Cmds[i]
		if c.Raw == self.Raw && c.Name == self.Name {
			after = true
			continue
		}
		if !after {
			continue
		}
		switch c.Name {
		case "npm", "pnpm", "yarn", "bun":
		default:
			continue
		}
		ops := c.Operands()
		if len(ops) == 0 {
			if npmLifecycle[name] && c.Name == "yarn" {
				return true // bare yarn installs
			}
			continue
		}
		switch ops[0] {
		case "install", "i", "ci", "add", "rebuild", "pack", "publish":
			if npmLifecycle[name] {
				return true
			}
		case "run", "run-script", "exec":
			if len(ops) > 1 && ops[1] == name {
				return true
			}
		case name:
			return true // npm test, npm start, yarn build
		}
	}
	return false
}
