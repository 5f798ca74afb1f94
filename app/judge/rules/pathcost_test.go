package rules

import (
	"strings"
	"testing"
)

// TestHasSeqMatchesConcatForm: hasSeq answers what its former body,
// strings.Contains("/"+p+"/", "/"+seq+"/"), answered, for every pair drawn
// from paths and sequences with the edge cases (empty, leading, trailing
// and doubled slashes, a sequence repeated with a partial match first).
func TestHasSeqMatchesConcatForm(t *testing.T) {
	paths := []string{"", "/", "//", "a", "/a", "a/", "/a/", "a//b", "/home/dev/.ssh/id_rsa", "/home/dev/x.ssh/.ssh",
		"/home/dev/.sshx/.ssh/config", ".ssh", "c:/windows/system32/drivers/etc/hosts", "/x/.git/hooks/pre-commit",
		"/x/.git/hooksy/a", "/x/my.git/hooks", "/etc/cron.d", "/etc/cron.dd/x", "aa/aaa/a", "/systemd/usersystemd/user/"}
	seqs := []string{"", "/", "a", "aa", ".ssh", ".ssh/", ".git/hooks", "windows/system32", "drivers/etc", "cron.d",
		"systemd/user", "a/aaa", ".ssh/config", "x.ssh"}
	for _, p := range paths {
		for _, s := range seqs {
			want := strings.Contains("/"+p+"/", "/"+s+"/")
			if got := hasSeq(p, s); got != want {
				t.Errorf("hasSeq(%q, %q) = %v, want %v", p, s, got, want)
			}
		}
	}
}

func BenchmarkHasSeq(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		hasSeq("/home/dev/project/src/main.go", ".git/hooks")
	}
}

// BenchmarkWritePathHostConfig: a Write of another project's host
// settings, which protectedOp resolves through links and reads for our
// hook entry (it is in no protected set of this cwd).
func BenchmarkWritePathHostConfig(b *testing.B) {
	dir, other := b.TempDir(), b.TempDir()
	p := other + "/.claude/settings.json"
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		WritePath(p, dir, dir)
	}
}
