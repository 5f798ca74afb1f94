package shell

// fastSimple splits plain one-command lines without the parser (the fast
// path of Analyze).

import (
	"strings"
)

// fastPlain marks the bytes a word may hold and still mean itself in bash.
var fastPlain = func() (t [256]bool) {
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
	}
	for c := 'A'; c <= 'Z'; c++ {
		t[c] = true
	}
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for _, c := range " \t_./=:,@+%-" {
		t[c] = true
	}
	return t
}()

var reserved = map[string]bool{"if": true, "then": true, "else": true, "elif": true, "fi": true, "do": true,
	"done": true, "for": true, "while": true, "until": true, "case": true, "esac": true, "function": true,
	"select": true, "time": true, "coproc": true, "in": true}

// fastSimple splits a one-command line made only of plain words (no
// quotes, expansions, operators, globs or comments) without the parser.
func fastSimple(src string) ([]string, bool) {
	if len(src) > 512 {
		return nil, false
	}
	for i := 0; i < len(src); i++ {
		if !fastPlain[src[i]] {
			return nil, false
		}
	}
	argv := strings.Fields(src)
	if len(argv) == 0 || reserved[argv[0]] || strings.IndexByte(argv[0], '=') >= 0 {
		return nil, false
	}
	return argv, true
}
