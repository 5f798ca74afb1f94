package rules

import (
	"strings"
	"testing"
)

// tokenSamples holds one text per TokenPatterns entry that the entry matches.
var tokenSamples = map[string]string{
	"an AWS access key id":     "AKIAIOSFODNN7EXAMPLE",
	"an AWS secret access key": "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
	"a GitHub token":           "ghp_" + strings.Repeat("a1B2", 9),
	"a GitLab token":           "glpat-" + strings.Repeat("x9", 10),
	"a Stripe secret key":      "sk_live_" + strings.Repeat("Ab3", 6),
	"an Anthropic API key":     "sk-ant-" + strings.Repeat("api03_", 4),
	"an OpenAI API key":        "sk-proj-" + strings.Repeat("Zy9", 8),
	"a Slack token":            "xoxb-1234567890-abcdef",
	"an npm token":             "npm_" + strings.Repeat("q7R", 12),
	"a Google API key":         "AIza" + strings.Repeat("S", 35),
	"a Hugging Face token":     "hf_" + strings.Repeat("ab", 17),
	"a private key":            "-----BEGIN RSA PRIVATE KEY-----",
	"a password in a URL":      "https://deploy:hunter22@example.com/repo.git",
}

// findTokenAll is FindToken without the tokenMarks shortcut.
func findTokenAll(s string) (string, string, bool) {
	if len(s) < 16 {
		return "", "", false
	}
	for _, p := range TokenPatterns {
		if m := p.Re.FindString(s); m != "" {
			return p.Name, m, true
		}
	}
	return "", "", false
}

// TestTokenMarksCoverEveryPattern: every token pattern has a sample it
// matches, FindToken finds it through the marks, and over the samples,
// their case variants, JSON wrappings, a Unicode fold (U+017F for s) and
// texts holding no token, FindToken answers what the plain loop answers.
func TestTokenMarksCoverEveryPattern(t *testing.T) {
	var texts []string
	for _, p := range TokenPatterns {
		s, ok := tokenSamples[p.Name]
		if !ok {
			t.Errorf("token pattern %q has no sample in tokenSamples (and perhaps no mark in tokenMarks)", p.Name)
			continue
		}
		if !p.Re.MatchString(s) {
			t.Errorf("the sample for %q does not match its pattern", p.Name)
		}
		if !mayHoldToken(s) {
			t.Errorf("mayHoldToken skips the sample for %q: add its literal to tokenMarks", p.Name)
		}
		texts = append(texts, s, strings.ToUpper(s), strings.ToLower(s), `{"body":"see `+s+` here"}`, "x "+s[:len(s)/2]+" "+s[len(s)/2:])
	}
	texts = append(texts, "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
		"aws_\u017fecret_access_key=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
		`{"title":"fix the build","body":"go test ./... passes now"}`, "git status && go vet ./...", strings.Repeat("plain text ", 40))
	for _, s := range texts {
		want, wantM, wantOK := findTokenAll(s)
		got, gotM, gotOK := FindToken(s)
		if got.Name != want || gotM != wantM || gotOK != wantOK {
			t.Errorf("FindToken(%q) = %q %q %v, the plain loop %q %q %v", s, got.Name, gotM, gotOK, want, wantM, wantOK)
		}
	}
}

func BenchmarkFindTokenNone(b *testing.B) {
	s := `{"title":"fix the build","body":"` + strings.Repeat("go test ./... passes now; ", 20) + `"}`
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		FindToken(s)
	}
}
