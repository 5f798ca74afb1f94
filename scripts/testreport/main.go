// Command testreport reads `go test -json` on stdin and prints what a
// person needs from a CI log: one line per package (ok/FAIL, time), the
// full output of every failed test (and only of those), build errors, the
// slowest packages, and a closing line "tests: N passed, N failed, N
// skipped". It writes the raw JSON stream to -raw for later digging.
//
// Exit status: 1 when any test or package failed, else 0. scripts/test.sh
// uses go test's own exit status too; this is belt and braces.
//
// With -retry-on REGEXP and -retry-list FILE it also sorts the failures:
// when every failed test failed with output matching REGEXP (for wine, a
// process start refused with "Internal error") and no package died or
// failed to build, it writes "package<TAB>^(TestA|TestB)$" lines to FILE
// and exits 3, so the caller can run just those tests once more. One
// failure that does not match makes it exit 1 as before: a retry never
// hides a real failure, only a start the platform refused.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"sort"
	"strings"
)

// event is one line of test2json output.
type event struct {
	Action     string
	Package    string
	Test       string
	Elapsed    float64
	Output     string
	ImportPath string // build-output / build-fail events
}

type pkgResult struct {
	name    string
	action  string
	elapsed float64
}

func main() {
	rawPath := flag.String("raw", "", "also write the JSON stream to this file")
	retryOn := flag.String("retry-on", "", "a failure whose output matches this regexp may be run again (see -retry-list)")
	retryList := flag.String("retry-list", "", "where to write the tests to run again when every failure matches -retry-on")
	flag.Parse()
	var retry *regexp.Regexp
	if *retryOn != "" {
		re, err := regexp.Compile(*retryOn)
		if err != nil {
			fmt.Fprintf(os.Stderr, "testreport: -retry-on %q: %v\n", *retryOn, err)
			os.Exit(2)
		}
		if *retryList == "" {
			fmt.Fprintln(os.Stderr, "testreport: -retry-on needs -retry-list FILE")
			os.Exit(2)
		}
		retry = re
	}
	var raw io.Writer = io.Discard
	if *rawPath != "" {
		f, err := os.Create(*rawPath)
		if err != nil {
			fmt.Fprintln(os.Stderr, "testreport:", err)
			os.Exit(2)
		}
		defer f.Close()
		raw = f
	}
	r := report(os.Stdin, os.Stdout, raw, retry)
	if r.code == 3 {
		if err := os.WriteFile(*retryList, []byte(r.retry), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "testreport:", err)
			os.Exit(1)
		}
	}
	os.Exit(r.code)
}

// result is report's verdict: code is the exit status, retry the
// -retry-list text when code is 3.
type result struct {
	code  int
	retry string
}

func report(in io.Reader, out, raw io.Writer, retry *regexp.Regexp) result {
	buf := map[string]*strings.Builder{} // package/test -> output so far
	var passed, failed, skipped int
	var pkgs []pkgResult
	var failedTests []string
	bad := false
	hardFail := false              // a failure no retry may excuse
	retryable := map[string]bool{} // package\x00top-level test whose output matched
	failedTop := map[string]bool{} // package\x00top-level test that failed

	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for sc.Scan() {
		line := sc.Bytes()
		fmt.Fprintf(raw, "%s\n", line)
		var e event
		if err := json.Unmarshal(line, &e); err != nil || e.Action == "" {
			// Not test2json: go vet or build chatter. Show it.
			fmt.Fprintf(out, "%s\n", line)
			continue
		}
		switch e.Action {
		case "build-output":
			fmt.Fprint(out, e.Output)
			continue
		case "build-fail":
			bad = true
			hardFail = true
			continue
		}
		key := e.Package + "\x00" + e.Test
		if e.Test == "" {
			switch e.Action {
			case "output":
				// Package-level lines: panics and logs outside tests. The
				// ok/FAIL/PASS lines are printed below from the result.
				if o := strings.TrimSpace(e.Output); o == "PASS" || strings.HasPrefix(o, "ok  ") ||
					strings.HasPrefix(o, "?   ") || strings.HasPrefix(o, "=== RUN") ||
					o == "FAIL" || strings.HasPrefix(o, "FAIL\t") {
					continue
				}
				fmt.Fprint(out, e.Output)
			case "pass", "fail", "skip":
				pkgs = append(pkgs, pkgResult{e.Package, e.Action, e.Elapsed})
				mark := "ok  "
				switch e.Action {
				case "fail":
					mark = "FAIL"
					bad = true
				case "skip":
					mark = "?   "
				}
				if e.Action == "skip" {
					fmt.Fprintf(out, "%s %s [no test files]\n", mark, e.Package)
				} else {
					fmt.Fprintf(out, "%s %s %.1fs\n", mark, e.Package, e.Elapsed)
				}
			}
			continue
		}
		switch e.Action {
		case "output":
			b := buf[key]
			if b == nil {
				b = &strings.Builder{}
				buf[key] = b
			}
			if b.Len() < 256<<10 {
				b.WriteString(e.Output)
			}
		case "pass":
			passed++
			delete(buf, key)
		case "skip":
			skipped++
			delete(buf, key)
		case "fail":
			failed++
			bad = true
			failedTests = append(failedTests, e.Package+" "+e.Test)
			top, _, _ := strings.Cut(e.Test, "/")
			failedTop[e.Package+"\x00"+top] = true
			if b := buf[key]; b != nil {
				fmt.Fprintf(out, "--- output of failed %s %s:\n%s", shortPkg(e.Package), e.Test, b.String())
				if retry != nil && retry.MatchString(b.String()) {
					retryable[e.Package+"\x00"+top] = true
				}
			}
			delete(buf, key)
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(out, "testreport: reading go test output:", err)
		bad = true
	}
	// Tests that started but never finished (the binary died): show them.
	for key, b := range buf {
		pkg, test, _ := strings.Cut(key, "\x00")
		fmt.Fprintf(out, "--- %s %s never finished; its output:\n%s", shortPkg(pkg), test, b.String())
		bad = true
		hardFail = true
	}

	sort.Slice(pkgs, func(i, j int) bool { return pkgs[i].elapsed > pkgs[j].elapsed })
	fmt.Fprintln(out, "\nslowest packages:")
	for i, p := range pkgs {
		if i == 8 || p.elapsed < 1 {
			break
		}
		fmt.Fprintf(out, "  %6.1fs %s\n", p.elapsed, shortPkg(p.name))
	}
	if len(failedTests) > 0 {
		fmt.Fprintln(out, "\nfailed tests:")
		for _, t := range failedTests {
			fmt.Fprintln(out, "  "+t)
		}
	}
	fmt.Fprintf(out, "tests: %d passed, %d failed, %d skipped\n", passed, failed, skipped)
	if !bad {
		return result{code: 0}
	}
	if retry == nil || hardFail || len(failedTop) == 0 {
		return result{code: 1}
	}
	return retryPlan(out, failedTop, retryable, retry)
}

// retryPlan returns exit 3 and the tests to run again when every failed
// top-level test had a failure matching retry, else exit 1.
func retryPlan(out io.Writer, failedTop, retryable map[string]bool, retry *regexp.Regexp) result {
	byPkg := map[string][]string{}
	for key := range failedTop {
		pkg, top, _ := strings.Cut(key, "\x00")
		if !retryable[key] {
			fmt.Fprintf(out, "not retried: %s %s failed without matching %q\n", shortPkg(pkg), top, retry.String())
			return result{code: 1}
		}
		byPkg[pkg] = append(byPkg[pkg], regexp.QuoteMeta(top))
	}
	pkgs := make([]string, 0, len(byPkg))
	for p := range byPkg {
		pkgs = append(pkgs, p)
	}
	sort.Strings(pkgs)
	var b strings.Builder
	for _, p := range pkgs {
		tests := byPkg[p]
		sort.Strings(tests)
		fmt.Fprintf(&b, "%s\t^(%s)$\n", p, strings.Join(tests, "|"))
		fmt.Fprintf(out, "to run again (every failure matched %q): %s %s\n", retry.String(), shortPkg(p), strings.Join(tests, " "))
	}
	return result{code: 3, retry: b.String()}
}

func shortPkg(p string) string {
	return strings.TrimPrefix(p, "github.com/agent-guard/agent-guard/")
}
