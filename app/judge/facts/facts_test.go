package facts

import (
	"slices"
	"testing"
)

func TestPredicates(t *testing.T) {
	tests := []struct {
		name                                         string
		shell, posix, interp, elevator, unixElevator bool
	}{
		{"bash", true, true, false, false, false},
		{"sh", true, true, false, false, false},
		{"rbash", true, true, false, false, false},
		{"fish", true, false, false, false, false},
		{"csh", true, false, false, false, false},
		{"tcsh", true, false, false, false, false},
		{"cmd", false, false, false, false, false},
		{"pwsh", false, false, false, false, false},
		{"python3", false, false, true, false, false},
		{"irb", false, false, true, false, false},
		{"sudo", false, false, false, true, true},
		{"run0", false, false, false, true, true},
		{"runuser", false, false, false, true, true},
		{"runas", false, false, false, true, false},
		{"gsudo", false, false, false, true, false},
		{"ls", false, false, false, false, false},
		{"", false, false, false, false, false},
		{"BASH", false, false, false, false, false}, // names arrive normalized (lower case)
	}
	for _, tt := range tests {
		got := []bool{IsShell(tt.name), IsPOSIXShell(tt.name), IsInterpreter(tt.name), IsElevator(tt.name), IsUnixElevator(tt.name)}
		want := []bool{tt.shell, tt.posix, tt.interp, tt.elevator, tt.unixElevator}
		if !slices.Equal(got, want) {
			t.Errorf("%q: shell/posix/interp/elevator/unix = %v, want %v", tt.name, got, want)
		}
	}
}

// TestRunsCode: the programs a pipe or an argument can hand code to.
func TestRunsCode(t *testing.T) {
	tests := []struct {
		name           string
		runs, winShell bool
	}{
		{"bash", true, false},
		{"yash", true, false},
		{"cmd", true, true},
		{"pwsh", true, true},
		{"invoke-command", true, true},
		{"python3", true, false},
		{"irb", true, false},
		{"sudo", false, false}, // runs a command, not code: the walker peels it
		{"ls", false, false},
		{"", false, false},
	}
	for _, tt := range tests {
		if got := RunsCode(tt.name); got != tt.runs {
			t.Errorf("RunsCode(%q) = %v, want %v", tt.name, got, tt.runs)
		}
		if got := IsWinShell(tt.name); got != tt.winShell {
			t.Errorf("IsWinShell(%q) = %v, want %v", tt.name, got, tt.winShell)
		}
	}
}

// TestTable: the sets the judge relies on, spelled out, so a change to the
// table is a visible change to these lists.
func TestTable(t *testing.T) {
	if got, want := Shells(), []string{"bash", "sh", "zsh", "dash", "ksh", "mksh", "fish", "ash", "csh", "tcsh", "yash", "rbash",
		"xonsh", "nu", "nushell", "elvish", "ion", "murex", "osh", "ysh"}; !slices.Equal(got, want) {
		t.Errorf("Shells() = %v, want %v", got, want)
	}
	if got, want := Names(Elevator), []string{"sudo", "su", "doas", "runuser", "pkexec", "run0", "runas", "gsudo"}; !slices.Equal(got, want) {
		t.Errorf("elevators = %v, want %v", got, want)
	}
	if got, want := Names(Interpreter), []string{"python", "python2", "python3", "py", "pypy", "pypy3", "node", "nodejs", "ts-node", "tsx", "perl", "ruby", "php", "lua", "deno", "bun", "rscript", "tclsh", "jshell", "irb", "julia", "osascript"}; !slices.Equal(got, want) {
		t.Errorf("interpreters = %v, want %v", got, want)
	}
	seen := map[string]bool{}
	for _, p := range programs {
		if seen[p.Name] {
			t.Errorf("%s is in the table twice", p.Name)
		}
		seen[p.Name] = true
		if p.Kind == Shell || p.Kind == WinShell {
			if len(p.Code) == 0 {
				t.Errorf("%s: a shell without a way to take code", p.Name)
			}
		}
		if p.Lang != "" && p.Kind != Interpreter {
			t.Errorf("%s: Lang belongs to interpreters", p.Name)
		}
		if p.POSIX && p.Kind != Shell || p.Windows && p.Kind != Elevator {
			t.Errorf("%s: POSIX belongs to shells and Windows to elevators", p.Name)
		}
	}
	if p, ok := Lookup("powershell"); !ok || !slices.Contains(p.Code, "-EncodedCommand") {
		t.Errorf("powershell takes code by -EncodedCommand: %+v", p)
	}
	if p, ok := Lookup("cmd"); !ok || !slices.Contains(p.Code, "/c") {
		t.Errorf("cmd takes code by /c: %+v", p)
	}
}

// TestLang: the language an interpreter's code is read as (interp_files.go
// judges a script file it runs under that program).
func TestLang(t *testing.T) {
	tests := []struct{ name, want string }{
		{"python", "python3"}, {"py", "python3"}, {"pypy3", "python3"},
		{"node", "node"}, {"ts-node", "node"}, {"tsx", "node"}, {"deno", "node"}, {"bun", "node"},
		{"perl", "perl"}, {"ruby", "ruby"}, {"php", "php"},
		{"lua", ""}, {"irb", ""}, {"bash", ""}, {"sudo", ""}, {"ls", ""},
	}
	for _, tt := range tests {
		if got := Lang(tt.name); got != tt.want {
			t.Errorf("Lang(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}
