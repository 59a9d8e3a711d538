package kernel

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/spirv"
)

// Sources a vendor driver builds that the toolchain alone does not: each
// compiles with the driver pipeline to valid SPIR-V (spirv-val runs in the
// pipeline) that pocketgpu's decoder reads.
func TestDriverPipelineBuilds(t *testing.T) {
	needTools(t, openCLTools...)
	for _, tc := range []struct {
		name, src string
		opt       Options
	}{
		{"C99 inline function", `inline float sq(float x) { return x * x; }
__kernel void k(__global float *a) { size_t i = get_global_id(0); a[i] = sq(a[i]); }`, Options{}},
		{"switch narrowed to an odd width", `__kernel void k(__global int *a) {
	size_t i = get_global_id(0); int r;
	switch (a[i] & 7) { case 0: r = 10; break; case 1: r = 3; break; case 2: r = 7; break; case 3: r = 1; break;
	case 4: r = 99; break; case 5: r = 5; break; case 6: r = 42; break; default: r = -1; }
	a[i] = r; }`, Options{}},
		// IndVarSimplify's closed form of the sum, n(n-1)/2, works in i33.
		{"loop sum closed form", `__kernel void k(__global uint *out, uint n) {
	uint s = 0; for (uint i = 0; i < n; i++) s += i; out[get_global_id(0)] = s; }`, Options{}},
		{"vector compares", `__kernel void k(__global const float *in, __global float *out, int w, int h) {
	int x = get_global_id(0), y = get_global_id(1);
	if (x == 0 || y == 0 || x == w - 1 || y == h - 1) { out[y * w + x] = in[y * w + x]; return; }
	out[y * w + x] = 0.25f * (in[y * w + x - 1] + in[y * w + x + 1] + in[(y - 1) * w + x] + in[(y + 1) * w + x]); }`, Options{}},
		{"unrolled loop", `__kernel void k(__global float *a) { float s = 0;
	#pragma unroll
	for (int i = 0; i < 16; i++) s += a[i] * a[i + 16];
	a[get_global_id(0)] = s; }`, Options{}},
		// With cl_khr_fp64 this divides in double (Float64); without, in float.
		{"double literals without fp64", `__kernel void k(__global float *a) { size_t i = get_global_id(0); a[i] = a[i] / 3.0 + 0.1; }`, Options{NoFP64: true}},
		// -O2 leaves a freeze here, which llvm-spirv-14 cannot translate.
		{"freeze", "../bench/kernels/atomics.cl", Options{}},
		{"extra clang flags", `__kernel void k(__global float *a) { a[get_global_id(0)] = native_sqrt(a[0]) * 0.5f + 1.0f; }`,
			Options{ClangFlags: []string{"-cl-fast-relaxed-math", "-cl-mad-enable"}}},
	} {
		src := []byte(tc.src)
		if strings.HasSuffix(tc.src, ".cl") {
			var err error
			if src, err = os.ReadFile(tc.src); err != nil {
				t.Fatal(err)
			}
		}
		spv, err := CompileSource(src, "k.cl", OpenCLC, tc.opt)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		m, err := spirv.Decode(spv)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if tc.opt.NoFP64 {
			for _, c := range m.Capabilities {
				if c == spirv.CapabilityFloat64 {
					t.Errorf("%s: the module uses Float64", tc.name)
				}
			}
		}
	}
}

// The driver pipeline's cost against clang-14 alone at -O2 on the same
// kernel (the goal: at most twice):
//
//	go test ./kernel -run XXX -bench Compile
func BenchmarkCompileDriver(b *testing.B) {
	needTools(b, openCLTools...)
	for i := 0; i < b.N; i++ {
		if _, err := Compile("../examples/matmul.cl", Options{Defines: []string{"TILE=8"}}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCompileClangOnly(b *testing.B) {
	needTools(b, "clang-14")
	out := filepath.Join(b.TempDir(), "k.ll")
	for i := 0; i < b.N; i++ {
		cmd := exec.Command("clang-14", "-S", "-emit-llvm", "-target", "spir64", "-cl-std=CL1.2", "-O2", "-DTILE=8", "../examples/matmul.cl", "-o", out)
		if msg, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, msg)
		}
	}
}

// A plain `inline` helper too large to inline into its two callers is
// still defined in the module (OpenCL drivers compile with GNU inline
// semantics; C99's would leave the calls to a declaration), with either
// pipeline: CLBlast's kernels are written so.
func TestInlineFunctionsDefined(t *testing.T) {
	needTools(t, openCLTools...)
	src := []byte(`#define S(i) acc = acc * y[(i) % n] + (float)(i); if (acc > 100.0f) acc = sqrt(acc);
#define S8(i) S(i) S(i+1) S(i+2) S(i+3) S(i+4) S(i+5) S(i+6) S(i+7)
inline float body(__global float *y, int n) { float acc = 1.0f; S8(0) S8(8) S8(16) S8(24) S8(32) S8(40) return acc; }
__kernel void k(__global float *y, int n) { y[get_global_id(0)] = body(y, n); }
__kernel void k2(__global float *y, int n) { y[get_global_id(0) + 1] = body(y, n + 1); }
`)
	for _, opt := range []Options{{}, {Light: true}} {
		spv, err := CompileSource(src, "k.cl", OpenCLC, opt)
		if err != nil {
			t.Fatalf("light=%v: %v", opt.Light, err)
		}
		m, err := spirv.Decode(spv)
		if err != nil {
			t.Fatal(err)
		}
		fn, blocks := uint32(0), 0
		for _, inst := range m.Insts {
			switch inst.Op {
			case spirv.OpFunction:
				fn, blocks = inst.Result, 0
			case spirv.OpLabel:
				blocks++
			case spirv.OpFunctionEnd:
				if blocks == 0 {
					t.Errorf("light=%v: function %s is only declared", opt.Light, m.Name(fn))
				}
			}
		}
	}
}
