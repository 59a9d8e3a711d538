package kernel

//go:generate sh -c "clang-14 -c -emit-llvm -target spir64 -cl-std=CL1.2 -O2 -gline-tables-only -fno-vectorize -fno-slp-vectorize -fno-jump-tables -fdebug-compilation-dir=. testdata/debuginfo.cl -o testdata/debuginfo.bc && llvm-spirv-14 testdata/debuginfo.bc -o testdata/debuginfo.spv && rm testdata/debuginfo.bc"

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/spirv"
)

// lineCover returns the share of a module's function instructions (those
// that compute: not labels, OpLine, phis, merges, variables) that follow an
// OpLine with a line number, the files OpLine names, and the highest line.
func lineCover(t *testing.T, spv []byte) (share float64, files map[string]bool, maxLine int) {
	t.Helper()
	m, err := spirv.Decode(spv)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range m.ExtInstImports {
		if name == debugInfoSet {
			t.Errorf("the module still imports %s", debugInfoSet)
		}
	}
	files = map[string]bool{}
	inFunc, line := false, 0
	var with, all int
	for i := range m.Insts {
		in := &m.Insts[i]
		switch in.Op {
		case spirv.OpFunction:
			inFunc = true
			continue
		case spirv.OpFunctionEnd:
			inFunc = false
			continue
		case spirv.OpLine:
			line = int(in.Operands[1])
			if def := m.Def(in.Operands[0]); def != nil {
				f, _, _ := spirv.LiteralString(def.Operands)
				files[filepath.Base(f)] = true
			}
			maxLine = max(maxLine, line)
			continue
		case spirv.OpNoLine, spirv.OpLabel:
			line = 0
			continue
		case spirv.OpFunctionParameter, spirv.OpPhi, spirv.OpLoopMerge, spirv.OpSelectionMerge, spirv.OpVariable, spirv.OpExtInst:
			if in.Op != spirv.OpExtInst || m.ExtInstImports[in.Operands[0]] == "OpenCL.std" {
				if in.Op != spirv.OpExtInst {
					continue
				}
			} else {
				continue
			}
		}
		if !inFunc {
			continue
		}
		all++
		if line > 0 {
			with++
		}
	}
	if all == 0 {
		t.Fatal("no function instructions")
	}
	return float64(with) / float64(all), files, maxLine
}

// Every route of the toolchain keeps line information with Debug: the
// module has OpLine naming the source, passes spirv-val (which the
// pipeline runs) and has no OpenCL.DebugInfo.100 left. Without Debug there
// is no OpLine.
func TestDebugLineInfo(t *testing.T) {
	needTools(t, openCLTools...)
	dir := t.TempDir()
	src := filepath.Join(dir, "hot.cl")
	text := `float sq(float x) {
	return x * x;
}
__kernel void k(__global const float *in, __global float *out, int stride) {
	int i = get_global_id(0);
	float a = in[(i * stride) & 4095];
	float s = 0;
	for (int j = 0; j < 8; j++)
		s += sq(a + j);
	out[i] = s;
}
`
	if err := os.WriteFile(src, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	atomics, err := filepath.Abs("../bench/kernels/atomics.cl")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path string
		opt        Options
		min        float64 // share of instructions with a line, at least
	}{
		{"driver", src, Options{Debug: true}, 0.9},
		{"light", src, Options{Debug: true, Light: true}, 0.9},
		// -O2 leaves a freeze in atomics.cl: the repair route, whose
		// textual IR carries !dbg on the freeze.
		{"repair route", atomics, Options{Debug: true}, 0.8},
	} {
		spv, err := Compile(tc.path, tc.opt)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		share, files, maxLine := lineCover(t, spv)
		base := filepath.Base(tc.path)
		if !files[base] {
			t.Errorf("%s: OpLine names %v, not %s", tc.name, files, base)
		}
		if share < tc.min {
			t.Errorf("%s: %.0f%% of the instructions have a line, want at least %.0f%%", tc.name, 100*share, 100*tc.min)
		}
		t.Logf("%s: %.0f%% of the instructions have a line (highest %d)", tc.name, 100*share, maxLine)
		plain, err := Compile(tc.path, Options{Light: tc.opt.Light})
		if err != nil {
			t.Fatal(err)
		}
		if _, files, _ := lineCover(t, plain); len(files) > 0 {
			t.Errorf("%s: without Debug the module has OpLine for %v", tc.name, files)
		}
		// The code is the same: the instructions but the debug ones, in
		// order; on the repair route -g leaves a few blocks that only
		// branch (which lower to nothing), so those are left out.
		if a, b := codeOps(t, spv), codeOps(t, plain); a != b {
			t.Errorf("%s: the code differs with line information:\n%s\nwithout:\n%s", tc.name, a, b)
		}
	}
	// An in-memory source is named as its caller names it.
	mem, err := CompileSource([]byte(text), "some/dir/hot.cl", OpenCLC, Options{Debug: true})
	if err != nil {
		t.Fatal(err)
	}
	if m, err := spirv.Decode(mem); err != nil {
		t.Fatal(err)
	} else {
		var names []string
		for _, in := range m.Insts {
			if in.Op == spirv.OpString {
				s, _, _ := spirv.LiteralString(in.Operands)
				names = append(names, s)
			}
		}
		if len(names) == 0 || filepath.Clean(names[0]) != "some/dir/hot.cl" {
			t.Errorf("an in-memory source's strings are %q, want some/dir/hot.cl first", names)
		}
	}
	// The inlined helper keeps its own line: the multiply is on line 2.
	spv, err := Compile(src, Options{Debug: true})
	if err != nil {
		t.Fatal(err)
	}
	m, err := spirv.Decode(spv)
	if err != nil {
		t.Fatal(err)
	}
	line, found := 0, false
	for _, in := range m.Insts {
		if in.Op == spirv.OpLine {
			line = int(in.Operands[1])
		}
		if in.Op == spirv.OpFMul && line == 2 {
			found = true
		}
	}
	if !found {
		t.Errorf("no OpFMul on line 2 (the inlined sq)")
	}
}

// codeOps lists a module's opcodes without the debug instructions (lines,
// strings, sources, names, module-processed notes).
func codeOps(t *testing.T, spv []byte) string {
	t.Helper()
	m, err := spirv.Decode(spv)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, in := range m.Insts {
		switch in.Op {
		case spirv.OpLine, spirv.OpNoLine, spirv.OpString, spirv.OpSource, spirv.OpSourceContinued, spirv.OpSourceExtension,
			spirv.OpName, spirv.OpMemberName, spirv.OpModuleProcessed:
			continue
		}
		b.WriteString(in.Op.String())
		b.WriteByte(' ')
	}
	return strings.ReplaceAll(b.String(), "OpLabel OpBranch OpLabel ", "OpLabel ")
}

func TestDebugLineInfoGLSL(t *testing.T) {
	needTools(t, "glslangValidator", "spirv-val")
	spv, err := Compile("../examples/scale.comp", Options{Debug: true, Validate: true})
	if err != nil {
		t.Fatal(err)
	}
	_, files, maxLine := lineCover(t, spv)
	if !files["scale.comp"] || maxLine != 13 {
		t.Errorf("OpLine names %v up to line %d, want scale.comp up to 13", files, maxLine)
	}
}

// stripDebugInfo on llvm-spirv-14's own output for -gline-tables-only
// (testdata/debuginfo.spv, kept as the translator wrote it): the import and
// its instructions go, everything else stays.
func TestStripDebugInfo(t *testing.T) {
	raw, err := os.ReadFile("testdata/debuginfo.spv")
	if err != nil {
		t.Fatal(err)
	}
	out, err := stripDebugInfo(raw)
	if err != nil {
		t.Fatal(err)
	}
	before, err := spirv.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	after, err := spirv.Decode(out)
	if err != nil {
		t.Fatal(err)
	}
	count := func(m *spirv.Module) (lines, ext, dbg int) {
		for _, in := range m.Insts {
			switch in.Op {
			case spirv.OpLine:
				lines++
			case spirv.OpExtInst:
				if strings.Contains(m.ExtInstImports[in.Operands[0]], "DebugInfo") {
					dbg++
				} else {
					ext++
				}
			}
		}
		return
	}
	l0, e0, d0 := count(before)
	l1, e1, d1 := count(after)
	if d0 == 0 || d1 != 0 || l1 != l0 || e1 != e0 || l1 == 0 {
		t.Errorf("before: %d OpLine, %d OpenCL.std, %d debug; after: %d, %d, %d", l0, e0, d0, l1, e1, d1)
	}
	if len(after.Insts) != len(before.Insts)-d0-1 {
		t.Errorf("%d instructions left of %d, want all but the %d debug ones and the import", len(after.Insts), len(before.Insts), d0)
	}
	// A module without the set is returned as it is.
	again, err := stripDebugInfo(out)
	if err != nil || string(again) != string(out) {
		t.Errorf("stripping twice changed the module (%v)", err)
	}
}
