package ir_test

//go:generate go run ../cmd/pocketgpu compile -g testdata/lines/lines.cl -o testdata/lines/lines.spv
//go:generate go run ../cmd/pocketgpu compile -g --light testdata/lines/lines.cl -o testdata/lines/lines.light.spv
//go:generate sh -c "glslangValidator -V --target-env vulkan1.1 -g -o testdata/lines/lines.comp.spv testdata/lines/lines.comp >/dev/null"
//go:generate sh -c "glslangValidator -V --target-env vulkan1.1 -gV -o testdata/lines/lines.gV.spv testdata/lines/lines.comp >/dev/null"

import (
	"path/filepath"
	"testing"

	"github.com/pocketgpu/pocketgpu/ir"
	"github.com/pocketgpu/pocketgpu/spirv"
)

// Every instruction the builder emits carries the source line its SPIR-V
// instruction had: OpLine from clang -g (driver pipeline: the helper
// inlined by LLVM; light: inlined by the builder, its lines its own) and
// glslangValidator -g, and NonSemantic.Shader.DebugInfo.100's DebugLine
// from glslangValidator -gV, whose other debug instructions are ignored.
func TestLines(t *testing.T) {
	for _, tc := range []struct {
		file, entry, src string
		want             map[spirv.Op]int // the line of each instruction of that opcode
	}{
		{"lines/lines.spv", "lines", "lines.cl", map[spirv.Op]int{spirv.OpFMul: 3, spirv.OpFAdd: 10, spirv.OpStore: 10}},
		{"lines/lines.light.spv", "lines", "lines.cl", map[spirv.Op]int{spirv.OpFMul: 3, spirv.OpFAdd: 10, spirv.OpStore: 10}},
		{"lines/lines.comp.spv", "main", "lines.comp", map[spirv.Op]int{spirv.OpFMul: 10}},
		{"lines/lines.gV.spv", "main", "lines.comp", map[spirv.Op]int{spirv.OpFMul: 10}},
	} {
		p, err := ir.Build(decode(t, tc.file), tc.entry, ir.Options{})
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		seen := map[spirv.Op]bool{}
		withLine := 0
		for _, in := range p.Code {
			s := p.Sites[in.Site]
			if s.Line > 0 {
				withLine++
				if filepath.Base(s.File) != tc.src {
					t.Errorf("%s: %v is in %q, want %s", tc.file, s, s.File, tc.src)
				}
			}
			if line, ok := tc.want[s.Op]; ok {
				seen[s.Op] = true
				if s.Line != line {
					t.Errorf("%s: %v is on line %d, want %d", tc.file, s, s.Line, line)
				}
			}
		}
		for op := range tc.want {
			if !seen[op] {
				t.Errorf("%s: no %v", tc.file, op)
			}
		}
		if withLine == 0 {
			t.Errorf("%s: no instruction has a line", tc.file)
		}
	}
}
