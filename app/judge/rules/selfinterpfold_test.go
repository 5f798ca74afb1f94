package rules

import (
	"slices"
	"testing"
)

// The strings interpreter code builds from pieces, as the interpreter
// would build them; code that builds nothing yields nothing.
func TestFoldLiterals(t *testing.T) {
	for _, c := range []struct{ code, want string }{
		{`os.remove(os.path.expanduser('~/.cl'+'aude/settings.json'))`, "~/.claude/settings.json"},
		{`os.remove(os.path.expanduser('~/'+''.join(map(chr,[46,99,108,97,117,100,101]))+'/settings.json'))`, "~/.claude/settings.json"},
		{`exec(__import__('base64').b64decode('aW1wb3J0IG9zO29zLnN5c3RlbSgncGtpbGwgYWdlbnQtZ3VhcmQnKQ=='))`, "pkill agent-guard"},
		{`os.system(codecs.decode('cxvyy ntrag-thneq','rot13'))`, "pkill agent-guard"},
		{`os.remove(os.path.expanduser('nosj.sgnittes/edualc./~'[::-1]))`, "~/.claude/settings.json"},
		{`rm(joinpath(homedir(), ".config", "agent-guard"); recursive=true)`, "~/.config/agent-guard"},
		{`os.remove(os.getenv("HOME").."/.claude/settings.json")`, "~/.claude/settings.json"},
		{`os.system(bytes.fromhex('706b696c6c206167656e742d6775617264').decode())`, "pkill agent-guard"},
		{`system(strrev("draug-tnega llikp"));`, "pkill agent-guard"},
		{`os.execute(("draug-tnega llikp"):reverse())`, "pkill agent-guard"},
		{`[IO.File]::WriteAllText((Join-Path $HOME '.codex\hooks.json'), '{}')`, `~/.codex\hooks.json`},
		{`std::fs::remove_file(format!("{}/.claude/settings.json", std::env::var("HOME").unwrap()))`, "~/.claude/settings.json"},
		{"exec pkill agent-guard", "pkill agent-guard"},
	} {
		if got := foldLiterals(c.code); !slices.Contains(got, c.want) {
			t.Errorf("foldLiterals(%q) = %q, want it to hold %q", c.code, got, c.want)
		}
	}
	for _, code := range []string{`print('hello')`, `x = 'a'; y = "b"`, `open('README.md').read()`} {
		if got := foldLiterals(code); len(got) != 0 {
			t.Errorf("foldLiterals(%q) = %q, want nothing", code, got)
		}
	}
}

// Limits that starve a hook are reported; raising or lifting them is not.
func TestStarveLimit(t *testing.T) {
	for text, want := range map[string]bool{
		"ulimit -t 1": true, "ulimit -n 4": true, "ulimit -Sn 10": true, "ulimit -H -u 5": true, "ulimit -v 1000": true,
		"ulimit -n 65536": false, "ulimit -c unlimited": false, "ulimit -s unlimited": false, "ulimit -t 3600": false,
		"ulimit -a": false, "echo ulimit": false,
	} {
		if _, got := starveLimit(text); got != want {
			t.Errorf("starveLimit(%q) = %v, want %v", text, got, want)
		}
	}
}

// Windows ignores trailing dots and spaces of names.
func TestTrimWinTails(t *testing.T) {
	for in, want := range map[string]string{
		"c:/users/dev/.claude/settings.json.":  "c:/users/dev/.claude/settings.json",
		"c:/users/dev/.claude /settings.json ": "c:/users/dev/.claude/settings.json",
		"/home/dev/./x/../y":                   "/home/dev/./x/../y",
		"/home/dev/proj/a.txt":                 "/home/dev/proj/a.txt",
	} {
		if got := trimWinTails(in); got != want {
			t.Errorf("trimWinTails(%q) = %q, want %q", in, got, want)
		}
	}
}
