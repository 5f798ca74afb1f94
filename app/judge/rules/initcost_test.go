package rules

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The rules' init (the core's and the packs') runs in every hook fallback, so it must not
// compile regular expressions: a package-level var or an init function
// that calls regexp.Compile/MustCompile fails here (lazyre.New compiles
// on first use). Function literals (sync.OnceValue) are fine.
func TestNoRegexpCompiledAtInit(t *testing.T) {
	// The core and every pack under packs/: all of them init in the fallback.
	var files []string
	err := filepath.WalkDir(".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && d.Name() == "testdata" {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".go") {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var found []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.GenDecl:
				for _, s := range d.Specs {
					vs, ok := s.(*ast.ValueSpec)
					if !ok {
						continue
					}
					for i, v := range vs.Values {
						if compilesRegexp(v) {
							id := "_"
							if i < len(vs.Names) {
								id = vs.Names[i].Name
							}
							found = append(found, name+":"+id)
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name == "init" && d.Body != nil && compilesRegexp(d.Body) {
					found = append(found, name+":init")
				}
			}
		}
	}
	sort.Strings(found)
	for _, f := range found {
		t.Errorf("%s compiles a regular expression at init, which every hook fallback pays for; use lazyre.New", f)
	}
}

// compilesRegexp reports a regexp.Compile/MustCompile call in n outside
// any function literal.
func compilesRegexp(n ast.Node) bool {
	hit := false
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "regexp" && strings.HasPrefix(sel.Sel.Name, "MustCompile") || ok && x.Name == "regexp" && sel.Sel.Name == "Compile" {
					hit = true
				}
			}
		}
		return !hit
	})
	return hit
}
