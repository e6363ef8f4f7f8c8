package apisurface

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Count is the exported surface of one package, by kind.
type Count struct {
	// Path is the package's directory relative to the module root ("." for the root).
	Path string
	// TopLevel counts exported top-level types, functions, variables and constants.
	TopLevel int
	// Methods counts exported methods declared on exported types (a method of an unexported
	// type is counted only when it is promoted; it is not, here: see the rule).
	Methods int
	// Fields counts exported fields of exported struct types, embedded exported types
	// included (each field name once; an anonymous struct inside a field counts its own
	// exported fields too).
	Fields int
}

// Total is every exported identifier of the package.
func (c Count) Total() int { return c.TopLevel + c.Methods + c.Fields }

// Measure walks the module rooted at root and counts the exported identifiers of every
// package outside internal/, testdata/ and examples/ that is not a main package, in its
// non-test files. It reads syntax only: no build tags are evaluated and every .go file
// that is not a _test.go file counts.
func Measure(root string) ([]Count, error) {
	var out []Count
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		base := d.Name()
		if rel != "." && (base == "internal" || base == "testdata" || base == "examples" ||
			strings.HasPrefix(base, ".") || strings.HasPrefix(base, "_")) {
			return filepath.SkipDir
		}
		c, ok, err := measureDir(path)
		if err != nil {
			return err
		}
		if ok {
			c.Path = filepath.ToSlash(rel)
			out = append(out, c)
		}
		return nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, err
}

func measureDir(dir string) (Count, bool, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return Count{}, false, err
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() || !strings.HasSuffix(n, ".go") || strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, n), nil, parser.SkipObjectResolution)
		if err != nil {
			return Count{}, false, err
		}
		if f.Name.Name == "main" {
			return Count{}, false, nil
		}
		files = append(files, f)
	}
	if len(files) == 0 {
		return Count{}, false, nil
	}
	var c Count
	for _, f := range files {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				if d.Recv == nil {
					c.TopLevel++
				} else if ast.IsExported(recvType(d.Recv.List[0].Type)) {
					c.Methods++
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if !s.Name.IsExported() {
							continue
						}
						c.TopLevel++
						c.Fields += fields(s.Type)
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								c.TopLevel++
							}
						}
					}
				}
			}
		}
	}
	return c, true, nil
}

// recvType is the name of a method's receiver type (T, *T, T[P]).
func recvType(e ast.Expr) string {
	for {
		switch t := e.(type) {
		case *ast.StarExpr:
			e = t.X
		case *ast.IndexExpr:
			e = t.X
		case *ast.IndexListExpr:
			e = t.X
		case *ast.Ident:
			return t.Name
		default:
			return ""
		}
	}
}

// fields counts the exported fields of a struct type, and of the struct types written
// inline in its fields (anonymous structs, pointers, slices and maps of them): what a user
// can name through the type.
func fields(e ast.Expr) int {
	n := 0
	ast.Inspect(e, func(x ast.Node) bool {
		st, ok := x.(*ast.StructType)
		if !ok {
			return true
		}
		for _, f := range st.Fields.List {
			if len(f.Names) == 0 { // embedded: T, *T, pkg.T
				if ast.IsExported(embeddedName(f.Type)) {
					n++
				}
				continue
			}
			for _, name := range f.Names {
				if name.IsExported() {
					n++
				}
			}
		}
		return true
	})
	return n
}

func embeddedName(e ast.Expr) string {
	switch t := e.(type) {
	case *ast.StarExpr:
		return embeddedName(t.X)
	case *ast.SelectorExpr:
		return t.Sel.Name
	case *ast.Ident:
		return t.Name
	case *ast.IndexExpr:
		return embeddedName(t.X)
	}
	return ""
}
