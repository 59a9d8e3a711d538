package device

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// internals are the packages device stands in front of: its callers speak
// device's types, not these.
var internals = []string{"emu", "ir", "spirv", "isa", "timing", "timing/mem"}

// TestCallersImportDeviceOnly keeps the host API the only way into the
// simulator for its callers: bench and the OpenCL platform import none of
// the internals (tests included), and the CLI only isa, for analyze's
// report and a test's own family. Every .go file is read, whatever its build constraints.
func TestCallersImportDeviceOnly(t *testing.T) {
	const module = "github.com/pocketgpu/pocketgpu/"
	rules := []struct {
		dir     string
		allowed map[string][]string // internal package -> files that may import it
	}{
		{dir: "bench"},
		{dir: "opencl"},
		{dir: "opencl/icd"},
		// recipe_test.go plugs a family of its own into the registry, as a
		// family package would.
		{dir: "cmd/pocketgpu", allowed: map[string][]string{"isa": {"analyze.go", "recipe_test.go"}}},
	}
	for _, r := range rules {
		files, err := filepath.Glob(filepath.Join("..", filepath.FromSlash(r.dir), "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		if len(files) == 0 {
			t.Errorf("%s: no Go files", r.dir)
			continue
		}
		for _, path := range files {
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				p, err := strconv.Unquote(imp.Path.Value)
				if err != nil {
					t.Fatal(err)
				}
				pkg, ok := strings.CutPrefix(p, module)
				if !ok || !slices.Contains(internals, pkg) {
					continue
				}
				if slices.Contains(r.allowed[pkg], filepath.Base(path)) {
					continue
				}
				t.Errorf("%s/%s imports %s: use device's types and functions instead (or give device what is missing)", r.dir, filepath.Base(path), pkg)
			}
		}
	}
}
