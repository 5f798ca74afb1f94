package self

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"path"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
	"github.com/agent-guard/agent-guard/app/protect"
)

// Installers write into a folder named by a flag, a variable or a make
// argument (GOBIN=DIR go install, cargo install --root, npm -g --prefix,
// pip --target/--prefix, make install PREFIX=/DESTDIR=, cmake --install
// --prefix). The folder is judged like a copy's target: the guard's own
// folder (or a file of ours when the name is known) blocks; a folder
// holding the guard's files, written with names not known before the
// install runs, confirms (guard.unknown-into).

func init() { pack.OnAny(ruleSelfInstall) }

func ruleSelfInstall(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if c.DynName {
		return rules.Finding{}, false
	}
	name := c.Name
	if strings.HasPrefix(name, "python") && len(c.Args) > 2 && c.Args[0] == "-m" && (c.Args[1] == "pip" || c.Args[1] == "pip3") {
		run := *c // python -m pip ...: pip's own arguments
		run.Name, run.Args = "pip", c.Args[2:]
		c, name = &run, "pip"
	}
	switch name {
	case "go":
		return selfGoInstall(c, x)
	case "cargo":
		if len(c.Args) == 0 || c.Args[0] != "install" {
			return rules.Finding{}, false
		}
		root, _ := c.Getenv("CARGO_INSTALL_ROOT")
		if v := flagValue(c, "--root"); v != "" {
			root = v
		}
		if root == "" {
			root = "~/.cargo" // where cargo puts programs by default
			if h, ok := c.Getenv("CARGO_HOME"); ok && h != "" {
				root = h
			}
		}
		return installInto(c, x, root, "/bin")
	case "pipx":
		if len(c.Args) > 0 && (c.Args[0] == "install" || c.Args[0] == "inject" || c.Args[0] == "upgrade") {
			// an explicit folder only: the default ~/.local/bin holds the
			// hook on many installs, and every pipx install would ask
			if dir, _ := c.Getenv("PIPX_BIN_DIR"); dir != "" {
				return installInto(c, x, dir, "")
			}
		}
	case "uv":
		if len(c.Args) > 1 && c.Args[0] == "tool" && (c.Args[1] == "install" || c.Args[1] == "upgrade") {
			if dir, _ := c.Getenv("UV_TOOL_BIN_DIR"); dir != "" {
				return installInto(c, x, dir, "")
			}
		}
		for _, fl := range []string{"--target", "--prefix"} {
			if v := flagValue(c, fl); v != "" {
				return installInto(c, x, v, "")
			}
		}
	case "npm", "pnpm", "yarn", "bun":
		if !c.Flag('g', "--global") && !rules.HasArg(c, "global") && flagValue(c, "--prefix") == "" {
			return rules.Finding{}, false
		}
		prefix, _ := c.Getenv("npm_config_prefix")
		if v := flagValue(c, "--prefix"); v != "" {
			prefix = v
		}
		if v := flagValue(c, "--global-dir"); v != "" {
			prefix = v
		}
		return installInto(c, x, prefix, "/bin")
	case "pip", "pip3":
		for _, fl := range []string{"--target", "-t", "--prefix", "--root", "--home"} {
			if v := flagValue(c, fl); v != "" {
				sub := ""
				if fl == "--prefix" || fl == "--root" || fl == "--home" {
					sub = "/bin"
				}
				if f, ok := installInto(c, x, v, sub); ok {
					return f, true
				}
			}
		}
	case "make", "gmake", "ninja":
		if !rules.HasArg(c, "install") {
			return rules.Finding{}, false
		}
		for _, a := range c.Args {
			k, v, ok := strings.Cut(a, "=")
			if !ok {
				continue
			}
			switch strings.ToLower(k) {
			case "prefix", "destdir", "bindir", "install_dir", "installdir", "exec_prefix", "libdir", "libexecdir", "sbindir":
				sub := ""
				if strings.EqualFold(k, "prefix") || strings.EqualFold(k, "exec_prefix") {
					sub = "/bin"
				}
				if f, ok := installInto(c, x, v, sub); ok {
					return f, true
				}
			}
		}
	case "stow", "xstow":
		// stow -d DIR -t TARGET PKG...: DIR/PKG's tree is linked into TARGET
		dir, target := x.Cwd, ""
		if v := flagValue(c, "-d"); v != "" {
			dir = v
		} else if v := flagValue(c, "--dir"); v != "" {
			dir = v
		}
		if v := flagValue(c, "-t"); v != "" {
			target = v
		} else if v := flagValue(c, "--target"); v != "" {
			target = v
		} else {
			target = joinDir(dir, "..")
		}
		for _, pkg := range c.Operands() {
			if pkg == dir || pkg == target {
				continue
			}
			if f, hit, known := landings(c, joinDir(dir, pkg), target, x); hit {
				return f, true
			} else if !known {
				return unknownOver(c, target, c.Name+" links the package "+pkg, x)
			}
		}
	case "chezmoi", "yadm", "home-manager", "dotbot", "rcup", "homeshick", "vcsh":
		// dotfile managers write their source state over the home folder
		verb := 0
		if c.Name == "vcsh" && len(c.Args) > 1 {
			verb = 1 // vcsh REPO pull
		}
		if len(c.Args) > 0 {
			switch c.Args[verb] {
			case "apply", "update", "init", "checkout", "reset", "switch", "link", "pull", "merge", "stash", "restore":
				return unknownOver(c, "~", c.Name+" "+c.Args[verb]+" writes files", x)
			}
		}
		if c.Name == "dotbot" || c.Name == "rcup" {
			return unknownOver(c, "~", c.Name+" writes files", x)
		}
	case "cmake":
		if !rules.HasArg(c, "--install") {
			return rules.Finding{}, false
		}
		return installInto(c, x, flagValue(c, "--prefix"), "/bin")
	}
	return rules.Finding{}, false
}

// flagValue is the value of --flag VALUE or --flag=VALUE.
func flagValue(c *shell.Cmd, flag string) string {
	for i, a := range c.Args {
		switch {
		case a == flag && i+1 < len(c.Args):
			return c.Args[i+1]
		case strings.HasPrefix(a, flag+"="):
			return a[len(flag)+1:]
		}
	}
	return ""
}

// installInto judges an install into dir (and its sub folder, where the
// programs go) whose file names are not known.
func installInto(c *shell.Cmd, x *rules.Ctx, dir, sub string) (rules.Finding, bool) {
	if dir == "" || strings.Contains(dir, shell.Dyn) {
		return rules.Finding{}, false
	}
	for _, d := range []string{dir, strings.TrimRight(dir, "/\\") + sub} {
		if f, ok := rules.Protected(d, x.Cwd, x.Home); ok {
			f.Reason = c.Name + " installs into " + d + ": " + f.Reason
			f.Marked = c.Raw
			return f, true
		}
	}
	if sub != "" {
		if f, ok := unknownInto(c, strings.TrimRight(dir, "/\\")+sub, c.Name+" installs programs", x); ok {
			return f, true
		}
	}
	return unknownInto(c, dir, c.Name+" installs files", x)
}

// selfGoInstall: go install PKG writes $GOBIN/NAME (else the first
// GOPATH's bin, else ~/go/bin); NAME is the package path's last element.
func selfGoInstall(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if len(c.Args) == 0 || c.Args[0] != "install" {
		return rules.Finding{}, false
	}
	dir, ok := c.Getenv("GOBIN")
	if !ok || dir == "" {
		if gp, ok := c.Getenv("GOPATH"); ok && gp != "" {
			dir = strings.Split(gp, ":")[0] + "/bin"
		} else {
			dir = "~/go/bin"
		}
	}
	if strings.Contains(dir, shell.Dyn) {
		return rules.Finding{}, false
	}
	for _, pkg := range goPkgs(c.Args[1:]) {
		name := goBinName(pkg, x.Cwd)
		for _, n := range []string{name, name + ".exe"} {
			if n == "" || n == ".exe" {
				continue
			}
			t := strings.TrimRight(dir, "/\\") + "/" + n
			if f, ok := rules.Protected(t, x.Cwd, x.Home); ok {
				f.Reason = "go install writes " + t + ": " + f.Reason
				f.Marked = c.Raw
				return f, true
			}
		}
		if protect.OwnName(name) {
			if f, ok := rules.BinaryDir(c, dir, x); ok {
				return f, true
			}
		}
	}
	if f, ok := rules.Protected(dir, x.Cwd, x.Home); ok {
		f.Reason = "go install writes into " + dir + ": " + f.Reason
		f.Marked = c.Raw
		return f, true
	}
	return rules.Finding{}, false
}

// goPkgs are the package arguments of go build/install/run (flags and
// their values skipped).
func goPkgs(args []string) []string {
	takes := map[string]bool{"-o": true, "-tags": true, "-ldflags": true, "-gcflags": true, "-asmflags": true,
		"-mod": true, "-modfile": true, "-p": true, "-exec": true, "-C": true, "-pkgdir": true, "-toolexec": true,
		"-overlay": true, "-pgo": true, "-buildmode": true, "-compiler": true, "-installsuffix": true}
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case takes[a]:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			out = append(out, a)
		}
	}
	return out
}

// goBinName is the program name go gives a package path: its last
// element without @version, the one before a /vN major suffix; for a
// relative path the folder's name.
func goBinName(pkg, cwd string) string {
	if i := strings.LastIndexByte(pkg, '@'); i > 0 {
		pkg = pkg[:i]
	}
	pkg = strings.TrimSuffix(rules.Slashify(pkg), "/...")
	if pkg == "." || pkg == "./" || pkg == "" {
		pkg = rules.Slashify(cwd)
	} else if strings.HasPrefix(pkg, "./") || strings.HasPrefix(pkg, "../") {
		pkg = path.Join(rules.Slashify(cwd), pkg)
	}
	pkg = strings.TrimRight(pkg, "/")
	base := path.Base(pkg)
	if len(base) >= 2 && base[0] == 'v' && isNumber(base[1:]) {
		base = path.Base(path.Dir(pkg))
	}
	if strings.HasSuffix(base, ".go") {
		return ""
	}
	return base
}
