package interp

// Interpreter one-liners (python -c, node -e, perl -e, ruby -e, php -r,
// awk with system(), ...) and code fed on stdin. The code string is read
// for deletion, process spawning, network access, secrets and fork loops;
// shell commands found in string literals handed to os.system/exec/... are
// judged like any other command line. Plain computation is allowed; a
// script file is allowed but Uncertain (its contents are not shown).

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"
	"github.com/agent-guard/agent-guard/app/judge/rules/packs/db"

	"encoding/base64"
	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

func init() {
	pack.On(rulePython, "python", "python2", "python3", "py", "pypy", "pypy3", "ipython")
	pack.On(ruleNode, "node", "nodejs", "ts-node", "tsx")
	pack.On(ruleDeno, "deno")
	pack.On(ruleBunEval, "bun")
	pack.On(rulePerl, "perl")
	pack.On(ruleRuby, "ruby")
	pack.On(rulePhp, "php")
	pack.On(ruleMiscInterp, "lua", "luajit", "rscript", "julia", "osascript", "jshell", "tclsh", "groovy", "scala", "elixir", "erl")
	pack.On(ruleAwk, "awk", "gawk", "mawk", "nawk")
	pack.On(rulePSEncoded, "powershell", "pwsh", "powershell_ise")
}

// pkInterpFinish judges code from -c/-e and stdin, or a script file.
func pkInterpFinish(c *shell.Cmd, x *rules.Ctx, lang string, codes []string, script string) (rules.Finding, bool) {
	if s := rules.PkStdinCode(c); s != "" {
		codes = append(codes, s)
	}
	if len(codes) > 0 {
		var fs []rules.Finding
		for _, code := range codes {
			if rules.PkDyn(code) && strings.TrimSpace(strings.ReplaceAll(code, shell.Dyn, "")) == "" {
				fs = append(fs, rules.PkF(c, 2, 0.4, "interp.dynamic", "runs "+lang+" code only known at run time"))
				continue
			}
			fs = append(fs, pkJudgeCode(c, x, strings.ReplaceAll(code, shell.Dyn, "$X"), lang))
		}
		return rules.Worst(fs...), true
	}
	if c.HiddenCode {
		return rules.Finding{}, false // the dynamic pack reports it
	}
	if script != "" {
		if strings.Contains(script, "://") {
			return rules.PkRet(c, 2.2, 0.5, "remote.script-url", "runs a "+lang+" script straight from the network")
		}
		if rules.PkDyn(script) {
			return rules.PkUnsure(c, 1, "interp.script-dynamic", "runs a "+lang+" script whose name is only known at run time")
		}
		return rules.PkUnsure(c, 0.5, "interp.script", "runs a "+lang+" script file of the project (contents not shown)")
	}
	return rules.PkAllow(c, 0, "interp.repl", lang+" without code: version, help or an interactive session")
}

var pkPyVal = rules.PkSet("-W", "-X", "--check-hash-based-pycs", "-Q")

func rulePython(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	var codes []string
	args := c.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-c":
			if i+1 < len(args) {
				codes = append(codes, args[i+1])
			}
			return pkInterpFinish(c, x, "Python", codes, "")
		case strings.HasPrefix(a, "-c") && len(a) > 2:
			return pkInterpFinish(c, x, "Python", []string{a[2:]}, "")
		case a == "-m":
			if i+1 >= len(args) {
				return rules.PkAllow(c, 0, "interp.python", "python -m without a module")
			}
			return pkPyModule(c, x, args[i+1], args[i+2:])
		case strings.HasPrefix(a, "-m") && len(a) > 2 && !strings.HasPrefix(a, "--"):
			return pkPyModule(c, x, a[2:], args[i+1:])
		case a == "-" || a == "--":
			return pkInterpFinish(c, x, "Python", nil, "")
		case pkPyVal.Has(a):
			i++
		case strings.HasPrefix(a, "-"):
		default:
			if strings.HasSuffix(strings.ToLower(a), "manage.py") {
				return pkDjango(c, x, args[i+1:])
			}
			return pkInterpFinish(c, x, "Python", nil, a)
		}
	}
	return pkInterpFinish(c, x, "Python", nil, "")
}

func pkPyModule(c *shell.Cmd, x *rules.Ctx, mod string, rest []string) (rules.Finding, bool) {
	switch mod {
	case "http.server", "simplehttpserver", "smtpd", "pydoc", "http.server.test":
		dir := x.Cwd
		if v, ok := pkValRest(rest, "-d", "--directory"); ok {
			dir = v
		}
		if p := strings.TrimRight(rules.PkAbs(dir, x), "/"); p == "" || p == strings.ToLower(strings.TrimRight(x.Home, "/")) || p == "c:" || rules.PkDyn(dir) && dir != x.Cwd {
			return rules.PkRet(c, 2.2, 0.6, "creds.serve-home", "serves the home or root folder (keys, credentials) over HTTP")
		}
		return rules.PkAllow(c, 1, "dev.python-server", "serves the current folder over HTTP")
	case "pip", "pip3", "pytest", "venv", "virtualenv", "unittest", "json.tool", "black", "mypy", "ruff", "isort", "flake8", "pylint", "build", "twine", "uvicorn", "gunicorn", "flask", "django", "poetry", "pipx", "coverage", "cprofile", "timeit", "pdb", "ensurepip", "compileall", "py_compile", "doctest", "tox", "nox", "sphinx", "mkdocs", "jupyter", "notebook", "ipykernel", "streamlit", "alembic", "celery", "hypercorn", "grpc_tools.protoc", "pre_commit", "uv", "hatch", "setuptools", "wheel", "zipfile", "tarfile", "base64", "site", "sysconfig", "platform", "this", "calendar", "webbrowser", "pyright", "bandit", "pyinstaller", "nuitka", "maturin", "cython", "pybind11", "gzip", "tokenize", "ast", "dis", "trace", "profile", "pstats", "tabnanny", "mimetypes", "uuid", "secrets", "locust", "behave", "nose2", "hypothesis", "playwright", "spacy", "nltk", "torch.distributed.run", "torch.distributed.launch", "accelerate", "transformers", "huggingface_hub", "locale", "encodings", "zipapp", "venv.", "conda":
		inner := &shell.Cmd{Name: rules.PkNorm(mod), Args: rest, Raw: c.Raw, Depth: c.Depth + 1, Wrappers: append(append([]string(nil), c.Wrappers...), c.Name)}
		if f, ok := rules.PkEval(inner, x); ok && (f.Score() >= 1.5 || f.RedLine) {
			return f, true
		}
		return rules.PkAllow(c, 0.5, "dev.python-module", "runs the Python tool "+mod)
	}
	return rules.PkUnsure(c, 0.5, "interp.python-module", "runs the Python module "+mod)
}

func pkDjango(c *shell.Cmd, x *rules.Ctx, rest []string) (rules.Finding, bool) {
	pos := rules.PkPos(rest, pkVFInterp1)
	if len(pos) == 0 {
		return rules.PkAllow(c, 0, "dev.django", "lists Django commands")
	}
	switch strings.ToLower(pos[0]) {
	case "flush":
		return rules.PkRet(c, 2.4, 0.4, "db.django-flush", "deletes all data from the database")
	case "reset_db", "drop_test_database", "reset_schema":
		return rules.PkRet(c, 2.8, 0.6, "db.django-reset", "drops and recreates the database")
	case "migrate":
		if len(pos) >= 3 && strings.EqualFold(pos[2], "zero") {
			return rules.PkRet(c, 2, 0.3, "db.django-migrate-zero", "unapplies every migration of an app (drops its tables)")
		}
		return rules.PkAllow(c, 1, "dev.django-migrate", "applies migrations")
	case "shell":
		if v, ok := pkValRest(rest, "-c", "--command"); ok {
			return pkInterpFinish(c, x, "Python", []string{v}, "")
		}
		return rules.PkAllow(c, 0.5, "dev.django-shell", "opens the Django shell")
	case "dbshell":
		if s := rules.PkStdinCode(c); s != "" {
			return db.PkSQLClient(c, x, nil, false)
		}
		return rules.PkAllow(c, 1, "dev.django-dbshell", "opens a database shell")
	case "createsuperuser", "changepassword":
		return rules.PkAllow(c, 1, "dev.django-user", "manages an application account")
	}
	return rules.PkAllow(c, 1, "dev.django", "runs a Django management command")
}

func pkValRest(args []string, names ...string) (string, bool) {
	return rules.PkVal(&shell.Cmd{Args: args}, names...)
}

func ruleNode(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	args := c.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-e" || a == "--eval" || a == "-p" || a == "--print" || a == "-pe":
			if i+1 < len(args) {
				return pkInterpFinish(c, x, "JavaScript", []string{args[i+1]}, "")
			}
			return pkInterpFinish(c, x, "JavaScript", nil, "")
		case strings.HasPrefix(a, "--eval=") || strings.HasPrefix(a, "--print="):
			_, v, _ := strings.Cut(a, "=")
			return pkInterpFinish(c, x, "JavaScript", []string{v}, "")
		case a == "-v" || a == "--version" || a == "-h" || a == "--help" || a == "--v8-options":
			return rules.PkAllow(c, 0, "interp.node-version", "prints version or help")
		case a == "-r" || a == "--require" || a == "--import" || a == "--loader" || a == "--experimental-loader" || a == "--env-file" || a == "--inspect-port" || a == "-C" || a == "--conditions" || a == "--max-old-space-size":
			i++
		case a == "-" || a == "--":
			return pkInterpFinish(c, x, "JavaScript", nil, "")
		case strings.HasPrefix(a, "-"):
		default:
			return pkInterpFinish(c, x, "JavaScript", nil, a)
		}
	}
	return pkInterpFinish(c, x, "JavaScript", nil, "")
}

func ruleDeno(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	pos := rules.PkPos(c.Args, pkVFInterp2)
	if len(pos) == 0 {
		return rules.PkAllow(c, 0, "interp.deno", "deno without code")
	}
	switch strings.ToLower(pos[0]) {
	case "eval":
		if len(pos) > 1 {
			return pkInterpFinish(c, x, "JavaScript", []string{pos[1]}, "")
		}
	case "run":
		if len(pos) > 1 {
			return pkInterpFinish(c, x, "JavaScript", nil, pos[1])
		}
	case "install", "compile":
		for _, p := range pos[1:] {
			if strings.Contains(p, "://") {
				return rules.PkUnsure(c, 1.2, "dev.deno-install-url", "installs a script from the network")
			}
		}
	}
	return rules.PkAllow(c, 0.5, "dev.deno", "deno tooling (test, fmt, lint, task...)")
}

func ruleBunEval(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if v, ok := rules.PkVal(c, "-e", "--eval", "-p", "--print"); ok {
		return pkInterpFinish(c, x, "JavaScript", []string{v}, "")
	}
	return rules.Finding{}, false
}

// perl flag clusters: -e/-E take code; -i edits files; -n/-p/-l/-a mods.
func rulePerl(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	var codes []string
	inPlace := false
	args := c.Args
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			i++
			break
		}
		if len(a) < 2 || a[0] != '-' {
			break
		}
		if a == "-v" || a == "--version" || a == "-V" {
			return rules.PkAllow(c, 0, "interp.perl-version", "prints the version")
		}
		body := a[1:]
		for k := 0; k < len(body); k++ {
			switch body[k] {
			case 'e', 'E':
				if k+1 < len(body) {
					codes = append(codes, body[k+1:])
				} else if i+1 < len(args) {
					codes = append(codes, args[i+1])
					i++
				}
				k = len(body)
			case 'i':
				inPlace = true // the rest of the cluster is a backup suffix
				k = len(body)
			case 'M', 'm', 'I', 'x', 'd', 'D', '0', 'C':
				k = len(body)
			}
		}
	}
	files := args[min(i, len(args)):]
	if len(codes) == 0 {
		script := ""
		if len(files) > 0 {
			script = files[0]
		}
		return pkInterpFinish(c, x, "Perl", nil, script)
	}
	f, _ := pkInterpFinish(c, x, "Perl", codes, "")
	if inPlace {
		for _, fl := range files {
			if w, ok := rules.PkWriteTarget(c, x, fl, "perl -i"); ok && w.Worse(f) {
				f = w
			}
		}
		if f.Risk < 1 && !f.RedLine {
			f.Risk, f.Rule, f.Reason = 1, "text.perl-inplace", "perl edits files in place"
		}
	}
	return f, true
}

func ruleRuby(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	var codes []string
	script := ""
	args := c.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-e":
			if i+1 < len(args) {
				codes = append(codes, args[i+1])
				i++
			}
		case a == "-v" || a == "--version":
			return rules.PkAllow(c, 0, "interp.ruby-version", "prints the version")
		case a == "-r" || a == "-I" || a == "-C":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			if len(codes) == 0 && script == "" {
				script = a
			}
		}
	}
	return pkInterpFinish(c, x, "Ruby", codes, script)
}

func rulePhp(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	args := c.Args
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-r":
			if i+1 < len(args) {
				return pkInterpFinish(c, x, "PHP", []string{args[i+1]}, "")
			}
		case a == "-v" || a == "--version" || a == "-m" || a == "-i" || a == "--ini":
			return rules.PkAllow(c, 0, "interp.php-info", "prints PHP information")
		case a == "-S":
			return rules.PkAllow(c, 1, "dev.php-server", "runs the PHP development server")
		case a == "-d" || a == "-c" || a == "-t" || a == "-f" && false:
			i++
		case strings.HasPrefix(a, "-"):
		default:
			base := rules.PkNorm(a)
			if base == "artisan" {
				if f, ok := rules.PkEval(rules.PkInner(c, args[i:]), x); ok {
					return f, true
				}
			}
			if base == "console" && i+1 < len(args) {
				return pkSymfony(c, args[i+1:])
			}
			return pkInterpFinish(c, x, "PHP", nil, a)
		}
	}
	return pkInterpFinish(c, x, "PHP", nil, "")
}

func pkSymfony(c *shell.Cmd, rest []string) (rules.Finding, bool) {
	v := ""
	for _, a := range rest {
		if !strings.HasPrefix(a, "-") {
			v = strings.ToLower(a)
			break
		}
	}
	force := rules.PkContains(rest, "--force") || rules.PkContains(rest, "-f")
	switch {
	case v == "doctrine:database:drop" || v == "d:d:d":
		if force {
			return rules.PkRet(c, 2.9, 0.7, "db.doctrine-drop", "drops the database")
		}
		return rules.PkAllow(c, 0.5, "db.doctrine-drop-dry", "without --force only shows what would be dropped")
	case v == "doctrine:schema:drop":
		if force {
			return rules.PkRet(c, 2.8, 0.6, "db.doctrine-schema-drop", "drops every table")
		}
	case v == "doctrine:fixtures:load" && !rules.PkContains(rest, "--append"):
		return rules.PkRet(c, 2.2, 0.3, "db.fixtures-purge", "purges the database before loading fixtures")
	case v == "doctrine:migrations:migrate" && len(rest) > 1 && (rules.PkContains(rest, "first") || rules.PkContains(rest, "prev")):
		return rules.PkRet(c, 1.8, 0.2, "db.rollback", "rolls back migrations")
	}
	return rules.PkAllow(c, 1, "dev.symfony", "runs a Symfony console command")
}

func ruleMiscInterp(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	lang := c.Name
	var codes []string
	script := ""
	for i := 0; i < len(c.Args); i++ {
		a := c.Args[i]
		switch {
		case a == "-e" || a == "--eval" || a == "-E" || a == "-eval":
			if i+1 < len(c.Args) {
				codes = append(codes, c.Args[i+1])
				i++
			}
		case a == "--version" || a == "-v" || a == "-V":
			return rules.PkAllow(c, 0, "interp.version", "prints the version")
		case strings.HasPrefix(a, "-"):
		default:
			if script == "" && len(codes) == 0 {
				script = a
			}
		}
	}
	if c.Name == "osascript" && len(codes) > 0 {
		joined := strings.Join(codes, "\n")
		if f, ok := pkInterpFinish(c, x, "AppleScript", []string{joined}, ""); ok {
			if d, ok := pkFinderDelete(c, joined); ok && d.Worse(f) {
				return d, true
			}
			if f.Score() < 1 && (strings.Contains(strings.ToLower(joined), "system events") || strings.Contains(strings.ToLower(joined), "keystroke")) {
				return rules.PkRet(c, 1.5, 0.3, "interp.applescript-ui", "AppleScript drives other apps or types keystrokes")
			}
			return f, true
		}
	}
	return pkInterpFinish(c, x, lang, codes, script)
}

// ruleAwk: awk programs that call system(), pipe to a shell or getline
// from a command.
func ruleAwk(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	prog := ""
	if _, ok := rules.PkVal(c, "-f", "--file"); ok {
		return rules.PkUnsure(c, 0.5, "text.awk-file", "runs an awk program file")
	}
	pos := rules.PkPos(c.Args, pkVFInterp3)
	if len(pos) > 0 {
		prog = pos[0]
	}
	low := strings.ToLower(prog)
	if strings.Contains(low, "system(") || strings.Contains(low, "| getline") || strings.Contains(low, "|getline") || strings.Contains(low, "| \"sh") || strings.Contains(low, "|\"sh") || strings.Contains(low, "| \"bash") || strings.Contains(low, "|\"bash") {
		f := pkJudgeCode(c, x, prog, "awk")
		base := rules.PkF(c, 2, 0.3, "text.awk-system", "the awk program runs shell commands")
		return rules.Worst(f, base), true
	}
	for _, op := range []string{"> \"/", ">\"/", ">> \"/", ">>\"/"} {
		if i := strings.Index(prog, op); i >= 0 {
			rest := prog[i+len(op)-1:]
			if e := strings.IndexByte(rest, '"'); e > 0 {
				if f, ok := rules.PkWriteTarget(c, x, rest[:e], "awk"); ok && f.Score() >= 1.5 {
					return f, true
				}
			}
		}
	}
	return rules.PkAllow(c, 0, "text.awk", "awk reads and prints text")
}

// rulePSEncoded: an encoded PowerShell command hides what runs; the walker
// decodes it and judges the inside, this keeps it at least confirm.
func rulePSEncoded(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	for i, a := range c.Args {
		l := strings.ToLower(a)
		if len(l) < 2 || l[0] != '-' && l[0] != '/' {
			continue
		}
		opt := "-" + l[1:]
		if opt == "-e" || opt == "-ec" || len(opt) >= 4 && strings.HasPrefix("-encodedcommand", opt) {
			f := rules.PkF(c, 2, 0.5, "remote.ps-encoded", "runs a base64-encoded PowerShell command (hidden from review)")
			if i+1 < len(c.Args) {
				if _, err := base64.StdEncoding.DecodeString(strings.TrimSpace(c.Args[i+1])); err != nil {
					f.Risk = 2.2
					f.Reason = "runs an encoded PowerShell command that does not decode"
				}
			}
			return f, true
		}
		if (opt == "-c" || len(opt) >= 3 && strings.HasPrefix("-command", opt)) && i+1 < len(c.Args) {
			// powershell -c $cmd: the code is only known at run time.
			rest := strings.Join(c.Args[i+1:], " ")
			if rules.PkDyn(rest) && strings.TrimSpace(strings.ReplaceAll(rest, shell.Dyn, "")) == "" {
				return rules.PkF(c, 2, 0.4, "interp.dynamic", "runs PowerShell code only known at run time"), true
			}
		}
	}
	return rules.Finding{}, false
}

// Flag sets hoisted out of the rules (built once, not per command).
var (
	pkVFInterp1 = rules.PkSet("--settings", "--database", "-c", "--command", "--pythonpath")
	pkVFInterp2 = rules.PkSet("--config", "-c", "--import-map", "--lock", "--cert", "--location", "--seed", "--v8-flags", "--env-file", "--reload", "-r")
	pkVFInterp3 = rules.PkSet("-F", "-v", "--assign", "--field-separator")
)

// pkFinderDelete: AppleScript telling Finder (or System Events) to delete
// files, empty the Trash or erase a disk. Finder's delete moves to the
// Trash: a mass change, and of the home or a disk, everything the user
// has; emptying the Trash and erasing a disk cannot be undone.
func pkFinderDelete(c *shell.Cmd, code string) (rules.Finding, bool) {
	low := strings.Join(strings.Fields(strings.ToLower(code)), " ")
	if !strings.Contains(low, "application \"finder\"") && !strings.Contains(low, "application \"system events\"") {
		return rules.Finding{}, false
	}
	switch {
	case strings.Contains(low, "erase disk") || strings.Contains(low, "erase startup disk"):
		return rules.PkRet(c, 3, 0.9, "interp.applescript-delete", "AppleScript erases a disk")
	case strings.Contains(low, "empty trash") || strings.Contains(low, "empty the trash"):
		return rules.PkRet(c, 2.6, 0.6, "interp.applescript-delete", "AppleScript empties the Trash: what is in it is gone for good")
	case strings.Contains(low, "delete "):
		for _, t := range []string{"of home", "home folder", "startup disk", "every disk", "of desktop", "documents folder", "every item of folder \"users", "path to home"} {
			if strings.Contains(low, t) {
				return rules.PkRet(c, 2.6, 0.6, "interp.applescript-delete", "AppleScript tells Finder to delete the user's files ("+t+")")
			}
		}
		return rules.PkRet(c, 2, 0.3, "interp.applescript-delete", "AppleScript tells Finder to delete files")
	}
	return rules.Finding{}, false
}
