// Package opts reads a command's options the way the program itself does:
// which options take a value (attached `-bname`, `--opt=v`, or the next
// word), which long options may be abbreviated to a unique prefix (git's
// parse-options, GNU getopt_long), which short flags cluster, which
// options are negated by --no-, and which mean help, version or dry run.
//
// The grammar of each program is data (see table.go); Parse applies it.
// The packages that judge commands use it so that `git reset --ha`,
// `git checkout -bfeature` and `xargs -I{} sh -c ...` are seen the way the
// program will see them, not the way a looser or stricter reader would.
package opts

import (
	"slices"
	"strings"
	"sync"
)

// Spec is one program's option grammar.
type Spec struct {
	// Opts lists the options, space-separated. Each option is its names
	// joined by "|" (a one-letter name is a short option, longer ones are
	// long options), then optional markers:
	//   "="  takes a value: `-bX`, `-b X`, `--opt=X`, `--opt X`
	//   "?"  takes an optional value, attached only: `-nX`, `--opt=X`
	//   "!"  read-only: help, version or dry run (nothing is changed)
	// e.g. "f|force b= n|dry-run! h|help! conflict?".
	Opts string
	// Abbrev: long options may be given as any unambiguous prefix
	// (git parse-options, GNU getopt_long, curl). An ambiguous prefix is
	// an error to the program; Parse keeps every candidate (fail closed).
	Abbrev bool
	// Negate: every long option X also has the form --no-X (git).
	Negate bool
	// Stop: options end at the first operand (POSIX getopt, "+" in GNU
	// optstrings, wrappers whose operand is a command); otherwise options
	// may follow operands (GNU and git permute).
	Stop bool
	// SingleDash: long options are spelled with one dash (-name, -exec),
	// short flags do not cluster (find, java, go test).
	SingleDash bool
	// HelpAnywhere: the program reads every option before acting on any
	// (git parse-options, cobra, curl): a help option after operands
	// still only prints help.
	HelpAnywhere bool
	// Ends lists short options after whose value the program stops
	// reading options (python -c CODE and -m MOD: the rest is argv).
	Ends string
	// more are options appended to Opts (gitSub, gnu).
	more string

	// compiled once, on first use (specs are shared by concurrent judges)
	once    sync.Once
	byShort map[byte]*opt
	byLong  map[string]*opt
	longs   []string
}

type opt struct {
	name     string // canonical: the first long name, else the letter
	value    byte   // 0 none, '=' required, '?' optional attached
	readOnly bool
}

// Opt is one option as the program reads it.
type Opt struct {
	// Name is the canonical name: the option's first long name, else its
	// letter ("force" for -f when the grammar says f|force). Unknown
	// options keep their spelling without dashes.
	Name     string
	Value    string
	HasValue bool
	// Neg: given as --no-NAME (git negation).
	Neg bool
	// Known: the option is in the grammar.
	Known bool
	// Candidates: an ambiguous abbreviation's possible options; the
	// program refuses it, Has counts it as each of them (fail closed).
	Candidates []string
	// Raw is the word as written (the option's word, not its value).
	Raw string
}

// Args is an argument list read with a Spec.
type Args struct {
	Opts     []Opt
	Operands []string
	// DashDash is the index in Operands of the first word after "--"
	// (len(Operands) when "--" ends the list; -1 when there is none).
	DashDash int
	// ReadOnly: a help, version or dry-run option was given: the program
	// prints or simulates and changes nothing.
	ReadOnly bool
	// ReadOnlyLead: a help or version option came before any operand,
	// where every getopt (GNU, BSD, busybox) stops to print it; after an
	// operand only permuting parsers see it (BSD rm takes it as a file).
	ReadOnlyLead bool
	spec         *Spec
}

// compile builds the lookup tables once.
func (s *Spec) compile() { s.once.Do(s.build) }

func (s *Spec) build() {
	s.byShort = map[byte]*opt{}
	s.byLong = map[string]*opt{}
	for _, tok := range append(strings.Fields(s.Opts), strings.Fields(s.more)...) {
		o := &opt{}
		for len(tok) > 0 {
			switch tok[len(tok)-1] {
			case '=', '?':
				o.value = tok[len(tok)-1]
			case '!':
				o.readOnly = true
			default:
				goto names
			}
			tok = tok[:len(tok)-1]
		}
	names:
		names := strings.Split(tok, "|")
		for _, n := range names {
			if len(n) > 1 && o.name == "" {
				o.name = n
			}
		}
		if o.name == "" {
			o.name = names[0]
		}
		for _, n := range names {
			if len(n) == 1 && !s.SingleDash {
				s.byShort[n[0]] = o
			} else {
				s.byLong[n] = o
				s.longs = append(s.longs, n)
			}
		}
	}
}

// canonical maps any of an option's names to its canonical name.
func (s *Spec) canonical(n string) string {
	s.compile()
	if len(n) == 1 && !s.SingleDash {
		if o := s.byShort[n[0]]; o != nil {
			return o.name
		}
		return n
	}
	if o := s.byLong[n]; o != nil {
		return o.name
	}
	return n
}

// Parse reads args (the words after the program name) with spec s.
func Parse(s *Spec, args []string) Args {
	if s == nil {
		s = &Spec{}
	}
	s.compile()
	r := Args{DashDash: -1, spec: s}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || a == "--end-of-options" && s.Negate {
			r.DashDash = len(r.Operands)
			r.Operands = append(r.Operands, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			if s.Stop {
				r.Operands = append(r.Operands, args[i:]...)
				break
			}
			r.Operands = append(r.Operands, a)
			continue
		}
		next := func() (string, bool) {
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return "", false
		}
		if s.SingleDash || strings.HasPrefix(a, "--") {
			body := a[1:]
			if !s.SingleDash || strings.HasPrefix(a, "--") {
				body = a[2:]
			}
			name, val, eq := strings.Cut(body, "=")
			o := s.long(name)
			o.Raw = a
			if eq {
				o.Value, o.HasValue = val, true
			} else if o.Known && s.valueOf(o) == '=' {
				o.Value, o.HasValue = next()
			}
			r.add(o)
			continue
		}
		// A short cluster: -rf, -bname, -n10, -C dir.
		for k := 1; k < len(a); k++ {
			ch := a[k]
			so := s.byShort[ch]
			if so == nil {
				r.add(Opt{Name: string(ch), Raw: a})
				continue
			}
			o := Opt{Name: so.name, Known: true, Raw: a}
			switch so.value {
			case '=':
				if k+1 < len(a) {
					o.Value, o.HasValue = a[k+1:], true
				} else {
					o.Value, o.HasValue = next()
				}
				k = len(a)
			case '?':
				if k+1 < len(a) {
					o.Value, o.HasValue = a[k+1:], true
				}
				k = len(a)
			}
			r.add(o)
		}
	}
	return r
}

func (s *Spec) valueOf(o Opt) byte {
	if o.Neg {
		return 0 // --no-X takes no value
	}
	if lo := s.byLong[o.Name]; lo != nil {
		return lo.value
	}
	return 0
}

// long resolves a long option name: exact, negated, then by unique prefix.
func (s *Spec) long(name string) Opt {
	if o := s.byLong[name]; o != nil {
		return Opt{Name: o.name, Known: true}
	}
	if s.Negate {
		if n, ok := strings.CutPrefix(name, "no-"); ok {
			if o := s.byLong[n]; o != nil {
				return Opt{Name: o.name, Known: true, Neg: true}
			}
		}
		if o := s.byLong["no-"+name]; o != nil {
			// --verify for an option defined as no-verify.
			return Opt{Name: o.name, Known: true, Neg: true}
		}
	}
	if !s.Abbrev || name == "" {
		return Opt{Name: name}
	}
	type cand struct {
		name string
		neg  bool
	}
	var cs []cand
	seen := map[string]bool{}
	addc := func(o *opt, neg bool) {
		k := o.name
		if neg {
			k = "no-" + k
		}
		if !seen[k] {
			seen[k] = true
			cs = append(cs, cand{o.name, neg})
		}
	}
	for _, l := range s.longs {
		o := s.byLong[l]
		if strings.HasPrefix(l, name) {
			addc(o, false)
		}
		if s.Negate {
			if n, ok := strings.CutPrefix(name, "no-"); ok && strings.HasPrefix(l, n) {
				addc(o, true)
			} else if strings.HasPrefix("no-"+l, name) && len(name) > 0 && !strings.HasPrefix(l, name) {
				addc(o, true)
			}
		}
	}
	switch len(cs) {
	case 0:
		return Opt{Name: name}
	case 1:
		return Opt{Name: cs[0].name, Known: true, Neg: cs[0].neg}
	}
	o := Opt{Name: name}
	for _, c := range cs {
		if !c.neg {
			o.Candidates = append(o.Candidates, c.name)
		}
	}
	return o
}

func (r *Args) add(o Opt) {
	r.Opts = append(r.Opts, o)
	so := r.spec.optByName(o.Name)
	if !o.Known || so == nil || !so.readOnly {
		return
	}
	if o.Neg {
		// The last form wins, as in git: --dry-run --no-dry-run --force
		// really pushes.
		r.ReadOnly = r.readOnlyInEffect()
		r.ReadOnlyLead = r.ReadOnlyLead && r.ReadOnly
		return
	}
	if !o.HasValue { // --dry-run=false is an error to git, not a dry run
		r.ReadOnly = true
		r.ReadOnlyLead = r.ReadOnlyLead || len(r.Operands) == 0
	}
}

// readOnlyInEffect: some help, version or dry-run option given so far is
// not undone by a later --no- form.
func (r *Args) readOnlyInEffect() bool {
	for _, o := range r.Opts {
		if so := r.spec.optByName(o.Name); o.Known && !o.Neg && !o.HasValue && so != nil && so.readOnly && r.Has(o.Name) {
			return true
		}
	}
	return false
}

func (s *Spec) optByName(n string) *opt {
	if o := s.byLong[n]; o != nil {
		return o
	}
	if len(n) == 1 {
		return s.byShort[n[0]]
	}
	return nil
}

// Has reports whether the option (any of its names) is in effect: given,
// and not negated by a later --no- form. An ambiguous abbreviation counts
// as each of its candidates.
func (r *Args) Has(names ...string) bool {
	if len(r.Opts) == 0 {
		return false
	}
	for _, n := range names {
		c := r.spec.canonical(n)
		on := false
		for _, o := range r.Opts {
			if o.Name == c {
				on = !o.Neg
			}
			for _, k := range o.Candidates {
				if k == c {
					on = true
				}
			}
		}
		if on {
			return true
		}
	}
	return false
}

// Value returns the last value given to the option (any of its names).
func (r *Args) Value(names ...string) (string, bool) {
	v, ok := "", false
	if len(r.Opts) == 0 {
		return v, ok
	}
	for _, n := range names {
		c := r.spec.canonical(n)
		for _, o := range r.Opts {
			if o.Name == c && o.HasValue && !o.Neg {
				v, ok = o.Value, true
			}
		}
	}
	return v, ok
}

// Values returns every value given to the option, in order.
func (r *Args) Values(names ...string) []string {
	if len(r.Opts) == 0 {
		return nil // most command lines: no option, nothing to canonicalize
	}
	var out []string
	var buf [4]string // the canonical names, on the stack for the usual few
	cs := buf[:0]
	for _, n := range names {
		cs = append(cs, r.spec.canonical(n))
	}
	for _, o := range r.Opts {
		if o.HasValue && !o.Neg && slices.Contains(cs, o.Name) {
			out = append(out, o.Value)
		}
	}
	return out
}

// Unknown lists options the grammar does not know (as written).
func (r *Args) Unknown() []string {
	var out []string
	for _, o := range r.Opts {
		if !o.Known && len(o.Candidates) == 0 {
			out = append(out, o.Raw)
		}
	}
	return out
}

// AfterDashDash returns the operands after "--" (nil when there is none).
func (r *Args) AfterDashDash() []string {
	if r.DashDash < 0 {
		return nil
	}
	return r.Operands[r.DashDash:]
}

// Uncluster rewrites short-option clusters the way the program reads
// them, one option a word: `-vc CODE` is `-v -c CODE`, `-cCODE` is
// `-c CODE`, `-we CODE` is `-w -e CODE`. Options end at the first operand
// or at a value option whose value is code (s.Stop). A cluster holding a
// letter the grammar does not know is left as written.
func Uncluster(s *Spec, args []string) []string {
	if s == nil {
		return args
	}
	s.compile()
	out := make([]string, 0, len(args)+2)
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" || len(a) < 2 || a[0] != '-' || strings.HasPrefix(a, "--") {
			if s.Stop && (a == "--" || len(a) < 2 || a[0] != '-') {
				return append(out, args[i:]...)
			}
			out = append(out, a)
			continue
		}
		known := true
		for k := 1; k < len(a); k++ {
			o := s.byShort[a[k]]
			if o == nil {
				known = false
				break
			}
			if o.value != 0 {
				break
			}
		}
		if !known || len(a) == 2 {
			out = append(out, a)
			if len(a) == 2 && s.byShort[a[1]] != nil && s.byShort[a[1]].value == '=' && i+1 < len(args) {
				out = append(out, args[i+1])
				i++
				if strings.IndexByte(s.Ends, a[1]) >= 0 {
					return append(out, args[i+1:]...)
				}
			}
			continue
		}
		for k := 1; k < len(a); k++ {
			o := s.byShort[a[k]]
			out = append(out, "-"+a[k:k+1])
			if o.value == 0 {
				continue
			}
			if k+1 < len(a) {
				out = append(out, a[k+1:])
			} else if o.value == '=' && i+1 < len(args) {
				out = append(out, args[i+1])
				i++
			}
			if strings.IndexByte(s.Ends, a[k]) >= 0 {
				return append(out, args[i+1:]...)
			}
			break
		}
	}
	return out
}
