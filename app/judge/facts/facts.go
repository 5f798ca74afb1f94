// Package facts is what the judge knows about programs, as one table:
// which names are shells, interpreters and elevators, and how code
// reaches each (an option such as -c, /c or -EncodedCommand, or stdin).
// The shell walk and the rule packs ask it instead of keeping their own
// lists, so a new shell or elevator is added once.
package facts

// Kind is what a program is to the judge.
type Kind uint8

const (
	// Shell reads Unix shell code (bash, fish, csh, ...).
	Shell Kind = iota + 1
	// WinShell reads Windows shell code (cmd, PowerShell).
	WinShell
	// Interpreter runs code in another language (python, node, ...).
	Interpreter
	// Elevator runs a command as another user, usually root.
	Elevator
)

// Program is one row of the table.
type Program struct {
	Name string
	Kind Kind
	// POSIX: a Shell that reads the sh language (bash, dash, ...); fish,
	// csh and tcsh do not.
	POSIX bool
	// Windows: an Elevator of Windows (runas, gsudo).
	Windows bool
	// Code: the options that hand the program code to run; "stdin" when
	// it reads code fed to it (echo code | sh).
	Code []string
	// Lang: for an Interpreter whose code the rules read, the language
	// they read it as (python3, node, perl, ruby, php); empty otherwise.
	Lang string
}

var programs = []Program{
	// Unix shells: -c code, a script operand, or code on stdin.
	{Name: "bash", Kind: Shell, POSIX: true, Code: []string{"-c", "stdin"}},
	{Name: "sh", Kind: Shell, POSIX: true, Code: []string{"-c", "stdin"}},
	{Name: "zsh", Kind: Shell, POSIX: true, Code: []string{"-c", "stdin"}},
	{Name: "dash", Kind: Shell, POSIX: true, Code: []string{"-c", "stdin"}},
	{Name: "ksh", Kind: Shell, POSIX: true, Code: []string{"-c", "stdin"}},
	{Name: "mksh", Kind: Shell, POSIX: true, Code: []string{"-c", "stdin"}},
	{Name: "fish", Kind: Shell, Code: []string{"-c", "--command", "stdin"}},
	{Name: "ash", Kind: Shell, POSIX: true, Code: []string{"-c", "stdin"}},
	{Name: "csh", Kind: Shell, Code: []string{"-c", "stdin"}},
	{Name: "tcsh", Kind: Shell, Code: []string{"-c", "stdin"}},
	{Name: "yash", Kind: Shell, POSIX: true, Code: []string{"-c", "stdin"}},
	{Name: "rbash", Kind: Shell, POSIX: true, Code: []string{"-c", "stdin"}},
	// other shells: their code is not POSIX, but the commands in it are
	// words like any other (nu -c 'rm ~/.claude/settings.json')
	{Name: "xonsh", Kind: Shell, Code: []string{"-c", "stdin"}},
	{Name: "nu", Kind: Shell, Code: []string{"-c", "--commands", "stdin"}},
	{Name: "nushell", Kind: Shell, Code: []string{"-c", "--commands", "stdin"}},
	{Name: "elvish", Kind: Shell, Code: []string{"-c", "stdin"}},
	{Name: "ion", Kind: Shell, Code: []string{"-c", "stdin"}},
	{Name: "murex", Kind: Shell, Code: []string{"-c", "stdin"}},
	{Name: "osh", Kind: Shell, POSIX: true, Code: []string{"-c", "stdin"}},
	{Name: "ysh", Kind: Shell, Code: []string{"-c", "stdin"}},

	// Windows shells.
	{Name: "cmd", Kind: WinShell, Code: []string{"/c", "/k", "stdin"}},
	{Name: "powershell", Kind: WinShell, Code: []string{"-Command", "-EncodedCommand", "-File", "stdin"}},
	{Name: "pwsh", Kind: WinShell, Code: []string{"-Command", "-EncodedCommand", "-File", "stdin"}},
	{Name: "powershell_ise", Kind: WinShell, Code: []string{"-Command"}},
	{Name: "invoke-command", Kind: WinShell, Code: []string{"-ScriptBlock", "-Command"}},

	// Interpreters: their rules read the code given by option or stdin.
	{Name: "python", Kind: Interpreter, Code: []string{"-c", "stdin"}, Lang: "python3"},
	{Name: "python2", Kind: Interpreter, Code: []string{"-c", "stdin"}, Lang: "python3"},
	{Name: "python3", Kind: Interpreter, Code: []string{"-c", "stdin"}, Lang: "python3"},
	{Name: "py", Kind: Interpreter, Code: []string{"-c", "stdin"}, Lang: "python3"},
	{Name: "pypy", Kind: Interpreter, Code: []string{"-c", "stdin"}, Lang: "python3"},
	{Name: "pypy3", Kind: Interpreter, Code: []string{"-c", "stdin"}, Lang: "python3"},
	{Name: "node", Kind: Interpreter, Code: []string{"-e", "--eval", "-p", "--print", "stdin"}, Lang: "node"},
	{Name: "nodejs", Kind: Interpreter, Code: []string{"-e", "--eval", "-p", "--print", "stdin"}, Lang: "node"},
	{Name: "ts-node", Kind: Interpreter, Code: []string{"-e", "--eval", "-p", "--print", "stdin"}, Lang: "node"},
	{Name: "tsx", Kind: Interpreter, Code: []string{"-e", "--eval", "-p", "--print", "stdin"}, Lang: "node"},
	{Name: "perl", Kind: Interpreter, Code: []string{"-e", "-E", "stdin"}, Lang: "perl"},
	{Name: "ruby", Kind: Interpreter, Code: []string{"-e", "stdin"}, Lang: "ruby"},
	{Name: "php", Kind: Interpreter, Code: []string{"-r", "stdin"}, Lang: "php"},
	{Name: "lua", Kind: Interpreter, Code: []string{"-e", "stdin"}},
	{Name: "deno", Kind: Interpreter, Code: []string{"eval"}, Lang: "node"},
	{Name: "bun", Kind: Interpreter, Code: []string{"-e", "--eval"}, Lang: "node"},
	{Name: "rscript", Kind: Interpreter, Code: []string{"-e"}},
	{Name: "tclsh", Kind: Interpreter, Code: []string{"stdin"}},
	{Name: "jshell", Kind: Interpreter, Code: []string{"stdin"}},
	{Name: "irb", Kind: Interpreter, Code: []string{"stdin"}},
	{Name: "julia", Kind: Interpreter, Code: []string{"-e", "--eval", "stdin"}},
	{Name: "osascript", Kind: Interpreter, Code: []string{"-e", "stdin"}},

	// Elevators: the command after them runs as root (or another user);
	// with no command, a root shell reads stdin.
	{Name: "sudo", Kind: Elevator, Code: []string{"stdin"}},
	{Name: "su", Kind: Elevator, Code: []string{"-c", "stdin"}},
	{Name: "doas", Kind: Elevator, Code: []string{"stdin"}},
	{Name: "runuser", Kind: Elevator, Code: []string{"-c", "stdin"}},
	{Name: "pkexec", Kind: Elevator, Code: []string{"stdin"}},
	{Name: "run0", Kind: Elevator, Code: []string{"stdin"}},
	{Name: "runas", Kind: Elevator, Windows: true},
	{Name: "gsudo", Kind: Elevator, Windows: true},
}

var byName = func() map[string]Program {
	m := make(map[string]Program, len(programs))
	for _, p := range programs {
		m[p.Name] = p
	}
	return m
}()

// Lookup returns the row of a normalized program name.
func Lookup(name string) (Program, bool) {
	p, ok := byName[name]
	return p, ok
}

func is(name string, k Kind) bool { return byName[name].Kind == k }

// IsShell: a Unix shell (bash, sh, zsh, dash, ksh, mksh, fish, ash, csh,
// tcsh, yash, rbash).
func IsShell(name string) bool { return is(name, Shell) }

// IsPOSIXShell: a Unix shell that reads the sh language (all but fish,
// csh and tcsh), so a script file it runs can be judged as Bash.
func IsPOSIXShell(name string) bool { return is(name, Shell) && byName[name].POSIX }

// IsWinShell: a Windows shell (cmd, PowerShell, Invoke-Command).
func IsWinShell(name string) bool { return is(name, WinShell) }

// RunsCode: a program that runs code handed to it: any shell, Windows
// shell or interpreter of the table.
func RunsCode(name string) bool {
	switch byName[name].Kind {
	case Shell, WinShell, Interpreter:
		return true
	}
	return false
}

// Lang is the language the rules read an interpreter's code as
// (python3, node, perl, ruby, php), or "" for a program they do not.
func Lang(name string) string { return byName[name].Lang }

// IsInterpreter: a language interpreter whose code the rules read.
func IsInterpreter(name string) bool { return is(name, Interpreter) }

// IsElevator: runs a command as another user (sudo, doas, su, runas, ...).
func IsElevator(name string) bool { return is(name, Elevator) }

// IsUnixElevator: an elevator of Unix (sudo, su, doas, runuser, pkexec,
// run0); with no command, it opens a root shell that reads stdin.
func IsUnixElevator(name string) bool { return is(name, Elevator) && !byName[name].Windows }

// Shells returns the Unix shells, in table order.
func Shells() []string { return names(Shell) }

// Names returns the programs of a kind, in table order.
func Names(k Kind) []string { return names(k) }

func names(k Kind) []string {
	var out []string
	for _, p := range programs {
		if p.Kind == k {
			out = append(out, p.Name)
		}
	}
	return out
}
