package main

import (
	"io"
	"regexp"
	"strings"
	"testing"
)

// ev builds one test2json line.
func ev(action, pkg, test, output string) string {
	s := `{"Action":"` + action + `","Package":"` + pkg + `"`
	if test != "" {
		s += `,"Test":"` + test + `"`
	}
	if output != "" {
		s += `,"Output":` + strings.ReplaceAll(`"`+output+`\n"`, "\t", `\t`)
	}
	return s + "}\n"
}

const startRefused = `fork/exec Z:\\tmp\\a.test.exe: Internal error.`

func TestRetryPlan(t *testing.T) {
	retry := regexp.MustCompile(`fork/exec [^\n]*: Internal error`)
	cases := []struct {
		name   string
		stream string
		code   int
		list   string
	}{
		{"all pass", ev("pass", "m/a", "TestX", "") + ev("pass", "m/a", "", ""), 0, ""},
		{"refused start in a subtest: the top-level test runs again",
			ev("output", "m/a", "TestX/n=1", startRefused) + ev("fail", "m/a", "TestX/n=1", "") +
				ev("fail", "m/a", "TestX", "") + ev("fail", "m/a", "", ""),
			3, "m/a\t^(TestX)$\n"},
		{"two packages, two tests",
			ev("output", "m/b", "TestZ", startRefused) + ev("fail", "m/b", "TestZ", "") +
				ev("output", "m/a", "TestY", startRefused) + ev("fail", "m/a", "TestY", "") +
				ev("output", "m/a", "TestX", startRefused) + ev("fail", "m/a", "TestX", ""),
			3, "m/a\t^(TestX|TestY)$\nm/b\t^(TestZ)$\n"},
		{"one real failure beside a refused start: no retry",
			ev("output", "m/a", "TestX", startRefused) + ev("fail", "m/a", "TestX", "") +
				ev("output", "m/a", "TestY", "got allow, want block") + ev("fail", "m/a", "TestY", ""),
			1, ""},
		{"a package that failed with no failed test: no retry", ev("fail", "m/a", "", ""), 1, ""},
		{"a test that never finished: no retry",
			ev("output", "m/a", "TestX", startRefused) + ev("fail", "m/a", "TestX", "") +
				ev("run", "m/a", "TestHang", "") + ev("output", "m/a", "TestHang", "waiting"),
			1, ""},
		{"build failure: no retry",
			ev("output", "m/a", "TestX", startRefused) + ev("fail", "m/a", "TestX", "") +
				`{"Action":"build-fail","ImportPath":"m/c"}` + "\n",
			1, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out strings.Builder
			r := report(strings.NewReader(c.stream), &out, io.Discard, retry)
			if r.code != c.code || r.retry != c.list {
				t.Errorf("got code %d list %q, want %d %q; output:\n%s", r.code, r.retry, c.code, c.list, out.String())
			}
		})
	}
}

func TestNoRetryWithoutPattern(t *testing.T) {
	stream := ev("output", "m/a", "TestX", startRefused) + ev("fail", "m/a", "TestX", "")
	if r := report(strings.NewReader(stream), io.Discard, io.Discard, nil); r.code != 1 {
		t.Errorf("without -retry-on a failure exits %d, want 1", r.code)
	}
}
