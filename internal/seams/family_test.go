package seams

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// familyConsts are arch's names of the built-in families.
var familyConsts = map[string]bool{"Midgard": true, "Bifrost": true, "Adreno": true, "Rogue": true}

// mayBranch reports whether a file may decide by family: the family
// packages, their registry, and arch's table of family rules.
func mayBranch(rel string) bool {
	for _, dir := range []string{"isa/bifrost/", "isa/midgard/", "isa/adreno/", "isa/rogue/", "isa/families/"} {
		if strings.HasPrefix(rel, dir) {
			return true
		}
	}
	return rel == "arch/family.go"
}

// No code outside the family packages and the registry switches on a GPU's
// family, compares it with a family, or names a family constant: a new
// family is then a preset, a package and a registry line, and a change to
// one family cannot leak into shared code. (Reading a family's parameter
// section, g.Rogue.CommonStoreBanks, is reading data and allowed; so is a
// nil test that guards such a read. Deciding by whether a family section
// is present is a family decision like the others.)
func TestNoFamilyBranches(t *testing.T) {
	root := filepath.Join("..", "..")
	checked := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "testdata" || n == ".git" || (strings.HasPrefix(n, ".") && path != root) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if mayBranch(rel) {
			return nil
		}
		checked++
		for _, f := range familyBranches(t, path, strings.HasPrefix(rel, "arch/")) {
			t.Errorf("%s: %s; decide by a parameter, or move the decision into the family's package under isa/", rel, f)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("only %d files checked; is the walk rooted at the module?", checked)
	}
}

// familyBranches lists the family decisions in one file. inArch: the file
// is in package arch, where the constants have no package qualifier.
func familyBranches(t *testing.T, path string, inArch bool) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	isFamilyField := func(e ast.Expr) bool {
		s, ok := e.(*ast.SelectorExpr)
		return ok && s.Sel.Name == "Family"
	}
	// A family named as a value: a string literal or a family constant
	// ("" is no family and allowed).
	isFamilyValue := func(e ast.Expr) bool {
		switch e := e.(type) {
		case *ast.BasicLit:
			return e.Kind == token.STRING && e.Value != `""`
		case *ast.SelectorExpr:
			x, ok := e.X.(*ast.Ident)
			return ok && x.Name == "arch" && familyConsts[e.Sel.Name]
		case *ast.Ident:
			return inArch && familyConsts[e.Name]
		}
		return false
	}
	// Field names (g.Rogue) are parameter sections, not the constants, and
	// declarations are not uses.
	fields := map[*ast.Ident]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			fields[n.Sel] = true
		case *ast.KeyValueExpr:
			if k, ok := n.Key.(*ast.Ident); ok {
				fields[k] = true
			}
		case *ast.Field:
			for _, nm := range n.Names {
				fields[nm] = true
			}
		case *ast.ValueSpec: // the constants' own declarations
			for _, nm := range n.Names {
				fields[nm] = true
			}
		}
		return true
	})
	guards := map[ast.Expr]bool{}
	claims := false
	for f := range benchClaims {
		claims = claims || strings.HasSuffix(filepath.ToSlash(path), "/"+f)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SwitchStmt:
			if n.Tag != nil && isFamilyField(n.Tag) {
				out = append(out, fset.Position(n.Pos()).String()+": switch on a family")
			}
		case *ast.BinaryExpr:
			if (n.Op == token.EQL || n.Op == token.NEQ) && (isFamilyField(n.X) && isFamilyValue(n.Y) || isFamilyField(n.Y) && isFamilyValue(n.X)) {
				out = append(out, fset.Position(n.Pos()).String()+": compares a family")
			}
			if n.Op == token.LAND {
				// g.Adreno != nil && g.Adreno.GPUID != 0 reads the section:
				// its nil test only guards the read.
				if sec := sectionNilTest(n.X); sec != "" && strings.Contains(exprString(n.Y), sec+".") {
					guards[n.X] = true
				}
			}
			if sec := sectionNilTest(n); sec != "" && !guards[n] && !claims {
				out = append(out, fset.Position(n.Pos()).String()+": decides by the presence of family section "+sec)
			}
		case *ast.IfStmt:
			// if g.Adreno != nil { ... g.Adreno.GPUID ... } reads the
			// section: the test only guards the read.
			if sec := sectionNilTest(n.Cond); sec != "" && strings.Contains(exprString(n.Body), sec+".") {
				guards[n.Cond] = true
			}
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && x.Name == "arch" && familyConsts[n.Sel.Name] {
				out = append(out, fset.Position(n.Pos()).String()+": names family arch."+n.Sel.Name)
			}
		case *ast.Ident:
			if inArch && familyConsts[n.Name] && !fields[n] {
				out = append(out, fset.Position(n.Pos()).String()+": names family "+n.Name)
			}
		}
		return true
	})
	return out
}

// benchClaims are the benchmark files that reproduce one seed's claims
// about one family (seed 000's Bifrost instruction cache, seed 003's
// Rogue common store and row order): their Applies says which GPUs the
// claims are about, by the family's section.
var benchClaims = map[string]bool{"bench/alu.go": true, "bench/rogue.go": true}

// sectionNilTest gives "g.Rogue" for an expression g.Rogue != nil (or ==
// nil) on a family's parameter section, else "".
func sectionNilTest(e ast.Expr) string {
	b, ok := e.(*ast.BinaryExpr)
	if !ok || (b.Op != token.EQL && b.Op != token.NEQ) {
		return ""
	}
	x, y := b.X, b.Y
	if id, ok := x.(*ast.Ident); ok && id.Name == "nil" {
		x, y = y, x
	}
	if id, ok := y.(*ast.Ident); !ok || id.Name != "nil" {
		return ""
	}
	if s, ok := x.(*ast.SelectorExpr); ok && familyConsts[s.Sel.Name] {
		return exprString(s)
	}
	return ""
}

// exprString writes the identifiers under e joined by dots: a selector
// chain (g.Adreno.GPUID) as its source, and a block as a string in which
// a chain's text can be looked for.
func exprString(e ast.Node) string {
	var b strings.Builder
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Ident:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(n.Name)
		}
		return true
	})
	return b.String()
}
