package audit

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestRedact(t *testing.T) {
	tests := []struct {
		name, in string
		secret   string // must be gone
		keep     string // must stay (context stays readable)
	}{
		{"bearer", `curl -H "Authorization: Bearer abc.def-123" https://x`, "abc.def-123", "Authorization: Bearer [REDACTED]"},
		{"bare bearer", `token is Bearer eyJhbGciOiJIUzI1NiJ9x`, "eyJhbGciOiJIUzI1NiJ9x", "Bearer [REDACTED]"},
		{"basic auth header", `curl -H 'authorization: Basic dXNlcjpwYXNz' x`, "dXNlcjpwYXNz", "authorization: Basic [REDACTED]"},
		{"x-api-key header", `curl -H "X-Api-Key: 0123456789abcdef" x`, "0123456789abcdef", "X-Api-Key: [REDACTED]"},
		{"openai key", `export OPENAI=sk-proj-AbCdEf0123456789AbCdEf01`, "AbCdEf0123456789", "export OPENAI="},
		{"anthropic key", `echo sk-ant-api03-abcdefghijklmnopqrstuv`, "abcdefghijklmnop", "echo "},
		{"github classic", `git clone https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/o/r`, "ghp_abcdefghij", "github.com/o/r"},
		{"github token alone", `gh auth login --with-token ghp_abcdefghijklmnopqrstuvwxyz0123456789`, "ghp_abc", "gh auth login"},
		{"github fine grained", `GH=github_pat_11ABCDEFG0123456789_abcdefghijklmnop`, "11ABCDEFG", "GH="},
		{"aws key id", `aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE`, "AKIAIOSFODNN7EXAMPLE", "aws configure set"},
		{"aws secret env", `AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY aws s3 ls`, "wJalrXUtnFEMI", "aws s3 ls"},
		{"slack", `curl -d token=xoxb-1234567890-abcdefghij https://slack.com`, "xoxb-1234567890", "https://slack.com"},
		{"slack bare", `SLACK xoxp-1234567890-abcdefghij`, "xoxp-1234567890", "SLACK"},
		{"password=", `./deploy password=hunter2 --yes`, "hunter2", "password=[REDACTED] --yes"},
		{"token=", `curl "https://x/api?token=abc123&page=2"`, "abc123", "page=2"},
		{"secret=", `run secret=s3cr3t`, "s3cr3t", "secret=[REDACTED]"},
		{"quoted password", `PGPASSWORD="my pass" psql`, "my pass", "psql"},
		{"json password", `{"user":"bob","password": "hunter2"}`, "hunter2", `"user":"bob"`},
		{"typesafe env", `TYPESAFE_API_KEY=ts_live_0123456789 agent-guard check`, "ts_live_0123456789", "TYPESAFE_API_KEY=[REDACTED] agent-guard check"},
		{"db password env", `DB_PASSWORD=pa55 ./migrate`, "pa55", "./migrate"},
		{"flag password", `tool --password hunter2 --user bob`, "hunter2", "--user bob"},
		{"flag token eq", `gh --token=abcdef123456 pr list`, "abcdef123456", "pr list"},
		{"url password", `git clone https://bob:hunter2@example.com/repo.git`, "hunter2", "https://bob:[REDACTED]@example.com/repo.git"},
		{"url password with at", `psql postgres://bob:p@ss@db:5432/app`, "p@ss", "@db:5432/app"},
		{"redis url no user", `redis-cli -u redis://:s3cret@localhost:6379`, "s3cret", "@localhost:6379"},
		{"mysql -p quoted", `mysql -u root -p'hunter2' app`, "hunter2", "mysql -u root -p[REDACTED] app"},
		{"mysql -p glued", `mysqldump -uroot -phunter2 app > a.sql`, "hunter2", "mysqldump -uroot -p[REDACTED]"},
		{"mysql -p split quotes", `mysql -p'hun'ter2 app`, "ter2", "mysql -p[REDACTED] app"},
		{"mariadb upper case", `MARIADB -u root -phunter2 app`, "hunter2", "MARIADB -u root -p[REDACTED] app"},
		{"mysql with a long s", `myſql -u root -phunter2 app`, "hunter2", "myſql -u root -p[REDACTED] app"},
		{"unterminated quote", `PGPASSWORD='hunter2 psql`, "hunter2", "PGPASSWORD="},
		{"jwt", `curl -b "session=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig-nat_ure" x`, "eyJzdWIiOiIxMjM0In0", "curl -b"},
		{"private key", "cat > k <<EOF\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----\nEOF", "b3BlbnNzaC1rZXk", "cat > k <<EOF"},
		{"private key unterminated", "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA", "MIIEowIBAAKCAQEA", ""},
		{"stripe", `STRIPE=sk_live_abcdefghij0123456789`, "abcdefghij0123456789", "STRIPE="},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Redact(tt.in)
			if strings.Contains(got, tt.secret) {
				t.Errorf("Redact(%q) = %q still contains %q", tt.in, got, tt.secret)
			}
			if !strings.Contains(got, Redacted) {
				t.Errorf("Redact(%q) = %q has no %s marker", tt.in, got, Redacted)
			}
			if !strings.Contains(got, tt.keep) {
				t.Errorf("Redact(%q) = %q lost the context %q", tt.in, got, tt.keep)
			}
			if again := Redact(got); again != got {
				t.Errorf("Redact is not idempotent: %q -> %q", got, again)
			}
		})
	}
}

// Ordinary commands must come through unchanged: a digest that hides
// everything is useless to the report.
func TestRedactLeavesOrdinaryCommands(t *testing.T) {
	for _, in := range []string{
		"git status",
		"mkdir -p build/out && cp -pr src dst",
		"npm install lodash",
		"go test ./... -run TestToken",
		"echo $PWD",
		"https://example.com/path?page=2",
		"task-runner build",
		"grep -r max_tokens .",
		"kubectl get secrets",
	} {
		if got := Redact(in); got != in {
			t.Errorf("Redact(%q) = %q, want it unchanged", in, got)
		}
	}
}

func TestDigest(t *testing.T) {
	long := strings.Repeat("a", 500)
	if got := Digest(long); got != strings.Repeat("a", 200) {
		t.Errorf("Digest(500 x a) has %d chars, want 200", len(got))
	}
	// Characters, not bytes: 300 three-byte runes keep 200 whole runes.
	wide := strings.Repeat("界", 300)
	got := Digest(wide)
	if n := utf8.RuneCountInString(got); n != 200 || !utf8.ValidString(got) {
		t.Errorf("Digest(300 x 界) = %d runes (valid %v), want 200 valid runes", n, utf8.ValidString(got))
	}
	// Redact before truncating: a key straddling character 200 must not
	// leave its first half behind.
	straddle := strings.Repeat("x", 190) + " sk-abcdefghijklmnopqrstuvwxyz0123"
	if d := Digest(straddle); strings.Contains(d, "sk-abc") {
		t.Errorf("Digest kept half a secret: %q", d[180:])
	}
	if got := Digest("short"); got != "short" {
		t.Errorf("Digest(short) = %q", got)
	}
	if got := Digest("bad \xff utf8"); !utf8.ValidString(got) {
		t.Errorf("Digest returned invalid UTF-8: %q", got)
	}
	// Huge inputs are bounded but still redacted at the front.
	huge := "password=hunter2 " + strings.Repeat("y", 10<<20)
	if d := Digest(huge); strings.Contains(d, "hunter2") || utf8.RuneCountInString(d) != 200 {
		t.Errorf("Digest(huge) = %q", d[:40])
	}
}

func BenchmarkDigest(b *testing.B) {
	for _, bc := range []struct{ name, in string }{
		{"ordinary", "npm install lodash && npm test -- --watch=false"},
		{"secrets", `curl -H "Authorization: Bearer abc" https://bob:pw@example.com/x?token=1 && npm test -- --watch=false ` + strings.Repeat("z", 300)},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				Digest(bc.in)
			}
		})
	}
}

// FuzzDigest: never panics, always valid UTF-8 of at most 200 characters,
// and redaction is idempotent.
func FuzzDigest(f *testing.F) {
	f.Add("curl -H 'Authorization: Bearer abc' https://u:p@h/x?token=1")
	f.Add("mysql -p'x' -u root")
	f.Add("-----BEGIN RSA PRIVATE KEY-----\nabc")
	f.Add("\xff\xfe password=")
	f.Fuzz(func(t *testing.T, in string) {
		d := Digest(in)
		if !utf8.ValidString(d) || utf8.RuneCountInString(d) > DigestRunes {
			t.Fatalf("Digest(%q) = %q", in, d)
		}
		r := Redact(in)
		if again := Redact(r); again != r {
			t.Fatalf("Redact not idempotent on %q: %q -> %q", in, r, again)
		}
	})
}

// Bare AWS secret access keys are redacted; 40-character look-alikes that
// are not secrets (git hashes, paths, base64 words) are kept.
func TestRedactAWSSecretKey(t *testing.T) {
	const key = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	for _, in := range []string{
		key,
		"aws configure set aws_secret_access_key " + key,
		"export AWS_SECRET=" + key + "; deploy",
		`{"SecretAccessKey": "` + key + `"}`,
		"echo " + key + " | aws sts",
		"creds: AKIAIOSFODNN7EXAMPLE " + key,
	} {
		if got := Redact(in); strings.Contains(got, "wJalrXUtnFEMI") || strings.Contains(got, "EXAMPLEKEY") {
			t.Errorf("Redact(%q) = %q: the secret key survived", in, got)
		}
	}
	for _, in := range []string{
		"git show 3f786850e387550fdab836ed7e6dc881de23001b",
		"git checkout 3F786850E387550FDAB836ED7E6DC881DE23001B",
		"cat Users/John2/Documents/Projects/MyApp1/src",
		"ls aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		"go test ./internal/handlers/authentication2/...",
		"echo AbCdEfGhIjKlMnOpQrStUvWxYz0123456789ABCDE", // 41 chars: not a key
		"sha256:0a1b2c3d4e5f60718293a4b5c6d7e8f901234567",
	} {
		if got := Redact(in); got != in {
			t.Errorf("Redact(%q) = %q, want it unchanged", in, got)
		}
	}
}
