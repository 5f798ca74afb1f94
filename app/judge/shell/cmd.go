// Package shell parses a command line with mvdan.cc/sh/v3 and flattens it
// into the simple commands that would run, wrappers unwrapped and nested
// shells (bash -c, eval, | sh, here-docs fed to a shell) opened up.
package shell

import "strings"

// Dyn stands for a word whose value cannot be known statically
// (a variable, a command substitution, arithmetic...).
const Dyn = "\x00dyn"

// Cmd is one simple command as it would run.
type Cmd struct {
	// Name is the normalized program name: base name, a leading backslash
	// and a trailing .exe removed, lower-cased ("rm", "remove-item").
	Name string
	// Prog is the program word as written ("./bin/x", "/tmp/copy"), for
	// rules that look at the file that would run ("" when unknown).
	Prog string
	// Args are the words after the name, quotes removed; a word that is
	// (partly) dynamic is Dyn or contains Dyn.
	Args []string
	// Raw is the command's source text, for reasons and the dialog.
	Raw string
	// DynName: the program itself cannot be known statically.
	DynName bool
	// Redirs are the command's redirections.
	Redirs []Redir
	// Wrappers are the programs it was unwrapped from (sudo, env, xargs, find -exec...).
	Wrappers []string
	// PipedFrom names the commands earlier in the same pipeline;
	// PipedTo those later (for curl | sh, printenv | nc).
	PipedFrom, PipedTo []string
	// Depth counts nested shells (bash -c '...' inside is depth 1).
	Depth int
	// FedCode: the command is a shell or interpreter whose code comes from
	// its stdin (a pipe, here-doc or here-string) or from -c/eval.
	FedCode bool
	// Background: ends in &.
	Background bool
	// Func: the name is a shell function defined in the same script.
	Func bool
	// Obfuscated: the program name was spelled to hide it (r''m, "r"m,
	// r\m, $'\x72m', $(echo rm), a variable) though it resolved statically.
	Obfuscated bool
	// WinProg is the program word of an Obfuscated name read as Windows
	// reads it (.venv\Scripts\python, bin\Debug\App.exe: a relative
	// path whose backslashes bash would drop); "" otherwise. The rules
	// judge that reading when bash's (.venvScriptspython) is no program
	// they know.
	WinProg string
	// Dir is the working directory a wrapper sets for the command
	// (env -C DIR, sudo -D DIR); "" when it runs in the shell's cwd.
	Dir string
	// Env are the NAME=value assignments the command runs with: prefixed
	// to it (GIT_SSH=./x git push) or given to env (env A=b cmd). A
	// value that is not statically known contains Dyn.
	Env []string
	// HiddenCode: FedCode whose code cannot be read statically (curl | sh,
	// base64 -d | bash, bash <(curl ...), source "$F"). At least confirm.
	HiddenCode bool
	// Decoded: the script it runs was written in the same line by a
	// decoder (base64 -d <<< B64 > x.sh; sh x.sh): read, but encoded to
	// hide it from review. At least confirm.
	Decoded bool
	// Path is the program word as written when it names a file (./t.sh,
	// /tmp/tidy, .\x.ps1, deploy.sh), for rules that read that file.
	Path string
	// Scope names the subshells the command runs in ("" the main shell,
	// "/2/5" subshell 5 inside subshell 2): ( ), $( ), <( ) and pipeline
	// elements. A cd in one does not move the commands after it.
	Scope string
	// Start and End are the byte offsets of the command in the analysed
	// script (End 0: not known, e.g. code inside bash -c '...'). The
	// dialog marks exactly this span, not the first equal substring.
	Start, End int
}

// Redir is one redirection: Op like ">", ">>", "<", "<<", "<<<", "&>".
// An interpreter running a script file written earlier in the same line
// (cat > x.py <<EOF ... ; python3 x.py) gets the file's content as a
// here-string, so the interpreter rules read the code that will run.
type Redir struct {
	Op     string
	Target string // file name, Dyn if unknown; the body for here-docs
}

// Analysis is the whole command line flattened.
type Analysis struct {
	Cmds []Cmd
	// FuncDefs are names of shell functions defined in the script.
	FuncDefs []string
	// Err is the parse error, if the line does not parse (it is then at
	// least confirm: what cannot be read cannot be judged).
	Err error
	// ForkBomb is the text of a fork bomb or spawn loop ("" when none):
	// a function that runs itself in a pipe or the background, or an
	// endless loop that starts background jobs.
	ForkBomb string
	// Exhaust is the text of an endless loop without a pause that keeps
	// creating files or folders (while true; do mkdir x; cd x; done).
	Exhaust string
	// TooDeep: the line nests deeper than MaxNesting and was not parsed
	// (Err is ErrTooDeep). Nothing in it was seen, so it is refused.
	TooDeep bool
	// Capped: the line is longer than MaxInput or holds more than MaxCmds
	// commands, so its tail was not read (Err says which).
	Capped bool
	// Written are the files the line itself writes with static content
	// (path as written -> content; an unreadable content is Hidden), so a
	// recipe or script it runs afterwards is judged by that content.
	Written map[string]string
}

// Hidden is the content Written records for a file whose content cannot
// be read statically (base64 -d > x.sh, curl -o x.sh).
const Hidden = hiddenBody

// Flag reports whether the command has a short flag letter (also inside a
// cluster such as -rf) or one of the long forms ("--recursive").
// Flags are looked for only before a "--" argument.
func (c *Cmd) Flag(short byte, long ...string) bool {
	for _, a := range c.Args {
		if a == "--" {
			return false
		}
		if strings.HasPrefix(a, "--") {
			name, _, _ := strings.Cut(a, "=")
			for _, l := range long {
				if name == l {
					return true
				}
			}
			continue
		}
		if short != 0 && len(a) > 1 && a[0] == '-' && strings.IndexByte(a[1:], short) >= 0 && isFlagCluster(a[1:]) {
			return true
		}
	}
	return false
}

func isFlagCluster(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// Getenv returns the value of NAME among c.Env (the last one wins).
func (c *Cmd) Getenv(name string) (string, bool) {
	v, ok := "", false
	for _, kv := range c.Env {
		if k, val, _ := strings.Cut(kv, "="); k == name {
			v, ok = val, true
		}
	}
	return v, ok
}

// Operands are the arguments that are not flags (everything after "--" too),
// in a new slice the caller may change (rules.pkLowOps filters it in place;
// TestOperandsIsACopy holds it to that).
func (c *Cmd) Operands() []string {
	var out []string
	dashdash := false
	for _, a := range c.Args {
		switch {
		case dashdash:
			out = append(out, a)
		case a == "--":
			dashdash = true
		case len(a) > 1 && a[0] == '-':
		default:
			out = append(out, a)
		}
	}
	return out
}

// Dynamic reports whether any argument is not statically known.
func (c *Cmd) Dynamic() bool {
	for _, a := range c.Args {
		if strings.Contains(a, Dyn) {
			return true
		}
	}
	return c.DynName
}
