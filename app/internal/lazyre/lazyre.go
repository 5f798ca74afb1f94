// Package lazyre defers compiling regular expressions to their first use.
// The hook is a short-lived process that usually needs none of them, and
// compiling every pattern at init cost about a millisecond per call.
package lazyre

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"sync"
)

// Regexp is a regexp.Regexp compiled on first use.
type Regexp struct {
	pattern string
	once    sync.Once
	re      *regexp.Regexp
}

var (
	mu  sync.Mutex
	all []*Regexp
)

// New records pattern; it is compiled (and panics if invalid, like
// regexp.MustCompile) the first time it is used. CheckAll in a test
// catches an invalid pattern before it ships.
func New(pattern string) *Regexp {
	r := &Regexp{pattern: pattern}
	mu.Lock()
	all = append(all, r)
	mu.Unlock()
	return r
}

// Re returns the compiled expression.
func (r *Regexp) Re() *regexp.Regexp {
	r.once.Do(func() { r.re = regexp.MustCompile(r.pattern) })
	return r.re
}

func (r *Regexp) String() string                 { return r.pattern }
func (r *Regexp) MatchString(s string) bool      { return r.Re().MatchString(s) }
func (r *Regexp) FindString(s string) string     { return r.Re().FindString(s) }
func (r *Regexp) FindStringIndex(s string) []int { return r.Re().FindStringIndex(s) }
func (r *Regexp) FindStringSubmatch(s string) []string {
	return r.Re().FindStringSubmatch(s)
}
func (r *Regexp) FindAllString(s string, n int) []string { return r.Re().FindAllString(s, n) }
func (r *Regexp) FindAllStringSubmatch(s string, n int) [][]string {
	return r.Re().FindAllStringSubmatch(s, n)
}
func (r *Regexp) FindAllStringSubmatchIndex(s string, n int) [][]int {
	return r.Re().FindAllStringSubmatchIndex(s, n)
}
func (r *Regexp) FindAllStringIndex(s string, n int) [][]int { return r.Re().FindAllStringIndex(s, n) }
func (r *Regexp) ReplaceAllString(s, repl string) string     { return r.Re().ReplaceAllString(s, repl) }

// CheckAll compiles every pattern created so far and reports the bad ones.
func CheckAll() error {
	mu.Lock()
	rs := append([]*Regexp(nil), all...)
	mu.Unlock()
	var errs []error
	for _, r := range rs {
		if _, err := regexp.Compile(r.pattern); err != nil {
			errs = append(errs, fmt.Errorf("lazyre: pattern %q: %w", r.pattern, err))
		}
	}
	return errors.Join(errs...)
}

// Stat is one pattern and its compiled program's size (instructions, as
// regexp/syntax compiles it).
type Stat struct {
	Pattern string
	Insts   int
}

// Stats lists every pattern created so far, for tests that hold the
// patterns to a cost budget (a bounded repeat such as .{0,1000} compiles
// into a program of thousands of instructions, by a recursion deep enough
// to grow the stack to a megabyte, in every process that first uses it).
func Stats() ([]Stat, error) {
	mu.Lock()
	rs := append([]*Regexp(nil), all...)
	mu.Unlock()
	out := make([]Stat, 0, len(rs))
	for _, r := range rs {
		re, err := syntax.Parse(r.pattern, syntax.Perl)
		if err != nil {
			return nil, fmt.Errorf("lazyre: pattern %q: %w", r.pattern, err)
		}
		prog, err := syntax.Compile(re.Simplify())
		if err != nil {
			return nil, fmt.Errorf("lazyre: pattern %q: %w", r.pattern, err)
		}
		out = append(out, Stat{Pattern: r.pattern, Insts: len(prog.Inst)})
	}
	return out, nil
}
