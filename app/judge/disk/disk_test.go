package disk

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/judge/disk/disktest"
)

// A repository with one file of every state, classified as git would.
func TestAssessClassesMatchGit(t *testing.T) {
	r := disktest.NewRepo(t)
	r.Write(".gitignore", "*.db\n.env\nnode_modules/\n")
	r.Write("src/clean.go", "package x\n")
	r.Write("src/changed.go", "package x\n")
	r.Write("src/deleted-later.go", "package x\n")
	r.Commit("init")
	r.Write("src/changed.go", "package x // edited\n")
	r.Write("src/new.go", "package x\n")
	r.Write("src/staged.go", "package x\n")
	r.Git("add", "src/staged.go")
	r.Write("data/app.db", strings.Repeat("d", 1000))
	r.Write(".env", "A=1\n")
	r.Write("node_modules/x/index.js", "x")
	// Same size, same second: only the content hash can tell.
	r.Write("src/clean.go", "package y\n")

	l := New(time.Second)
	cases := []struct {
		targets   []string
		recursive bool
		want      map[Class]int
	}{
		{[]string{"src/deleted-later.go"}, false, map[Class]int{Clean: 1}},
		{[]string{"src/clean.go"}, false, map[Class]int{Modified: 1}},
		{[]string{"src/changed.go"}, false, map[Class]int{Modified: 1}},
		{[]string{"src/new.go"}, false, map[Class]int{Untracked: 1}},
		{[]string{"src/staged.go"}, false, map[Class]int{Staged: 1}},
		{[]string{"data/app.db", ".env"}, false, map[Class]int{Untracked: 2}},
		{[]string{"node_modules"}, true, map[Class]int{Regenerable: 1}},
		{[]string{"src/*.go"}, false, map[Class]int{Clean: 1, Modified: 2, Untracked: 1, Staged: 1}},
		{[]string{"src"}, true, map[Class]int{Clean: 1, Modified: 2, Untracked: 1, Staged: 1}},
		{[]string{"nothing-here"}, true, map[Class]int{}},
	}
	for _, c := range cases {
		rep := l.Assess(Query{Cwd: r.Dir, Targets: c.targets, Recursive: c.recursive})
		if rep.Err != nil {
			t.Errorf("%v: %v", c.targets, rep.Err)
			continue
		}
		for k := Class(0); k < nClasses; k++ {
			if rep.ByClass[k] != c.want[k] {
				t.Errorf("%v: %d files %s, want %d (report %+v)", c.targets, rep.ByClass[k], k, c.want[k], rep.ByClass)
			}
		}
	}
}

func TestAssessFindMatchAndGitDir(t *testing.T) {
	r := disktest.NewRepo(t)
	r.Write("src/a.js", "a")
	r.Write("src/b.js", "b")
	r.Write("src/c.ts", "c")
	r.Write("sub/inner/.git/HEAD", "ref: refs/heads/main\n")
	r.Commit("init")
	l := New(time.Second)
	rep := l.Assess(Query{Cwd: r.Dir, Targets: []string{"src"}, Match: func(_, rel, name string, dir bool) bool {
		return !dir && strings.HasSuffix(name, ".js")
	}})
	if rep.Files != 2 || rep.ByClass[Clean] != 2 {
		t.Errorf("find -name '*.js': %+v", rep)
	}
	rep = l.Assess(Query{Cwd: r.Dir, Targets: []string{"."}, Recursive: true, Match: func(_, rel, name string, dir bool) bool {
		return dir && name == ".git"
	}})
	if rep.GitDirs < 2 {
		t.Errorf("find -name .git: %d git dirs, want the repo's own and the nested one", rep.GitDirs)
	}
}

func TestAssessOutsideGitAndTemp(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "plain")
	disktest.WriteFile(t, dir, "notes.txt", "n")
	disktest.WriteFile(t, dir, "build/out.bin", "b")
	l := New(time.Second)
	rep := l.Assess(Query{Cwd: dir, Targets: []string{"notes.txt", "build"}, Recursive: true})
	if rep.ByClass[Scratch] != 1 || rep.ByClass[Regenerable] != 1 {
		t.Errorf("in a temp folder: %+v", rep.ByClass)
	}
	l.Temp = nil
	rep = l.Assess(Query{Cwd: dir, Targets: []string{"notes.txt", "build"}, Recursive: true})
	if rep.ByClass[Outside] != 1 || rep.ByClass[Regenerable] != 1 {
		t.Errorf("outside git: %+v", rep.ByClass)
	}
}

func TestAssessBudget(t *testing.T) {
	r := disktest.NewRepo(t)
	for i := 0; i < 600; i++ {
		r.Write(filepath.Join("d", strings.Repeat("x", i%7+1), "f"+string(rune('a'+i%26))+time.Duration(i).String()), "x")
	}
	l := New(time.Nanosecond)
	rep := l.Assess(Query{Cwd: r.Dir, Targets: []string{"d"}, Recursive: true})
	if rep.Err == nil {
		t.Fatalf("a 1ns budget must run over: %+v", rep)
	}
}

func TestReadFileLimit(t *testing.T) {
	dir := t.TempDir()
	p := disktest.WriteFile(t, dir, "big.sh", strings.Repeat("#", MaxScript+1))
	if _, err := ReadFile(p); err == nil {
		t.Error("a file above 1 MiB must be an error, not a cut")
	}
	os.WriteFile(p, []byte("echo hi\n"), 0o644)
	if b, err := ReadFile(p); err != nil || string(b) != "echo hi\n" {
		t.Errorf("ReadFile: %q %v", b, err)
	}
}

// git reset --hard / checkout / restore act on the repository found from
// the cwd: a repository nested in a plain folder (or in the work tree) and
// files outside any repository are not theirs to throw away.
func TestAssessOneRepo(t *testing.T) {
	outer := t.TempDir()
	nested := disktest.NewRepoAt(t, filepath.Join(outer, "clone"))
	nested.Write("a.go", "package a\n")
	nested.Commit("init")
	nested.Write("a.go", "package a // edited\n")
	disktest.WriteFile(t, outer, "notes.txt", "n")

	inner := disktest.NewRepo(t)
	inner.Write("x.go", "package x\n")
	inner.Write("vendor/lib/y.go", "package y\n")
	inner.Commit("init")
	inner.Write("x.go", "package x // edited\n")
	sub := disktest.NewRepoAt(t, filepath.Join(inner.Dir, "vendor", "lib", "sub"))
	sub.Write("z.go", "package z\n")
	sub.Commit("init")
	sub.Write("z.go", "package z // edited\n")

	l := New(time.Second)
	l.Temp = nil
	cases := []struct {
		name     string
		cwd      string
		modified int
		files    int
	}{
		{"a plain folder holding a modified clone", outer, 0, 0},
		{"the clone itself", nested.Dir, 1, 1},
		{"a work tree with a nested repository", inner.Dir, 1, 2},
	}
	for _, c := range cases {
		rep := l.Assess(Query{Cwd: c.cwd, Targets: []string{"."}, Recursive: true, OneRepo: true})
		if rep.Err != nil || rep.ByClass[Modified] != c.modified || rep.Files != c.files {
			t.Errorf("%s: %d files, %d modified (err %v), want %d and %d", c.name, rep.Files, rep.ByClass[Modified], rep.Err, c.files, c.modified)
		}
		// Without OneRepo (rm -rf .) every file under the folder counts.
		if all := l.Assess(Query{Cwd: c.cwd, Targets: []string{"."}, Recursive: true}); all.Files <= rep.Files && c.cwd != nested.Dir {
			t.Errorf("%s: rm -rf . would count %d files, no more than git's %d", c.name, all.Files, rep.Files)
		}
	}
}
