package shell

import (
	"os"
	"path/filepath"
	"testing"
)

// Runners read their options with the programs' grammar (GNU xargs,
// GNU parallel, procps watch) and open up the command they run.
func TestRunners(t *testing.T) {
	cases := []struct{ in, want string }{
		// xargs: -I R / -i[R] / --replace[=R] name the placeholder; the
		// values of -S, -n, -P, -s, -L are not the command.
		{`xargs -I{} rm -rf {}`, "rm[-rf,?] w:xargs"},
		{`xargs -I % rm -rf %`, "rm[-rf,?] w:xargs"},
		{`xargs -i rm -rf {}`, "rm[-rf,?] w:xargs"},
		{`xargs --replace= sh -c 'rm -rf {}'`, "sh[-c,rm -rf ?] F w:xargs ; rm[-rf,?] @1"},
		{`xargs --repl=@ rm @`, "rm[?] w:xargs"},
		{`xargs -S 4096 awk 1`, "awk[1,?] w:xargs"},
		{`xargs -0 -n1 -P4 rm -f`, "rm[-f,?] w:xargs"},
		{`xargs -n 1 -P 4 echo`, "echo[?] w:xargs"},
		{`xargs`, "echo[?] w:xargs"},
		{`xargs --help`, "echo w:xargs"},
		// bash -n reads and checks the script, runs nothing.
		{`xargs -0 -n1 -P4 bash -n`, "bash[-n,?] w:xargs"},
		{`bash -n -c 'rm -rf /'`, "bash[-n,-c,rm -rf /]"},
		{`bash -o noexec x.sh`, "bash[-o,noexec,x.sh]"},
		// parallel: ::: lists are the arguments; without a command each
		// argument is a command line.
		{`parallel rm -rf ::: build dist`, "rm[-rf,build,dist] w:parallel"},
		{`parallel ::: 'rm -rf /'`, "parallel[:::,rm -rf /] F ; rm[-rf,/] @1"},
		{`parallel rm {} ::: a b`, "parallel[rm,{},:::,a,b] F ; rm[a] @1 ; rm[b] @1"},
		{`parallel -j4 'rm -rf {}' ::: x`, "parallel[-j4,rm -rf {},:::,x] F ; rm[-rf,x] @1"},
		{`parallel --dry-run rm -rf ::: /`, "echo w:parallel"},
		{`parallel rm :::: /nonexistent/list`, "rm[?] w:parallel"},
		{`cat l | parallel rm`, "cat[l] ; rm[?] w:parallel"},
		// watch: words joined as sh -c code; -x, or a multi-word word after
		// a program, runs them as the command.
		{`watch -n 5 'kubectl get pods'`, "watch[-n,5,kubectl get pods] F ; kubectl[get,pods] @1"},
		{`watch sh -c 'git reset --hard'`, "sh[-c,git reset --hard] F w:watch ; git[reset,--hard] @1"},
		{`watch -x rm -rf /`, "rm[-rf,/] w:watch"},
	}
	for _, c := range cases {
		if got := summary(Analyze(c.in)); got != c.want {
			t.Errorf("%q\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

// xargs -a FILE and parallel :::: FILE read the file from disk (within a
// budget) when it exists; otherwise the arguments stay unknown.
func TestRunnerArgFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "paths"), []byte("build\n'dist dir'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := make([]byte, maxArgFile+1)
	for i := range big {
		big[i] = 'a'
	}
	if err := os.WriteFile(filepath.Join(dir, "big"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	// Not "nul": a reserved device name on Windows. The paths go into
	// the command lines with / (a \ there is an escape to the shell
	// parser; Windows opens C:/... alike).
	nul := filepath.ToSlash(filepath.Join(dir, "zero-separated"))
	if err := os.WriteFile(nul, []byte("a b\x00c\x00"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct{ in, dir, want string }{
		{`xargs -a paths rm -rf`, dir, "rm[-rf,build,dist dir] w:xargs"},
		{`xargs --arg-file=` + filepath.ToSlash(filepath.Join(dir, "paths")) + ` rm`, "", "rm[build,dist dir] w:xargs"},
		{`xargs -0 -a ` + nul + ` rm`, "", "rm[a b,c] w:xargs"},
		{`xargs -a paths rm -rf`, "", "rm[-rf,?] w:xargs"}, // folder unknown
		{`xargs -a big rm -rf`, dir, "rm[-rf,?] w:xargs"},  // over the budget
		{`xargs -a missing rm -rf`, dir, "rm[-rf,?] w:xargs"},
		{`parallel rm :::: paths`, dir, "rm[build,'dist dir'] w:parallel"},
		{`echo / > l; xargs -a l rm -rf`, dir, "echo[/] >l ; rm[-rf,/] w:xargs"},
	}
	for _, c := range cases {
		if got := summary(AnalyzeDir(c.in, c.dir)); got != c.want {
			t.Errorf("%q in %q\n got %s\nwant %s", c.in, c.dir, got, c.want)
		}
	}
}

// <<- strips leading tabs from the here-document's lines, as bash does.
func TestDashHeredocStripsTabs(t *testing.T) {
	a := Analyze("python3 <<-EOF\n\timport os\n\t\tos.system('x')\n\tEOF\n")
	if len(a.Cmds) != 1 || len(a.Cmds[0].Redirs) != 1 {
		t.Fatalf("got %s", summary(a))
	}
	if got := a.Cmds[0].Redirs[0].Target; got != "import os\nos.system('x')\n" {
		t.Errorf("body %q", got)
	}
	a = Analyze("bash <<-EOF\n\trm -rf ~\n\tEOF\n")
	if got := summary(a); got != "bash <<-… F ; rm[-rf,~] @1" {
		t.Errorf("got %s", got)
	}
}
