package ir_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/spirv"
)

// modules lists every prebuilt module the tests have: this package's, the
// corpus's and the command's.
func modules(t *testing.T) []string {
	var files []string
	for _, g := range []string{"testdata/*.spv", "../internal/corpus/kernels/*.spv", "../cmd/pocketgpu/testdata/kernels/*.spv", "../bench/kernels/*.spv", "../gfx/shaders/*.spv"} {
		f, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f...)
	}
	return files
}

// Every extended call the builder records gives each operand its slot,
// component count and type tag: the executor's routines read all three
// (an internal call without tags crashed the executor).
func TestExtCallsDescribeEveryOperand(t *testing.T) {
	calls := 0
	for _, file := range modules(t) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		m, err := spirv.Decode(data)
		if err != nil {
			continue
		}
		for _, ep := range m.EntryPoints {
			p, err := ir.Build(m, ep.Name, ir.Options{})
			if err != nil {
				continue
			}
			for _, c := range p.Ext {
				calls++
				if len(c.ArgN) != len(c.Args) || len(c.ArgTags) != len(c.Args) {
					t.Errorf("%s %s: %s has %d operands, %d counts and %d tags", file, ep.Name, c.Name, len(c.Args), len(c.ArgN), len(c.ArgTags))
				}
				for k, tag := range c.ArgTags {
					if tag == "" {
						t.Errorf("%s %s: %s operand %d has no tag", file, ep.Name, c.Name, k)
					}
				}
			}
		}
	}
	if calls == 0 {
		t.Error("no extended calls built")
	}
}
