// Command testreport reads `go test -json` on stdin and prints what a
// person needs from a CI log: one line per package (ok/FAIL, time), the
// full output of every failed test (and only of those), build errors, the
// slowest packages, and a closing line "tests: N passed, N failed, N
// skipped". It writes the raw JSON stream to -raw for later digging.
//
// Exit status: 1 when any test or package failed, else 0. scripts/test.sh
// uses go test's own exit status too; this is belt and braces.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
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
	flag.Parse()
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
	os.Exit(report(os.Stdin, os.Stdout, raw))
}

func report(in io.Reader, out, raw io.Writer) int {
	buf := map[string]*strings.Builder{} // package/test -> output so far
	var passed, failed, skipped int
	var pkgs []pkgResult
	var failedTests []string
	bad := false

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
			if b := buf[key]; b != nil {
				fmt.Fprintf(out, "--- output of failed %s %s:\n%s", shortPkg(e.Package), e.Test, b.String())
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
	if bad {
		return 1
	}
	return 0
}

func shortPkg(p string) string {
	return strings.TrimPrefix(p, "github.com/agent-guard/agent-guard/")
}
