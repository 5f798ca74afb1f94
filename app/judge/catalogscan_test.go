package judge

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// ruleIDSite is one place in the judge's code where a rule id is written.
type ruleIDSite struct {
	ID     string
	Pos    string // file:line
	Reason string // the reason written beside it, names as <name>; "" when none
	// Route: the id is a route name ("ssh" of "ssh/" + f.Rule): a pack
	// that judges a command carried inside another prefixes its id.
	Route bool
}

// scanRuleIDs finds every rule-id literal in the non-test Go files under
// root: the ids the judge can return. A literal counts as a rule id when it
// lands in a rule slot:
//   - a composite literal's Rule/rule field (keyed, or by position in a
//     table whose struct type has a field named rule);
//   - an assignment to x.Rule or to a variable named rule;
//   - the argument of a function (declared, or a func literal bound to a
//     name) in the position of its parameter named rule;
//   - a return statement of a function whose result is named rule.
//
// Rule ids built from a literal route and another finding's id ("ssh/" +
// f.Rule) are recorded as the route "ssh" (Route set): the catalog
// declares routes too, and a verdict's own entry is the part after the
// last "/" (rules.BaseID). Routes named at run time (lang + "/" + f.Rule)
// are not collected.
func scanRuleIDs(root string) ([]ruleIDSite, error) {
	fset := token.NewFileSet()
	var files []*ast.File
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "testdata" {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		// The catalog files declare ids; they do not return them.
		if strings.HasPrefix(d.Name(), "catalog") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, 0)
		if err != nil {
			return err
		}
		files = append(files, f)
		return nil
	})
	if err != nil {
		return nil, err
	}
	s := &idScan{fset: fset, funcs: map[string]int{}, reasons: map[string]int{}, structs: map[string]int{}}
	for _, f := range files {
		s.collectDecls(f)
	}
	for _, f := range files {
		ast.Inspect(f, s.visit)
	}
	sort.Slice(s.out, func(i, j int) bool {
		if s.out[i].ID != s.out[j].ID {
			return s.out[i].ID < s.out[j].ID
		}
		return s.out[i].Pos < s.out[j].Pos
	})
	return s.out, nil
}

type idScan struct {
	fset    *token.FileSet
	funcs   map[string]int // function name -> index of its parameter named rule
	reasons map[string]int // function name -> index of its parameter named reason
	structs map[string]int // struct type name -> index of its field named rule
	out     []ruleIDSite
}

func isRuleName(n string) bool   { return n == "rule" || n == "Rule" }
func isReasonName(n string) bool { return n == "reason" || n == "Reason" }

// render writes a string expression with its non-literal parts as <name>.
func render(e ast.Expr) string {
	var b strings.Builder
	var walk func(e ast.Expr)
	walk = func(e ast.Expr) {
		e = ast.Unparen(e)
		if be, ok := e.(*ast.BinaryExpr); ok && be.Op == token.ADD {
			walk(be.X)
			walk(be.Y)
			return
		}
		if bl, ok := e.(*ast.BasicLit); ok && bl.Kind == token.STRING {
			v, _ := strconv.Unquote(bl.Value)
			b.WriteString(v)
			return
		}
		b.WriteString("<" + exprName(e) + ">")
	}
	walk(e)
	return b.String()
}

// addWith records a rule expression and the reason expression beside it.
func (s *idScan) addWith(rule, reason ast.Expr) {
	n := len(s.out)
	s.add(rule)
	if reason != nil && len(s.out) > n {
		s.out[len(s.out)-1].Reason = render(reason)
	}
}

// ruleParam returns the index of the parameter named rule, or -1.
func ruleParam(ft *ast.FuncType) int { return paramNamed(ft, isRuleName) }

func paramNamed(ft *ast.FuncType, is func(string) bool) int { return fieldNamed(ft.Params, is) }

// ruleField returns the index of the struct's field named rule, or -1.
func ruleField(st *ast.StructType) int { return fieldNamed(st.Fields, isRuleName) }

// fieldNamed is the position of the first name is accepts in a parameter
// or field list (unnamed entries count one each), or -1.
func fieldNamed(fl *ast.FieldList, is func(string) bool) int {
	i := 0
	for _, fld := range fl.List {
		if len(fld.Names) == 0 {
			i++
			continue
		}
		for _, n := range fld.Names {
			if is(n.Name) {
				return i
			}
			i++
		}
	}
	return -1
}

func (s *idScan) collectDecls(f *ast.File) {
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if i := ruleParam(n.Type); i >= 0 {
				s.funcs[n.Name.Name] = i
				s.reasons[n.Name.Name] = paramNamed(n.Type, isReasonName)
			}
		case *ast.TypeSpec:
			if st, ok := n.Type.(*ast.StructType); ok {
				if i := ruleField(st); i >= 0 {
					s.structs[n.Name.Name] = i
				}
			}
		case *ast.AssignStmt:
			for i, r := range n.Rhs {
				if fl, ok := r.(*ast.FuncLit); ok && i < len(n.Lhs) {
					if id, ok := n.Lhs[i].(*ast.Ident); ok {
						if k := ruleParam(fl.Type); k >= 0 {
							s.funcs[id.Name] = k
							s.reasons[id.Name] = paramNamed(fl.Type, isReasonName)
						}
					}
				}
			}
		case *ast.ValueSpec:
			for i, v := range n.Values {
				if fl, ok := v.(*ast.FuncLit); ok && i < len(n.Names) {
					if k := ruleParam(fl.Type); k >= 0 {
						s.funcs[n.Names[i].Name] = k
						s.reasons[n.Names[i].Name] = paramNamed(fl.Type, isReasonName)
					}
				}
			}
		}
		return true
	})
}

func (s *idScan) add(e ast.Expr) {
	e = ast.Unparen(e)
	if be, ok := e.(*ast.BinaryExpr); ok && be.Op == token.ADD {
		s.family(be)
		return
	}
	bl, ok := e.(*ast.BasicLit)
	if !ok || bl.Kind != token.STRING {
		return
	}
	v, err := strconv.Unquote(bl.Value)
	if err != nil || v == "" {
		return
	}
	p := s.fset.Position(bl.Pos())
	s.out = append(s.out, ruleIDSite{ID: v, Pos: filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line)})
}

// structRuleIndex returns the rule field index of a composite literal's
// element type, when the type is a struct with a rule field.
func (s *idScan) structRuleIndex(t ast.Expr) int {
	switch t := t.(type) {
	case *ast.Ident:
		if i, ok := s.structs[t.Name]; ok {
			return i
		}
	case *ast.SelectorExpr:
		if i, ok := s.structs[t.Sel.Name]; ok {
			return i
		}
	case *ast.StructType:
		return ruleField(t)
	case *ast.StarExpr:
		return s.structRuleIndex(t.X)
	}
	return -1
}

// elemType returns the element type of an array, slice or map type.
func elemType(t ast.Expr) ast.Expr {
	switch t := t.(type) {
	case *ast.ArrayType:
		return t.Elt
	case *ast.MapType:
		return t.Value
	}
	return nil
}

// structLit records the rule field of one struct literal.
func (s *idScan) structLit(cl *ast.CompositeLit, idx int) {
	for i, el := range cl.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			if k, ok := kv.Key.(*ast.Ident); ok && isRuleName(k.Name) {
				s.add(kv.Value)
			}
			continue
		}
		if i == idx {
			s.add(el)
		}
	}
}

func (s *idScan) visit(n ast.Node) bool {
	switch n := n.(type) {
	case *ast.CompositeLit:
		if idx := s.structRuleIndex(n.Type); idx >= 0 {
			s.structLit(n, idx)
			return true
		}
		// Keyed Rule fields of any struct (Finding, Verdict).
		var rule, reason ast.Expr
		for _, el := range n.Elts {
			if kv, ok := el.(*ast.KeyValueExpr); ok {
				if k, ok := kv.Key.(*ast.Ident); ok && isRuleName(k.Name) {
					rule = kv.Value
				}
				if k, ok := kv.Key.(*ast.Ident); ok && isReasonName(k.Name) {
					reason = kv.Value
				}
			}
		}
		if rule != nil {
			s.addWith(rule, reason)
		}
		// Tables: elements of a struct type with a rule field.
		if et := elemType(n.Type); et != nil {
			if idx := s.structRuleIndex(et); idx >= 0 {
				for _, el := range n.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						el = kv.Value
					}
					if cl, ok := el.(*ast.CompositeLit); ok && cl.Type == nil {
						s.structLit(cl, idx)
					}
				}
			}
		}
	case *ast.AssignStmt:
		for i, l := range n.Lhs {
			if i >= len(n.Rhs) {
				break
			}
			switch l := l.(type) {
			case *ast.SelectorExpr:
				if isRuleName(l.Sel.Name) {
					s.add(n.Rhs[i])
				}
			case *ast.Ident:
				if isRuleName(l.Name) {
					s.add(n.Rhs[i])
				}
			}
		}
	case *ast.ValueSpec:
		for i, nm := range n.Names {
			if isRuleName(nm.Name) && i < len(n.Values) {
				s.add(n.Values[i])
			}
		}
	case *ast.CallExpr:
		name := ""
		switch f := n.Fun.(type) {
		case *ast.Ident:
			name = f.Name
		case *ast.SelectorExpr:
			name = f.Sel.Name
		}
		if i, ok := s.funcs[name]; ok && i < len(n.Args) {
			var reason ast.Expr
			if k := s.reasons[name]; k >= 0 && k < len(n.Args) {
				reason = n.Args[k]
			}
			s.addWith(n.Args[i], reason)
		}
	case *ast.FuncDecl:
		if n.Type.Results == nil || n.Body == nil {
			return true
		}
		idx := ruleField(&ast.StructType{Fields: n.Type.Results})
		if idx < 0 {
			return true
		}
		ast.Inspect(n.Body, func(m ast.Node) bool {
			if _, ok := m.(*ast.FuncLit); ok {
				return false
			}
			if r, ok := m.(*ast.ReturnStmt); ok && len(r.Results) > idx {
				s.add(r.Results[idx])
			}
			return true
		})
	}
	return true
}

// family records an id built from literals and names ("aws." + svc + "."
// + op) as a pattern with each name in angle brackets: "aws.<svc>.<op>".
// A sum with a "/" literal only routes another finding's id ("ssh/" +
// f.Rule) and is left out: the catalog id is the routed one.
func (s *idScan) family(be *ast.BinaryExpr) {
	var parts []ast.Expr
	var flat func(e ast.Expr)
	flat = func(e ast.Expr) {
		e = ast.Unparen(e)
		if b, ok := e.(*ast.BinaryExpr); ok && b.Op == token.ADD {
			flat(b.X)
			flat(b.Y)
			return
		}
		parts = append(parts, e)
	}
	flat(be)
	if bl, ok := parts[0].(*ast.BasicLit); ok && bl.Kind == token.STRING {
		if v, err := strconv.Unquote(bl.Value); err == nil && strings.HasSuffix(v, "/") && len(v) > 1 && !strings.Contains(v[:len(v)-1], "/") {
			p := s.fset.Position(bl.Pos())
			s.out = append(s.out, ruleIDSite{ID: v[:len(v)-1], Pos: filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line), Route: true})
			return
		}
	}
	var id strings.Builder
	for _, p := range parts {
		if bl, ok := p.(*ast.BasicLit); ok && bl.Kind == token.STRING {
			v, err := strconv.Unquote(bl.Value)
			if err != nil || strings.Contains(v, "/") {
				return
			}
			id.WriteString(v)
			continue
		}
		id.WriteString("<" + exprName(p) + ">")
	}
	p := s.fset.Position(be.Pos())
	s.out = append(s.out, ruleIDSite{ID: id.String(), Pos: filepath.Base(p.Filename) + ":" + strconv.Itoa(p.Line)})
}

// exprName names the variable part of a built id: the identifier, or the
// field of a selector (c.Name: "name").
func exprName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return strings.ToLower(e.Name)
	case *ast.SelectorExpr:
		return strings.ToLower(e.Sel.Name)
	case *ast.CallExpr:
		return exprName(e.Fun)
	case *ast.IndexExpr:
		return exprName(e.X)
	}
	return "x"
}
