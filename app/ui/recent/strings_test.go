//go:build !nogui

package recent

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agent-guard/agent-guard/app/audit"
	"github.com/agent-guard/agent-guard/app/ui/i18n"
)

// tableStrings are the values of the string constants in strings.go: the
// one table of what this window says.
func tableStrings(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "strings.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			for _, v := range s.(*ast.ValueSpec).Values {
				if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
					str, _ := strconv.Unquote(lit.Value)
					out = append(out, str)
				}
			}
		}
	}
	if len(out) < 40 {
		t.Fatalf("only %d strings found in strings.go", len(out))
	}
	return out
}

var placeholder = regexp.MustCompile(`\{\{\.\w+\}\}`)

// Every file translates every string of the table, no more, and keeps its
// placeholders; English is the key itself.
func TestTranslationsComplete(t *testing.T) {
	want := tableStrings(t)
	for _, name := range []string{"recent.en.json", "recent.zh_Hans.json"} {
		data, err := i18n.File(name)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]string
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, s := range want {
			tr, ok := m[s]
			switch {
			case !ok || tr == "":
				t.Errorf("%s lacks %q", name, s)
			case !slices.Equal(sorted(placeholder.FindAllString(s, -1)), sorted(placeholder.FindAllString(tr, -1))):
				t.Errorf("%s: %q -> %q changes the placeholders", name, s, tr)
			case strings.HasPrefix(name, "recent.en.") && tr != s:
				t.Errorf("%s: %q -> %q", name, s, tr)
			}
		}
		for k := range m {
			if !slices.Contains(want, k) {
				t.Errorf("%s has %q, which strings.go no longer has", name, k)
			}
		}
	}
}

func sorted(s []string) []string { slices.Sort(s); return s }

// Under a Chinese locale the window speaks Chinese (a child process: Fyne
// reads the locale once, at start).
func TestChineseLocale(t *testing.T) {
	if os.Getenv("RECENT_ZH_CHILD") == "1" {
		e := audit.Entry{TS: time.Now(), Host: "zcode", Tool: "Bash", Input: "git commit -m 修复", Level: "confirm", Decision: "allow", Decider: "user", Approval: "always"}
		r := Cells(e, time.Now())
		if T(sTitle) != "agent-guard — 最近的决定" || r[ColLevel] != "需要确认" || r[ColDecision] != "始终允许" || r[ColDecider] != "你" {
			t.Fatalf("not Chinese: %q %q", T(sTitle), r)
		}
		if d := DetailText(e); !strings.Contains(d, "命令 / 输入: git commit -m 修复") {
			t.Fatalf("detail:\n%s", d)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestChineseLocale$", "-test.count=1")
	cmd.Env = append(os.Environ(), "RECENT_ZH_CHILD=1", "LANG=zh_CN.UTF-8", "LC_ALL=", "LC_MESSAGES=", "LANGUAGE=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("zh_CN child: %v\n%s", err, out)
	}
}
