package corpus

import (
	"bytes"
	"math"
	"math/big"
	"os"
	"strings"
	"testing"

	"github.com/pocketgpu/pocketgpu/internal/oclref"
	"github.com/pocketgpu/pocketgpu/kernel"
)

// TestCasesWellFormed checks what every user of the corpus relies on.
func TestCasesWellFormed(t *testing.T) {
	cs := Cases()
	if len(cs) == 0 {
		t.Fatal("no cases")
	}
	seen := map[string]bool{}
	for _, c := range cs {
		t.Run(c.Name, func(t *testing.T) {
			if seen[c.Name] {
				t.Errorf("duplicate name")
			}
			seen[c.Name] = true
			wantExt := map[string]string{"opencl": ".cl", "glsl": ".comp"}[c.Lang]
			if wantExt == "" || !strings.HasSuffix(c.SourceFile, wantExt) {
				t.Errorf("Lang %q with source %s", c.Lang, c.SourceFile)
			}
			if c.Lang == "glsl" && c.Entry != "main" {
				t.Errorf("GLSL entry %q, want main", c.Entry)
			}
			if c.Entry == "" || !bytes.Contains(c.Source, []byte(c.Entry)) {
				t.Errorf("entry %q not in the source", c.Entry)
			}
			if _, err := kernel.CheckSPIRV(c.SPIRV); err != nil {
				t.Errorf("prebuilt %s: %v (run go generate ./internal/corpus)", c.SPIRVFile(), err)
			}
			if !bytes.Contains(c.SPIRV, []byte(c.Entry+"\x00")) {
				t.Errorf("prebuilt SPIR-V does not name entry %q", c.Entry)
			}
			for _, o := range c.BuildOpts {
				if !strings.HasPrefix(o, "-D") {
					t.Errorf("build option %q is not -DNAME[=VALUE]", o)
				}
			}
			if len(c.Global) == 0 || len(c.Global) != len(c.Local) {
				t.Fatalf("global %v, local %v", c.Global, c.Local)
			}
			for d := range c.Global {
				if c.Local[d] <= 0 || c.Global[d]%c.Local[d] != 0 {
					t.Errorf("local %v does not divide global %v", c.Local, c.Global)
				}
			}
			args, in, err := c.Inputs()
			if err != nil {
				t.Fatal(err)
			}
			for i, a := range args {
				if a.Init.Kind == kernel.InitFile {
					t.Errorf("argument %d uses file:, but the corpus is embedded", i)
				}
			}
			if len(c.Outputs) == 0 {
				t.Fatal("no outputs")
			}
			want, err := c.Reference(in)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) != len(c.Outputs) {
				t.Errorf("reference gives %d outputs, case lists %d", len(want), len(c.Outputs))
			}
			for _, o := range c.Outputs {
				if o < 0 || o >= len(args) {
					t.Fatalf("output %d out of range", o)
				}
				if k := args[o].Kind; k == kernel.ScalarArg || k == kernel.LocalArg {
					t.Errorf("output %d is a %v argument", o, k)
				}
				w, ok := want[o]
				if !ok || len(w) != args[o].ByteSize() {
					t.Errorf("reference output %d: %d bytes (present %v), want %d", o, len(w), ok, args[o].ByteSize())
					continue
				}
				// A reference that leaves an output as it was checks nothing.
				if bytes.Equal(w, in[o]) {
					t.Errorf("reference output %d equals its initial contents", o)
				}
			}
		})
	}
}

// TestPrebuiltSPIRVFresh checks that the committed .spv files are what the
// sources compile to now.
func TestPrebuiltSPIRVFresh(t *testing.T) {
	for _, tool := range []string{"clang-14", "opt-14", "llvm-spirv-14", "spirv-val", "glslangValidator"} {
		if _, err := kernel.FindTool(tool); err != nil {
			t.Skipf("skipping: %v", err)
		}
	}
	for _, c := range Cases() {
		t.Run(c.Name, func(t *testing.T) {
			spv, err := kernel.Compile(c.SourceFile, CompileOptions(c))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(spv, c.SPIRV) {
				t.Errorf("%s is stale: %s compiles to %d bytes that differ; run go generate ./internal/corpus", c.SPIRVFile(), c.SourceFile, len(spv))
			}
		})
	}
}

// twins are OpenCL C translations of the GLSL cases, used only to check the
// GLSL cases' references on PoCL: file and entry.
var twins = map[string][2]string{
	"reduce_glsl":    {"testdata/twins/reduce_glsl.cl", "twin"},
	"spec_glsl":      {"testdata/twins/spec_glsl.cl", "twin"},
	"divergent_glsl": {"kernels/divergent.cl", "divergent"},
}

func needPoCL(t testing.TB) {
	t.Helper()
	if err := oclref.Available(); err != nil {
		t.Skipf("skipping: %v", err)
	}
}

func buildOpts(c Case) string {
	return strings.Join(append([]string{"-cl-std=CL1.2"}, c.BuildOpts...), " ")
}

// TestReferencesOnPoCL runs every OpenCL case (and the twin of every GLSL
// case) on PoCL and compares every output with the Go reference.
func TestReferencesOnPoCL(t *testing.T) {
	needPoCL(t)
	for _, c := range Cases() {
		t.Run(c.Name, func(t *testing.T) {
			src, entry := c.Source, c.Entry
			if c.Lang == "glsl" {
				twin, ok := twins[c.Name]
				if !ok {
					t.Fatalf("GLSL case without an OpenCL twin in the twins table")
				}
				var err error
				if src, err = os.ReadFile(twin[0]); err != nil {
					t.Fatal(err)
				}
				entry = twin[1]
			}
			args, in, err := c.Inputs()
			if err != nil {
				t.Fatal(err)
			}
			want, err := c.Reference(in)
			if err != nil {
				t.Fatal(err)
			}
			res, err := oclref.Run(src, buildOpts(c), entry, c.Global, c.Local, args, in)
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range c.Outputs {
				if err := Compare(c, o, res.Args[o], want[o]); err != nil {
					t.Error(err)
				}
			}
		})
	}
}

func TestCompare(t *testing.T) {
	f32 := func(v ...float32) []byte { return encode(v) }
	mk := func(spec string, tol float64) Case {
		return Case{Name: "t", Args: []string{spec}, Tol: tol}
	}
	tests := []struct {
		name      string
		c         Case
		got, want []byte
		err       string // "" = equal
	}{
		{"exact equal", mk("buf:f32:2", 0), f32(1, 2), f32(1, 2), ""},
		{"exact differs", mk("buf:f32:2", 0), f32(1, 2.0000002), f32(1, 2), "element 1: got 2.0000002, want 2"},
		{"relative ok", mk("buf:f32:1", 1e-6), f32(1000.0005), f32(1000), ""},
		{"relative bad", mk("buf:f32:1", 1e-6), f32(1000.01), f32(1000), "tolerance 1e-06"},
		{"absolute below 1", mk("buf:f32:1", 1e-6), f32(1e-7), f32(-5e-7), ""},
		{"nan matches nan", mk("buf:f32:1", 0), f32(float32(nan())), f32(float32(nan())), ""},
		{"nan vs number", mk("buf:f32:1", 1), f32(float32(nan())), f32(0), "got NaN, want 0"},
		{"ints exact despite tol", mk("buf:i32:2", 0.5), encode([]int32{5, -7}), encode([]int32{5, -8}), "element 1: got -7, want -8"},
		{"vector component", mk("buf:u16x2:2", 0), encode([]uint16{1, 2, 3, 9}), encode([]uint16{1, 2, 3, 4}), "element 1 component 1: got 9, want 4"},
		{"3-vector padding ignored", mk("buf:f32x3:1", 0), f32(1, 2, 3, 99), f32(1, 2, 3, 0), ""},
		{"half", mk("buf:f16:2", 0), encode([]uint16{0x3c00, 0x3c01}), encode([]uint16{0x3c00, 0x3c00}), "got 1.001, want 1"},
		{"count mismatches", mk("buf:u8:8", 0), []byte{1, 2, 3, 4, 5, 6, 7, 8}, make([]byte, 8), "8 mismatching values"},
		{"length", mk("buf:u8:8", 0), []byte{1}, []byte{1, 2}, "1 bytes, want 2"},
	}
	for _, tt := range tests {
		err := Compare(tt.c, 0, tt.got, tt.want)
		if tt.err == "" {
			if err != nil {
				t.Errorf("%s: %v", tt.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.err)
		}
	}
	if err := Compare(mk("buf:u8:1", 0), 3, nil, nil); err == nil {
		t.Errorf("argument out of range accepted")
	}
}

func nan() float64 { return math.NaN() }

func TestFMA32(t *testing.T) {
	tests := []struct{ a, b, c, want float32 }{
		{2, 3, 4, 10},
		{0.1, 10, -1, fmaViaBig(0.1, 10, -1)},
		// 1 + 2^-24 is a tie between 1 and 1+2^-23 in float32; the tiny
		// negative product decides: round down to 1.
		{1 + 0x1p-23, 0x1p-25 - 0x1p-50, 1 - 0x1p-24, fmaViaBig(1+0x1p-23, 0x1p-25-0x1p-50, 1-0x1p-24)},
	}
	for _, tt := range tests {
		if got := fma32(tt.a, tt.b, tt.c); got != tt.want {
			t.Errorf("fma32(%g, %g, %g) = %g, want %g", tt.a, tt.b, tt.c, got, tt.want)
		}
	}
	// Against exact big.Float arithmetic on many values.
	r := kernel.NewRandom(3)
	for i := 0; i < 100000; i++ {
		a := float32(int32(r.Next())) * 0x1p-20
		b := float32(int32(r.Next())) * 0x1p-30
		c := float32(int32(r.Next())) * 0x1p-25
		if got, want := fma32(a, b, c), fmaViaBig(a, b, c); got != want {
			t.Fatalf("fma32(%g, %g, %g) = %g, want %g", a, b, c, got, want)
		}
	}
}

// fmaViaBig computes a*b+c exactly with math/big and rounds once.
func fmaViaBig(a, b, c float32) float32 {
	x := new(big.Float).SetPrec(200).SetFloat64(float64(a))
	x.Mul(x, new(big.Float).SetFloat64(float64(b)))
	x.Add(x, new(big.Float).SetFloat64(float64(c)))
	f, _ := x.Float32()
	return f
}
