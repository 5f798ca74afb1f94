package shell

import "fmt"

// MaxNesting is the deepest bracket, substitution or quote nesting a line
// may have before it reaches mvdan.cc/sh. The parser recurses once per
// level, and Go's stack overflow is fatal (recover cannot catch it): a
// line of 200,000 "(" would kill the tray. Real commands stay far below
// this; a line above it is refused before it is parsed.
const MaxNesting = 200

// ErrTooDeep is Analysis.Err for a line nested deeper than MaxNesting.
var ErrTooDeep = fmt.Errorf("the command nests brackets, substitutions or quotes more than %d deep; no real command does, so it is refused unread", MaxNesting)

// nestingDepth scans src once, without recursion, and returns the deepest
// nesting it sees, stopping as soon as it passes limit. It follows the
// quoting rules closely enough not to count brackets inside single
// quotes, and errs high elsewhere: every (, {, [, $(, ${, backquote and
// double quote opens a level, and the matching closer ends it.
func nestingDepth(src string, limit int) int {
	// stack holds the closer each open level waits for; only its length
	// and top matter, so it is a byte slice bounded by limit.
	stack := make([]byte, 0, 16)
	deepest := 0
	push := func(c byte) bool {
		stack = append(stack, c)
		if len(stack) > deepest {
			deepest = len(stack)
		}
		return deepest > limit
	}
	top := func() byte {
		if len(stack) == 0 {
			return 0
		}
		return stack[len(stack)-1]
	}
	pop := func(c byte) {
		// Pop to the nearest matching opener; an unmatched closer is
		// ignored (the parser will report it).
		for i := len(stack) - 1; i >= 0; i-- {
			if stack[i] == c {
				stack = stack[:i]
				return
			}
		}
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		inDQ := top() == '"'
		switch {
		case c == '\\':
			// An escaped character has no meaning. Old-style nested
			// substitution (`a \`b\``) needs the backslashes to double per
			// level, so its depth is at most log2 of the line: no stack risk.
			i++
		case c == '\'' && !inDQ:
			// Single quotes: nothing inside has a meaning. ($'...' too.)
			k := i + 1
			for k < len(src) && src[k] != '\'' {
				if src[k] == '\\' && i > 0 && src[i-1] == '$' {
					k++
				}
				k++
			}
			i = k
		case c == '"':
			if inDQ {
				stack = stack[:len(stack)-1]
			} else if push('"') {
				return deepest
			}
		case c == '`':
			if top() == '`' {
				stack = stack[:len(stack)-1]
			} else if push('`') {
				return deepest
			}
		case c == '$' && i+1 < len(src) && (src[i+1] == '(' || src[i+1] == '{' || src[i+1] == '['):
			if push(closer(src[i+1])) {
				return deepest
			}
			i++
		case inDQ:
			// Inside double quotes only $( ${ ` and " open levels.
		case c == '(' || c == '{' || c == '[':
			if push(closer(c)) {
				return deepest
			}
		case c == ')' || c == '}' || c == ']':
			pop(c)
		}
	}
	return deepest
}

func closer(open byte) byte {
	switch open {
	case '(':
		return ')'
	case '{':
		return '}'
	}
	return ']'
}
