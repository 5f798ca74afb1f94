package interp

import (
	"github.com/agent-guard/agent-guard/app/judge/rules"

	"strings"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Commands hidden in options of ordinary tools (issue 11, item 6): a
// table of the options that run a command, and how to take the command
// out of the option's value. The command is judged like any other; a
// harmless one (tar --to-command=cat) stays harmless. (git -c, GIT_*,
// ssh -o, rsync -e belong to the option-grammar pack; vim -c and awk's
// system() to the editor and interpreter packs.)

// optRunner: one option of one program whose value is a command.
type optRunner struct {
	names []string // spellings, "=" joined or as the next word
	// prefix is cut from the value (--checkpoint-action=exec=CMD).
	prefix string
}

var optRunners = map[string][]optRunner{
	"tar": {
		{names: []string{"--checkpoint-action"}, prefix: "exec="},
		{names: []string{"--to-command", "--info-script", "--new-volume-script", "-F", "--use-compress-program", "-I", "--rsh-command", "--rmt-command"}},
	},
	"zip":   {{names: []string{"-TT", "--unzip-command"}}},
	"man":   {{names: []string{"-P", "--pager", "-H", "--html"}}},
	"less":  {{names: []string{"--lesskey-src"}}},
	"rsync": {{names: []string{"--rsync-path"}}},
	"gdb":   {{names: []string{"-ex", "--eval-command", "-iex"}, prefix: "shell "}, {names: []string{"-ex", "--eval-command", "-iex"}, prefix: "!"}},
	"git":   nil,
}

func init() {
	pack.On(ruleCmdOption, "tar", "gtar", "bsdtar", "zip", "man", "rsync", "gdb", "sed", "gsed", "sqlite3", "emacs", "mysql", "psql", "less", "more")
	pack.OnAny(ruleFindExecTarget)
	pack.OnAny(ruleUnknownDestroyer)
}

// optValues returns the values of the named options of c.
func optValues(args []string, names []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		for _, n := range names {
			switch {
			case a == n && i+1 < len(args):
				out = append(out, args[i+1])
			case strings.HasPrefix(a, n+"=") && strings.HasPrefix(n, "--"):
				out = append(out, a[len(n)+1:])
			case len(n) == 2 && n[0] == '-' && strings.HasPrefix(a, n) && len(a) > 2 && !strings.HasPrefix(a, "--") && (n == "-I" || n == "-F" || n == "-P"):
				out = append(out, a[2:]) // -I'sh -c ...' glued
			}
		}
	}
	return out
}

func ruleCmdOption(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	var codes []string
	name := c.Name
	if name == "gtar" || name == "bsdtar" {
		name = "tar"
	}
	for _, r := range optRunners[name] {
		for _, v := range optValues(c.Args, r.names) {
			if r.prefix != "" {
				var ok bool
				if v, ok = strings.CutPrefix(v, r.prefix); !ok {
					continue
				}
			}
			codes = append(codes, v)
		}
	}
	switch name {
	case "less", "more":
		// less +'!CMD' FILE: the initial command's ! runs CMD in a shell
		for _, a := range c.Args {
			if v, ok := strings.CutPrefix(a, "+"); ok {
				if i := strings.IndexByte(v, '!'); i >= 0 && strings.TrimSpace(v[i+1:]) != "" {
					codes = append(codes, v[i+1:])
				}
			}
		}
	case "sed", "gsed":
		codes = append(codes, sedExec(c)...)
	case "sqlite3":
		for _, a := range c.Args {
			for _, dot := range []string{".shell ", ".system "} {
				if i := strings.Index(a, dot); i >= 0 {
					codes = append(codes, a[i+len(dot):])
				}
			}
		}
	case "mysql", "psql":
		for _, v := range append(optValues(c.Args, []string{"-e", "--execute", "-c", "--command"}), rules.PkStdinCode(c)) {
			for _, mark := range []string{`\!`, "system "} {
				if i := strings.Index(v, mark); i >= 0 {
					codes = append(codes, strings.TrimSpace(v[i+len(mark):]))
				}
			}
		}
	case "emacs":
		for _, v := range optValues(c.Args, []string{"--eval", "-eval"}) {
			for _, mark := range []string{"(shell-command \"", "(call-process-shell-command \"", "(async-shell-command \""} {
				if i := strings.Index(v, mark); i >= 0 {
					rest := v[i+len(mark):]
					if j := strings.IndexByte(rest, '"'); j >= 0 {
						codes = append(codes, rest[:j])
					}
				}
			}
		}
	}
	if len(codes) == 0 {
		return rules.Finding{}, false
	}
	var w rules.Finding
	for i, code := range codes {
		if strings.Contains(code, shell.Dyn) {
			f := rules.Finding{Risk: 2, Violation: 0.4, Rule: "opt.hidden-command", Marked: c.Raw,
				Reason: c.Name + " runs a command from an option whose value is only known at run time"}
			if i == 0 || f.Worse(w) {
				w = f
			}
			continue
		}
		f := rules.BashOn(code, x.Cwd, x.Home, x.M.Deeper())
		f.Reason = c.Name + " runs a command from an option (" + rules.OneLineShort(code) + "): " + f.Reason
		f.Marked = c.Raw
		if f.Score() < 1 {
			f.Risk = 1 // running a command at all is more than the tool's own work
		}
		if i == 0 || f.Worse(w) {
			w = f
		}
	}
	return w, true
}

// sedExec: GNU sed's e command (`1e CMD`, `e CMD`) and the s///e flag,
// which runs the pattern space as a command.
func sedExec(c *shell.Cmd) []string {
	var scripts []string
	scripts = append(scripts, optValues(c.Args, []string{"-e", "--expression"})...)
	if len(scripts) == 0 {
		for i := 0; i < len(c.Args); i++ {
			a := c.Args[i]
			if a == "-f" || a == "--file" || a == "-l" {
				i++
				continue
			}
			if !strings.HasPrefix(a, "-") {
				scripts = append(scripts, a)
				break
			}
		}
	}
	var out []string
	for _, s := range scripts {
		for _, cmd := range strings.FieldsFunc(s, func(r rune) bool { return r == ';' || r == '\n' }) {
			cmd = strings.TrimLeft(strings.TrimSpace(cmd), "0123456789,$ !")
			if len(cmd) > 1 && cmd[0] == '/' {
				if j := strings.IndexByte(cmd[1:], '/'); j >= 0 {
					cmd = strings.TrimLeft(cmd[j+2:], " !")
				}
			}
			switch {
			case cmd == "e":
				out = append(out, shell.Dyn) // runs the pattern space
			case strings.HasPrefix(cmd, "e "):
				out = append(out, strings.TrimSpace(cmd[2:]))
			case len(cmd) > 3 && cmd[0] == 's':
				parts := sedParts(cmd[2:], cmd[1])
				if len(parts) >= 3 && strings.ContainsRune(parts[2], 'e') {
					if parts[1] != "" && !strings.Contains(parts[1], `\`) && !strings.Contains(parts[1], "&") {
						out = append(out, parts[1])
					} else {
						out = append(out, shell.Dyn)
					}
				}
			}
		}
	}
	return out
}

// ruleFindExecTarget: find START -name PAT -exec PROG ... {} ...: PROG
// gets the files find selects, so {} is judged as START/PAT (find /
// -name 'id_rsa*' -exec curl -F f=@{} ... sends private keys).
func ruleFindExecTarget(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if len(c.Wrappers) == 0 || c.Wrappers[len(c.Wrappers)-1] != "find" || x.All == nil {
		return rules.Finding{}, false
	}
	switch c.Name {
	case "rm", "rmdir", "unlink", "shred", "srm", "chmod", "chown", "chgrp":
		return rules.Finding{}, false // the find rule judges deletions and permissions by scope
	}
	has := false
	for _, a := range c.Args {
		if strings.Contains(a, "{}") {
			has = true
		}
	}
	if !has {
		return rules.Finding{}, false
	}
	var find *shell.Cmd
	for i := range x.All.Cmds {
		if f := &x.All.Cmds[i]; f.Name == "find" && f.Raw == c.Raw {
			find = f
		}
	}
	if find == nil {
		return rules.Finding{}, false
	}
	l, ok := rules.FindListing(find)
	if !ok || len(l.Targets()) == 0 {
		return rules.Finding{}, false
	}
	pat := "*"
	for i := 0; i+1 < len(find.Args); i++ {
		if a := find.Args[i]; a == "-name" || a == "-iname" {
			pat = find.Args[i+1]
			break
		}
	}
	// A representative name: the pattern without its wildcards
	// ('id_rsa*' -> id_rsa, '*.pem' -> .pem), so the path rules see it.
	pat = strings.NewReplacer("*", "", "?", "", "[", "", "]", "").Replace(pat)
	if pat == "" {
		pat = "file"
	}
	start := strings.TrimRight(l.Targets()[0], "/")
	rep := start + "/" + pat
	if start == "" {
		rep = "/" + pat
	}
	sub := *c
	sub.Args = make([]string, len(c.Args))
	for i, a := range c.Args {
		sub.Args[i] = strings.ReplaceAll(a, "{}", rep)
	}
	sub.Raw = strings.ReplaceAll(c.Raw, "{}", rep)
	sub.Wrappers = c.Wrappers[:len(c.Wrappers)-1]
	f := rules.JudgeCmd(&sub, x)
	if f.Score() < 1.5 && !f.RedLine {
		return rules.Finding{}, false
	}
	f.Reason = "find runs " + c.Name + " on every " + rep + ": " + f.Reason
	f.Marked = c.Raw
	return f, true
}

// destroyWords in an unknown program's name or options, with the home
// folder or a system folder among its arguments, mean it may delete them.
var destroyWords = []string{"delete", "remove", "purge", "wipe", "erase", "destroy", "nuke", "shred", "clean", "clear", "format", "uninstall", "drop", "prune", "reset", "truncate", "rm", "del", "kill", "zap", "scrub", "obliterate", "overwrite"}

// ruleUnknownDestroyer: an unknown program whose arguments name the home
// folder or a system folder with a delete-like word confirms.
func ruleUnknownDestroyer(c *shell.Cmd, x *rules.Ctx) (rules.Finding, bool) {
	if c.Name == "" || c.DynName || rules.HasRules(c.Name) || c.Func {
		return rules.Finding{}, false
	}
	word := ""
	check := func(s string) {
		ls := strings.ToLower(strings.TrimLeft(s, "-/"))
		for _, d := range destroyWords {
			if ls == d || strings.HasPrefix(ls, d+"-") || strings.HasPrefix(ls, d+"=") || strings.HasPrefix(ls, d+"_") || len(d) > 3 && strings.Contains(ls, d) {
				word = s
				return
			}
		}
	}
	check(c.Name)
	var target string
	for _, a := range c.Args {
		if word == "" && (strings.HasPrefix(a, "-") || strings.HasPrefix(a, "/") && len(a) <= 12 && !strings.Contains(a[1:], "/")) {
			check(a)
		}
		if !strings.HasPrefix(a, "-") || strings.Contains(a, "=") {
			v := a
			if _, after, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "-") {
				v = after
			}
			switch rules.FsClassify(v, x) {
			case rules.FsRoot, rules.FsHome, rules.FsSystem, rules.FsHomeKey:
				target = v
			}
		}
	}
	for _, a := range c.Args {
		if word == "" && !strings.HasPrefix(a, "-") {
			check(a) // mytool purge ~
		}
	}
	if word == "" || target == "" {
		return rules.Finding{}, false
	}
	return rules.Finding{Risk: 2, Violation: 0.4, Rule: "shell.unknown-destroyer", Marked: c.Raw,
		Reason: c.Name + " is a program the rules do not know, and it is asked to " + strings.Trim(word, "-/") + " " + strings.ReplaceAll(target, shell.Dyn, "$?")}, true
}

// sedParts splits s///flags on the delimiter d, honouring \ escapes.
func sedParts(s string, d byte) []string {
	var parts []string
	var cur strings.Builder
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\\' && i+1 < len(s):
			cur.WriteByte(s[i])
			cur.WriteByte(s[i+1])
			i++
		case s[i] == d:
			parts = append(parts, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(s[i])
		}
	}
	return append(parts, cur.String())
}
