package rules

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/agent-guard/agent-guard/app/judge/shell"
)

// Text the approval dialog cannot show as it runs. A confirm asks a
// person to read the line; a line holding bidi controls (U+202E turns
// "; pkill agent-guard" around), invisible characters (zero-width space,
// word joiner, tag characters, soft hyphen), a bare carriage return or an
// escape byte, or a word mixing Latin with look-alike letters (Cyrillic
// "ѕh", fullwidth "ｒｍ"), shows the reader something else than the shell
// gets. Such a line confirms (guard.hidden-text), and blocks when either
// the line itself or the line as the reader would see it (the characters
// removed, the look-alikes read as the letters they imitate) needs a
// confirm: the person's approval cannot be trusted for text that lies.
// Ordinary non-Latin text (a Russian or Arabic commit message, emoji
// joined with U+200D, Persian's U+200C between its letters) is not hidden.

// hiddenText reports what in script the dialog would not show faithfully
// ("" when nothing), and the line as a reader would see it.
func hiddenText(script string) (what, seen string) {
	odd := false
	for i := 0; i < len(script); i++ {
		if b := script[i]; b >= 0x80 || b < 0x20 && b != '\t' && b != '\n' || b == 0x7f {
			odd = true
			break
		}
	}
	if !odd {
		return "", ""
	}
	var b strings.Builder
	b.Grow(len(script))
	prevASCII := false
	prev := rune(0)
	inS, inD := false, false // inside '...' or "..." (approximately)
	for i := 0; i < len(script); {
		r, n := utf8.DecodeRuneInString(script[i:])
		next := byte(' ')
		if i+n < len(script) {
			next = script[i+n]
		}
		quoted := inS || inD
		switch {
		case r == '\'' && !inD:
			inS = !inS
			b.WriteRune(r)
		case r == '"' && !inS && (i == 0 || script[i-1] != '\\'):
			inD = !inD
			b.WriteRune(r)
		case r == '\r':
			if next != '\n' && i+n < len(script) {
				what = firstWhat(what, "a carriage return that moves the cursor back over the line")
				b.WriteByte('\n') // shown as a new line, or over the line's start
			}
		case r < 0x20 && r != '\t' && r != '\n' || r == 0x7f:
			what = firstWhat(what, "a control character (escape sequences can repaint the line)")
		case (r == 0x200e || r == 0x200f || r == 0x061c) && quoted:
			b.WriteRune(r) // direction marks in quoted right-to-left text
		case bidiControl(r):
			what = firstWhat(what, "Unicode bidi controls that reorder what is shown")
		case r == 0x200c || r == 0x200d:
			// joiners belong between non-Latin letters and emoji
			if prevASCII && next < 0x80 {
				what = firstWhat(what, "invisible zero-width characters")
			} else {
				b.WriteRune(r)
			}
		case invisible(r) && (!quoted || r >= 0xe0000 || r == 0x2028 || r == 0x2029):
			what = firstWhat(what, "invisible zero-width characters")
		case r == 0x3000 && cjk(prev) && cjk(nextRune(script, i+n)):
			// the ideographic space between Chinese or Japanese words,
			// as their input methods type it: text, not a hidden separator
			b.WriteRune(r)
		case quoted && (r == 0xa0 || r == 0x2007 || r == 0x202f || r == 0x3000 || r >= 0x2000 && r <= 0x200a || invisible(r)):
			b.WriteRune(r) // inside quotes: part of one argument's text, as shown
		case r == 0xa0 || r == 0x2007 || r == 0x202f || r == 0x3000 || r >= 0x2000 && r <= 0x200a:
			// a space to the eye, part of the word to the shell
			what = firstWhat(what, "a space that the shell reads as part of a word")
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
		prevASCII = r < 0x80 && r >= 0x20
		prev = r
		i += n
	}
	seen = b.String()
	if w, s := lookalikes(seen); w {
		what = firstWhat(what, "letters that imitate Latin ones (a look-alike program or path)")
		seen = s
	}
	return what, seen
}

// nextRune is the rune at i of s (0 at its end).
func nextRune(s string, i int) rune {
	if i >= len(s) {
		return 0
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return r
}

// cjk: a Han, kana or Hangul letter, or CJK or full-width punctuation.
func cjk(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) ||
		r >= 0x3001 && r <= 0x303f || r >= 0xff01 && r <= 0xff60
}

func firstWhat(old, s string) string {
	if old != "" {
		return old
	}
	return s
}

func bidiControl(r rune) bool {
	return r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f || r == 0x061c
}

func invisible(r rune) bool {
	switch {
	case r == 0x200b, r >= 0x2060 && r <= 0x2064, r == 0xfeff, r == 0x180e, r == 0xad, r == 0x034f,
		r == 0x115f, r == 0x1160, r == 0x3164, r == 0xffa0, r == 0x2028, r == 0x2029,
		r >= 0xe0000 && r <= 0xe007f:
		return true
	}
	return false
}

// confusables are letters drawn like ASCII ones (Cyrillic, Greek).
var confusables = map[rune]byte{
	'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'ѕ': 's', 'і': 'i', 'ј': 'j',
	'һ': 'h', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'ӏ': 'l', 'ɡ': 'g', 'ν': 'v', 'ο': 'o', 'α': 'a', 'ρ': 'p',
	'τ': 't', 'ι': 'i', 'κ': 'k', 'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O',
	'Р': 'P', 'С': 'C', 'Т': 'T', 'Х': 'X', 'Ѕ': 'S', 'І': 'I', 'Ј': 'J', 'Ο': 'O', 'Α': 'A', 'Τ': 'T',
}

// lookalikes folds words (runs of letters) that mix ASCII letters with
// look-alike letters, and words of fullwidth ASCII, to ASCII; ok reports
// any. A Cyrillic file name with a Latin extension (Лог.txt) is two words.
func lookalikes(s string) (bool, string) {
	if !hasNonASCII(s) {
		return false, s
	}
	found := false
	var b strings.Builder
	start := 0
	flush := func(end int) {
		w := s[start:end]
		if f, ok := foldWord(w); ok {
			found = true
			b.WriteString(f)
		} else {
			b.WriteString(w)
		}
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x80 && (c|0x20 < 'a' || c|0x20 > 'z') {
			// words are runs of letters: Лог.txt is two words, ѕh one
			flush(i)
			b.WriteByte(c)
			start = i + 1
		}
	}
	flush(len(s))
	return found, b.String()
}

func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// foldWord: w with its look-alike letters as ASCII, when w mixes them
// with ASCII letters or is written in fullwidth ASCII.
func foldWord(w string) (string, bool) {
	if !hasNonASCII(w) {
		return w, false
	}
	ascii, look, full, other := 0, 0, 0, 0
	for _, r := range w {
		switch {
		case r < 0x80:
			if r|0x20 >= 'a' && r|0x20 <= 'z' {
				ascii++
			}
		case r >= 0xff01 && r <= 0xff5e:
			full++
		default:
			if _, ok := confusables[r]; ok {
				look++
			} else {
				other++
			}
		}
	}
	if !(look > 0 && ascii > 0 || full > 0 && ascii+look+other == 0) {
		return w, false
	}
	var b strings.Builder
	for _, r := range w {
		switch {
		case r >= 0xff01 && r <= 0xff5e:
			b.WriteByte(byte(r - 0xfee0))
		default:
			if c, ok := confusables[r]; ok {
				b.WriteByte(c)
			} else {
				b.WriteRune(r)
			}
		}
	}
	return b.String(), true
}

// hiddenTextFinding judges a line with hidden text: w is the line's own
// finding; the line as the reader sees it is judged as well.
func hiddenTextFinding(what, seen, cwd, home string, m *Machine, w Finding) Finding {
	a := shell.AnalyzeDir(seen, cwd)
	f := BashEach(&a, seen, cwd, home, m, nil)
	if w.Worse(f) {
		f = w
	}
	if f.score() >= 1.5 || f.RedLine {
		return Finding{Risk: 3, Violation: 1, RedLine: true, Rule: "self.dialog-deception", Marked: oneLineCut(seen, 80),
			Reason: "the line holds " + what + ", so the approval dialog would not show what runs, and it needs approval (" + f.Rule + ": " + f.Reason + "); a person cannot approve text that hides itself"}
	}
	return Finding{Risk: 2, Violation: 0.6, Rule: "guard.hidden-text", Marked: oneLineCut(seen, 80),
		Reason: "the line holds " + what + ": the approval dialog would show something else than what the shell runs; the user should see this"}
}
