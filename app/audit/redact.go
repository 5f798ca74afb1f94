package audit

import (
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/agent-guard/agent-guard/app/internal/lazyre"
)

// DigestRunes is how many characters of a call's input the log keeps.
const DigestRunes = 200

// Redacted replaces every secret in a digest.
const Redacted = "[REDACTED]"

// redactScanLimit bounds the work on huge inputs (a Write of a big file):
// only this prefix is redacted and then cut to DigestRunes.
const redactScanLimit = 64 << 10

type redaction struct {
	re   *lazyre.Regexp
	repl string // may use ${1} to keep the key name
	// only, when set, applies re only to text that matches it.
	only *lazyre.Regexp
	// hints are lower-case substrings one of which every match contains;
	// checking them first keeps Digest cheap on ordinary commands.
	hints []string
}

// Values are whole shell words: quoted parts and plain runs may alternate
// (-p'a'b is the password ab), and an unterminated quote runs to the end.
// Order matters: headers before bare bearer tokens, key=value before the
// token shapes, so the key name stays readable.
var redactions = []redaction{
	// PEM private keys, to the END line or the end of the text.
	{hints: []string{"private key"}, re: lazyre.New(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)`), repl: Redacted},
	// Authorization-like headers: keep the header and the scheme.
	{hints: []string{"authorization"}, re: lazyre.New(`(?i)\b((?:proxy-)?authorization\s*:\s*(?:(?:bearer|basic|token|digest|bot)\s+)?)[^\s'"\\]+`), repl: "${1}" + Redacted},
	{hints: []string{"api-key", "auth-token", "access-token", "private-token", "cookie"}, re: lazyre.New(`(?i)\b((?:x-api-key|api-key|x-auth-token|x-access-token|private-token|cookie)\s*:\s*)[^\s'"\\]+`), repl: "${1}" + Redacted},
	{hints: []string{"bearer"}, re: lazyre.New(`(?i)\b(bearer\s+)[A-Za-z0-9\-._~+/]+=*`), repl: "${1}" + Redacted},
	// Passwords in URLs: scheme://user:pass@host.
	{hints: []string{"://"}, re: lazyre.New(`\b([a-zA-Z][a-zA-Z0-9+.\-]*://[^\s:/@'"]*:)[^\s/'"]+@`), repl: "${1}" + Redacted + "@"},
	// key=value and "key": "value" for anything named like a secret,
	// including env assignments such as TYPESAFE_API_KEY=... or DB_PASSWORD=...
	{hints: []string{"pass", "secret", "token", "key", "credential"}, re: lazyre.New(`(?i)((?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key|private[_-]?key|credentials?)"?\s*[=:]\s*)(?:"[^"]*"?|'[^']*'?|[^\s&;,'"}])+`), repl: "${1}" + Redacted},
	// --password VALUE, --token VALUE.
	{hints: []string{"--"}, re: lazyre.New(`(?i)(--(?:password|passwd|token|secret|api[_-]?key|access[_-]?token|auth[_-]?token)\s+)(?:"[^"]*"?|'[^']*'?|[^\s\-'"])(?:"[^"]*"?|'[^']*'?|[^\s'"])*`), repl: "${1}" + Redacted},
	// mysql -p'pass' / -ppass, only for the MySQL family so mkdir -p stays.
	// The hints are what the only pattern needs (each name contains one;
	// (?i) also folds the long s ſ to s), so ordinary lines, which the
	// log redacts three times a call, skip both regular expressions.
	{
		hints: []string{"mysql", "myſql", "mariadb"},
		re:    lazyre.New(`(\s-p)(?:'[^']*'?|"[^"]*"?|[^\s'"])+`),
		repl:  "${1}" + Redacted,
		only:  lazyre.New(`(?i)\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mariadb|mariadb-dump)\b`),
	},
	// Token shapes that are secrets wherever they appear.
	{hints: []string{"eyj"}, re: lazyre.New(`\beyJ[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]{5,}\.[A-Za-z0-9_\-]+`), repl: Redacted},  // JWT
	{hints: []string{"sk-"}, re: lazyre.New(`\bsk-(?:proj-|ant-|live-|test-|or-)?[A-Za-z0-9_\-]{16,}`), repl: Redacted},       // OpenAI, Anthropic, ...
	{hints: []string{"k_live_", "k_test_"}, re: lazyre.New(`\b[sr]k_(?:live|test)_[A-Za-z0-9]{10,}`), repl: Redacted},         // Stripe
	{hints: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, re: lazyre.New(`\bgh[pousr]_[A-Za-z0-9]{20,}`), repl: Redacted}, // GitHub
	{hints: []string{"github_pat_"}, re: lazyre.New(`\bgithub_pat_[A-Za-z0-9_]{20,}`), repl: Redacted},                        // GitHub fine-grained
	{hints: []string{"glpat-"}, re: lazyre.New(`\bglpat-[A-Za-z0-9_\-]{20,}`), repl: Redacted},                                // GitLab
	{hints: []string{"akia", "asia"}, re: lazyre.New(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`), repl: Redacted},                        // AWS access key id
	{hints: []string{"xox"}, re: lazyre.New(`\bxox[abposr]-[A-Za-z0-9\-]{10,}`), repl: Redacted},                              // Slack
	{hints: []string{"aiza"}, re: lazyre.New(`\bAIza[0-9A-Za-z_\-]{35}`), repl: Redacted},                                     // Google API key
	{hints: []string{"npm_"}, re: lazyre.New(`\bnpm_[A-Za-z0-9]{36}`), repl: Redacted},                                        // npm
	{hints: []string{"hf_", "pypi-"}, re: lazyre.New(`\b(?:hf_[A-Za-z0-9]{30,}|pypi-[A-Za-z0-9_\-]{50,})`), repl: Redacted},   // Hugging Face, PyPI
}

// Redact replaces secrets in s (tokens, API keys, passwords, Authorization
// headers, URL passwords, JWTs, private keys) with [REDACTED]. It is
// idempotent: redacting twice gives the same text.
func Redact(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	hinted := lowerHints(s)
	for i, r := range redactions {
		if len(r.hints) > 0 && hinted&(1<<i) == 0 {
			continue
		}
		if r.only != nil && !r.only.MatchString(s) {
			continue
		}
		s = r.re.ReplaceAllString(s, r.repl)
	}
	return redactAWSSecrets(s)
}

// redactAWSSecrets replaces bare AWS secret access keys: a run of exactly
// 40 characters of [A-Za-z0-9/+] standing alone. Such a run is random
// base64: it has upper case, lower case and a digit, is not hex (git
// hashes, sha1 sums are 40 hex digits) and is not a path of words
// (src/Main/...). A key written as key=value is already caught above.
func redactAWSSecrets(s string) string {
	var b strings.Builder
	last, i := 0, 0
	for i < len(s) {
		if !awsChar(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && awsChar(s[j]) {
			j++
		}
		alone := (i == 0 || s[i-1] != '=' && s[i-1] != '_' && s[i-1] != '-') && (j == len(s) || s[j] != '=' && s[j] != '_' && s[j] != '-')
		if j-i == 40 && alone && awsSecretShape(s[i:j]) {
			b.WriteString(s[last:i])
			b.WriteString(Redacted)
			last = j
		}
		i = j
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func awsChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '/' || c == '+'
}

func awsSecretShape(w string) bool {
	var up, low, digit, hexOnly = false, false, false, true
	for k := 0; k < len(w); k++ {
		c := w[k]
		switch {
		case c >= 'A' && c <= 'Z':
			up = true
		case c >= 'a' && c <= 'z':
			low = true
		case c >= '0' && c <= '9':
			digit = true
		}
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			hexOnly = false
		}
	}
	if hexOnly || !up || !low || !digit {
		return false
	}
	if strings.Contains(w, "/") {
		if strings.HasPrefix(w, "/") || strings.HasSuffix(w, "/") || strings.Contains(w, "//") {
			return false
		}
		for _, seg := range strings.Split(w, "/") {
			if len(seg) >= 3 && isWord(seg) {
				return false // a path of names, not random text
			}
		}
	}
	return true
}

// isWord: all lower case, or one capital then lower case (Documents).
func isWord(s string) bool {
	for k := 0; k < len(s); k++ {
		c := s[k]
		if !(c >= 'a' && c <= 'z' || k == 0 && c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// hintStarts indexes every redaction's hints by their first byte (bit i
// of mask is redactions[i]).
var hintStarts = sync.OnceValue(func() *[256][]hintRef {
	var t [256][]hintRef
	if len(redactions) > 64 {
		panic("audit: more than 64 redactions for hintsIn's mask")
	}
	for i, r := range redactions {
		for _, h := range r.hints {
			t[h[0]] = append(t[h[0]], hintRef{h, 1 << i})
		}
	}
	return &t
})

type hintRef struct {
	hint string
	mask uint64
}

// hintsIn returns the set of redactions (bit i for redactions[i]) one of
// whose hints occurs in lower: one pass over the text instead of a
// strings.Contains per hint (about 35 of them, three texts per call).
func hintsIn(lower string) uint64 { return hintsFolded(lower, false) }

// lowerHints is hintsIn(strings.ToLower(s)) without the lower-case copy
// when s is ASCII, where ToLower only maps A-Z (TestLowerHints): the
// server redacts three texts per call.
func lowerHints(s string) uint64 {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return hintsIn(strings.ToLower(s))
		}
	}
	return hintsFolded(s, true)
}

// hintsFolded is hintsIn, reading A-Z in text as a-z when fold is set.
func hintsFolded(text string, fold bool) uint64 {
	t := hintStarts()
	byteMap := &identity
	if fold {
		byteMap = &asciiLower
	}
	var m uint64
	for i := 0; i < len(text); i++ {
		refs := t[byteMap[text[i]]]
		if len(refs) == 0 || i+1 == len(text) {
			continue
		}
		next := byteMap[text[i+1]]
		for _, h := range refs {
			// Every hint has two bytes or more (TestHintsInMatchesContains):
			// the second is compared first, which rules most out.
			if m&h.mask != 0 || next != h.hint[1] || i+len(h.hint) > len(text) {
				continue
			}
			k := 2
			for k < len(h.hint) && byteMap[text[i+k]] == h.hint[k] {
				k++
			}
			if k == len(h.hint) {
				m |= h.mask
			}
		}
	}
	return m
}

// identity and asciiLower map bytes for hintsFolded: as they are, or
// A-Z to a-z.
var identity, asciiLower = func() (id, low [256]byte) {
	for c := range 256 {
		id[c], low[c] = byte(c), byte(c)
		if 'A' <= c && c <= 'Z' {
			low[c] = byte(c + 'a' - 'A')
		}
	}
	return id, low
}()

// Digest returns the first 200 characters of input with secrets redacted.
// Redaction runs before the cut, so a secret straddling character 200
// cannot leave its first half in the log.
func Digest(input string) string {
	if len(input) > redactScanLimit {
		input = input[:redactScanLimit]
	}
	return truncateRunes(Redact(input), DigestRunes)
}

func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := range s {
		if i == n {
			return s[:k]
		}
		i++
	}
	return s
}
