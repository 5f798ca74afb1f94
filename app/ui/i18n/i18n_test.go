//go:build !nogui

package i18n

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// Every text the windows pass to T is in both translation files, the
// files parse and hold the same keys, and each Chinese entry keeps the
// English entry's {{.Name}} placeholders. A key missing from the Chinese
// file would show English to the person the product is built for.
func TestTranslationsCoverEveryText(t *testing.T) {
	files := map[string]map[string]string{}
	for _, name := range []string{"ui.en.json", "ui.zh_Hans.json"} {
		b, err := translations.ReadFile("translations/" + name)
		if err != nil {
			t.Fatal(err)
		}
		m := map[string]string{}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		files[name] = m
	}
	used := textsPassedToT(t, "..")
	if len(used) < 20 {
		t.Fatalf("found only %d texts passed to T; the scan is broken", len(used))
	}
	for _, key := range used {
		for name, m := range files {
			if _, ok := m[key]; !ok {
				t.Errorf("%s has no entry for %q", name, key)
			}
		}
	}
	en, zh := files["ui.en.json"], files["ui.zh_Hans.json"]
	for k := range en {
		if _, ok := zh[k]; !ok {
			t.Errorf("ui.zh_Hans.json lacks %q", k)
		}
	}
	for k, v := range zh {
		if _, ok := en[k]; !ok {
			t.Errorf("ui.en.json lacks %q", k)
		}
		if placeholders(v) != placeholders(k) {
			t.Errorf("%q -> %q: placeholders differ", k, v)
		}
	}
}

// textsPassedToT finds the string literals given as T's first argument
// in the Go files under root (the ui packages).
func textsPassedToT(t *testing.T, root string) []string {
	t.Helper()
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, src, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok || len(call.Args) == 0 {
				return true
			}
			id, ok := call.Fun.(*ast.Ident)
			if !ok || id.Name != "T" {
				return true
			}
			if lit, ok := call.Args[0].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				if s, err := strconv.Unquote(lit.Value); err == nil {
					seen[s] = true
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for s := range seen {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

func placeholders(s string) string {
	var ps []string
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			break
		}
		j := strings.Index(s[i:], "}}")
		if j < 0 {
			break
		}
		ps = append(ps, s[i:i+j+2])
		s = s[i+j+2:]
	}
	sort.Strings(ps)
	return strings.Join(ps, ",")
}
