package rules

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
	"github.com/agent-guard/agent-guard/app/judge/disk"
	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Recipes about to run (issue 11, item 3): npm/pnpm/yarn/bun run X with
// its pre/post scripts, make [-f F] X, just X, task X, cargo build with
// build.rs, pip install -e . with setup.py, pytest with conftest.py, go
// generate. The recipe comes from content the same line wrote (`npm pkg
// set scripts.x=...`, `printf ... > mk && make -f mk`, make --eval) or,
// with the machine state, from the file on disk; what it runs is judged
// like any command. A recipe that cannot be read changes nothing.

func init() {
	on(ruleRecipeText, "npm", "pnpm", "yarn", "yarnpkg", "bun", "make", "gmake", "just", "task")
}

// ruleRecipeText judges recipes the line itself provides (no disk).
func ruleRecipeText(c *shell.Cmd, x *Ctx) (Finding, bool) {
	return recipeFinding(c, x, false)
}

// recipeFromDisk is the same with the recipe files read from disk.
func recipeFromDisk(c *shell.Cmd, x *Ctx) (Finding, bool) {
	return recipeFinding(c, x, true)
}

// recipeSrc reads a recipe file: the line's own write first, then disk.
type recipeSrc struct {
	c        *shell.Cmd
	x        *Ctx
	fromDisk bool
}

func (r recipeSrc) read(p string) (string, bool) {
	if r.x.All != nil && r.x.All.Written != nil {
		for _, k := range []string{p, strings.TrimPrefix(p, "./"), filepath.Base(p)} {
			if b, ok := r.x.All.Written[k]; ok && (k == p || !strings.Contains(p, "/")) {
				return b, b != shell.Hidden
			}
		}
	}
	if !r.fromDisk {
		return "", false
	}
	b, err := disk.ReadFile(absPath(p, r.x))
	return string(b), err == nil
}

func recipeFinding(c *shell.Cmd, x *Ctx, fromDisk bool) (Finding, bool) {
	if c.DynName || strings.Contains(x.Cwd, shell.Dyn) {
		return Finding{}, false
	}
	src := recipeSrc{c, x, fromDisk}
	var cmds []string
	what := ""
	switch c.Name {
	case "npm", "pnpm", "yarn", "yarnpkg", "bun":
		cmds, what = npmRecipe(src)
	case "make", "gmake":
		cmds, what = makeRecipe(src)
	case "just":
		cmds, what = justRecipe(src)
	case "task":
		cmds, what = taskRecipe(src)
	case "cargo":
		if fromDisk {
			cmds, what = cargoBuildRS(src)
		}
	}
	if fromDisk && len(cmds) == 0 {
		switch c.Name {
		case "pip", "pip3", "uv", "pipx":
			return pyFilesFinding(src, setupPy(c))
		case "pytest", "py.test":
			return pyFilesFinding(src, conftests(x))
		case "python", "python3":
			if ops := c.Args; len(ops) >= 2 && ops[0] == "-m" && ops[1] == "pytest" {
				return pyFilesFinding(src, conftests(x))
			}
			if len(c.Args) >= 3 && c.Args[0] == "-m" && c.Args[1] == "pip" {
				sub := *c
				sub.Name, sub.Args = "pip", c.Args[2:]
				return pyFilesFinding(src, setupPy(&sub))
			}
		case "go":
			cmds, what = goGenerate(src)
		}
	}
	if len(cmds) == 0 {
		return Finding{}, false
	}
	m := x.M
	if m == nil {
		m = &Machine{}
	}
	sub := m.deeper()
	if sub == nil {
		return Finding{}, false
	}
	if sub.Disk == nil && sub.Mem == nil && !fromDisk {
		sub.depth = m.depth + 1 // text mode: only the depth is carried
	}
	var w Finding
	have := false
	for _, code := range cmds {
		f := BashOn(code, x.Cwd, x.Home, sub)
		if !have || f.Worse(w) {
			w, have = f, true
		}
	}
	w.Reason = c.Name + " runs " + what + ": " + oneLineShort(strings.Join(cmds, "; ")) + ": " + w.Reason
	w.Marked = c.Raw
	return w, true
}

// --- npm and friends

var npmBuiltins = map[string]bool{"install": true, "i": true, "add": true, "ci": true, "remove": true, "rm": true, "uninstall": true,
	"update": true, "up": true, "upgrade": true, "publish": true, "pack": true, "link": true, "init": true, "create": true, "exec": true,
	"x": true, "dlx": true, "info": true, "view": true, "why": true, "list": true, "ls": true, "outdated": true, "audit": true,
	"config": true, "set": true, "get": true, "pkg": true, "cache": true, "login": true, "logout": true, "whoami": true, "version": true,
	"help": true, "dedupe": true, "prune": true, "rebuild": true, "import": true, "workspace": true, "workspaces": true, "global": true,
	"store": true, "patch": true, "env": true, "node": true, "bin": true, "root": true, "prefix": true, "search": true, "doctor": true}

// npmRecipe: the scripts `npm run X` runs (preX, X, postX).
func npmRecipe(r recipeSrc) ([]string, string) {
	c := r.c
	ops := c.Operands()
	if len(ops) == 0 {
		return nil, ""
	}
	name := ""
	switch {
	case ops[0] == "run" || ops[0] == "run-script" || ops[0] == "rum" || ops[0] == "urn":
		if len(ops) > 1 {
			name = ops[1]
		}
	case ops[0] == "test" || ops[0] == "t" || ops[0] == "tst" || ops[0] == "start" || ops[0] == "stop" || ops[0] == "restart":
		name = map[string]string{"t": "test", "tst": "test"}[ops[0]]
		if name == "" {
			name = ops[0]
		}
	case c.Name != "npm" && !npmBuiltins[ops[0]]:
		name = ops[0] // yarn build, pnpm lint, bun dev
	}
	if name == "" || strings.Contains(name, shell.Dyn) {
		return nil, ""
	}
	scripts := map[string]string{}
	if body, ok := r.read("package.json"); ok {
		var p struct {
			Scripts map[string]string `json:"scripts"`
		}
		if json.Unmarshal([]byte(body), &p) == nil {
			scripts = p.Scripts
		}
	}
	// npm pkg set scripts.X=V earlier in the same line.
	if r.x.All != nil {
		for i := range r.x.All.Cmds {
			p := &r.x.All.Cmds[i]
			if p == c || p.Raw == c.Raw && p.Name == c.Name {
				break
			}
			if (p.Name == "npm" || p.Name == "pnpm") && len(p.Args) >= 3 && p.Args[0] == "pkg" && p.Args[1] == "set" {
				for _, kv := range p.Args[2:] {
					k, v, ok := strings.Cut(kv, "=")
					if s, isScript := strings.CutPrefix(k, "scripts."); ok && isScript {
						if scripts == nil {
							scripts = map[string]string{}
						}
						scripts[s] = v
					}
				}
			}
		}
	}
	var out []string
	for _, k := range []string{"pre" + name, name, "post" + name} {
		if v, ok := scripts[k]; ok && strings.TrimSpace(v) != "" {
			out = append(out, v)
		}
	}
	return out, "the package.json script " + name
}

// --- make

// makeDryRun: make -n / --dry-run / --just-print / --recon / -q only print.
func makeDryRun(c *shell.Cmd) bool {
	if c.Name != "make" && c.Name != "gmake" {
		return false
	}
	for _, a := range c.Args {
		switch {
		case a == "--dry-run" || a == "--just-print" || a == "--recon" || a == "--question":
			return true
		case len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], "nq") && !strings.ContainsAny(a[1:], "fCIoWj"):
			return true
		}
	}
	return false
}

func makeRecipe(r recipeSrc) ([]string, string) {
	c := r.c
	if makeDryRun(c) {
		return nil, ""
	}
	file, eval := "", ""
	var targets []string
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		switch {
		case a == "-f" || a == "--file" || a == "--makefile":
			if i+1 < len(c.Args) {
				file = c.Args[i+1]
				i++
			}
		case strings.HasPrefix(a, "--file=") || strings.HasPrefix(a, "--makefile="):
			_, file, _ = strings.Cut(a, "=")
		case strings.HasPrefix(a, "-f") && len(a) > 2:
			file = a[2:]
		case strings.HasPrefix(a, "--eval="):
			eval += strings.TrimPrefix(a, "--eval=") + "\n"
		case a == "--eval" || a == "-E":
			if i+1 < len(c.Args) {
				eval += c.Args[i+1] + "\n"
				i++
			}
		case a == "-C" || a == "--directory" || a == "-j" || a == "-l" || a == "-o" || a == "-W" || a == "-I":
			i++
		case strings.HasPrefix(a, "-"):
		case strings.Contains(a, "="):
		default:
			targets = append(targets, a)
		}
	}
	var content string
	if file != "" {
		b, ok := r.read(file)
		if !ok && eval == "" {
			return nil, ""
		}
		content = b
	} else {
		for _, f := range []string{"GNUmakefile", "makefile", "Makefile"} {
			if b, ok := r.read(f); ok {
				content = b
				break
			}
		}
	}
	content = eval + content
	if strings.TrimSpace(content) == "" {
		return nil, ""
	}
	cmds := makeCommands(content, targets)
	name := "the make target"
	if len(targets) > 0 {
		name += " " + strings.Join(targets, " ")
	}
	return cmds, name
}

var makeVarRe = lazyre.New(`\$[({]([A-Za-z_][A-Za-z0-9_]*)[)}]`)

// makeCommands returns the recipe lines of targets (the first target by
// default) and of their prerequisites, variables expanded once.
func makeCommands(content string, targets []string) []string {
	type rule struct {
		prereqs []string
		recipe  []string
	}
	rules := map[string]*rule{}
	vars := map[string]string{"MAKE": "make", "RM": "rm -f", "SHELL": "/bin/sh", "CURDIR": "."}
	first := ""
	var cur []*rule
	content = strings.ReplaceAll(content, "\\\n", " ")
	for _, l := range strings.Split(content, "\n") {
		if strings.HasPrefix(l, "\t") {
			line := strings.TrimLeft(strings.TrimSpace(l), "@-+")
			for _, r := range cur {
				r.recipe = append(r.recipe, line)
			}
			continue
		}
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if k, v, ok := makeAssign(t); ok {
			vars[k] = v
			cur = nil
			continue
		}
		head, rest, ok := strings.Cut(t, ":")
		if !ok || strings.HasPrefix(rest, "=") {
			cur = nil
			continue
		}
		rest = strings.TrimPrefix(rest, ":")
		inline := ""
		if i := strings.IndexByte(rest, ';'); i >= 0 {
			rest, inline = rest[:i], strings.TrimSpace(rest[i+1:])
		}
		cur = nil
		for _, name := range strings.Fields(head) {
			if strings.HasPrefix(name, ".") || strings.Contains(name, "%") {
				continue
			}
			if first == "" {
				first = name
			}
			r := rules[name]
			if r == nil {
				r = &rule{}
				rules[name] = r
			}
			r.prereqs = append(r.prereqs, strings.Fields(rest)...)
			if inline != "" {
				r.recipe = append(r.recipe, inline)
			}
			cur = append(cur, r)
		}
	}
	if len(targets) == 0 && first != "" {
		targets = []string{first}
	}
	var out []string
	seen := map[string]bool{}
	var visit func(t string, depth int)
	visit = func(t string, depth int) {
		if seen[t] || depth > 32 || len(seen) > 256 {
			return
		}
		seen[t] = true
		r := rules[t]
		if r == nil {
			return
		}
		for _, p := range r.prereqs {
			visit(p, depth+1)
		}
		for _, line := range r.recipe {
			out = append(out, makeExpand(line, vars))
		}
	}
	for _, t := range targets {
		visit(t, 0)
	}
	return out
}

func makeAssign(t string) (string, string, bool) {
	for _, op := range []string{"::=", ":=", "?=", "+=", "!=", "="} {
		if i := strings.Index(t, op); i > 0 {
			k := strings.TrimSpace(t[:i])
			if strings.ContainsAny(k, " :\t") && !strings.HasPrefix(k, "export ") && !strings.HasPrefix(k, "override ") {
				return "", "", false
			}
			k = strings.TrimPrefix(strings.TrimPrefix(k, "export "), "override ")
			return strings.TrimSpace(k), strings.TrimSpace(t[i+len(op):]), true
		}
	}
	return "", "", false
}

func makeExpand(line string, vars map[string]string) string {
	for i := 0; i < 3 && makeVarRe.MatchString(line); i++ {
		line = makeVarRe.Re().ReplaceAllStringFunc(line, func(m string) string {
			k := makeVarRe.FindStringSubmatch(m)[1]
			if v, ok := vars[k]; ok {
				return v
			}
			return m
		})
	}
	return strings.ReplaceAll(line, "$$", "$")
}

// --- just and task

func justRecipe(r recipeSrc) ([]string, string) {
	var content string
	for _, f := range []string{"justfile", "Justfile", ".justfile"} {
		if b, ok := r.read(f); ok {
			content = b
			break
		}
	}
	if content == "" {
		return nil, ""
	}
	var target string
	for _, o := range r.c.Operands() {
		if !strings.Contains(o, "=") {
			target = o
			break
		}
	}
	recipes := map[string][]string{}
	deps := map[string][]string{}
	first, cur := "", ""
	for _, l := range strings.Split(content, "\n") {
		if l == "" {
			continue
		}
		if l[0] == ' ' || l[0] == '\t' {
			if cur != "" {
				recipes[cur] = append(recipes[cur], strings.TrimLeft(strings.TrimSpace(l), "@-"))
			}
			continue
		}
		t := strings.TrimSpace(l)
		cur = ""
		if strings.HasPrefix(t, "#") || strings.HasPrefix(t, "set ") || strings.HasPrefix(t, "alias ") || strings.HasPrefix(t, "[") || strings.Contains(t, ":=") {
			continue
		}
		head, rest, ok := strings.Cut(t, ":")
		if !ok {
			continue
		}
		fs := strings.Fields(strings.TrimPrefix(head, "@"))
		if len(fs) == 0 {
			continue
		}
		cur = fs[0]
		if first == "" {
			first = cur
		}
		deps[cur] = strings.Fields(rest)
	}
	if target == "" {
		target = first
	}
	var out []string
	seen := map[string]bool{}
	var visit func(string)
	visit = func(t string) {
		if seen[t] || len(seen) > 64 {
			return
		}
		seen[t] = true
		for _, d := range deps[t] {
			visit(d)
		}
		out = append(out, recipes[t]...)
	}
	visit(target)
	return out, "the just recipe " + target
}

func taskRecipe(r recipeSrc) ([]string, string) {
	var content string
	for _, f := range []string{"Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml"} {
		if b, ok := r.read(f); ok {
			content = b
			break
		}
	}
	target := "default"
	if ops := r.c.Operands(); len(ops) > 0 {
		target = ops[0]
	}
	if content == "" {
		return nil, ""
	}
	var out []string
	in, indent := false, -1
	for _, l := range strings.Split(content, "\n") {
		t := strings.TrimSpace(l)
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		ind := len(l) - len(strings.TrimLeft(l, " "))
		if strings.TrimSuffix(t, ":") == target && strings.HasSuffix(t, ":") && ind > 0 {
			in, indent = true, ind
			continue
		}
		if in && ind <= indent {
			in = false
		}
		if !in {
			continue
		}
		v := strings.TrimPrefix(t, "- ")
		v = strings.TrimPrefix(v, "cmd:")
		if v == t && !strings.HasPrefix(t, "cmd:") || strings.HasSuffix(v, ":") || strings.HasPrefix(v, "task:") {
			continue
		}
		v = strings.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		if v != "" && v != "|" {
			out = append(out, v)
		}
	}
	return out, "the task " + target
}

// --- cargo, pip, pytest, go generate (disk only)

var rustCallRe = lazyre.New(`Command::new\(\s*"([^"]+)"\s*\)((?:\s*\.args?\(\s*(?:&?\[)?[^)]*\]?\s*\))*)`)
var rustStrRe = lazyre.New(`"((?:[^"\\]|\\.)*)"`)

func cargoBuildRS(r recipeSrc) ([]string, string) {
	ops := r.c.Operands()
	if len(ops) == 0 {
		return nil, ""
	}
	switch ops[0] {
	case "build", "b", "run", "r", "test", "t", "check", "c", "bench", "install", "clippy", "doc":
	default:
		return nil, ""
	}
	b, ok := r.read("build.rs")
	if !ok {
		return nil, ""
	}
	var out []string
	for _, m := range rustCallRe.FindAllStringSubmatch(b, 32) {
		words := []string{m[1]}
		for _, s := range rustStrRe.FindAllStringSubmatch(m[2], 64) {
			words = append(words, shellQuote(s[1]))
		}
		out = append(out, strings.Join(words, " "))
	}
	low := strings.ToLower(b)
	if strings.Contains(low, "remove_dir_all") && (strings.Contains(low, "home_dir") || strings.Contains(low, `var("home")`) || strings.Contains(low, `"/"`)) {
		out = append(out, "rm -rf ~")
	}
	return out, "build.rs"
}

// setupPy: pip install -e . / pip install ./dir runs that folder's setup.py.
func setupPy(c *shell.Cmd) []string {
	ops := c.Operands()
	if len(ops) == 0 || ops[0] != "install" {
		return nil
	}
	var out []string
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		if a == "-e" || a == "--editable" {
			if i+1 < len(c.Args) {
				out = append(out, filepath.Join(c.Args[i+1], "setup.py"))
				i++
			}
			continue
		}
		if a == "." || strings.HasPrefix(a, "./") || strings.HasPrefix(a, "/") {
			out = append(out, filepath.Join(a, "setup.py"))
		}
	}
	return out
}

// conftests: the conftest.py files pytest loads below the folder.
func conftests(x *Ctx) []string {
	root := expandHome(x.Cwd, x.Home)
	var out []string
	var walk func(dir, rel string, depth int)
	walk = func(dir, rel string, depth int) {
		if depth > 3 || len(out) >= 20 {
			return
		}
		ents, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range ents {
			n := e.Name()
			if e.IsDir() {
				if !strings.HasPrefix(n, ".") && !disk.RegenName(n) && n != "site-packages" {
					walk(filepath.Join(dir, n), filepath.Join(rel, n), depth+1)
				}
			} else if n == "conftest.py" {
				out = append(out, filepath.Join(rel, n))
			}
		}
	}
	walk(root, "", 0)
	return out
}

func pyFilesFinding(r recipeSrc, files []string) (Finding, bool) {
	var w Finding
	have := false
	for _, f := range files {
		b, ok := r.read(f)
		if !ok {
			continue
		}
		g, ok := judgeContent(r.c, r.x, b, "python3")
		if !ok {
			continue
		}
		g.Reason = r.c.Name + " runs " + f + ", which " + lowerFirst(g.Reason)
		g.Marked = r.c.Raw
		if !have || g.Worse(w) {
			w, have = g, true
		}
	}
	return w, have
}

// goGenerate: the //go:generate lines of the packages go generate runs.
func goGenerate(r recipeSrc) ([]string, string) {
	ops := r.c.Operands()
	if len(ops) == 0 || ops[0] != "generate" {
		return nil, ""
	}
	root := expandHome(r.x.Cwd, r.x.Home)
	recursive := false
	for _, o := range ops[1:] {
		if strings.HasSuffix(o, "...") {
			recursive = true
		}
	}
	var out []string
	files := 0
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		ents, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range ents {
			if files > 500 {
				return
			}
			n := e.Name()
			if e.IsDir() {
				if recursive && depth < 6 && !strings.HasPrefix(n, ".") && n != "vendor" && n != "testdata" && !disk.RegenName(n) {
					walk(filepath.Join(dir, n), depth+1)
				}
				continue
			}
			if !strings.HasSuffix(n, ".go") {
				continue
			}
			files++
			b, err := disk.ReadFile(filepath.Join(dir, n))
			if err != nil {
				continue
			}
			for _, l := range strings.Split(string(b), "\n") {
				if g, ok := strings.CutPrefix(l, "//go:generate "); ok {
					out = append(out, strings.TrimSpace(g))
				}
			}
		}
	}
	walk(root, 0)
	return out, "the //go:generate commands"
}
