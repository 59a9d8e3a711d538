package seams

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/pocketgpu/pocketgpu/"

// TestArchitectureImports holds docs/architecture.md's table of what each
// package imports from the project to the packages' real imports (their
// non-test files): a new import that crosses a seam must be written down
// there, or it is a mistake. Text in parentheses is commentary (what for,
// what its tests import) and is not read.
func TestArchitectureImports(t *testing.T) {
	root := filepath.Join("..", "..")
	doc, err := os.ReadFile(filepath.Join(root, "docs", "architecture.md"))
	if err != nil {
		t.Fatal(err)
	}
	table := importTable(t, string(doc))
	if len(table) < 15 {
		t.Fatalf("read %d rows from docs/architecture.md's import table; has its shape changed?", len(table))
	}
	for _, pkg := range projectPackages(t, root) {
		if _, ok := table[pkg]; !ok {
			t.Errorf("package %s is not in docs/architecture.md's import table", pkg)
		}
	}
	for pkg, want := range table {
		got := projectImports(t, filepath.Join(root, filepath.FromSlash(pkg)))
		if !slices.Equal(got, want) {
			t.Errorf("%s imports %v; docs/architecture.md says %v", pkg, got, want)
		}
	}
}

var (
	backticked = regexp.MustCompile("`([a-z][a-z0-9/]*)`")
	parens     = regexp.MustCompile(`\([^()]*\)`)
)

// importTable reads the "| package | imports |" table: each listed
// package with the sorted project packages it imports.
func importTable(t *testing.T, doc string) map[string][]string {
	t.Helper()
	start := strings.Index(doc, "| package | imports |")
	if start < 0 {
		t.Fatal("docs/architecture.md has no \"| package | imports |\" table")
	}
	out := map[string][]string{}
	for _, line := range strings.Split(doc[start:], "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) != 2 {
			t.Fatalf("import table row %q: want two cells", line)
		}
		imports := parens.ReplaceAllString(cells[1], "")
		var want []string
		for _, m := range backticked.FindAllStringSubmatch(imports, -1) {
			want = append(want, m[1])
		}
		if strings.Contains(imports, "and its subpackages") {
			want = append(want, "gfx/gltf", "gfx/layout", "gfx/scene", "gfx/shaders")
		}
		if strings.Contains(imports, "the four family packages") {
			want = append(want, "isa/adreno", "isa/bifrost", "isa/midgard", "isa/rogue")
		}
		slices.Sort(want)
		want = slices.Compact(want)
		for _, m := range backticked.FindAllStringSubmatch(cells[0], -1) {
			out[m[1]] = want
		}
	}
	return out
}

// projectImports lists, sorted, the project packages the non-test Go
// files in dir import.
func projectImports(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("%s: no Go files (%v)", dir, err)
	}
	var out []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		af, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range af.Imports {
			p := strings.Trim(im.Path.Value, `"`)
			if rest, ok := strings.CutPrefix(p, module); ok {
				out = append(out, rest)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// projectPackages lists the module's packages outside internal/ and
// testdata directories: every directory holding a non-test Go file.
func projectPackages(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "internal" || n == "testdata" || n == "examples" || (strings.HasPrefix(n, ".") && path != root) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			rel, _ := filepath.Rel(root, filepath.Dir(path))
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return slices.Compact(out)
}
