package opts

import (
	"reflect"
	"strings"
	"testing"
)

// git's parse-options (Documentation/technical/api-parse-options.txt,
// gitcli(7)): long options may be abbreviated to a unique prefix, --no-X
// negates X, a short option's value may be attached (-bname) or the next
// word, short flags cluster (-fd), "--" ends the options, -h is usage.
func TestGitParseOptions(t *testing.T) {
	cases := []struct {
		line string
		sub  string
		has  []string // options in effect
		not  []string // options not in effect
		val  map[string]string
		ops  []string
		ro   bool
	}{
		{line: "reset --ha HEAD~1", sub: "reset", has: []string{"hard"}, ops: []string{"HEAD~1"}},
		{line: "reset --hard --no-hard", sub: "reset", not: []string{"hard"}},
		{line: "push --mir origin", sub: "push", has: []string{"mirror"}, ops: []string{"origin"}},
		// --forc is a prefix of force, force-with-lease and force-if-includes:
		// git refuses it as ambiguous; read as each of them (fail closed).
		{line: "push --forc origin main", sub: "push", has: []string{"force", "force-with-lease"}, ops: []string{"origin", "main"}},
		{line: "push --force-w origin", sub: "push", has: []string{"force-with-lease"}, not: []string{"force"}},
		{line: "push origin main -f", sub: "push", has: []string{"f", "force"}, ops: []string{"origin", "main"}},
		{line: "push --no-verify origin", sub: "push", has: []string{"no-verify"}},
		{line: "push -n --force origin", sub: "push", has: []string{"force"}, ro: true},
		{line: "clean --forc", sub: "clean", has: []string{"force"}},
		{line: "clean -fdx", sub: "clean", has: []string{"force", "d", "x"}, not: []string{"X"}},
		{line: "clean -nfd", sub: "clean", has: []string{"force", "dry-run"}, ro: true},
		{line: "checkout --forc main", sub: "checkout", has: []string{"force"}, ops: []string{"main"}},
		{line: "checkout -bfeature", sub: "checkout", not: []string{"force"}, val: map[string]string{"b": "feature"}},
		{line: "checkout -b feature origin/feature", sub: "checkout", val: map[string]string{"b": "feature"}, ops: []string{"origin/feature"}},
		{line: "checkout -fb x", sub: "checkout", has: []string{"force"}, val: map[string]string{"b": "x"}},
		{line: "checkout HEAD --pathspec-from-file=paths.txt", sub: "checkout", val: map[string]string{"pathspec-from-file": "paths.txt"}, ops: []string{"HEAD"}},
		{line: "checkout --pathspec-fr paths.txt HEAD", sub: "checkout", val: map[string]string{"pathspec-from-file": "paths.txt"}, ops: []string{"HEAD"}},
		{line: "switch --discard-ch main", sub: "switch", has: []string{"force"}, ops: []string{"main"}},
		{line: "switch -cfeature", sub: "switch", not: []string{"force", "force-create"}, val: map[string]string{"create": "feature"}},
		{line: "switch -Cfixup", sub: "switch", val: map[string]string{"force-create": "fixup"}},
		{line: "switch --no-discard-changes main", sub: "switch", not: []string{"force"}},
		// -s takes a value: in `restore -s --staged file`, --staged is the source.
		{line: "restore -s --staged file.txt", sub: "restore", not: []string{"staged"}, val: map[string]string{"source": "--staged"}, ops: []string{"file.txt"}},
		{line: "restore -sHEAD~2 --staged f", sub: "restore", has: []string{"staged"}, val: map[string]string{"source": "HEAD~2"}},
		{line: "restore --sta f", sub: "restore", has: []string{"staged"}},
		{line: "restore -SW f", sub: "restore", has: []string{"staged", "worktree"}},
		{line: "restore -h", sub: "restore", ro: true},
		{line: "restore --help", sub: "restore", ro: true},
		{line: "restore -- a b", sub: "restore", ops: []string{"a", "b"}},
		{line: "branch --del --forc feature", sub: "branch", has: []string{"delete", "force"}, ops: []string{"feature"}},
		{line: "branch -D feature", sub: "branch", has: []string{"D"}},
		{line: "worktree remove --forc /tmp/wt", sub: "worktree remove", has: []string{"force"}, ops: []string{"/tmp/wt"}},
		{line: "stash drop stash@{1}", sub: "stash drop", ops: []string{"stash@{1}"}},
		{line: "commit -n -m wip", sub: "commit", has: []string{"no-verify"}, val: map[string]string{"m": "wip"}},
		{line: "commit --verify -m x", sub: "commit", not: []string{"no-verify"}},
		{line: "commit -Cfixup", sub: "commit", val: map[string]string{"reuse-message": "fixup"}},
		{line: "rebase -x make main", sub: "rebase", val: map[string]string{"exec": "make"}, ops: []string{"main"}},
		// a prefix of two options is ambiguous: git refuses it.
		{line: "checkout --pathspec-f x", sub: "checkout", has: []string{"pathspec-from-file", "pathspec-file-nul"}},
		{line: "-C /tmp/repo -c core.pager=less status", sub: "status"},
		{line: "--version", sub: "", ro: true},
		{line: "-c alias.x=reset x --hard", sub: "x", ops: []string{"--hard"}},
	}
	for _, c := range cases {
		g := ParseGit(strings.Fields(c.line))
		if g.Sub != c.sub {
			t.Errorf("%q: sub %q, want %q", c.line, g.Sub, c.sub)
			continue
		}
		a := g.Args
		if g.Sub == "" {
			a = g.Global
		}
		for _, h := range c.has {
			if !a.Has(h) {
				t.Errorf("%q: %s not in effect: %+v", c.line, h, a.Opts)
			}
		}
		for _, h := range c.not {
			if a.Has(h) {
				t.Errorf("%q: %s in effect: %+v", c.line, h, a.Opts)
			}
		}
		for k, v := range c.val {
			if got, ok := a.Value(k); !ok || got != v {
				t.Errorf("%q: value of %s = %q (%v), want %q", c.line, k, got, ok, v)
			}
		}
		if c.ops != nil && !reflect.DeepEqual(a.Operands, c.ops) && c.sub != "x" {
			t.Errorf("%q: operands %q, want %q", c.line, a.Operands, c.ops)
		}
		if a.ReadOnly != c.ro {
			t.Errorf("%q: read-only %v, want %v", c.line, a.ReadOnly, c.ro)
		}
	}
}

// git's own options stop at the subcommand; -c takes the next word.
func TestGitGlobal(t *testing.T) {
	g := ParseGit([]string{"-c", "core.sshCommand=./x", "-C", "sub", "--no-pager", "fetch", "-c", "y"})
	if got := g.Global.Values("c"); !reflect.DeepEqual(got, []string{"core.sshCommand=./x"}) {
		t.Errorf("-c values %q", got)
	}
	if v, _ := g.Global.Value("C"); v != "sub" {
		t.Errorf("-C %q", v)
	}
	if g.Sub != "fetch" || !reflect.DeepEqual(g.Words, []string{"-c", "y"}) {
		t.Errorf("sub %q words %q", g.Sub, g.Words)
	}
	g = ParseGit([]string{"-cfoo.bar=1", "status"})
	if v, _ := g.Global.Value("c"); v != "foo.bar=1" || g.Sub != "status" {
		t.Errorf("attached -c: %q sub %q", v, g.Sub)
	}
}

// GNU getopt_long: unique prefixes, clustering, attached and separate
// values, permutation (options after operands), "--".
func TestGNU(t *testing.T) {
	cases := []struct {
		prog, line string
		has, not   []string
		val        map[string]string
		ops        []string
		ro         bool
	}{
		{prog: "rm", line: "-rf build", has: []string{"recursive", "force"}, ops: []string{"build"}},
		{prog: "rm", line: "build --rec --for", has: []string{"recursive", "force"}, ops: []string{"build"}},
		{prog: "rm", line: "-- -rf", not: []string{"recursive"}, ops: []string{"-rf"}},
		{prog: "rm", line: "--help", ro: true},
		// --no- is not a prefix rule outside git: --no-preserve-root is its own option.
		{prog: "rm", line: "--no-pres -r /", has: []string{"no-preserve-root", "r"}, ops: []string{"/"}},
		{prog: "cp", line: "-t dest a b", val: map[string]string{"target-directory": "dest"}, ops: []string{"a", "b"}},
		{prog: "cp", line: "--target=dest a", val: map[string]string{"target-directory": "dest"}, ops: []string{"a"}},
		{prog: "chmod", line: "-R 777 /", has: []string{"recursive"}, ops: []string{"777", "/"}},
		{prog: "curl", line: "-XDELETE http://h/i", val: map[string]string{"request": "DELETE"}, ops: []string{"http://h/i"}},
		{prog: "curl", line: "--data-u a=b http://h/i", val: map[string]string{"data-urlencode": "a=b"}, ops: []string{"http://h/i"}},
		{prog: "curl", line: "-sSfX PUT u", has: []string{"silent", "fail"}, val: map[string]string{"request": "PUT"}, ops: []string{"u"}},
		{prog: "wget", line: "--method=DELETE u", val: map[string]string{"method": "DELETE"}, ops: []string{"u"}},
		{prog: "rsync", line: "-avn --delete a/ h:/b", has: []string{"delete", "archive", "dry-run"}, ro: true, ops: []string{"a/", "h:/b"}},
		{prog: "rsync", line: "-e ssh a h:b", val: map[string]string{"rsh": "ssh"}, ops: []string{"a", "h:b"}},
		// rsync's popt does not abbreviate: --del is its own option.
		{prog: "rsync", line: "--dele a b", not: []string{"delete"}},
	}
	for _, c := range cases {
		a := ParseFor(c.prog, strings.Fields(c.line))
		for _, h := range c.has {
			if !a.Has(h) {
				t.Errorf("%s %q: %s not in effect: %+v", c.prog, c.line, h, a.Opts)
			}
		}
		for _, h := range c.not {
			if a.Has(h) {
				t.Errorf("%s %q: %s in effect", c.prog, c.line, h)
			}
		}
		for k, v := range c.val {
			if got, ok := a.Value(k); !ok || got != v {
				t.Errorf("%s %q: value of %s = %q, want %q", c.prog, c.line, k, got, v)
			}
		}
		if c.ops != nil && !reflect.DeepEqual(a.Operands, c.ops) {
			t.Errorf("%s %q: operands %q, want %q", c.prog, c.line, a.Operands, c.ops)
		}
		if a.ReadOnly != c.ro {
			t.Errorf("%s %q: read-only %v", c.prog, c.line, a.ReadOnly)
		}
	}
}

// Stop: options end at the first operand (xargs' "+" optstring).
func TestStopAtOperand(t *testing.T) {
	a := ParseFor("xargs", strings.Fields("-0 -n1 -P4 bash -n -c x"))
	if !reflect.DeepEqual(a.Operands, []string{"bash", "-n", "-c", "x"}) {
		t.Errorf("operands %q", a.Operands)
	}
	a = ParseFor("xargs", strings.Fields("--replace= -I{} -S 4096 awk"))
	if v, _ := a.Value("I"); v != "{}" {
		t.Errorf("-I %q", v)
	}
	if v, ok := a.Value("replace"); !ok || v != "" {
		t.Errorf("--replace= %q %v", v, ok)
	}
	if !reflect.DeepEqual(a.Operands, []string{"awk"}) {
		t.Errorf("operands %q", a.Operands)
	}
	// -i takes an optional attached value only: -i x means x is the command.
	a = ParseFor("xargs", strings.Fields("-i rm {}"))
	if v, ok := a.Value("replace"); ok || v != "" || !a.Has("replace") || a.Operands[0] != "rm" {
		t.Errorf("-i: %q %v %q", v, ok, a.Operands)
	}
}

// Parsing never panics, whatever the words.
func TestParseOddWords(t *testing.T) {
	for _, w := range [][]string{{"-"}, {"--"}, {"--="}, {"-="}, {"---"}, {"--no-"}, {"-b"}, {"--source"}, {""}} {
		for k := range table {
			Parse(table[k], w)
		}
		ParseGit(append([]string{"checkout"}, w...))
	}
}
